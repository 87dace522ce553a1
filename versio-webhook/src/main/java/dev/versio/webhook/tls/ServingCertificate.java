package dev.versio.webhook.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The serving certificate and key read from {@code tls.crt} and {@code tls.key} in one folder (a
 * mounted Secret), with a fingerprint of both files to notice rotation.
 *
 * @param fingerprint SHA-256 of certificate and key bytes
 */
public record ServingCertificate(byte[] certificate, byte[] key, String fingerprint) {

  /** Reads the pair; fails with a message naming the file and what to do. */
  public static ServingCertificate read(Path dir) {
    var cert = bytes(dir.resolve("tls.crt"));
    var key = bytes(dir.resolve("tls.key"));
    if (!new String(cert, StandardCharsets.US_ASCII).contains("BEGIN CERTIFICATE")) {
      throw new IllegalStateException(dir.resolve("tls.crt") + " holds no PEM certificate");
    }
    if (!new String(key, StandardCharsets.US_ASCII).contains("PRIVATE KEY")) {
      throw new IllegalStateException(dir.resolve("tls.key") + " holds no PEM private key");
    }
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      digest.update(cert);
      digest.update(key);
      return new ServingCertificate(cert, key, HexFormat.of().formatHex(digest.digest()));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      var why = e instanceof NoSuchFileException ? "it does not exist" : e.toString();
      throw new IllegalStateException(
          "cannot read the serving certificate file "
              + file
              + " ("
              + why
              + "); mount the TLS Secret there, or point --tls-cert-dir at a folder with tls.crt and tls.key",
          e);
    }
  }

  /** Vert.x key/cert options for this pair (the key must be PKCS#8 or PKCS#1 PEM). */
  public PemKeyCertOptions options() {
    return new PemKeyCertOptions()
        .setCertValue(Buffer.buffer(certificate))
        .setKeyValue(Buffer.buffer(key));
  }
}
