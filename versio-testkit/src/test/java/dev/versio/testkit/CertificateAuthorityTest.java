package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.tls.CertificateAuthority;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

class CertificateAuthorityTest {
  private final CertificateAuthority ca = CertificateAuthority.create("test-ca");

  @Test
  void aServingCertificateCarriesIpAndDnsSubjectAlternativeNamesAndIsSignedByTheCa()
      throws Exception {
    var cert =
        CertificateAuthority.parseCertificate(
            ca.issueServer("127.0.0.1", "localhost").certificatePem());

    assertThat(cert.getSubjectAlternativeNames())
        .extracting(entry -> (Object) entry.get(1))
        .containsExactlyInAnyOrder((Object) "127.0.0.1", "localhost");
    cert.verify(caCertificate().getPublicKey());
    assertThat(cert.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1");
  }

  @Test
  void aClientCertificateNamesTheUserAsCommonNameAndTheGroupsAsOrganizations() throws Exception {
    var cert =
        CertificateAuthority.parseCertificate(
            ca.issueClient("alice", List.of("team-a", "admins")).certificatePem());

    var subject = cert.getSubjectX500Principal().getName();
    assertThat(subject).contains("CN=alice").contains("O=team-a").contains("O=admins");
    assertThat(cert.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.2");
    cert.verify(caCertificate().getPublicKey());
  }

  @Test
  void keysArePkcs8PemAsVertxAndKubernetesExpect() {
    assertThat(ca.issueServer("localhost").privateKeyPem())
        .startsWith("-----BEGIN PRIVATE KEY-----");
  }

  private X509Certificate caCertificate() {
    return CertificateAuthority.parseCertificate(ca.certificatePem());
  }
}
