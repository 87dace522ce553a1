package dev.versio.webhook.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import dev.versio.webhook.registry.Registry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReviewProcessorTest {
  private static final ObjectMapper JSON = EngineJson.newMapper();
  private final Registry registry = new Registry(Clock.systemUTC(), s -> {});
  private final ReviewProcessor processor = new ReviewProcessor(registry);

  ReviewProcessorTest() throws Exception {
    registry.set("widgets.example.com", router(), "crd/widgets", "gen=1");
  }

  private static Router router() throws Exception {
    return router(
        "{\"replicas\":{\"type\":\"integer\"}}",
        "{\"size\":{\"type\":\"integer\"}}",
        "{\"strategy\":\"FieldRename\",\"fieldRename\":{\"hubPath\":\"spec.replicas\",\"spokePath\":\"spec.size\"}}");
  }

  /** A router for widgets whose hub and spoke {@code spec} have these properties and one rule. */
  private static Router router(String hubSpec, String spokeSpec, String rule) throws Exception {
    var hub =
        SchemaNode.parse(
            JSON.readTree(
                "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":"
                    + hubSpec
                    + "}}}"));
    var spoke =
        SchemaNode.parse(
            JSON.readTree(
                "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":"
                    + spokeSpec
                    + "}}}"));
    var versions =
        List.of(
            new VersionSchema("v2", true, true, hub), new VersionSchema("v1", true, false, spoke));
    SchemaSource source =
        new SchemaSource() {
          @Override
          public List<VersionSchema> versions() {
            return versions;
          }

          @Override
          public String describe() {
            return "CRD widgets.example.com";
          }
        };
    var spec =
        JSON.readTree(
            "{\"hubVersion\":\"v2\",\"spokes\":[{\"version\":\"v1\",\"rules\":[" + rule + "]}]}");
    var config = ((ConfigParser.Result.Parsed) new ConfigParser().parse(spec)).config();
    return new Router(
        ((CompileResult.Compiled) new Compiler().compile(config, source)).config(), "example.com");
  }

  private static byte[] review(String desired, String... objects) {
    return ("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"u-1\",\"desiredAPIVersion\":\""
            + desired
            + "\",\"objects\":["
            + String.join(",", objects)
            + "]}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static final String V1_OBJECT =
      "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"size\":12345678901234567890}}";

  @Test
  void aReviewIsConvertedWithTheUidEchoedAndEveryObjectAtTheDesiredVersion() {
    var outcome =
        processor.process("widgets.example.com", review("example.com/v2", V1_OBJECT, V1_OBJECT));
    assertThat(outcome.httpStatus()).isEqualTo(200);
    assertThat(outcome.result()).isEqualTo(ReviewResult.SUCCESS);
    JsonNode response = outcome.body().path("response");
    assertThat(response.path("uid").asText()).isEqualTo("u-1");
    assertThat(response.path("result").path("status").asText()).isEqualTo("Success");
    assertThat(response.path("convertedObjects"))
        .hasSize(2)
        .allSatisfy(
            o -> {
              assertThat(o.path("apiVersion").asText()).isEqualTo("example.com/v2");
              assertThat(o.path("spec").path("replicas").bigIntegerValue().toString())
                  .isEqualTo("12345678901234567890");
              assertThat(o.path("metadata").path("name").asText()).isEqualTo("a");
            });
    assertThat(outcome.body().path("apiVersion").asText()).isEqualTo("apiextensions.k8s.io/v1");
  }

  @Test
  void aReviewThatArrivedWhileTheTargetWasHeldIsConvertedAfterTheReplicaDropsIt() {
    // routed here while the replica held the target; its drain ends before a worker takes it
    var held = processor.held("widgets.example.com");
    registry.remove("widgets.example.com");

    var outcome =
        processor.process(
            "widgets.example.com",
            held,
            review("example.com/v2", V1_OBJECT),
            ReviewProgress.unbounded());
    var late = processor.process("widgets.example.com", review("example.com/v2", V1_OBJECT));

    assertThat(outcome.result()).isEqualTo(ReviewResult.SUCCESS);
    assertThat(late.result())
        .as("one that arrives after the drop")
        .isEqualTo(ReviewResult.NOT_REGISTERED);
  }

  @Test
  void anUnexpectedExceptionInAnOpIsAFailureReviewThatKeepsItsCauseForTheLog() {
    var bug = new IllegalStateException("an op broke");
    var failing =
        new ReviewProcessor(
            registry,
            (r, o, f, t) -> {
              throw bug;
            });

    var outcome = failing.process("widgets.example.com", review("example.com/v2", V1_OBJECT));

    assertThat(outcome.httpStatus()).isEqualTo(200);
    assertThat(outcome.result()).isEqualTo(ReviewResult.INTERNAL_ERROR);
    assertThat(outcome.cause()).isSameAs(bug);
    assertThat(outcome.body().path("response").path("uid").asText()).isEqualTo("u-1");
    assertThat(outcome.body().path("response").path("result").path("status").asText())
        .isEqualTo("Failure");
    assertThat(outcome.failure())
        .contains("v1 -> v2 (a)")
        .contains("this is a Versio bug, see the webhook server log for request u-1");
  }

  @Test
  void aBodyDenseWithTinyValuesIsRefusedWhileItIsParsed() {
    var small = new ReviewProcessor(registry, 64 * 1024); // at most 8,192 tokens
    var dense =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"request\":{\"uid\":\"u\","
            + "\"desiredAPIVersion\":\"example.com/v2\",\"objects\":[{\"n\":["
            + "0,".repeat(20_000)
            + "0]}]}}";
    var outcome = small.process("widgets.example.com", dense.getBytes(StandardCharsets.UTF_8));
    assertThat(outcome.result()).isEqualTo(ReviewResult.BAD_REQUEST);
    assertThat(outcome.httpStatus()).isEqualTo(400);
    assertThat(outcome.failure()).contains("Token count").contains("exceeds");
    assertThat(
            small
                .process("widgets.example.com", review("example.com/v2", V1_OBJECT, V1_OBJECT))
                .result())
        .as("an ordinary review of the same processor")
        .isEqualTo(ReviewResult.SUCCESS);
  }

  @Test
  void aStalePlanRefusesAnObjectCarryingAFieldItsSchemasDoNotDeclareAndConvertsTheRest()
      throws Exception {
    registry.recordError(
        "widgets.example.com", "crd/widgets", "spec.color is not covered by any rule");
    var unknown =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w1\",\"namespace\":\"team\"},\"spec\":{\"size\":1,\"color\":\"crimson\"}}";
    var known =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"b\"},\"spec\":{\"size\":1}}";

    var refused =
        processor.process("widgets.example.com", review("example.com/v2", known, unknown));
    var converted = processor.process("widgets.example.com", review("example.com/v2", known));

    assertThat(refused.body().path("response").path("result").path("status").asText())
        .isEqualTo("Failure");
    assertThat(refused.body().path("response").path("result").path("message").asText())
        .contains("spec.color is not declared by the schemas the plan of widgets.example.com")
        .contains("crd/widgets no longer compiles against the live schema")
        .contains("(team/w1)")
        .contains("spec.color is not covered by any rule")
        .doesNotContain("crimson");
    assertThat(converted.body().path("response").path("result").path("status").asText())
        .isEqualTo("Success");

    // negative control: the same object through the plan while it is current converts, and the
    // field goes through untouched (what the apiserver would then prune at a version without it)
    registry.set("widgets.example.com", router(), "crd/widgets", "gen=2");
    var current = processor.process("widgets.example.com", review("example.com/v2", unknown));
    assertThat(current.body().path("response").path("result").path("status").asText())
        .isEqualTo("Success");
  }

  @Test
  void aTargetWhoseConfigFailsClosedIsRefusedWithTheCompileError() {
    registry.refuse(
        "widgets.example.com",
        "crd/widgets",
        "spec.color is not covered by any rule (driftPolicy FailClosed: no conversion)");

    var outcome = processor.process("widgets.example.com", review("example.com/v2", V1_OBJECT));

    assertThat(outcome.body().path("response").path("result").path("status").asText())
        .isEqualTo("Failure");
    assertThat(outcome.body().path("response").path("result").path("message").asText())
        .contains("its last compile failed: spec.color is not covered by any rule")
        .contains("driftPolicy FailClosed");
  }

  @Test
  void anUnknownTargetIsAFailureReviewNeverAGuess() {
    var outcome = processor.process("gadgets.example.com", review("example.com/v2", V1_OBJECT));
    assertThat(outcome.httpStatus()).isEqualTo(200);
    assertThat(outcome.result()).isEqualTo(ReviewResult.NOT_REGISTERED);
    assertThat(outcome.body().path("response").path("result").path("status").asText())
        .isEqualTo("Failure");
    assertThat(outcome.body().path("response").path("result").path("message").asText())
        .contains("no conversion plan registered for gadgets.example.com")
        .contains("check the status");
    assertThat(outcome.body().path("response").has("convertedObjects")).isFalse();
  }

  @Test
  void aFailedConversionQuotesTheValueToTheApiserverButLogsAndTracesOnlyItsShape()
      throws Exception {
    registry.set(
        "tokens.example.com",
        router(
            "{\"port\":{\"type\":\"integer\"}}",
            "{\"port\":{\"type\":\"string\"}}",
            "{\"strategy\":\"TypeCoerce\",\"typeCoerce\":{\"path\":\"spec.port\"},\"acknowledgeLossy\":true}"),
        "crd/tokens",
        "gen=1");
    var secret = "ghp_s3cr3tT0kenThatMustNotBeLogged";
    var object =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"t\"},"
            + "\"spec\":{\"port\":\""
            + secret
            + "\"}}";

    var outcome = processor.process("tokens.example.com", review("example.com/v2", object));

    assertThat(outcome.result()).isEqualTo(ReviewResult.ERROR);
    assertThat(outcome.body().path("response").path("result").path("message").asText())
        .as("the apiserver is told the value, cut short")
        .contains("rules[0] (TypeCoerce) at spec.port")
        .contains("'ghp_s3cr3tT0kenThatMustN…' (34 characters) is not a number");
    assertThat(outcome.failure())
        .as("what logs and spans get")
        .contains(
            "converting v1 -> v2 (t): spoke v1, spoke->hub, rules[0] (TypeCoerce) at spec.port")
        .contains("a string of 34 characters")
        .doesNotContain("ghp_");
  }

  @Test
  void oneFailingObjectFailsTheWholeReview() {
    var bad =
        "{\"apiVersion\":\"example.com/v9\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"b\"}}";
    var outcome =
        processor.process("widgets.example.com", review("example.com/v2", V1_OBJECT, bad));
    assertThat(outcome.result()).isEqualTo(ReviewResult.ERROR);
    assertThat(outcome.failure())
        .contains("converting v9 -> v2 (b)")
        .contains("no compiled plan for version v9");
    assertThat(outcome.body().path("response").has("convertedObjects")).isFalse();
  }

  @Test
  void malformedRequestsAreBadRequestsWithAReason() {
    assertThat(
            processor.process("widgets.example.com", "{not json".getBytes(StandardCharsets.UTF_8)))
        .satisfies(
            o -> {
              assertThat(o.httpStatus()).isEqualTo(400);
              assertThat(o.text()).startsWith("decoding ConversionReview");
            });
    assertThat(
            processor
                .process(
                    "widgets.example.com",
                    "{\"apiVersion\":\"apiextensions.k8s.io/v1\"}".getBytes(StandardCharsets.UTF_8))
                .text())
        .isEqualTo("missing request");
    assertThat(
            processor
                .process(
                    "widgets.example.com",
                    "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"request\":{\"desiredAPIVersion\":\"a/v1\",\"objects\":[]}}"
                        .getBytes(StandardCharsets.UTF_8))
                .text())
        .contains("uid");
    assertThat(
            processor
                .process(
                    "widgets.example.com",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}".getBytes(StandardCharsets.UTF_8))
                .text())
        .contains("apiextensions.k8s.io/v1");
  }

  @Test
  void anObjectOfAnotherGroupIsRefused() {
    for (var apiVersion : List.of("other.io/v1", "example.co/v1", "xexample.com/v1", "v1")) {
      var other =
          "{\"apiVersion\":\""
              + apiVersion
              + "\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"c\"}}";
      assertThat(
              processor.process("widgets.example.com", review("example.com/v2", other)).failure())
          .as(apiVersion)
          .contains("not in the group");
    }
  }

  @Test
  void aReviewMixingVersionsConvertsEachObjectFromItsOwnVersion() {
    var v2 =
        "{\"apiVersion\":\"example.com/v2\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"b\"},\"spec\":{\"replicas\":3}}";
    var outcome =
        processor.process(
            "widgets.example.com", review("example.com/v1", V1_OBJECT, v2, V1_OBJECT));
    assertThat(outcome.result()).isEqualTo(ReviewResult.SUCCESS);
    var objects = outcome.body().path("response").path("convertedObjects");
    assertThat(objects).hasSize(3);
    assertThat(objects.get(1).path("spec").path("size").asInt()).isEqualTo(3);
    assertThat(objects.get(1).path("spec").has("replicas")).isFalse();
    assertThat(objects.get(2).path("spec").path("size").bigIntegerValue().toString())
        .isEqualTo("12345678901234567890");
    assertThat(objects)
        .allSatisfy(o -> assertThat(o.path("apiVersion").asText()).isEqualTo("example.com/v1"));
  }

  @Test
  void aPlaceholderWithOnlyAnErrorIsNeverServed() {
    registry.recordError(
        "broken.example.com", "crd/broken", "rules[0]: spec.nope does not resolve");
    var outcome = processor.process("broken.example.com", review("example.com/v2", V1_OBJECT));
    assertThat(outcome.result()).isEqualTo(ReviewResult.NOT_REGISTERED);
    assertThat(outcome.failure())
        .contains("its last compile failed: rules[0]: spec.nope does not resolve");
  }
}
