package dev.versio.cli.live;

import dev.versio.cli.offline.LoadError;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Which cluster a live command talks to, resolved like kubectl: {@code --kubeconfig}, else {@code
 * KUBECONFIG}, else {@code ~/.kube/config}, else the in-cluster service account; {@code --context}
 * picks a context other than the current one.
 */
public final class ClusterOptions {
  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description = "The kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config).")
  Path kubeconfig;

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description = "The kubeconfig context to use (default: its current context).")
  String context;

  /** A client for the chosen cluster; a missing or unreadable kubeconfig is a load error. */
  public KubernetesClient client() {
    return client(kubeconfig, context);
  }

  /** A client for {@code context} (null: current) of {@code kubeconfig} (null: kubectl's rules). */
  static KubernetesClient client(Path kubeconfig, String context) {
    Config config;
    if (kubeconfig != null) {
      try {
        config =
            Config.fromKubeconfig(
                context, Files.readString(kubeconfig), kubeconfig.toAbsolutePath().toString());
      } catch (IOException e) {
        throw new LoadError("cannot read --kubeconfig " + kubeconfig + ": " + e.getMessage());
      }
    } else {
      if (!anyKubeconfig()) {
        throw new LoadError(
            "no kubeconfig found (no --kubeconfig, no KUBECONFIG, no ~/.kube/config, not in a"
                + " pod); pass --kubeconfig FILE");
      }
      config = Config.autoConfigure(context);
    }
    var current = config.getCurrentContext();
    if (context != null && (current == null || !context.equals(current.getName()))) {
      throw new LoadError(
          "context '"
              + context
              + "' is not in the kubeconfig; list them with kubectl config get-contexts");
    }
    // a CLI should say quickly that a cluster is unreachable: two retries instead of ten
    config.setRequestRetryBackoffLimit(2);
    var client = new KubernetesClientBuilder().withConfig(config).build();
    try {
      client.getKubernetesVersion(); // one cheap call, so an unreachable cluster is said plainly
    } catch (KubernetesClientException e) {
      client.close();
      throw new LoadError(ClusterErrors.describe(config.getMasterUrl(), e));
    }
    return client;
  }

  /** Whether kubectl's rules would find any kubeconfig (or the in-cluster service account). */
  private static boolean anyKubeconfig() {
    var env = System.getenv("KUBECONFIG");
    if (env != null && !env.isBlank()) {
      return true;
    }
    var home = Path.of(System.getProperty("user.home"), ".kube", "config");
    return Files.isRegularFile(home)
        || System.getenv("KUBERNETES_SERVICE_HOST") != null
        || Files.exists(Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token"));
  }
}
