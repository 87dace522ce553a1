package dev.versio.api.tls;

import java.io.IOException;
import java.io.StringReader;
import java.security.PrivateKey;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Private keys read by Bouncy Castle's PEM parser: every encoding {@link KeyPairs#privateKey} does
 * not read with the JDK alone. A class of its own, so that Bouncy Castle is loaded only when a key
 * needs it.
 */
final class PemKeys {
  private PemKeys() {}

  static PrivateKey privateKey(String pem) {
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
}
