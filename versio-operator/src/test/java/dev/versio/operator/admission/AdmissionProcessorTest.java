package dev.versio.operator.admission;

import static dev.versio.operator.admission.FakeCluster.crdConfig;
import static dev.versio.operator.admission.FakeCluster.defaultServer;
import static dev.versio.operator.admission.FakeCluster.example;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AdmissionProcessorTest {
  private static final String CONFIGS = "/validate/crdconversionconfig";
  private static final String XRD_CONFIGS = "/validate/xrdconversionconfig";
  private static final String SERVERS = "/validate/conversionwebhookserver";
  private final ObjectMapper json = EngineJson.newMapper();
  private final FakeCluster cluster = new FakeCluster();
  private final AdmissionProcessor processor =
      new AdmissionProcessor(
          new ConfigValidator(true, true, FakeCluster.ANY_TARGET),
          FakeCluster.SERVERS,
          () -> cluster);

  private ObjectNode review(String kind, String operation, Object object, Object oldObject) {
    var review = json.createObjectNode();
    review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    var request = review.putObject("request");
    request.put("uid", "uid-1").put("operation", operation);
    request
        .putObject("kind")
        .put("group", "versio.dev")
        .put("version", "v1alpha1")
        .put("kind", kind);
    if (object != null) {
      request.set("object", json.valueToTree(object));
      request.put("name", request.path("object").path("metadata").path("name").asText());
    }
    if (oldObject != null) {
      request.set("oldObject", json.valueToTree(oldObject));
      request.put("name", request.path("oldObject").path("metadata").path("name").asText());
    }
    return review;
  }

  private JsonNode response(String path, JsonNode review) throws IOException {
    var outcome = processor.process(path, json.writeValueAsBytes(review));
    assertThat(outcome.status()).as(outcome.bodyText()).isEqualTo(200);
    assertThat(outcome.contentType()).isEqualTo("application/json");
    var answer = json.readTree(outcome.body());
    assertThat(answer.path("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
    assertThat(answer.path("kind").asText()).isEqualTo("AdmissionReview");
    return answer.path("response");
  }

  @Test
  void anAcceptedReviewEchoesTheUidAndCarriesNoStatus() throws IOException {
    cluster.withCrd(example("field-rename/crd.yaml"));
    var config = example("field-rename/config.yaml");

    var response = response(CONFIGS, review("CRDConversionConfig", "CREATE", config, null));

    assertThat(response.path("uid").asText()).isEqualTo("uid-1");
    assertThat(response.path("allowed").asBoolean()).isTrue();
    assertThat(response.has("status")).isFalse();
    assertThat(response.has("warnings")).isFalse();
  }

  @Test
  void aDenialCarriesCode403TheMessageAndTheWarnings() throws IOException {
    cluster.withCrd(example("mistakes/crd.yaml"));
    var config = (ObjectNode) example("mistakes/typo-in-path.yaml");
    config.with("spec").putObject("webhookServerRef").put("name", "gone");

    var response = response(CONFIGS, review("CRDConversionConfig", "CREATE", config, null));

    assertThat(response.path("allowed").asBoolean()).isFalse();
    assertThat(response.path("status").path("code").asInt()).isEqualTo(403);
    assertThat(response.path("status").path("message").asText())
        .contains("configuration is invalid against the live CRD schema of caches.example.com");
    assertThat(response.path("warnings").get(0).asText()).contains("'gone', which does not exist");
  }

  @Test
  void aServerWhosePodDisruptionBudgetIsAWholeNumberOrAPercentageIsAdmitted() throws IOException {
    for (var value : new Object[] {1, "50%"}) {
      var review = review("ConversionWebhookServer", "CREATE", defaultServer("main"), null);
      var pdb =
          ((ObjectNode) review.path("request").path("object").path("spec"))
              .putObject("podDisruptionBudget");
      if (value instanceof Integer number) {
        pdb.put("minAvailable", number);
      } else {
        pdb.put("minAvailable", (String) value);
      }

      var response = response(SERVERS, review);

      assertThat(response.path("allowed").asBoolean())
          .as("minAvailable %s: %s", value, response.path("status").path("message").asText())
          .isTrue();
    }
  }

  /** The response {@code processor} gives to a review of {@code server} ({@code operation}). */
  private JsonNode serverResponse(AdmissionProcessor processor, String operation, Object server)
      throws IOException {
    var outcome =
        processor.process(
            SERVERS,
            json.writeValueAsBytes(review("ConversionWebhookServer", operation, server, null)));
    assertThat(outcome.status()).as(outcome.bodyText()).isEqualTo(200);
    return json.readTree(outcome.body()).path("response");
  }

  @Test
  void aDenialFromALaggingCacheIsCheckedAgainstTheApiserverAndAllowedWhenTheClusterMovedOn()
      throws IOException {
    // the cache still sees "old" as default; the apiserver has already stored its default: false
    var cached = new FakeCluster().with(defaultServer("old"));
    var live = new FakeCluster().with(FakeCluster.server("old"));
    var confirming =
        new AdmissionProcessor(
            new ConfigValidator(true, true, FakeCluster.ANY_TARGET),
            FakeCluster.SERVERS,
            () -> cached,
            () -> live);

    var response = serverResponse(confirming, "UPDATE", defaultServer("new"));

    assertThat(response.path("allowed").asBoolean()).as(response.toString()).isTrue();
    assertThat(live.reads).as("reads of the apiserver for the denial").isPositive();
  }

  @Test
  void aDenialTheApiserverConfirmsIsAnsweredWithItsMessageAndAnAllowedRequestReadsOnlyTheCache()
      throws IOException {
    var cached = new FakeCluster().with(defaultServer("old"));
    var live = new FakeCluster().with(defaultServer("old"));
    var confirming =
        new AdmissionProcessor(
            new ConfigValidator(true, true, FakeCluster.ANY_TARGET),
            FakeCluster.SERVERS,
            () -> cached,
            () -> live);

    var denied = serverResponse(confirming, "CREATE", defaultServer("new"));
    int liveReads = live.reads;
    var allowed = serverResponse(confirming, "CREATE", FakeCluster.server("other"));

    assertThat(denied.path("allowed").asBoolean()).isFalse();
    assertThat(denied.path("status").path("message").asText())
        .contains("ConversionWebhookServer/old is already the default");
    assertThat(allowed.path("allowed").asBoolean()).isTrue();
    assertThat(live.reads).as("apiserver reads for an allowed request").isEqualTo(liveReads);
  }

  @Test
  void aFailedClusterReadDeniesSayingTheCheckCouldNotBeMade() throws IOException {
    cluster.failing.add("list ConversionWebhookServers");
    var server = defaultServer("main");

    var response = response(SERVERS, review("ConversionWebhookServer", "CREATE", server, null));

    assertThat(response.path("allowed").asBoolean()).isFalse();
    assertThat(response.path("status").path("message").asText())
        .isEqualTo(
            "ConversionWebhookServer/main: the admission check could not be made: cannot list"
                + " ConversionWebhookServers: connection refused; the request is refused (fail"
                + " closed): retry, and check the operator's permissions and the apiserver if it"
                + " persists");
  }

  @Test
  void deletingAConfigIsAllowedWithoutLookingAtTheCluster() throws IOException {
    cluster.failing.add("*");

    var response =
        response(
            CONFIGS,
            review("CRDConversionConfig", "DELETE", null, crdConfig("c", "c.example.com", null)));

    assertThat(response.path("allowed").asBoolean()).isTrue();
    assertThat(cluster.reads).isZero();
  }

  @Test
  void anUpdateThatLeavesTheSpecAloneIsAllowedSoFinalizersCanAlwaysBeRemoved() throws IOException {
    var before = crdConfig("c", "c.example.com", null);
    before.getSpec().unmappedFieldPolicy = "Warn"; // invalid, but stored before admission existed
    var after = crdConfig("c", "c.example.com", null);
    after.getSpec().unmappedFieldPolicy = "Warn";
    after.getMetadata().setFinalizers(java.util.List.of("versio.dev/finalizer"));
    cluster.failing.add("*");

    var response = response(CONFIGS, review("CRDConversionConfig", "UPDATE", after, before));

    assertThat(response.path("allowed").asBoolean()).isTrue();
    assertThat(cluster.reads).isZero();
  }

  @Test
  void anUpdateThatChangesTheSpecIsValidated() throws IOException {
    var before = crdConfig("c", "c.example.com", null);
    var after = crdConfig("c", "c.example.com", null);
    after.getSpec().unmappedFieldPolicy = "Warn";

    var response = response(CONFIGS, review("CRDConversionConfig", "UPDATE", after, before));

    assertThat(response.path("status").path("message").asText())
        .contains("UNMAPPED_REASON_REQUIRED");
  }

  @Test
  void serverDeletesAreJudgedOnTheStoredObject() throws IOException {
    var main = defaultServer("main");
    cluster.with(main);
    cluster.crdConfigs.add(crdConfig("c", "c.example.com", null));

    var response = response(SERVERS, review("ConversionWebhookServer", "DELETE", null, main));

    assertThat(response.path("status").path("message").asText())
        .contains("cannot be deleted while 1 config(s) are served by it");
  }

  @Test
  void aKindSentToTheWrongPathIsDenied() throws IOException {
    var response =
        response(
            XRD_CONFIGS,
            review("CRDConversionConfig", "CREATE", crdConfig("c", "c.example.com", null), null));

    assertThat(response.path("status").path("message").asText())
        .startsWith("this admission endpoint validates only XRDConversionConfig objects");
  }

  @Test
  void anObjectThatDoesNotDecodeIsDeniedNotCrashed() throws IOException {
    var config = (ObjectNode) json.valueToTree(crdConfig("c", "c.example.com", null));
    config.with("spec").put("spokes", "not a list");

    var response = response(CONFIGS, review("CRDConversionConfig", "CREATE", config, null));

    assertThat(response.path("allowed").asBoolean()).isFalse();
    assertThat(response.path("status").path("message").asText())
        .startsWith("CRDConversionConfig/c: the object cannot be read as CRDConversionConfig: ");
  }

  @Test
  void malformedReviewsAreBadRequestsWithAMessage() {
    assertThat(processor.process(CONFIGS, "{not json".getBytes(StandardCharsets.UTF_8)))
        .satisfies(
            o -> {
              assertThat(o.status()).isEqualTo(400);
              assertThat(o.bodyText()).startsWith("the request body is not JSON: ");
            });
    assertThat(processor.process(CONFIGS, "[]".getBytes(StandardCharsets.UTF_8)).status())
        .isEqualTo(400);
    assertThat(processor.process(CONFIGS, new byte[0]).status()).isEqualTo(400);
    assertThat(
            processor
                .process(
                    CONFIGS,
                    "{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\"}"
                        .getBytes(StandardCharsets.UTF_8))
                .bodyText())
        .startsWith("expected an admission.k8s.io/v1 AdmissionReview, found AdmissionReview")
        .contains("admission.k8s.io/v1beta1");
    assertThat(
            processor
                .process(
                    CONFIGS,
                    "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{}}"
                        .getBytes(StandardCharsets.UTF_8))
                .bodyText())
        .isEqualTo("the AdmissionReview has no request.uid\n");
  }

  @Test
  void anUnknownPathIsNotFound() {
    assertThat(processor.process("/validate/other", "{}".getBytes(StandardCharsets.UTF_8)).status())
        .isEqualTo(404);
  }
}
