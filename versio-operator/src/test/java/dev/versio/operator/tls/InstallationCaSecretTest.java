package dev.versio.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

/**
 * The installation CA as its Secret holds it: every state reads back as written, damage is named.
 */
class InstallationCaSecretTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final InstallationCa.Policy POLICY = InstallationCa.Policy.DEFAULT;

  private static Secret written(InstallationCa ca) {
    var secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(InstallationCaSecret.NAME)
            .endMetadata()
            .build();
    InstallationCaSecret.write(secret, ca);
    return secret;
  }

  @Test
  void aSteadyCaAndOneMidRotationReadBackAsTheyWereWritten() {
    var steady = InstallationCa.create(START, POLICY);
    var rotating = steady.next(START.plus(Duration.ofDays(3650 - 300)), POLICY);
    assertThat(rotating.next()).as("a successor is waiting").isNotNull();

    assertThat(InstallationCaSecret.read(written(steady))).isEqualTo(steady);
    assertThat(InstallationCaSecret.read(written(rotating))).isEqualTo(rotating);
    var promoted =
        InstallationCaSecret.read(
            written(rotating.next(rotating.nextTrustedSince().plus(POLICY.overlap()), POLICY)));
    assertThat(promoted.next()).isNull();
    assertThat(written(promoted).getData()).doesNotContainKeys("next.crt", "next.key");
    assertThat(written(promoted).getMetadata().getAnnotations())
        .doesNotContainKey("versio.dev/next-ca-trusted-since");
  }

  @Test
  void aBundleThatLostItsSignerIsRefusedWithTheReason() {
    var ca = InstallationCa.create(START, POLICY);
    var other = InstallationCa.create(START, POLICY);
    var secret = written(ca);
    var data = new HashMap<>(secret.getData());
    data.put("ca.crt", written(other).getData().get("ca.crt"));
    secret.setData(data);

    assertThatThrownBy(() -> InstallationCaSecret.read(secret))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Secret versio-webhook-ca: signer.crt is not in ca.crt");
  }

  @Test
  void anUnreadableRotationTimeIsRefusedNamingTheAnnotation() {
    var rotating =
        InstallationCa.create(START, POLICY).next(START.plus(Duration.ofDays(3650 - 300)), POLICY);
    var secret = written(rotating);
    secret.getMetadata().getAnnotations().put("versio.dev/next-ca-trusted-since", "last tuesday");

    assertThatThrownBy(() -> InstallationCaSecret.read(secret))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("versio.dev/next-ca-trusted-since is not an instant: last tuesday");
  }

  @Test
  void aKeyThatIsNotTheSignersIsRefused() {
    var ca = InstallationCa.create(START, POLICY);
    var other = InstallationCa.create(START, POLICY);
    var secret = written(ca);
    var data = new HashMap<>(secret.getData());
    data.put(
        "signer.key",
        Base64.getEncoder()
            .encodeToString(
                other
                    .signer()
                    .privateKeyPem()
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    secret.setData(data);

    assertThatThrownBy(() -> InstallationCaSecret.read(secret))
        .hasMessage("Secret versio-webhook-ca: signer.key does not belong to signer.crt");
  }
}
