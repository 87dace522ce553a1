package dev.versio.operator.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeneratedCrdsTest {
  private static final String CONVERSION =
      "conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig:"
          + " {url: 'https://versio.example/convert/xwidgets.example.com', caBundle: Q0E=}}}";

  @Test
  void anXrdWithClaimNamesGeneratesTheCompositesCrdThenTheClaimsCrd() {
    assertThat(GeneratedCrds.names(xrd(true, CONVERSION)))
        .containsExactly("xwidgets.example.com", "widgets.example.com");
    assertThat(GeneratedCrds.names(xrd(false, CONVERSION))).containsExactly("xwidgets.example.com");
  }

  @Test
  void bothGeneratedCrdsCarryingTheConversionAreReadyAndReStoredInOrder() {
    var crds = new HashMap<String, JsonNode>();
    crds.put("xwidgets.example.com", crd("xwidgets", "v2", "[v1, v2]", CONVERSION));
    crds.put("widgets.example.com", crd("widgets", "v2", "[v1, v2]", CONVERSION));

    var target = GeneratedCrds.target(xrd(true, CONVERSION), lookup(crds)).orElseThrow();

    assertThat(target.notReady()).isNull();
    assertThat(target.name()).isEqualTo("xwidgets.example.com, widgets.example.com");
    assertThat(target.storageVersion()).isEqualTo("v2");
    assertThat(target.needsMigration()).isTrue();
    assertThat(target.crds().get(1).namespaced()).isTrue();
  }

  @Test
  void aGeneratedCrdThatStillConvertsWithNoneIsNotReady() {
    var crds = new HashMap<String, JsonNode>();
    crds.put("xwidgets.example.com", crd("xwidgets", "v2", "[v1, v2]", CONVERSION));
    crds.put(
        "widgets.example.com", crd("widgets", "v2", "[v1, v2]", "conversion: {strategy: None}"));

    var target = GeneratedCrds.target(xrd(true, CONVERSION), lookup(crds)).orElseThrow();

    assertThat(target.notReady())
        .contains("crd/widgets.example.com does not carry the XRD's conversion yet");
  }

  @Test
  void aMissingClaimCrdOrStorageVersionsThatDisagreeAreNotReady() {
    var crds = new HashMap<String, JsonNode>();
    crds.put("xwidgets.example.com", crd("xwidgets", "v2", "[v1, v2]", CONVERSION));
    assertThat(GeneratedCrds.target(xrd(true, CONVERSION), lookup(crds)).orElseThrow().notReady())
        .contains("crd/widgets.example.com (the claims') is not there yet");

    crds.put("widgets.example.com", crd("widgets", "v1", "[v1]", CONVERSION));
    assertThat(GeneratedCrds.target(xrd(true, CONVERSION), lookup(crds)).orElseThrow().notReady())
        .contains("crd/xwidgets.example.com stores at v2, crd/widgets.example.com stores at v1");
  }

  @Test
  void noCompositeCrdYetMeansNothingToReStore() {
    assertThat(GeneratedCrds.target(xrd(true, CONVERSION), lookup(Map.of()))).isEmpty();
  }

  @Test
  void anXrdThatDoesNotConvertThroughTheWebhookYetIsNotReadyEvenIfItsCrdsAgree() {
    var none = "conversion: {strategy: None}";
    var crds = new HashMap<String, JsonNode>();
    crds.put("xwidgets.example.com", crd("xwidgets", "v2", "[v1, v2]", none));

    var target = GeneratedCrds.target(xrd(false, none), lookup(crds)).orElseThrow();

    assertThat(target.notReady())
        .isEqualTo("xrd/xwidgets.example.com does not convert through the webhook yet");
  }

  @Test
  void theXrdsVersionsReadAsACrdsWithTheStoredVersionsOfBothGeneratedCrds() {
    var crds = new HashMap<String, JsonNode>();
    crds.put("xwidgets.example.com", crd("xwidgets", "v2", "[v2]", CONVERSION));
    crds.put("widgets.example.com", crd("widgets", "v2", "[v1, v2]", CONVERSION));
    var xrd =
        yaml(
            "{metadata: {name: xwidgets.example.com}, spec: {group: example.com, names: {plural:"
                + " xwidgets}, claimNames: {plural: widgets}, versions: [{name: v1, served: true,"
                + " referenceable: false, deprecated: true}, {name: v2, served: true,"
                + " referenceable: true}]}}");

    var view = GeneratedCrds.versionsView(xrd, lookup(crds)).orElseThrow();

    assertThat(view.path("spec").path("versions").toString())
        .isEqualTo(
            "[{\"name\":\"v1\",\"served\":true,\"storage\":false,\"deprecated\":true},"
                + "{\"name\":\"v2\",\"served\":true,\"storage\":true,\"deprecated\":false}]");
    assertThat(view.path("status").path("storedVersions").toString())
        .as("a claim may still be stored at v1")
        .isEqualTo("[\"v2\",\"v1\"]");
    assertThat(GeneratedCrds.versionsView(xrd, lookup(Map.of()))).isEmpty();
  }

  @Test
  void bothReadersOfAnXrdNameTheSameGeneratedCrds() {
    var xrd = xrd(true, CONVERSION);
    var cached =
        io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
            xrd.toString(), io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
    assertThat(GeneratedCrds.names(cached)).isEqualTo(GeneratedCrds.names(xrd));
  }

  @Test
  void theServicePortTheApiserverDefaultsOnTheCrdIsNotADifference() {
    var service =
        "conversion: {strategy: Webhook, webhook: {clientConfig: {service: {name: versio,"
            + " namespace: versio-system, path: /convert/x}}}}";
    var defaulted =
        "conversion: {strategy: Webhook, webhook: {clientConfig: {service: {name: versio,"
            + " namespace: versio-system, path: /convert/x, port: 443}}}}";
    var other = defaulted.replace("/convert/x", "/convert/y");
    assertThat(
            GeneratedCrds.sameConversion(
                xrd(false, service), crd("xwidgets", "v2", "[v2]", defaulted)))
        .isTrue();
    assertThat(
            GeneratedCrds.sameConversion(xrd(false, service), crd("xwidgets", "v2", "[v2]", other)))
        .isFalse();
  }

  private static java.util.function.Function<String, Optional<JsonNode>> lookup(
      Map<String, JsonNode> crds) {
    return name -> Optional.ofNullable(crds.get(name));
  }

  private static JsonNode xrd(boolean claims, String conversion) {
    return yaml(
        "{metadata: {name: xwidgets.example.com}, spec: {group: example.com, names: {kind: XWidget,"
            + " plural: xwidgets}, "
            + (claims ? "claimNames: {kind: Widget, plural: widgets}, " : "")
            + conversion
            + "}}");
  }

  private static JsonNode crd(String plural, String storage, String stored, String conversion) {
    var scope = plural.startsWith("x") ? "Cluster" : "Namespaced";
    return yaml(
        "{metadata: {name: "
            + plural
            + ".example.com, uid: u-"
            + plural
            + ", generation: 2}, spec: {group: example.com, scope: "
            + scope
            + ", names: {kind: K, plural: "
            + plural
            + "}, versions: [{name: v1, storage: "
            + storage.equals("v1")
            + "}, {name: v2, storage: "
            + storage.equals("v2")
            + "}], "
            + conversion
            + "}, status: {storedVersions: "
            + stored
            + "}}");
  }

  private static JsonNode yaml(String text) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper(
              new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
          .readTree(text);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
