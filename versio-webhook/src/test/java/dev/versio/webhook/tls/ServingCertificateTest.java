package dev.versio.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.testkit.tls.MountedSecret;
import dev.versio.testkit.tls.PemMaterial;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServingCertificateTest {
  private static final CertificateAuthority CA = CertificateAuthority.create("serving-test-ca");

  @TempDir Path dir;

  private void mount(String certificatePem, String keyPem) throws IOException {
    Files.writeString(dir.resolve("tls.crt"), certificatePem);
    Files.writeString(dir.resolve("tls.key"), keyPem);
  }

  @Test
  void aMatchingPairIsReadWithItsExpiry() throws IOException {
    var pair = CA.issueServer("127.0.0.1");
    mount(pair.certificatePem(), pair.privateKeyPem());

    var certificate = ServingCertificate.read(dir);

    assertThat(certificate.notAfter())
        .isEqualTo(
            CertificateAuthority.parseCertificate(pair.certificatePem()).getNotAfter().toInstant());
    assertThat(certificate.notAfter()).isAfter(Instant.now());
  }

  @Test
  void aSecretTheKubeletMountedIsReadFromOneVersionEvenWhenTheLinksPointAtAnother()
      throws IOException {
    var first = CA.issueServer("127.0.0.1");
    var second = CA.issueServer("127.0.0.1");
    var secret =
        MountedSecret.create(
            dir, Map.of("tls.crt", first.certificatePem(), "tls.key", first.privateKeyPem()));
    var version = ServingCertificate.snapshot(dir);
    assertThat(version.getFileName().toString()).startsWith("..v");

    secret.update(Map.of("tls.crt", second.certificatePem(), "tls.key", second.privateKeyPem()));

    // read as the swap finds a reader: both files come from the version ..data names now
    assertThat(ServingCertificate.snapshot(dir)).isNotEqualTo(version);
    assertThat(ServingCertificate.read(dir).notAfter())
        .isEqualTo(
            CertificateAuthority.parseCertificate(second.certificatePem())
                .getNotAfter()
                .toInstant());
    assertThat(ServingCertificate.snapshot(dir.resolve("no-such-folder")))
        .isEqualTo(dir.resolve("no-such-folder"));
  }

  @Test
  void aKeyThatDoesNotBelongToTheCertificateIsRefusedNamingBothFiles() throws IOException {
    PemMaterial one = CA.issueServer("127.0.0.1");
    PemMaterial other = CA.issueServer("127.0.0.1");
    mount(one.certificatePem(), other.privateKeyPem());

    assertThatThrownBy(() -> ServingCertificate.read(dir))
        .hasMessageContaining("tls.key does not belong to the certificate in")
        .hasMessageContaining("tls.crt");
  }

  @Test
  void aKeyInTheEncodingCertManagerWritesByDefaultIsRead() throws Exception {
    var pair = CA.issueServer("127.0.0.1");
    mount(pair.certificatePem(), traditionalEncoding(pair.privateKeyPem()));
    assertThat(Files.readString(dir.resolve("tls.key"))).doesNotContain("BEGIN PRIVATE KEY");

    assertThat(ServingCertificate.read(dir).notAfter()).isAfter(Instant.now());
  }

  @Test
  void somethingThatIsNoCertificateIsRefused() throws IOException {
    var pair = CA.issueServer("127.0.0.1");
    mount(
        "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n",
        pair.privateKeyPem());

    assertThatThrownBy(() -> ServingCertificate.read(dir))
        .hasMessageContaining("holds no readable X.509 certificate");
  }

  /**
   * The PKCS#8 EC key re-written as SEC1 ("BEGIN EC PRIVATE KEY", with its curve, as openssl and
   * cert-manager write it).
   */
  private static String traditionalEncoding(String pkcs8) throws IOException {
    try (var parser = new PEMParser(new StringReader(pkcs8))) {
      var info = (PrivateKeyInfo) parser.readObject();
      var inner = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
      var curve = info.getPrivateKeyAlgorithm().getParameters();
      var sec1 =
          new org.bouncycastle.asn1.sec.ECPrivateKey(
              256, inner.getKey(), inner.getPublicKey(), curve);
      var out = new StringWriter();
      try (var writer = new org.bouncycastle.util.io.pem.PemWriter(out)) {
        writer.writeObject(
            new org.bouncycastle.util.io.pem.PemObject("EC PRIVATE KEY", sec1.getEncoded()));
      }
      return out.toString();
    }
  }
}
