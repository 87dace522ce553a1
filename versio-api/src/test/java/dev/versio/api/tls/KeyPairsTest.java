package dev.versio.api.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.Test;

class KeyPairsTest {
  private static KeyPair generate(String algorithm) throws Exception {
    var generator = KeyPairGenerator.getInstance(algorithm);
    if (algorithm.equals("EC")) {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } else if (algorithm.equals("RSA")) {
      generator.initialize(2048);
    }
    return generator.generateKeyPair();
  }

  /** PKCS#8, as the operator writes it. */
  private static String pkcs8(KeyPair pair) {
    var base64 =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(pair.getPrivate().getEncoded());
    return "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----\n";
  }

  /**
   * PKCS#1 (RSA) or SEC1 with its curve (EC), cert-manager's default encoding, as openssl writes
   * them.
   */
  private static String traditional(KeyPair pair) throws Exception {
    var out = new StringWriter();
    try (var writer = new JcaPEMWriter(out)) {
      if (pair.getPrivate().getAlgorithm().equals("EC")) {
        var info = PrivateKeyInfo.getInstance(pair.getPrivate().getEncoded());
        var inner = ECPrivateKey.getInstance(info.parsePrivateKey());
        var sec1 =
            new ECPrivateKey(
                256,
                inner.getKey(),
                inner.getPublicKey(),
                info.getPrivateKeyAlgorithm().getParameters());
        writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
      } else {
        writer.writeObject(pair);
      }
    }
    return out.toString();
  }

  @Test
  void readsPkcs8KeysOfEveryKindTheJdkKnowsAsBouncyCastleReadsThem() throws Exception {
    for (var algorithm : new String[] {"EC", "RSA", "Ed25519", "Ed448"}) {
      var pair = generate(algorithm);
      var pem = pkcs8(pair);
      assertThat(KeyPairs.pkcs8(pem)).as(algorithm).isEqualTo(pair.getPrivate().getEncoded());
      var read = KeyPairs.privateKey(pem);
      var byBouncyCastle = PemKeys.privateKey(pem);
      assertThat(read.getEncoded()).as(algorithm).isEqualTo(pair.getPrivate().getEncoded());
      assertThat(read.getAlgorithm()).as(algorithm).isEqualTo(byBouncyCastle.getAlgorithm());
      assertThat(read.getEncoded()).as(algorithm).isEqualTo(byBouncyCastle.getEncoded());
    }
  }

  @Test
  void readsPkcs1AndSec1KeysThroughBouncyCastle() throws Exception {
    for (var algorithm : new String[] {"EC", "RSA"}) {
      var pair = generate(algorithm);
      var pem = traditional(pair);
      assertThat(pem).contains("-----BEGIN " + algorithm + " PRIVATE KEY-----");
      assertThat(KeyPairs.pkcs8(pem)).isNull();
      var read = KeyPairs.privateKey(pem);
      if (read instanceof java.security.interfaces.ECPrivateKey ec) {
        // SEC1 carries the public point as well, so the encodings differ: the secret is the same
        assertThat(ec.getS())
            .isEqualTo(((java.security.interfaces.ECPrivateKey) pair.getPrivate()).getS());
      } else {
        assertThat(read.getEncoded()).as(algorithm).isEqualTo(pair.getPrivate().getEncoded());
      }
    }
  }

  @Test
  void takesTheKeyOnlyWhenItIsTheFirstPemBlock() throws Exception {
    var key = pkcs8(generate("EC"));
    var certificateFirst = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" + key;
    assertThat(KeyPairs.pkcs8(certificateFirst)).isNull();
    assertThatThrownBy(() -> KeyPairs.privateKey(certificateFirst))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(KeyPairs.pkcs8("text before it\n" + key)).isNotNull();
  }

  @Test
  void refusesWhatIsNoKeyNamingTheEncodingsItReads() {
    assertThatThrownBy(() -> KeyPairs.privateKey("no PEM here"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY");
    var notBase64 = "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n";
    assertThat(KeyPairs.pkcs8(notBase64)).isNull();
    assertThatThrownBy(() -> KeyPairs.privateKey(notBase64))
        .isInstanceOf(IllegalArgumentException.class);
    var notAKey =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getEncoder().encodeToString(new byte[] {1, 2, 3, 4})
            + "\n-----END PRIVATE KEY-----\n";
    assertThat(KeyPairs.pkcs8(notAKey)).isNotNull();
    assertThatThrownBy(() -> KeyPairs.privateKey(notAKey))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
