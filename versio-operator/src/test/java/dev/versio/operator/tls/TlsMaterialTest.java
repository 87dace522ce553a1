package dev.versio.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class TlsMaterialTest {
  private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
  private static final Duration RENEW = TlsSecret.RENEW_BEFORE;

  @Test
  void freshMaterialServesItsHostsRightAway() {
    var tls = SelfSignedCa.issue("t", List.of("127.0.0.1"), NOW, Duration.ofDays(365));

    assertThat(tls.problem(List.of("127.0.0.1"), NOW, RENEW)).isEmpty();
    assertThat(tls.privateKeyPem()).contains("-----BEGIN PRIVATE KEY-----");
    assertThat(tls.caBundlePem()).contains("-----BEGIN CERTIFICATE-----");
  }

  @Test
  void anIpHostIsCoveredOnlyByAnIpSanAndANameOnlyByADnsSan() {
    var tls =
        SelfSignedCa.issue(
            "t", List.of("127.0.0.1", "svc", "svc.ns.svc"), NOW, Duration.ofDays(365));

    assertThat(tls.problem(List.of("svc.ns.svc", "127.0.0.1", "SVC"), NOW, RENEW)).isEmpty();
    assertThat(tls.problem(List.of("svc.ns.svc.cluster.local", "::1"), NOW, RENEW))
        .hasValueSatisfying(
            p -> assertThat(p).contains("does not name svc.ns.svc.cluster.local, ::1"));
  }

  @Test
  void anIpv6UrlHostInBracketsIsAnIpSan() {
    var tls = SelfSignedCa.issue("t", List.of("[::1]"), NOW, Duration.ofDays(365));

    assertThat(tls.problem(List.of("[::1]"), NOW, RENEW)).isEmpty();
    assertThat(tls.problem(List.of("0:0:0:0:0:0:0:1"), NOW, RENEW)).isEmpty();
  }

  @Test
  void materialExpiringWithinTheRenewalWindowNeedsReplacing() {
    var tls = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));

    assertThat(tls.problem(List.of("h"), NOW.plus(Duration.ofDays(334)), RENEW)).isEmpty();
    assertThat(tls.problem(List.of("h"), NOW.plus(Duration.ofDays(336)), RENEW))
        .hasValueSatisfying(p -> assertThat(p).contains("expires").contains("within 30 days"));
  }

  @Test
  void materialNotValidYetNeedsReplacing() {
    var tls = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));

    // back-dated an hour: a clock that lags behind the issuer's by less is still fine
    assertThat(tls.problem(List.of("h"), NOW.minus(Duration.ofMinutes(59)), RENEW)).isEmpty();
    assertThat(tls.problem(List.of("h"), NOW.minus(Duration.ofHours(2)), RENEW))
        .hasValueSatisfying(p -> assertThat(p).contains("not valid before"));
  }

  @Test
  void aKeyOfAnotherCertificateIsNoticed() {
    var one = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));
    var two = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));
    var mixed = new TlsMaterial(one.caBundlePem(), one.certificatePem(), two.privateKeyPem());

    assertThat(mixed.problem(List.of("h"), NOW, RENEW))
        .hasValue("tls.key does not belong to tls.crt");
  }

  @Test
  void aCertificateSignedByNoCaOfTheBundleIsNoticed() {
    var one = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));
    var two = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));
    var mixed = new TlsMaterial(two.caBundlePem(), one.certificatePem(), one.privateKeyPem());

    assertThat(mixed.problem(List.of("h"), NOW, RENEW))
        .hasValueSatisfying(p -> assertThat(p).contains("not signed by a CA of ca.crt"));
  }

  @Test
  void aCertificateSignedByTheSecondCaOfTheBundleServes() {
    var old = SelfSignedCa.newCa("t", NOW, Duration.ofDays(3650));
    var next = SelfSignedCa.newCa("t", NOW, Duration.ofDays(3650));
    var leaf = SelfSignedCa.leaf(next, List.of("h"), NOW, Duration.ofDays(90));
    var rotating =
        new TlsMaterial(
            old.certificatePem() + next.certificatePem(),
            leaf.certificatePem(),
            leaf.privateKeyPem());

    assertThat(rotating.problem(List.of("h"), NOW, RENEW)).isEmpty();
  }

  @Test
  void aLeafNeverOutlivesTheCaThatSignedIt() {
    var ca = SelfSignedCa.newCa("t", NOW, Duration.ofDays(30));

    var leaf = SelfSignedCa.leaf(ca, List.of("h"), NOW, Duration.ofDays(90));

    assertThat(leaf.certificateNotAfter()).isEqualTo(ca.notAfter());
  }

  @Test
  void unreadablePemIsReportedWithTheKeyItSitsUnder() {
    var good = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));

    assertThat(
            new TlsMaterial("junk", good.certificatePem(), good.privateKeyPem())
                .problem(List.of("h"), NOW, RENEW))
        .hasValueSatisfying(p -> assertThat(p).startsWith("ca.crt is unreadable"));
    assertThat(
            new TlsMaterial(good.caBundlePem(), good.certificatePem(), "junk")
                .problem(List.of("h"), NOW, RENEW))
        .hasValueSatisfying(p -> assertThat(p).startsWith("tls.key is unreadable"));
  }

  @Test
  void secretDataRoundTripsAndAMissingKeyIsNamed() {
    var tls = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));

    assertThat(TlsMaterial.fromSecretData(tls.secretData())).isEqualTo(tls);
    var data = new HashMap<>(tls.secretData());
    data.remove("tls.key");
    assertThatThrownBy(() -> TlsMaterial.fromSecretData(data))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the Secret has no tls.key");
  }

  @Test
  void renewedMaterialKeepsTrustingThePreviousCaWhileItIsValid() {
    var old = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));
    var later = NOW.plus(Duration.ofDays(340));
    var renewed =
        SelfSignedCa.issue("t", List.of("h"), later, Duration.ofDays(365))
            .keepingPreviousCa(old, later);

    var bundle = Pem.certificates(renewed.caBundlePem());
    assertThat(bundle).hasSize(2);
    assertThat(bundle.get(1)).isEqualTo(Pem.certificates(old.caBundlePem()).getFirst());
    assertThat(renewed.problem(List.of("h"), later, RENEW)).isEmpty();
    var afterExpiry = NOW.plus(Duration.ofDays(366));
    var fresh = SelfSignedCa.issue("t", List.of("h"), afterExpiry, Duration.ofDays(365));
    assertThat(fresh.keepingPreviousCa(old, afterExpiry)).isEqualTo(fresh);
  }

  @Test
  void onlyThePreviousCurrentCaIsKeptSoTheBundleDoesNotGrow() {
    var first = SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365));
    var second =
        SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365))
            .keepingPreviousCa(first, NOW);
    var third =
        SelfSignedCa.issue("t", List.of("h"), NOW, Duration.ofDays(365))
            .keepingPreviousCa(second, NOW);

    assertThat(Pem.certificates(third.caBundlePem())).hasSize(2);
    assertThat(third.caBundlePem()).doesNotContain(first.caBundlePem().strip());
  }
}
