package dev.versio.cli.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code versio dev} as a user runs it: the packaged launcher (target/versio-cli.jar and
 * target/lib) in a process of its own, a read through the apiserver that the webhook server
 * converts, then SIGTERM.
 */
class DevCommandIT {
  private static final Duration UP_TIMEOUT = Duration.ofMinutes(4);

  private Process dev;
  private List<ProcessHandle> started = List.of();

  @AfterEach
  void leaveNothingRunning() {
    if (dev != null && dev.isAlive()) {
      started = dev.descendants().toList();
      dev.destroyForcibly();
    }
    started.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void devServesAConvertedReadAndSigtermStopsEverythingWithExitCodeZero() throws Exception {
    var workDir =
        Files.createDirectories(
            Path.of("target", "dev-command-it")
                .resolve(DateTimeFormatter.ofPattern("HHmmss").format(LocalDateTime.now()))
                .toAbsolutePath());
    var output = workDir.resolve("versio-dev.out");
    dev =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElseThrow(),
                "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                "target/versio-cli.jar:target/lib/*",
                "dev.versio.cli.VersioCommand",
                "dev",
                // the children's AOT cache is recorded on a first run and written as they stop,
                // which this stop's bound does not cover; the download's check runs dev with it
                "--no-aot-cache",
                "--work-dir",
                workDir.toString())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();

    await()
        .atMost(UP_TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> !dev.isAlive() || read(output).contains("Press Ctrl-C"));
    assertThat(dev.isAlive()).as("versio dev is up; its output:%n%s", read(output)).isTrue();

    var kubectl =
        read(output)
            .lines()
            .map(String::trim)
            .filter(l -> l.startsWith("kubectl --kubeconfig ") && l.contains(" get caches."))
            .toList();
    assertThat(kubectl)
        .as("one read per version of the field-rename story")
        .containsExactly(
            kubectl.getFirst().replaceAll("caches\\.v\\d\\.", "caches.v1."),
            kubectl.getFirst().replaceAll("caches\\.v\\d\\.", "caches.v2."));
    assertThat(kubectl.getFirst()).endsWith(" small -o yaml");
    assertThat(read(output))
        .as("where the start-up went, by phase and in the webhook server's own words")
        .containsPattern(
            "start-up \\d+\\.\\d s: versio dev's JVM \\d+\\.\\d s, control plane \\d+\\.\\d s,"
                + " Versio's CRDs, server and the story's CRD \\d+\\.\\d s, webhook server"
                + " \\d+\\.\\d s, operator \\d+\\.\\d s, story \\d+\\.\\d s")
        .contains("start-up of webhook server default: ready ");
    var kubeconfig = Path.of(kubectl.getFirst().split(" ")[2]);

    // the sample is stored at v2 (spec.replicas, status.state); v1 calls it spec.size, status.phase
    var config = Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
    try (var client = new KubernetesClientBuilder().withConfig(config).build()) {
      var v1 =
          client
              .genericKubernetesResources(
                  new ResourceDefinitionContext.Builder()
                      .withGroup("example.com")
                      .withVersion("v1")
                      .withKind("Cache")
                      .withPlural("caches")
                      .withNamespaced(true)
                      .build())
              .inNamespace("default")
              .withName("small")
              .get();
      assertThat(v1.getApiVersion()).isEqualTo("example.com/v1");
      assertThat(field(v1, "spec")).containsEntry("size", 3).doesNotContainKey("replicas");
      assertThat(field(v1, "status")).containsEntry("phase", "Ready").doesNotContainKey("state");
    }

    started = dev.descendants().toList();
    assertThat(started).as("etcd, kube-apiserver, the operator, the webhook server").isNotEmpty();
    dev.destroy(); // SIGTERM
    assertThat(dev.waitFor(30, TimeUnit.SECONDS))
        .as("versio dev stops within 30 s after SIGTERM; its output:%n%s", read(output))
        .isTrue();
    assertThat(dev.exitValue()).as("exit code; output:%n%s", read(output)).isZero();
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(started.stream().filter(ProcessHandle::isAlive))
                    .as("processes versio dev started that are still running")
                    .isEmpty());
    assertThat(read(output)).contains("stopped everything");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> field(GenericKubernetesResource object, String name) {
    return (Map<String, Object>) object.getAdditionalProperties().get(name);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }
}
