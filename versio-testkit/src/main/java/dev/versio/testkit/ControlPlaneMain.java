package dev.versio.testkit;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Runs one test control plane in the foreground until standard input closes or the process is
 * interrupted (Ctrl-C), for debugging with kubectl: {@code hack/dev-cluster.sh}.
 *
 * <p>Prints {@code READY <url> <kubeconfig>} on standard output once the apiserver is ready.
 */
public final class ControlPlaneMain {
  private ControlPlaneMain() {}

  public static void main(String[] args) throws IOException {
    var workRoot = Path.of(args.length > 0 ? args[0] : "target/kube-apiserver");
    try (var controlPlane = ControlPlane.start(workRoot)) {
      System.out.println("READY " + controlPlane.url() + " " + controlPlane.kubeconfig());
      System.out.println("export KUBECONFIG=" + controlPlane.kubeconfig());
      System.out.println("Press Ctrl-C (or close standard input) to stop.");
      System.out.flush();
      while (System.in.read() != -1) {
        // keep running until EOF
      }
    }
  }
}
