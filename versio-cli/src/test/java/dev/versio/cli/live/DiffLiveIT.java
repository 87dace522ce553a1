package dev.versio.cli.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.cli.VersioCommand;
import dev.versio.cli.offline.OfflineCommandsTestAccess;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
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
 * {@code versio diff --live} against a real apiserver: the old config is the one applied in the
 * cluster, and the schema is the cluster's CRD.
 */
@KubeApiServerTest
class DiffLiveIT {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void aLocalConfigIsComparedWithTheAppliedOne(
      KubernetesClient client, ControlPlane controlPlane, @TempDir Path tmp) throws Exception {
    Crds.applyVersioCrds(client);
    var story = examples().resolve("field-rename");
    Crds.apply(client, story.resolve("crd.yaml"));
    client
        .resource(
            Serialization.unmarshal(
                Files.readString(story.resolve("config.yaml")), GenericKubernetesResource.class))
        .serverSideApply();
    var local = tmp.resolve("config.yaml");
    Files.writeString(local, OfflineCommandsTestAccess.lossierFieldRename());

    int code =
        run(
            "diff",
            "--live",
            local.toString(),
            "--kubeconfig",
            controlPlane.kubeconfig().toString());

    assertThat(code).as("%s%s", out, err).isEqualTo(1);
    assertThat(out.toString())
        .contains("spoke v1: changed (WORSE)")
        .contains("- FieldRename hub status.state <-> spoke status.phase");
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
