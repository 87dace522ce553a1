package dev.versio.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CRD YAML the tests and users without Helm install ({@code deploy/crds/}) and the chart's copy
 * ({@code charts/versio/files/crds/}) must be exactly what the generator makes from the Java types;
 * after changing a type, copy the files from {@code versio-api/target/classes/META-INF/fabric8/} to
 * both.
 */
class CrdYamlIsCurrentTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"conversionwebhookservers", "crdconversionconfigs", "xrdconversionconfigs"})
  void theCheckedInCrdMatchesTheGeneratedOne(String plural) throws IOException {
    var name = plural + ".versio.dev-v1.yml";
    var generated = Path.of("target/classes/META-INF/fabric8").resolve(name);
    var checkedIn = repositoryRoot().resolve("deploy/crds").resolve(name);
    assertThat(checkedIn).as("deploy/crds/%s exists", name).exists();
    assertThat(Files.readString(checkedIn))
        .as(
            "deploy/crds/%s is out of date: cp versio-api/target/classes/META-INF/fabric8/%s deploy/crds/",
            name, name)
        .isEqualTo(Files.readString(generated));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"conversionwebhookservers", "crdconversionconfigs", "xrdconversionconfigs"})
  void theChartInstallsTheSameCrd(String plural) throws IOException {
    var name = plural + ".versio.dev-v1.yml";
    var generated = Path.of("target/classes/META-INF/fabric8").resolve(name);
    var inChart = repositoryRoot().resolve("charts/versio/files/crds").resolve(name);
    assertThat(inChart).as("charts/versio/files/crds/%s exists", name).exists();
    assertThat(Files.readString(inChart))
        .as(
            "charts/versio/files/crds/%s is out of date: cp"
                + " versio-api/target/classes/META-INF/fabric8/%s charts/versio/files/crds/",
            name, name)
        .isEqualTo(Files.readString(generated));
  }

  static Path repositoryRoot() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("deploy"))) {
      dir = dir.getParent();
    }
    return dir == null ? Path.of("..") : dir;
  }
}
