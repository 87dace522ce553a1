package dev.versio.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The webhook servers' CA and the server certificates it signs, over years of the operator's clock:
 * certificates renew without the bundle changing, and a rotation of the CA changes the bundle twice
 * — the successor trusted before it signs anything, the old CA dropped once expired.
 */
class InstallationCaTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final InstallationCa.Policy POLICY = InstallationCa.Policy.DEFAULT;
  private static final List<String> HOSTS = List.of("s-webhook-server.ns.svc");
  private static final Duration LEAF = Duration.ofDays(90);
  private static final Duration RENEW = Duration.ofDays(15);
  private static final int STEP_DAYS = 14;

  /** What a simulation of days saw. */
  private record Run(int bundleChanges, int renewals, List<Instant> bundleChangedAt) {}

  /**
   * Steps the operator's clock {@value #STEP_DAYS} days at a time (less than the renewal margin, so
   * a certificate due for renewal is seen before it ends) for {@code days}, as the operator would
   * act on each step: the CA advanced, the server Secret brought to what it must hold. Checks at
   * every step that the certificate served is signed by a CA of the bundle the targets carry, and
   * that no CA signs a certificate before it has been in the bundle for the overlap.
   */
  private static Run simulate(int days) {
    var ca = InstallationCa.create(START, POLICY);
    var material = ServerTls.desired(null, ca, HOSTS, START, LEAF, RENEW).orElseThrow();
    var trustedSince = new java.util.HashMap<X509Certificate, Instant>();
    ca.certificates().forEach(c -> trustedSince.put(c, START));
    int changes = 0;
    int renewals = 0;
    var changedAt = new ArrayList<Instant>();
    for (int day = STEP_DAYS; day <= days; day += STEP_DAYS) {
      var now = START.plus(Duration.ofDays(day));
      ca = ca.next(now, POLICY);
      for (var c : ca.certificates()) {
        trustedSince.putIfAbsent(c, now);
      }
      var desired = ServerTls.desired(material, ca, HOSTS, now, LEAF, RENEW);
      if (desired.isPresent()) {
        var next = desired.get();
        if (!next.caBundlePem().equals(material.caBundlePem())) {
          changes++;
          changedAt.add(now);
        }
        if (!next.certificatePem().equals(material.certificatePem())) {
          renewals++;
          var signer =
              TlsMaterial.signer(
                  Pem.certificates(next.caBundlePem()),
                  Pem.certificates(next.certificatePem()).getFirst());
          assertThat(signer).as("day %d: the new certificate's CA is trusted", day).isNotNull();
          assertThat(trustedSince.get(signer))
              .as("day %d: a CA signs only after it has been trusted for the overlap", day)
              .matches(since -> since.equals(START) || !since.plus(POLICY.overlap()).isAfter(now));
        }
        material = next;
      }
      assertThat(material.problem(HOSTS, now, Duration.ZERO))
          .as("day %d: the certificate served is valid and trusted", day)
          .isEmpty();
    }
    return new Run(changes, renewals, changedAt);
  }

  @Test
  void fiveYearsOfRenewalsNeverChangeTheBundle() {
    var run = simulate(5 * 365);

    assertThat(run.renewals())
        .as("a 90-day certificate, renewed in its last 15 days")
        .isGreaterThanOrEqualTo(20);
    assertThat(run.bundleChanges()).isZero();
  }

  @Test
  void aRotationOfTheCaChangesTheBundleTwiceAndNeverLeavesTheCertificateUntrusted() {
    var run = simulate(12 * 365); // past the first CA's end (10 years) and its successor's start

    assertThat(run.bundleChanges()).isEqualTo(2);
    assertThat(run.bundleChangedAt().getFirst())
        .as("the successor joins the bundle a year before the first CA ends")
        .isBetween(
            START.plus(Duration.ofDays(3650 - 365)),
            START.plus(Duration.ofDays(3650 - 365 + STEP_DAYS)));
  }

  @Test
  void aPolicyWhoseOverlapDoesNotFitIsRefused() {
    assertThatThrownBy(
            () ->
                new InstallationCa.Policy(
                    Duration.ofDays(365), Duration.ofDays(30), Duration.ofDays(60)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 < overlap < rotateBefore < validity");
  }

  @Test
  void aServerCertificateFromBeforeTheInstallationCaStaysTrustedUntilItsOwnCaEnds() {
    var legacy = SelfSignedCa.issue("old", HOSTS, START, Duration.ofDays(90));
    var ca = InstallationCa.create(START, POLICY);

    var migrated = ServerTls.desired(legacy, ca, HOSTS, START, LEAF, RENEW).orElseThrow();

    assertThat(migrated.certificatePem())
        .as("the certificate is still good: kept")
        .isEqualTo(legacy.certificatePem());
    assertThat(migrated.caBundlePem()).isEqualTo(ca.bundlePem() + legacy.caBundlePem());
    var later = START.plus(Duration.ofDays(80));
    var renewed = ServerTls.desired(migrated, ca, HOSTS, later, LEAF, RENEW).orElseThrow();
    assertThat(renewed.caBundlePem())
        .as("renewed by the installation CA; the old CA stays while it is valid")
        .isEqualTo(migrated.caBundlePem());
    var expired = START.plus(Duration.ofDays(91));
    assertThat(
            ServerTls.desired(renewed, ca, HOSTS, expired, LEAF, RENEW).orElseThrow().caBundlePem())
        .isEqualTo(ca.bundlePem());
  }

  @Test
  void anOperatorBackAfterTheWholeRotationWindowHandsOverAtOnceAndStaysTrusted() {
    var ca = InstallationCa.create(START, POLICY);
    var material = ServerTls.desired(null, ca, HOSTS, START, LEAF, RENEW).orElseThrow();
    var late = ca.signer().notAfter().minus(Duration.ofHours(1)); // down since long before

    var rotated = ca.next(late, POLICY);
    var served = ServerTls.desired(material, rotated, HOSTS, late, LEAF, RENEW).orElseThrow();

    assertThat(rotated.certificates())
        .as("the ending CA and its successor, which now signs")
        .hasSize(2);
    assertThat(rotated.signer().certificate()).isNotEqualTo(ca.signer().certificate());
    assertThat(served.problem(HOSTS, late, RENEW)).isEmpty();
    assertThat(ServerTls.desired(served, rotated, HOSTS, late, LEAF, RENEW))
        .as("and nothing is written again")
        .isEmpty();
  }

  @Test
  void aCertificateAsLongAsItsSignerIsNotRenewedOverAndOver() {
    var ca = InstallationCa.create(START, POLICY);
    var now = ca.signer().notAfter().minus(Duration.ofDays(200)); // inside the window, no successor
    var signing = new InstallationCa(ca.trusted(), ca.signer(), null, null);
    var longMargin = Duration.ofDays(300); // a renewBefore longer than the signer has left

    var first = ServerTls.desired(null, signing, HOSTS, now, Duration.ofDays(365), longMargin);

    assertThat(first).isPresent();
    assertThat(
            ServerTls.desired(first.get(), signing, HOSTS, now, Duration.ofDays(365), longMargin))
        .isEmpty();
  }

  @Test
  void aCaSecretWhoseSignerIsNotInTheBundleIsRefusedWithTheReason() {
    var ca = InstallationCa.create(START, POLICY);
    var other = InstallationCa.create(START, POLICY);
    var broken = new InstallationCa(other.trusted(), ca.signer(), null, null);

    assertThat(broken.problem()).isEqualTo("signer.crt is not in ca.crt");
    assertThat(ca.problem()).isNull();
  }
}
