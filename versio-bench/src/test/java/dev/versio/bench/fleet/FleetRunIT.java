package dev.versio.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.bench.regression.RegressionCheck;
import dev.versio.bench.regression.ScaleResult;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI envelope of the fleet run ({@code hack/scale.sh} runs the large ones): 20 three-version
 * CRDs covering all 30 strategies, converted by Versio's operator and two webhook-server processes,
 * 20 objects each created at v1, then listed and read at every version — with 0 errors and 0 wrong
 * values. The result file is kept under {@code target/} for the regression check. A control plane
 * of its own: the run needs its server to be the only default one.
 */
@KubeApiServerTest(dedicated = true)
class FleetRunIT {
  @Test
  void twentyCrdsOfTwentyObjectsConvertAtEveryVersionWithoutAnErrorOrAWrongValue(
      ControlPlane controlPlane, @TempDir Path workDir) throws Exception {
    var out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    var settings = FleetRun.Settings.ci();

    var outcome = FleetRun.run(controlPlane, settings, workDir, out);

    var file = Path.of("target", "fleet-result-ci.json");
    Files.writeString(file, outcome.json());
    assertThat(outcome.problems()).as("what went wrong in the fleet run").isEmpty();
    var result = ScaleResult.parse(outcome.json(), file.toString());
    assertThat(result.measurements())
        .containsOnlyKeys("create", "listV1", "listV2", "listV3", "getV1", "getV2", "getV3");
    assertThat(result.measurements().get("create").n()).isEqualTo(400);
    assertThat(result.measurements().get("getV2").n()).isEqualTo(400);
    assertThat(result.measurements().get("listV1").n()).isEqualTo(60);
    assertThat(result.measurements().values()).allSatisfy(m -> assertThat(m.errors()).isZero());
    assertThat(new RegressionCheck(1.5, 5).check(result, Optional.empty()).failures())
        .as("the regression check's absolute checks")
        .isEmpty();
    assertThat(outcome.result().path("coverage").path("strategies").asInt()).isEqualTo(30);
    assertThat(outcome.result().path("webhook").path("reviewsPerReplica"))
        .as("conversion reviews answered by each webhook-server process")
        .hasSize(2)
        .allSatisfy(n -> assertThat(n.asLong()).isPositive());
  }
}
