package dev.versio.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes a kubeconfig file for humans (kubectl) that reaches a test control plane as admin. */
final class Kubeconfig {
  private Kubeconfig() {}

  static Path write(Path file, URI server, String caBase64, String token) throws IOException {
    var text =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: versio-test
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: versio-test-admin
          user:
            token: %s
        contexts:
        - name: versio-test
          context:
            cluster: versio-test
            user: versio-test-admin
            namespace: default
        current-context: versio-test
        """
            .formatted(server, caBase64, token);
    Files.writeString(file, text);
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system; the file lives under target/ anyway
    }
    return file;
  }
}
