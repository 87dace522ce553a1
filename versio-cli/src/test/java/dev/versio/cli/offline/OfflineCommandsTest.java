package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.cli.VersioCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

class OfflineCommandsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path tmp;

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  static Path examples() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
      dir = dir.getParent();
    }
    return dir.resolve("examples");
  }

  static Stream<Path> stories() throws IOException {
    try (var list = Files.list(examples())) {
      return list.filter(p -> Files.exists(p.resolve("config.yaml"))).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void everyExampleStoryPassesVersioTestStrict(Path story) {
    var xrd = Files.exists(story.resolve("xrd.yaml"));
    int code =
        run(
            "test",
            "-c",
            story.resolve("config.yaml").toString(),
            xrd ? "--xrd" : "--crd",
            story.resolve(xrd ? "xrd.yaml" : "crd.yaml").toString(),
            "-s",
            story.resolve("samples").toString(),
            "--strict");
    assertThat(code).as("versio test on %s:%n%s%s", story.getFileName(), out, err).isZero();
    assertThat(out.toString()).contains("0 fail (unacknowledged change or rejected), 0 error");
  }

  @Test
  void anXrdAsCrossplaneOneStoresItAtV1IsReadLikeOneAtV2() throws IOException {
    var story = examples().resolve("crossplane-xr");
    var atV1 = tmp.resolve("xrd-v1.yaml");
    Files.writeString(
        atV1,
        Files.readString(story.resolve("xrd.yaml"))
            .replace("apiextensions.crossplane.io/v2", "apiextensions.crossplane.io/v1"));
    assertThat(Files.readString(atV1)).contains("apiextensions.crossplane.io/v1");

    int code =
        run(
            "test",
            "-c",
            story.resolve("config.yaml").toString(),
            "--xrd",
            atV1.toString(),
            "-s",
            story.resolve("samples").toString(),
            "--strict");

    assertThat(code).as("%s%s", out, err).isZero();
    assertThat(out.toString()).contains("0 fail (unacknowledged change or rejected), 0 error");
  }

  @Test
  void validateExitsZeroForAValidConfigAndOneForAnInvalidOneInEveryFormat() throws IOException {
    var story = examples().resolve("field-rename");
    assertThat(
            run(
                "validate",
                "-c",
                story.resolve("config.yaml").toString(),
                "--crd",
                story.resolve("crd.yaml").toString()))
        .isZero();
    var broken = tmp.resolve("broken.yaml");
    Files.writeString(
        broken, Files.readString(story.resolve("config.yaml")).replace("spec.size", "spec.sise"));
    assertThat(
            run("validate", "-c", broken.toString(), "--crd", story.resolve("crd.yaml").toString()))
        .isEqualTo(1);
    assertThat(out.toString()).contains("INVALID").contains("spec.sise").contains("fix:");
    assertThat(
            run(
                "validate",
                "-c",
                broken.toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-o",
                "json"))
        .isEqualTo(1);
    assertThat(out.toString())
        .contains("\"valid\" : false")
        .contains("\"code\" : \"PATH_NOT_FOUND\"");
  }

  @Test
  void withoutASchemaValidateNeverSaysValidOnlyThatTheStructureIsOk() {
    var typo = examples().resolve("mistakes").resolve("typo-in-path.yaml").toString();

    assertThat(run("validate", "-c", typo)).isZero();
    assertThat(out.toString())
        .contains("STRUCTURE OK")
        .contains("not checked against a schema")
        .doesNotContainPattern("(?m)^VALID$");

    out.getBuffer().setLength(0);
    assertThat(run("validate", "-c", typo, "-o", "json")).isZero();
    assertThat(out.toString())
        .contains("\"schemaValidated\" : false")
        .contains("\"valid\" : false")
        .contains("\"result\" : \"structure-ok\"");
  }

  @Test
  void aConfigCheckedAgainstAnotherDefinitionThanItNamesIsInvalid() throws IOException {
    var story = examples().resolve("field-rename");
    var other = tmp.resolve("other.yaml");
    Files.writeString(
        other,
        Files.readString(story.resolve("config.yaml"))
            .replace(
                "targetCRD: {name: caches.example.com}", "targetCRD: {name: other.example.com}"));

    assertThat(
            run("validate", "-c", other.toString(), "--crd", story.resolve("crd.yaml").toString()))
        .isEqualTo(1);
    // the text wraps at 80 columns, and where depends on the length of the checkout's path
    assertThat(out.toString().replaceAll("\\s+", " "))
        .contains("INVALID")
        .contains("the config converts 'other.example.com' (spec.targetCRD.name)")
        .contains("defines 'caches.example.com'");
  }

  @Test
  void aMisspelledSpecKeyIsAnErrorThatNamesTheKeyOfTheConfigsKind() throws IOException {
    var story = examples().resolve("field-rename");
    var typo = tmp.resolve("typo.yaml");
    Files.writeString(
        typo,
        Files.readString(story.resolve("config.yaml"))
            .replace("targetCRD:", "targetCrd:")
            .replace("hubVersion: v2", "hubVersion: v2\n  driftPolicy: FailClosed"));

    assertThat(run("validate", "-c", typo.toString(), "-o", "json")).isEqualTo(1);
    var diagnostics = new ObjectMapper().readTree(out.toString()).path("diagnostics");
    assertThat(diagnostics).hasSize(1);
    assertThat(diagnostics.get(0).path("code").asText()).isEqualTo("UNKNOWN_KEY");
    assertThat(diagnostics.get(0).path("path").asText()).isEqualTo("targetCrd");
    assertThat(diagnostics.get(0).path("hint").asText()).isEqualTo("did you mean 'targetCRD'?");
  }

  @Test
  void aMisspelledSpokeKeyIsAnErrorThatSaysWhichKeyWasMeant() throws IOException {
    var story = examples().resolve("field-rename");
    var typo = tmp.resolve("typo.yaml");
    Files.writeString(
        typo, Files.readString(story.resolve("config.yaml")).replace("rules:", "rule:"));

    assertThat(
            run(
                "validate",
                "-c",
                typo.toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-o",
                "json"))
        .isEqualTo(1);
    var diagnostics = new ObjectMapper().readTree(out.toString()).path("diagnostics");
    assertThat(diagnostics).hasSize(1);
    assertThat(diagnostics.get(0).path("code").asText()).isEqualTo("UNKNOWN_KEY");
    assertThat(diagnostics.get(0).path("path").asText()).isEqualTo("spokes[0].rule");
    assertThat(diagnostics.get(0).path("hint").asText()).isEqualTo("did you mean 'rules'?");
  }

  @Test
  void aYamlSyntaxErrorNamesFileLineColumnAndTheParsersReason() throws IOException {
    var broken = tmp.resolve("broken.yaml");
    Files.writeString(
        broken,
        "apiVersion: versio.dev/v1alpha1\nkind: CRDConversionConfig\nmetadata:\n  name: x\n"
            + "spec:\n  hubVersion: v2\n  spokes: [\n   - bad\n");

    assertThat(run("validate", "-c", broken.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains(broken + ":8:4: not valid YAML: expected the node content, but found '-'");
  }

  @Test
  void aBinaryFileIsSaidToBeNoTextNotACharsetException() throws IOException {
    var binary = tmp.resolve("binary.yaml");
    var bytes = new byte[256];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (0x80 + i % 0x40);
    }
    Files.write(binary, bytes);

    assertThat(run("validate", "-c", binary.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("is not UTF-8 text").doesNotContain("Exception");
  }

  @Test
  void unreadableFilesAndMismatchedKindFlagsAreLoadErrorsWithExitCodeTwo() {
    var story = examples().resolve("field-rename");
    assertThat(run("validate", "-c", tmp.resolve("nope.yaml").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("nope.yaml does not exist");
    assertThat(
            run(
                "analyze",
                "-c",
                story.resolve("config.yaml").toString(),
                "--xrd",
                story.resolve("crd.yaml").toString()))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("is a CRDConversionConfig; pass its target schema with --crd, not --xrd");
  }

  @Test
  void analyzeReportsVerdictsPerSpokeAsJson() throws IOException {
    var story = examples().resolve("kitchen-sink");
    assertThat(
            run(
                "analyze",
                "-c",
                story.resolve("config.yaml").toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-o",
                "json"))
        .isZero();
    var json = new ObjectMapper().readTree(out.toString());
    assertThat(json.path("hubVersion").asText()).isEqualTo("v2");
    assertThat(json.path("spokes")).hasSize(2);
    assertThat(json.path("lossless").asBoolean()).isFalse();
  }

  @Test
  void analyzeShowsACounterexampleForEveryLossyDirectionItCanRunBackwards() throws IOException {
    var story = examples().resolve("kitchen-sink");
    run(
        "analyze",
        "-c",
        story.resolve("config.yaml").toString(),
        "--crd",
        story.resolve("crd.yaml").toString(),
        "-o",
        "json");
    var json = new ObjectMapper().readTree(out.toString());
    var duration =
        json.findValues("lossyRules").stream()
            .flatMap(rules -> java.util.stream.StreamSupport.stream(rules.spliterator(), false))
            .filter(r -> r.path("strategy").asText().equals("Duration"))
            .findFirst()
            .orElseThrow();
    var example = duration.path("counterexamples").get(0);
    assertThat(example.path("direction").asText()).isEqualTo("hub->spoke");
    assertThat(example.path("before").path("spec.grace").asText()).isEqualTo("90m");
    assertThat(example.path("converted").path("spec.graceSeconds").asLong()).isEqualTo(5400);
    assertThat(example.path("after").path("spec.grace").asText()).isEqualTo("1h30m0s");
  }

  @Test
  void theErrorRejectingAnUnacknowledgedLossShowsWhatIsLostAndValidateListsAcknowledgedOnes() {
    var mistakes = examples().resolve("mistakes");
    assertThat(
            run(
                "validate",
                "-c",
                mistakes.resolve("unacknowledged-loss.yaml").toString(),
                "--crd",
                mistakes.resolve("crd.yaml").toString()))
        .isEqualTo(1);
    assertThat(out.toString().replaceAll("\\s+", " "))
        .contains(
            "hub->spoke conversion is lossy but acknowledgeLossy is not set; e.g. spec.engine")
        .contains("(not kept) -> spec.engine absent")
        .contains(
            "LOSSY [v1] rules[3] DefaultValue spec.engine: loses data spoke->hub (acknowledged)");
  }

  @Test
  void convertPrintsTheObjectAtTheRequestedVersion() {
    var story = examples().resolve("field-rename");
    assertThat(
            run(
                "convert",
                "-c",
                story.resolve("config.yaml").toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-f",
                story.resolve("samples/small.v1.yaml").toString(),
                "--to",
                "v2"))
        .isZero();
    assertThat(out.toString())
        .contains("apiVersion: example.com/v2")
        .contains("replicas: 3")
        .doesNotContain("size:");
  }

  @Test
  void aFieldAWhenGatedRuleDropsIsRefusedUnlessAcknowledgedAndThenReportedAsAnAcknowledgedLoss()
      throws IOException {
    var story = examples().resolve("kitchen-sink");
    var sample = tmp.resolve("basic-plan.yaml");
    Files.writeString(
        sample,
        Files.readString(story.resolve("samples/full.v2.yaml"))
            .replace("plan: enterprise", "plan: basic"));
    var unacknowledged = tmp.resolve("unacknowledged.yaml");
    Files.writeString(
        unacknowledged,
        Files.readString(story.resolve("config.yaml"))
            .replace(
                "      when: {path: spec.plan, equals: enterprise}\n      acknowledgeLossy: true\n",
                "      when: {path: spec.plan, equals: enterprise}\n")
            .replaceAll("      reason: only enterprise plans have a burst limit.*\n", ""));
    assertThat(Files.readString(unacknowledged)).doesNotContain("only enterprise plans");

    assertThat(
            run(
                "test",
                "-c",
                unacknowledged.toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-s",
                sample.toString()))
        .isNotZero();
    assertThat(out.toString() + err)
        .contains("where spec.plan is not \"enterprise\" the rule does not run");

    out.getBuffer().setLength(0);
    assertThat(
            run(
                "test",
                "-c",
                story.resolve("config.yaml").toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-s",
                sample.toString()))
        .isZero();
    assertThat(out.toString()).contains("v2->v3").contains("spec.burstLimit");
  }

  private Path configDroppingTheBurstLimit() throws IOException {
    return dev.versio.cli.KitchenSinkVariants.droppingTheBurstLimit(examples(), tmp);
  }

  @Test
  void junitReportHasOneCaseForTheChosenPairWithTheLostFieldAsAFailure() throws Exception {
    var story = examples().resolve("kitchen-sink");
    int code =
        run(
            "test",
            "-c",
            configDroppingTheBurstLimit().toString(),
            "--crd",
            story.resolve("crd.yaml").toString(),
            "-s",
            story.resolve("samples/full.v2.yaml").toString(),
            "--version-pair",
            "v2:v3",
            "-o",
            "junit");
    assertThat(code).as("%s%s", out, err).isEqualTo(1);
    var xml =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new InputSource(new StringReader(out.toString())));
    var suite = (Element) xml.getElementsByTagName("testsuite").item(0);
    assertThat(suite.getAttribute("tests")).isEqualTo("1");
    assertThat(suite.getAttribute("failures")).isEqualTo("1");
    var testCase = (Element) xml.getElementsByTagName("testcase").item(0);
    assertThat(testCase.getAttribute("name")).isEqualTo("v2 -> v3 -> v2");
    var failure = (Element) testCase.getElementsByTagName("failure").item(0);
    assertThat(failure.getAttribute("message")).contains("spec.burstLimit");
  }

  @Test
  void convertingToAVersionTheTargetDoesNotHaveIsAUsageErrorThatListsItsVersions()
      throws IOException {
    var story = examples().resolve("field-rename");
    Path sample;
    try (var samples = Files.list(story.resolve("samples"))) {
      sample = samples.sorted().findFirst().orElseThrow();
    }

    int code =
        run(
            "convert",
            "-c",
            story.resolve("config.yaml").toString(),
            "--crd",
            story.resolve("crd.yaml").toString(),
            "-f",
            sample.toString(),
            "--to",
            "v9");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .contains("--to v9 is not a version of caches.example.com (its versions: v1, v2)");
  }

  @Test
  void aVersionPairNamingAnUnknownVersionIsALoadErrorThatListsTheKnownOnes() {
    var story = examples().resolve("field-rename");
    int code =
        run(
            "test",
            "-c",
            story.resolve("config.yaml").toString(),
            "--crd",
            story.resolve("crd.yaml").toString(),
            "-s",
            story.resolve("samples").toString(),
            "--version-pair",
            "v1:v9");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("v9").contains("[v");
  }

  @Test
  void suggestScalesTheKitchenSinkTimeoutFromMillisecondsToSecondsInsteadOfRenamingIt() {
    var crd = examples().resolve("kitchen-sink").resolve("crd.yaml").toString();

    assertThat(run("suggest", "--crd", crd)).as("%s", err).isZero();

    assertThat(out.toString())
        .contains(
            "numericScale: {hubPath: \"spec.timeoutMs\", spokePath: \"spec.timeoutSec\","
                + " factor: 1000}")
        .doesNotContain("fieldRename: {hubPath: \"spec.timeoutMs\"");
  }

  @Test
  void suggestNeverPairsTheKitchenSinkSelectorsWithItsUnrelatedBillingMap() {
    var crd = examples().resolve("kitchen-sink").resolve("crd.yaml").toString();

    assertThat(run("suggest", "--crd", crd)).as("%s", err).isZero();

    assertThat(out.toString()).doesNotContain("spokePath: \"spec.billing\"");
    assertThat(out.toString())
        .contains("# review: spec.selectors has no counterpart in v1")
        .contains("# review: spec.billing exists only in v1");
  }

  @Test
  void suggestLeavesTheFieldRenameStorysSynonymsToTheAuthorInADraftThatParses() throws IOException {
    var crd = examples().resolve("field-rename").resolve("crd.yaml").toString();
    assertThat(run("suggest", "--crd", crd)).as("%s", err).isZero();
    assertThat(out.toString())
        .doesNotContain("fieldRename")
        .contains("# review: spec.replicas has no counterpart in v1")
        .contains("# review: spec.size exists only in v1");
    var draft = tmp.resolve("config.yaml");
    Files.writeString(draft, out.toString());
    out.getBuffer().setLength(0);

    assertThat(run("validate", "-c", draft.toString())).as("%s", out).isZero();
    assertThat(run("validate", "-c", draft.toString(), "--crd", crd)).isEqualTo(1);
  }

  @Test
  void aSuggestedDraftWithRulesAndCommentedOutRenamesParsesAndItsRulesCompile() throws IOException {
    var crd = examples().resolve("kitchen-sink").resolve("crd.yaml").toString();
    assertThat(run("suggest", "--crd", crd)).as("%s", err).isZero();
    assertThat(out.toString())
        .contains("# review: maybe renamed: burstLimit and burst share some words")
        .contains("#   fieldRename: {hubPath: \"spec.burstLimit\", spokePath: \"spec.burst\"}");
    var draft = tmp.resolve("config.yaml");
    Files.writeString(draft, out.toString());
    out.getBuffer().setLength(0);

    assertThat(run("validate", "-c", draft.toString())).as("%s", out).isZero();
    out.getBuffer().setLength(0);
    assertThat(run("analyze", "-c", draft.toString(), "--crd", crd, "-o", "json")).isEqualTo(1);
    var ruleFindings = new ArrayList<String>();
    for (var d : new ObjectMapper().readTree(out.toString()).path("diagnostics")) {
      if (d.hasNonNull("rule")) {
        ruleFindings.add(d.path("rule").asText() + " " + d.path("code").asText());
      }
    }
    assertThat(ruleFindings)
        .as("only the lossy rules wait for the author's acknowledgement")
        .isNotEmpty()
        .allMatch(e -> e.endsWith("LOSSY_NOT_ACKNOWLEDGED"));
  }

  @Test
  void suggestWritesRenamesInsideListsAsOneForEachPerListAndTheDraftLeavesOnlyTheNamedFields()
      throws IOException {
    var crd = examples().resolve("gateway-route").resolve("crd.yaml").toString();
    assertThat(run("suggest", "--crd", crd)).as("%s", err).isZero();
    assertThat(out.toString())
        .contains(
            """
                - strategy: ForEach
                  forEach:
                    hubItemsPath: "spec.rules"
                    spokeItemsPath: "spec.rules"
                    rules:
            """)
        .contains("fieldRename: {hubPath: \"timeouts.request\", spokePath: \"requestTimeout\"}")
        .contains("# review: maybe renamed: spec.rules[].matches[].headers[].type <-");
    var draft = tmp.resolve("config.yaml");
    Files.writeString(draft, out.toString());
    out.getBuffer().setLength(0);
    assertThat(run("analyze", "-c", draft.toString(), "--crd", crd, "-o", "json")).isEqualTo(1);
    var uncovered = new ArrayList<String>();
    for (var d : new ObjectMapper().readTree(out.toString()).path("diagnostics")) {
      if (d.path("code").asText().equals("UNCOVERED_FIELD")) {
        uncovered.add(d.path("path").asText());
      }
    }
    assertThat(uncovered)
        .as("the fields the draft's comments leave to the author, and nothing else")
        .containsExactlyInAnyOrder(
            "spec.rules[].matches[].headers[].type",
            "spec.rules[].matches[].headers[].matchType",
            "spec.rules[].backendRefs[].weight");
  }

  @Test
  void generatePrintsASkeletonThatParsesButStillNeedsItsRules() throws IOException {
    var story = examples().resolve("field-rename");
    var crd = story.resolve("crd.yaml").toString();
    assertThat(run("generate", "--crd", crd)).as("%s", err).isZero();
    var draft = tmp.resolve("config.yaml");
    Files.writeString(draft, out.toString());
    out.getBuffer().setLength(0);

    assertThat(run("validate", "-c", draft.toString())).as("%s", out).isZero();
    assertThat(run("validate", "-c", draft.toString(), "--crd", crd)).isEqualTo(1);
    assertThat(out.toString()).contains("spec.replicas");
  }

  @Test
  void suggestAsJsonListsRenamesConversionsAndPossibleRenamesAsData() throws IOException {
    var crd = examples().resolve("kitchen-sink").resolve("crd.yaml").toString();
    assertThat(run("suggest", "--crd", crd, "-o", "json")).isZero();
    var json = new ObjectMapper().readTree(out.toString());
    assertThat(json.path("hubVersion").asText()).isEqualTo("v2");
    var v3 = json.path("spokes").path(1);
    assertThat(v3.path("version").asText()).isEqualTo("v3");
    assertThat(v3.path("renames")).isEmpty();
    JsonNode scale = null;
    for (var c : v3.path("conversions")) {
      if (c.path("strategy").asText().equals("NumericScale")) {
        scale = c;
      }
    }
    assertThat(scale).as("a NumericScale among %s", v3.path("conversions")).isNotNull();
    assertThat(scale.path("hubPath").asText()).isEqualTo("spec.timeoutMs");
    assertThat(scale.path("spokePath").asText()).isEqualTo("spec.timeoutSec");
    assertThat(scale.path("factor").toString()).isEqualTo("1000");
    assertThat(v3.path("possibleRenames").path(0).path("hubPath").asText())
        .isEqualTo("spec.burstLimit");
  }

  @Test
  void suggestWithoutADefinitionSaysWhichFlagToPass() {
    assertThat(run("suggest")).isEqualTo(2);
    assertThat(err.toString()).contains("--crd FILE or --xrd FILE");
  }

  static final String LOSSIER_FIELD_RENAME =
      """
      apiVersion: versio.dev/v1alpha1
      kind: CRDConversionConfig
      metadata:
        name: caches.example.com
      spec:
        targetCRD: {name: caches.example.com}
        hubVersion: v2
        spokes:
        - version: v1
          rules:
          - strategy: FieldRename
            fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
          - strategy: Delete
            delete: {path: status.state, existsOn: Hub}
            acknowledgeLossy: true
            reason: v1 readers ignore the state
          - strategy: Delete
            delete: {path: status.phase, existsOn: Spoke}
            acknowledgeLossy: true
            reason: recomputed by the controller
      """;

  @Test
  void diffNamesTheChangedClaimsAndSaysWhenADirectionBecameLossy() throws IOException {
    var story = examples().resolve("field-rename");
    var lossier = tmp.resolve("new.yaml");
    Files.writeString(lossier, LOSSIER_FIELD_RENAME);
    var crd = story.resolve("crd.yaml").toString();

    int code =
        run("diff", story.resolve("config.yaml").toString(), lossier.toString(), "--crd", crd);

    assertThat(code).isEqualTo(1);
    assertThat(out.toString())
        .contains("spoke v1: changed (WORSE)")
        .contains("hub->spoke lossless -> LOSSY")
        .contains("- FieldRename hub status.state <-> spoke status.phase")
        .contains("+ Delete hub status.state (lossy, acknowledged)");
    out.getBuffer().setLength(0);
    assertThat(
            run(
                "diff",
                story.resolve("config.yaml").toString(),
                story.resolve("config.yaml").toString(),
                "--crd",
                crd))
        .isZero();
    assertThat(out.toString()).contains("no difference");
  }

  @Test
  void strictFailsOnRulesNoSampleExercisedAndNamesThem() {
    var story = examples().resolve("crossplane-xr");
    String[] args = {
      "test",
      "-c",
      story.resolve("config.yaml").toString(),
      "--xrd",
      story.resolve("xrd.yaml").toString(),
      "-s",
      story.resolve("samples/orders-db.v1alpha1.yaml").toString()
    };
    assertThat(run(args)).isZero();
    out.getBuffer().setLength(0);

    var strict = Stream.concat(Stream.of(args), Stream.of("--strict")).toArray(String[]::new);
    assertThat(run(strict)).isEqualTo(1);
    assertThat(InputErrorsTest.flat(out))
        .contains("RULES NOT EXERCISED")
        .contains("v1alpha1 rules[2] Delete")
        .contains("v1beta1 rules[1] Delete")
        .contains(
            "FAILED (--strict): 2 rule(s) not exercised by any sample: v1alpha1 rules[2] Delete,");
  }

  @Test
  void concurrentTestingReportsTheSamePathsInTheSameOrder() {
    var story = examples().resolve("kitchen-sink");
    String[] args = {
      "test",
      "-c",
      story.resolve("config.yaml").toString(),
      "--crd",
      story.resolve("crd.yaml").toString(),
      "-s",
      story.resolve("samples").toString(),
      "--concurrency"
    };
    assertThat(run(Stream.concat(Stream.of(args), Stream.of("1")).toArray(String[]::new))).isZero();
    var serial = out.toString();
    out.getBuffer().setLength(0);

    assertThat(run(Stream.concat(Stream.of(args), Stream.of("0")).toArray(String[]::new))).isZero();
    assertThat(out.toString()).isEqualTo(serial);
  }

  @Test
  void completionPrintsABashScript() {
    assertThat(run("completion", "bash")).isZero();
    assertThat(out.toString()).contains("complete -F").contains("versio");
  }
}
