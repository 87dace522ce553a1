package dev.versio.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where the {@code etcd} and {@code kube-apiserver} binaries are. Looked up, in order, in {@code
 * $VERSIO_ASSETS}, in {@code $KUBEBUILDER_ASSETS} (the envtest convention, so a newer Kubernetes
 * can be tested), and in the cache that {@code hack/control-plane.sh} fills.
 */
public record ControlPlaneAssets(Path etcd, Path kubeApiServer) {
  /** The Kubernetes version {@code hack/control-plane.sh} builds. */
  public static final String DEFAULT_KUBERNETES_VERSION = "1.20.2";

  public ControlPlaneAssets {
    Objects.requireNonNull(etcd, "etcd");
    Objects.requireNonNull(kubeApiServer, "kubeApiServer");
  }

  /** Resolves the assets from the process environment. */
  public static ControlPlaneAssets locate() {
    return locate(System.getenv(), Path.of(System.getProperty("user.home")));
  }

  /** Resolves the assets from {@code env}; {@code home} is the user's home folder. */
  public static ControlPlaneAssets locate(Map<String, String> env, Path home) {
    for (var variable : new String[] {"VERSIO_ASSETS", "KUBEBUILDER_ASSETS"}) {
      var value = env.get(variable);
      if (value != null && !value.isBlank()) {
        return inFolder(Path.of(value), "$" + variable + "=" + value);
      }
    }
    var cacheRoot =
        env.getOrDefault("VERSIO_CACHE_DIR", "").isBlank()
            ? home.resolve(".cache").resolve("versio")
            : Path.of(env.get("VERSIO_CACHE_DIR"));
    var folder = cacheRoot.resolve("k8s-" + DEFAULT_KUBERNETES_VERSION).resolve("bin");
    return inFolder(folder, "the control-plane cache " + folder);
  }

  private static ControlPlaneAssets inFolder(Path folder, String origin) {
    var etcd = folder.resolve("etcd");
    var apiserver = folder.resolve("kube-apiserver");
    for (var binary : new Path[] {etcd, apiserver}) {
      if (!Files.isExecutable(binary)) {
        throw new IllegalStateException(
            "No executable "
                + binary.getFileName()
                + " in "
                + origin
                + ". Run hack/control-plane.sh once to install etcd and build kube-apiserver "
                + DEFAULT_KUBERNETES_VERSION
                + " (about 5 minutes), or point KUBEBUILDER_ASSETS at a folder holding etcd and"
                + " kube-apiserver.");
      }
    }
    return new ControlPlaneAssets(etcd, apiserver);
  }
}
