package dev.versio.cli.live;

import dev.versio.cli.offline.LoadError;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/**
 * Several clusters for one live run: {@code --contexts a,b,c} of one kubeconfig, and/or every
 * kubeconfig in {@code --kubeconfig-dir} (skipping folders, dotfiles, {@code *.md} and {@code
 * README*}). Without either, the run uses the single cluster of {@link ClusterOptions}.
 */
public final class Fleet {
  @Option(
      names = "--contexts",
      split = ",",
      paramLabel = "NAME",
      description = "With --live: test in each of these kubeconfig contexts (comma-separated).")
  List<String> contexts = List.of();

  @Option(
      names = "--kubeconfig-dir",
      paramLabel = "DIR",
      description =
          "With --live: test in every kubeconfig in this folder (each file's current context, or"
              + " each of --contexts).")
  Path kubeconfigDir;

  /** One cluster of the fleet, named for the report. */
  public record Cluster(String label, Path kubeconfig, String context) {
    public KubernetesClient client() {
      return ClusterOptions.client(kubeconfig, context);
    }
  }

  public boolean requested() {
    return !contexts.isEmpty() || kubeconfigDir != null;
  }

  /** The clusters to test; {@code single} supplies the kubeconfig and context otherwise. */
  public List<Cluster> clusters(ClusterOptions single) {
    if (!requested()) {
      return List.of(new Cluster("", single.kubeconfig, single.context));
    }
    if (single.context != null && !contexts.isEmpty()) {
      throw new LoadError("pass --context or --contexts, not both");
    }
    if (single.kubeconfig != null && kubeconfigDir != null) {
      throw new LoadError("pass --kubeconfig or --kubeconfig-dir, not both");
    }
    var files = new ArrayList<Path>();
    if (kubeconfigDir == null) {
      files.add(single.kubeconfig);
    } else {
      try (Stream<Path> list = Files.list(kubeconfigDir)) {
        list.filter(Files::isRegularFile)
            .filter(
                f -> {
                  var name = f.getFileName().toString();
                  return !name.startsWith(".")
                      && !name.endsWith(".md")
                      && !name.startsWith("README");
                })
            .sorted()
            .forEach(files::add);
      } catch (IOException e) {
        throw new LoadError(
            "cannot list --kubeconfig-dir " + kubeconfigDir + ": " + e.getMessage());
      }
      if (files.isEmpty()) {
        throw new LoadError("--kubeconfig-dir " + kubeconfigDir + " holds no kubeconfig files");
      }
    }
    var out = new ArrayList<Cluster>();
    for (var file : files) {
      var fileLabel = file == null ? "" : file.getFileName().toString();
      if (contexts.isEmpty()) {
        out.add(new Cluster(fileLabel, file, null));
      } else {
        for (var context : contexts) {
          out.add(
              new Cluster(
                  kubeconfigDir == null ? context : fileLabel + ":" + context, file, context));
        }
      }
    }
    return out;
  }
}
