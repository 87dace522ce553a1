package dev.versio.operator.admission;

import static dev.versio.operator.admission.FakeCluster.crdConfig;
import static dev.versio.operator.admission.FakeCluster.example;
import static dev.versio.operator.admission.FakeCluster.xrdConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.XRDConversionConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigValidatorTest {
  private static final String CACHES = "caches.example.com";
  private final ConfigValidator validator = new ConfigValidator(true, true, FakeCluster.ANY_TARGET);
  private final FakeCluster cluster = new FakeCluster();

  private Verdict validate(CRDConversionConfig config) {
    return validator.validate(
        AdmittedConfigKind.CRD, config.getMetadata().getName(), config.getSpec(), cluster);
  }

  private Verdict validate(XRDConversionConfig config) {
    return validator.validate(
        AdmittedConfigKind.XRD, config.getMetadata().getName(), config.getSpec(), cluster);
  }

  @Test
  void aCrdConfigIsRejectedWhileCrdSupportIsDisabled() {
    var verdict =
        new ConfigValidator(false, true, FakeCluster.ANY_TARGET)
            .validate(AdmittedConfigKind.CRD, "c", crdConfig("c", CACHES, null).getSpec(), cluster);

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .isEqualTo(
            "CRDConversionConfig/c: native CRD conversion support is disabled on this installation"
                + " (--enable-crd-support=false); enable it before creating CRDConversionConfig"
                + " objects");
    assertThat(cluster.reads).isZero();
  }

  @Test
  void anXrdConfigIsRejectedWhileXrdSupportIsDisabled() {
    var verdict =
        new ConfigValidator(true, false, FakeCluster.ANY_TARGET)
            .validate(
                AdmittedConfigKind.XRD,
                "x",
                xrdConfig("x", "x.example.org", null).getSpec(),
                cluster);

    assertThat(verdict.message())
        .isEqualTo(
            "XRDConversionConfig/x: XRD conversion support is disabled on this installation"
                + " (--enable-xrd-support=false); enable it before creating XRDConversionConfig"
                + " objects");
  }

  @Test
  void aBlankTargetNameIsRejectedNamingTheField() {
    var config = crdConfig("c", " ", null);

    assertThat(validate(config).message())
        .isEqualTo(
            "CRDConversionConfig/c: spec.targetCRD.name is required; set it to the name of the CRD"
                + " this config converts");
  }

  @Test
  void anUpdateMayNotMoveAConfigToAnotherTarget() {
    var config = crdConfig("c", "gadgets.example.com", null);

    var verdict =
        validator.validate(AdmittedConfigKind.CRD, "c", CACHES, config.getSpec(), cluster);

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .startsWith(
            "CRDConversionConfig/c: spec.targetCRD.name cannot change (from 'caches.example.com'"
                + " to 'gadgets.example.com')")
        .contains("Delete this config");
  }

  @Test
  void anUpdateThatKeepsTheTargetIsJudgedLikeACreate() {
    var config = crdConfig("c", CACHES, null);

    var verdict =
        validator.validate(AdmittedConfigKind.CRD, "c", CACHES, config.getSpec(), cluster);

    assertThat(verdict.allowed()).as(String.valueOf(verdict.message())).isTrue();
  }

  @Test
  void everyStructuralErrorOfTheEngineIsListedInOneDenial() {
    var config = crdConfig("c", CACHES, null);
    config.getSpec().unmappedFieldPolicy = "Warn";
    config.getSpec().spokes.getFirst().version = "v2";

    var verdict = validate(config);

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .startsWith("CRDConversionConfig/c: spec is invalid: 2 error(s): ")
        .contains("UNMAPPED_REASON_REQUIRED")
        .contains("SPOKE_IS_HUB spoke v2")
        .contains("versio validate");
    assertThat(cluster.reads).isZero();
  }

  static Stream<String> mistakes() throws IOException {
    try (var files = Files.list(FakeCluster.repositoryRoot().resolve("examples/mistakes"))) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".yaml") && !n.equals("crd.yaml"))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest
  @MethodSource("mistakes")
  void everyDocumentedMistakeIsRejectedWithItsDiagnosticCode(String file) throws IOException {
    var text = Files.readString(FakeCluster.repositoryRoot().resolve("examples/mistakes/" + file));
    var matcher = Pattern.compile("# expect: (\\w+)").matcher(text);
    assertThat(matcher.find()).as("%s names the code it expects", file).isTrue();
    cluster.withCrd(example("mistakes/crd.yaml"));

    var verdict = validate(example("mistakes/" + file, CRDConversionConfig.class));

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message()).startsWith("CRDConversionConfig/" + CACHES + ": ");
    assertThat(verdict.message()).contains(matcher.group(1));
  }

  @Test
  void aConfigThatDoesNotFitTheLiveSchemaIsRejectedNamingTheTargetAndTheRule() {
    cluster.withCrd(example("mistakes/crd.yaml"));

    var verdict = validate(example("mistakes/typo-in-path.yaml", CRDConversionConfig.class));

    assertThat(verdict.message())
        .startsWith(
            "CRDConversionConfig/caches.example.com: configuration is invalid against the live"
                + " CRD schema of caches.example.com: ")
        .contains("PATH_NOT_FOUND spoke v1 rules[0]")
        .contains("spec.replica");
  }

  @Test
  void aConfigThatFitsTheLiveSchemaIsAcceptedWithoutWarnings() {
    cluster.withCrd(example("field-rename/crd.yaml"));

    var verdict = validate(example("field-rename/config.yaml", CRDConversionConfig.class));

    assertThat(verdict).isEqualTo(Verdict.allow());
  }

  @Test
  void aConfigForATargetWhoseOwnerDidNotConsentIsDeniedNamingTheAnnotation() {
    cluster.withCrd(example("field-rename/crd.yaml"));
    var config = example("field-rename/config.yaml", CRDConversionConfig.class);
    var byAnnotation =
        new ConfigValidator(true, true, dev.versio.operator.config.TargetConsent.byAnnotation());

    var verdict =
        byAnnotation.validate(
            AdmittedConfigKind.CRD, config.getMetadata().getName(), config.getSpec(), cluster);

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .contains("does not consent to conversion by CRDConversionConfig/")
        .contains("versio.dev/conversion-config=");

    var consenting = example("field-rename/crd.yaml").deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) consenting.path("metadata"))
        .putObject("annotations")
        .put(dev.versio.operator.config.TargetConsent.CONSENT_ANNOTATION, "*");
    cluster.withCrd(consenting);
    assertThat(
            byAnnotation
                .validate(
                    AdmittedConfigKind.CRD,
                    config.getMetadata().getName(),
                    config.getSpec(),
                    cluster)
                .allowed())
        .isTrue();
  }

  @Test
  void anXrdConfigIsCompiledAgainstTheLiveXrd() {
    cluster.withXrd(example("crossplane-xr/xrd.yaml"));

    var verdict = validate(example("crossplane-xr/config.yaml", XRDConversionConfig.class));

    assertThat(verdict.allowed()).as(String.valueOf(verdict.message())).isTrue();
  }

  @Test
  void anXrdConfigAgainstAMissingXrdIsAcceptedWithAWarning() {
    var verdict = validate(example("crossplane-xr/config.yaml", XRDConversionConfig.class));

    assertThat(verdict.allowed()).isTrue();
    assertThat(verdict.warnings())
        .singleElement()
        .asString()
        .contains("XRD 'postgresinstances.db.example.org' does not exist")
        .contains("live validation against its schema was skipped");
  }

  @Test
  void aMissingTargetIsAcceptedWithAWarningThatLiveValidationWasSkipped() {
    var verdict = validate(example("field-rename/config.yaml", CRDConversionConfig.class));

    assertThat(verdict.allowed()).isTrue();
    assertThat(verdict.warnings())
        .containsExactly(
            "CRDConversionConfig/caches.example.com: CRD 'caches.example.com' does not exist, so"
                + " live validation against its schema was skipped; the config waits until it"
                + " exists (check it offline first: versio analyze -c FILE --crd"
                + " DEFINITION.yaml)");
  }

  @Test
  void aTargetAlreadyTakenByAConfigOfTheOtherKindIsRejectedNamingIt() {
    cluster.xrdConfigs.add(xrdConfig("other", CACHES, null));

    var verdict = validate(crdConfig("mine", CACHES, null));

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .startsWith(
            "CRDConversionConfig/mine: spec.targetCRD.name 'caches.example.com' is already"
                + " targeted by XRDConversionConfig/other; registry keys are the bare target name"
                + " shared by CRDConversionConfig and XRDConversionConfig objects")
        .endsWith("edit XRDConversionConfig/other instead, or delete it first");
  }

  @Test
  void aTargetAlreadyTakenByAnotherConfigOfTheSameKindIsRejected() {
    cluster.crdConfigs.add(crdConfig("first", CACHES, null));

    assertThat(validate(crdConfig("second", CACHES, null)).message())
        .contains("already targeted by CRDConversionConfig/first");
  }

  @Test
  void theConfigItselfAndAConfigOfTheOtherKindWithTheSameNameAreToldApart() {
    cluster.crdConfigs.add(crdConfig("same", CACHES, null));

    assertThat(validate(crdConfig("same", CACHES, null)).allowed()).isTrue();
    assertThat(validate(xrdConfig("same", CACHES, null)).message())
        .contains("already targeted by CRDConversionConfig/same");
  }

  @Test
  void aReferenceToAMissingServerIsOnlyAWarning() {
    cluster.withCrd(example("field-rename/crd.yaml"));
    var config = example("field-rename/config.yaml", CRDConversionConfig.class);
    config.getSpec().webhookServerRef = new NameRef("nowhere");

    var verdict = validate(config);

    assertThat(verdict.allowed()).isTrue();
    assertThat(verdict.warnings())
        .containsExactly(
            "CRDConversionConfig/caches.example.com: spec.webhookServerRef names"
                + " ConversionWebhookServer 'nowhere', which does not exist; the config will report"
                + " Invalid until it does (create the server or fix the reference)");
    cluster.with(FakeCluster.server("nowhere"));
    assertThat(validate(config)).isEqualTo(Verdict.allow());
  }

  @Test
  void analysisWarningsBecomeAdmissionWarnings() {
    cluster.withCrd(example("field-rename/crd.yaml"));
    var config = example("field-rename/config.yaml", CRDConversionConfig.class);
    config.getSpec().spokes.getFirst().rules.removeLast();
    config.getSpec().unmappedFieldPolicy = "Warn";
    config.getSpec().unmappedFieldReason = "status is recomputed by the controller";

    var verdict = validate(config);

    assertThat(verdict.allowed()).as(String.valueOf(verdict.message())).isTrue();
    assertThat(verdict.warnings())
        .isNotEmpty()
        .allSatisfy(
            w ->
                assertThat(w)
                    .startsWith("CRDConversionConfig/caches.example.com: WARNING ")
                    .contains("status"));
  }

  @Test
  void anUnreadableLiveDefinitionIsRejectedNotIgnored() {
    var crd = example("field-rename/crd.yaml").deepCopy();
    ((ObjectNode) crd.path("spec")).remove("versions");
    cluster.withCrd(crd);

    var verdict = validate(example("field-rename/config.yaml", CRDConversionConfig.class));

    assertThat(verdict.message())
        .startsWith(
            "CRDConversionConfig/caches.example.com: cannot validate against the live CRD schema"
                + " of caches.example.com: ")
        .contains("has no spec.versions");
  }

  @Test
  void aFailedListIsNotMistakenForAnEmptyCluster() {
    cluster.failing.add("list XRDConversionConfigs");

    assertThatThrownBy(() -> validate(crdConfig("c", CACHES, null)))
        .isInstanceOf(ClusterView.Unavailable.class)
        .hasMessage("cannot list XRDConversionConfigs: connection refused");
  }
}
