package dev.versio.testkit.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Objects;

/** A certificate and its private key, both PEM encoded (the key as PKCS#8). */
public record PemMaterial(String certificatePem, String privateKeyPem) {
  public PemMaterial {
    Objects.requireNonNull(certificatePem, "certificatePem");
    Objects.requireNonNull(privateKeyPem, "privateKeyPem");
    if (!certificatePem.contains("BEGIN CERTIFICATE")) {
      throw new IllegalArgumentException("certificatePem is not a PEM certificate");
    }
    if (!privateKeyPem.contains("BEGIN PRIVATE KEY")) {
      throw new IllegalArgumentException("privateKeyPem is not a PKCS#8 PEM private key");
    }
  }

  /** Base64 of the certificate PEM, the form kubeconfigs and {@code caBundle} fields use. */
  public String certificateBase64() {
    return base64(certificatePem);
  }

  /** Base64 of the private key PEM, the form kubeconfigs use. */
  public String privateKeyBase64() {
    return base64(privateKeyPem);
  }

  /** Writes {@code <name>.crt} and {@code <name>.key} into {@code dir} and returns the pair. */
  public WrittenFiles writeTo(Path dir, String name) throws IOException {
    var cert = dir.resolve(name + ".crt");
    var key = dir.resolve(name + ".key");
    Files.writeString(cert, certificatePem);
    Files.writeString(key, privateKeyPem);
    return new WrittenFiles(cert, key);
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }

  /** Where {@link #writeTo} put the certificate and the key. */
  public record WrittenFiles(Path certificate, Path privateKey) {}
}
