package dev.versio.operator.server.children;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class IssuerVerdictTest {
  @Test
  void aSelfSignedIssuerIsWarnedOfNamingTheFixAndACaIssuerIsNot() {
    assertThat(IssuerVerdict.warning("ClusterIssuer", "quick", Map.of("selfSigned", Map.of())))
        .hasValueSatisfying(
            w -> assertThat(w).contains("ClusterIssuer quick", "caBundle", "spec.ca"));
    assertThat(
            IssuerVerdict.warning(
                "Issuer", "internal-ca", Map.of("ca", Map.of("secretName", "ca"))))
        .isEmpty();
    assertThat(IssuerVerdict.warning("Issuer", "unknown", null)).isEmpty();
  }
}
