package dev.versio.webhook.tls;

import dev.versio.api.tls.KeyPairs;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The serving certificate and key read from {@code tls.crt} and {@code tls.key} in one folder (a
 * mounted Secret), with a fingerprint of both files to notice rotation. A pair is only ever built
 * when the key belongs to the certificate, so a half-written rotation (new certificate, old key) is
 * refused instead of served.
 *
 * @param fingerprint SHA-256 of certificate and key bytes
 * @param notAfter when the certificate (the first of {@code tls.crt}) expires
 */
public record ServingCertificate(
    byte[] certificate, byte[] key, String fingerprint, Instant notAfter) {

  /** Reads the pair; fails with a message naming the file and what to do. */
  public static ServingCertificate read(Path dir) {
    try {
      return readVersion(snapshot(dir));
    } catch (IllegalStateException e) {
      if (!(e.getCause() instanceof NoSuchFileException)
          || !Files.isSymbolicLink(dir.resolve("..data"))) {
        throw e;
      }
      // the kubelet deleted the version just resolved, right after swapping ..data: read the new
      return readVersion(snapshot(dir));
    }
  }

  private static ServingCertificate readVersion(Path files) {
    var certFile = files.resolve("tls.crt");
    var keyFile = files.resolve("tls.key");
    var cert = bytes(certFile);
    var key = bytes(keyFile);
    var x509 = certificate(certFile, cert);
    var privateKey = privateKey(keyFile, key);
    if (!KeyPairs.belongTogether(privateKey, x509)) {
      throw new IllegalStateException(
          keyFile
              + " does not belong to the certificate in "
              + certFile
              + " (a rotation half written?); the Secret must hold a matching pair");
    }
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      digest.update(cert);
      digest.update(key);
      return new ServingCertificate(
          cert, key, HexFormat.of().formatHex(digest.digest()), x509.getNotAfter().toInstant());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The folder holding this version of a Secret the kubelet mounted: it swaps {@code ..data} to a
   * new timestamped folder in one rename, and {@code tls.crt} and {@code tls.key} both go through
   * it, so reading both files from its target reads one version, never the new certificate with the
   * old key. Any other folder is read as it is.
   */
  static Path snapshot(Path dir) {
    var data = dir.resolve("..data");
    if (!Files.isSymbolicLink(data)) {
      return dir;
    }
    try {
      return data.toRealPath();
    } catch (java.io.IOException e) {
      return dir; // swapped away while resolving: the files read as they are, checked as a pair
    }
  }

  private static X509Certificate certificate(Path file, byte[] pem) {
    if (!new String(pem, StandardCharsets.US_ASCII).contains("BEGIN CERTIFICATE")) {
      throw new IllegalStateException(file + " holds no PEM certificate");
    }
    try {
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(pem));
    } catch (CertificateException | ClassCastException e) {
      throw new IllegalStateException(file + " holds no readable X.509 certificate: " + e, e);
    }
  }

  private static PrivateKey privateKey(Path file, byte[] pem) {
    try {
      return KeyPairs.privateKey(new String(pem, StandardCharsets.US_ASCII));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          file + " holds no readable PEM private key: " + e.getMessage(), e);
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
