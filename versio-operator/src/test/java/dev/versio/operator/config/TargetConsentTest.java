package dev.versio.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetConsentTest {
  private static final String CONFIG = "CRDConversionConfig";

  private static JsonNode crd(String group, String conversion) {
    try {
      return EngineJson.newMapper()
          .readTree(
              "{\"spec\":{\"group\":\""
                  + group
                  + "\""
                  + (conversion == null ? "" : ",\"conversion\":" + conversion)
                  + "}}");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aTargetWithoutConsentIsRefusedNamingTheAnnotationAndTheFlag() {
    var refusal =
        TargetConsent.byAnnotation()
            .refusal(
                CONFIG,
                "widgets",
                "CRD",
                "widgets.team-b.example",
                crd("team-b.example", null),
                Map.of());

    assertThat(refusal)
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .startsWith(
                        "CRD widgets.team-b.example does not consent to conversion by"
                            + " CRDConversionConfig/widgets")
                    .contains("versio.dev/conversion-config=widgets")
                    .contains("allows its group 'team-b.example' (--target-groups"));
  }

  @Test
  void theAnnotationConsentsForTheConfigItNamesOrForAny() {
    var consent = TargetConsent.byAnnotation();
    var json = crd("example.com", null);

    assertThat(
            consent.refusal(
                CONFIG,
                "widgets",
                "CRD",
                "w",
                json,
                Map.of(TargetConsent.CONSENT_ANNOTATION, "widgets")))
        .isEmpty();
    assertThat(
            consent.refusal(
                CONFIG, "widgets", "CRD", "w", json, Map.of(TargetConsent.CONSENT_ANNOTATION, "*")))
        .isEmpty();
    assertThat(
            consent.refusal(
                CONFIG,
                "widgets",
                "CRD",
                "w",
                json,
                Map.of(TargetConsent.CONSENT_ANNOTATION, "other, widgets")))
        .isEmpty();
    assertThat(
            consent.refusal(
                CONFIG,
                "intruder",
                "CRD",
                "w",
                json,
                Map.of(TargetConsent.CONSENT_ANNOTATION, "widgets")))
        .hasValueSatisfying(r -> assertThat(r).contains("annotation names 'widgets'"));
  }

  @Test
  void anAllowedGroupConsentsForEveryConfigExactlyOrBySuffix() {
    var consent = new TargetConsent(List.of("example.com", "*.platform.io"));

    assertThat(consent.refusal(CONFIG, "c", "CRD", "t", crd("example.com", null), Map.of()))
        .isEmpty();
    assertThat(consent.refusal(CONFIG, "c", "CRD", "t", crd("db.platform.io", null), Map.of()))
        .isEmpty();
    assertThat(consent.refusal(CONFIG, "c", "CRD", "t", crd("platform.io", null), Map.of()))
        .isEmpty();
    assertThat(consent.refusal(CONFIG, "c", "CRD", "t", crd("sub.example.com", null), Map.of()))
        .isPresent();
    assertThat(consent.refusal(CONFIG, "c", "CRD", "t", crd("notplatform.io", null), Map.of()))
        .isPresent();
    assertThat(
            new TargetConsent(List.of("*"))
                .refusal(CONFIG, "c", "CRD", "t", crd("anything.io", null), Map.of()))
        .isEmpty();
    assertThatThrownBy(() -> new TargetConsent(List.of("ex*ample.com")))
        .hasMessageContaining("--target-groups");
  }

  @Test
  void aWebhookSomeoneElseManagesIsRefusedUntilItsOwnerHandsItOver() {
    var consent = new TargetConsent(List.of("*"));
    var foreign =
        crd(
            "example.com",
            "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":{\"service\":{\"namespace\":\"team-b\",\"name\":\"converter\"}}}}");

    assertThat(consent.refusal(CONFIG, "c", "CRD", "t", foreign, Map.of()))
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .contains("already converts through a webhook Versio does not manage")
                    .contains("Service team-b/converter")
                    .contains("versio.dev/take-over-conversion=true"));
    assertThat(
            consent.refusal(
                CONFIG,
                "c",
                "CRD",
                "t",
                foreign,
                Map.of(TargetConsent.TAKEOVER_ANNOTATION, "true")))
        .isEmpty();
    assertThat(
            consent.refusal(
                CONFIG,
                "c",
                "CRD",
                "t",
                foreign,
                Map.of(ConversionPatch.MANAGED_BY, "CRDConversionConfig/other")))
        .as("a webhook Versio manages for another config is Versio's business")
        .isEmpty();
    assertThat(
            consent.refusal(
                CONFIG, "c", "CRD", "t", crd("example.com", "{\"strategy\":\"None\"}"), Map.of()))
        .isEmpty();
  }
}
