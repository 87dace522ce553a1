package dev.versio.cli.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.cli.VersioCommand;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code versio test --live} against a real apiserver: the samples are the objects that exist in
 * the cluster (read page by page at the storage version) and the schema is the cluster's CRD.
 */
@KubeApiServerTest
class LiveSamplesIT {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void everyExistingObjectIsRoundTrippedAndAnUnacknowledgedLossNamesTheObjectAndField(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope, @TempDir Path dir)
      throws Exception {
    var story = examples().resolve("kitchen-sink");
    Crds.apply(client, story.resolve("crd.yaml"));
    var namespace = scope.namespace();
    var sample = Files.readString(story.resolve("samples/full.v2.yaml"));
    create(client, sample, "full", namespace);
    create(client, sample.replace("plan: enterprise", "plan: basic"), "basic", namespace);
    for (int i = 0; i < 4; i++) {
      create(client, sample, "copy-" + i, namespace);
    }

    int code =
        run(
            "test",
            "--live",
            "-c",
            // the burst limit dropped by a direction called lossless: a loss only objects show
            dev.versio.cli.KitchenSinkVariants.droppingTheBurstLimit(examples(), dir).toString(),
            "--kubeconfig",
            controlPlane.kubeconfig().toString(),
            "--page-size",
            "2",
            "--skip-identity",
            "-o",
            "json");

    assertThat(code).as("%s%s", out, err).isEqualTo(1);
    var report = new ObjectMapper().readTree(out.toString());
    assertThat(report.path("summary").path("paths").asInt()).isEqualTo(6 * 2);
    // every object loses it on its way to v3 and back; v1 keeps it
    assertThat(report.path("summary").path("fail").asInt()).isEqualTo(6);
    assertThat(report.path("summary").path("error").asInt()).isZero();
    JsonNode failed = null;
    for (var path : report.path("paths")) {
      if (path.path("result").asText().equals("fail")
          && path.path("name").asText().equals("basic")) {
        failed = path;
      }
    }
    assertThat(failed).isNotNull();
    assertThat(failed.path("namespace").asText()).isEqualTo(namespace);
    assertThat(failed.path("name").asText()).isEqualTo("basic");
    assertThat(failed.path("to").asText()).isEqualTo("v3");
    assertThat(failed.path("unacknowledgedLoss").toString()).contains("spec.burstLimit");
  }

  @Test
  void aFleetRunReportsEveryClusterAndFailsWhenOneCannotBeReached(
      KubernetesClient client, ControlPlane controlPlane, @TempDir Path dir) throws Exception {
    var story = examples().resolve("field-rename");
    Crds.apply(client, story.resolve("crd.yaml"));
    var kubeconfig = Files.readString(controlPlane.kubeconfig());
    Files.writeString(dir.resolve("good"), kubeconfig);
    Files.writeString(
        dir.resolve("down"),
        kubeconfig.replace(controlPlane.url().toString(), "https://127.0.0.1:1"));
    Files.writeString(dir.resolve("README.md"), "not a kubeconfig");

    int code =
        run(
            "test",
            "--live",
            "-c",
            story.resolve("config.yaml").toString(),
            "--kubeconfig-dir",
            dir.toString());

    assertThat(code).as("%s%s", out, err).isEqualTo(1);
    assertThat(out.toString())
        .contains("=== down ===")
        .contains("error:")
        .contains("=== good ===")
        .contains("there are no caches.example.com objects")
        .contains("FLEET: 2 cluster(s), 1 failed")
        .doesNotContain("README");
  }

  private static void create(KubernetesClient client, String yaml, String name, String namespace)
      throws Exception {
    var object = (ObjectNode) new YAMLMapper().readTree(yaml);
    var metadata = (ObjectNode) object.path("metadata");
    metadata.put("name", name).put("namespace", namespace);
    client
        .resource(Serialization.unmarshal(object.toString(), GenericKubernetesResource.class))
        .create();
  }

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static Path examples() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
      dir = dir.getParent();
    }
    return dir.resolve("examples");
  }
}
