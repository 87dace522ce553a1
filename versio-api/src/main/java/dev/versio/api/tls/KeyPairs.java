package dev.versio.api.tls;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;

/**
 * Serving key material as both TLS listeners' owners need it: the operator before it writes or
 * trusts a Secret, the webhook server before it swaps a certificate in. Pure.
 */
public final class KeyPairs {
  /** The key factories tried, in turn, on an unencrypted PKCS#8 key. */
  private static final List<String> JDK_ALGORITHMS = List.of("EC", "RSA", "Ed25519", "Ed448");

  private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
  private static final String END = "-----END PRIVATE KEY-----";

  private KeyPairs() {}

  /**
   * The private key in {@code pem}: PKCS#8 ({@code BEGIN PRIVATE KEY}, what the operator writes),
   * or PKCS#1 / SEC1 ({@code BEGIN RSA PRIVATE KEY}, {@code BEGIN EC PRIVATE KEY}: cert-manager's
   * default encoding). An unencrypted PKCS#8 key of a kind the JDK knows (EC, RSA, EdDSA) is read
   * by the JDK alone; everything else by Bouncy Castle's PEM parser, which a replica then loads:
   * its jars are signed, so their classes are verified on loading and never come from the AOT
   * cache, about 0.3 s of a start.
   *
   * @throws IllegalArgumentException naming what was found instead
   */
  public static PrivateKey privateKey(String pem) {
    var pkcs8 = pkcs8(pem);
    if (pkcs8 != null) {
      for (var algorithm : JDK_ALGORITHMS) {
        try {
          return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException e) {
          // not this kind of key: the next, then Bouncy Castle
        }
      }
    }
    return PemKeys.privateKey(pem);
  }

  /**
   * The DER bytes of {@code pem} when its first PEM block is {@code BEGIN PRIVATE KEY} (as Bouncy
   * Castle's parser would read it first) with nothing but base64 in it, else null.
   */
  static byte[] pkcs8(String pem) {
    int begin = pem.indexOf("-----BEGIN ");
    if (begin < 0 || !pem.startsWith(BEGIN, begin)) {
      return null;
    }
    int end = pem.indexOf(END, begin);
    if (end < 0) {
      return null;
    }
    var body = pem.substring(begin + BEGIN.length(), end);
    var base64 = new StringBuilder(body.length());
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '\n' || c == '\r' || c == ' ' || c == '\t') {
        continue;
      }
      if (!(Character.isLetterOrDigit(c) && c < 128 || c == '+' || c == '/' || c == '=')) {
        return null; // headers (an encrypted key) or anything else: Bouncy Castle says what it is
      }
      base64.append(c);
    }
    try {
      return Base64.getDecoder().decode(base64.toString());
    } catch (IllegalArgumentException e) {
      return null;
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
