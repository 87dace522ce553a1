package dev.versio.api.tls;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Serving key material as both TLS listeners' owners need it: the operator before it writes or
 * trusts a Secret, the webhook server before it swaps a certificate in. Pure.
 */
public final class KeyPairs {
  private KeyPairs() {}

  /**
   * The private key in {@code pem}: PKCS#8 ({@code BEGIN PRIVATE KEY}, what the operator writes),
   * or PKCS#1 / SEC1 ({@code BEGIN RSA PRIVATE KEY}, {@code BEGIN EC PRIVATE KEY}: cert-manager's
   * default encoding).
   *
   * @throws IllegalArgumentException naming what was found instead
   */
  public static PrivateKey privateKey(String pem) {
    try (var parser = new PEMParser(new StringReader(pem))) {
      var object = parser.readObject();
      if (object instanceof PrivateKeyInfo info) {
        return new JcaPEMKeyConverter().getPrivateKey(info);
      }
      if (object instanceof PEMKeyPair pair) {
        return new JcaPEMKeyConverter().getPrivateKey(pair.getPrivateKeyInfo());
      }
      throw new IllegalArgumentException(
          "no private key (BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY) found");
    } catch (IOException e) {
      throw new IllegalArgumentException("not a PEM private key: " + e.getMessage(), e);
    }
  }

  /** Whether {@code key} belongs to {@code certificate}: a probe it signs verifies with its key. */
  public static boolean belongTogether(PrivateKey key, X509Certificate certificate) {
    var algorithm =
        switch (key.getAlgorithm()) {
          case "EC", "ECDSA" -> "SHA256withECDSA";
          case "RSA" -> "SHA256withRSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null) {
      return false;
    }
    try {
      var probe = "versio key check".getBytes(StandardCharsets.US_ASCII);
      var signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      var signature = signer.sign();
      var verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
