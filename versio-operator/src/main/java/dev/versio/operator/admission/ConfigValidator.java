package dev.versio.operator.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.ResourceSchemas;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Admission rules for CRDConversionConfig and XRDConversionConfig (CREATE and UPDATE), in order:
 * the kind is enabled; the spec is well formed (the engine's own structural checks); no other
 * config of either kind targets the same name; the referenced server exists (warning only); and,
 * when the target exists, it consents ({@link dev.versio.operator.config.TargetConsent}) and the
 * config compiles against its live schema exactly as the webhook server compiles it. A missing
 * target is accepted with a warning.
 */
public final class ConfigValidator {
  /** At most this many diagnostics are spelled out in one message. */
  static final int MAX_LISTED = 20;

  private final boolean crdSupport;
  private final boolean xrdSupport;
  private final ObjectMapper json = EngineJson.newMapper();
  private final ConfigParser parser = new ConfigParser();
  private final Compiler compiler = new Compiler();

  private final dev.versio.operator.config.TargetConsent consent;

  /**
   * @param consent which targets let a config take their conversion over
   */
  public ConfigValidator(
      boolean crdSupport, boolean xrdSupport, dev.versio.operator.config.TargetConsent consent) {
    this.crdSupport = crdSupport;
    this.xrdSupport = xrdSupport;
    this.consent = java.util.Objects.requireNonNull(consent, "consent");
  }

  /**
   * Validates the config {@code name} of {@code kind} whose spec would become {@code spec}.
   *
   * @throws ClusterView.Unavailable when a read the rules need fails (the caller denies)
   */
  public Verdict validate(
      AdmittedConfigKind kind, String name, ConversionConfigSpec spec, ClusterView cluster) {
    return validate(kind, name, null, spec, cluster);
  }

  /**
   * As {@link #validate(AdmittedConfigKind, String, ConversionConfigSpec, ClusterView)} for an
   * UPDATE whose stored object targets {@code previousTarget} (null on CREATE): the target cannot
   * change.
   */
  public Verdict validate(
      AdmittedConfigKind kind,
      String name,
      String previousTarget,
      ConversionConfigSpec spec,
      ClusterView cluster) {
    var self = kind.ref(name);
    if (!enabled(kind)) {
      return Verdict.deny(self + ": " + disabledMessage(kind));
    }
    if (spec == null) {
      return Verdict.deny(
          self + ": spec is required; set spec.hubVersion, spec.spokes and " + kind.targetField());
    }
    var target = spec.targetName();
    if (target == null || target.isBlank()) {
      return Verdict.deny(
          self
              + ": "
              + kind.targetField()
              + " is required; set it to the name of the "
              + kind.targetKind()
              + " this config converts");
    }
    if (previousTarget != null && !previousTarget.isBlank() && !previousTarget.equals(target)) {
      return Verdict.deny(
          self
              + ": "
              + kind.targetField()
              + " cannot change (from '"
              + previousTarget
              + "' to '"
              + target
              + "'): '"
              + previousTarget
              + "' would keep pointing at a webhook that stops serving it. Delete this config"
              + " (the operator reverts '"
              + previousTarget
              + "' first) and create a new one for '"
              + target
              + "'");
    }
    JsonNode specTree;
    try {
      specTree = json.readTree(json.writeValueAsString(spec));
    } catch (JsonProcessingException e) {
      return Verdict.deny(self + ": spec cannot be read: " + e.getOriginalMessage());
    }
    var warnings = new LinkedHashSet<String>();
    ConfigParser.Result.Parsed parsed;
    switch (parser.parse(specTree)) {
      case ConfigParser.Result.Invalid invalid -> {
        return Verdict.deny(
            self
                + ": spec is invalid: "
                + errors(invalid.diagnostics())
                + "; fix the rules named above ('versio validate -c FILE' shows the same findings)");
      }
      case ConfigParser.Result.Parsed ok -> parsed = ok;
    }
    parsed.warnings().forEach(d -> warnings.add(self + ": " + d));

    var clash = otherConfigsTargeting(kind, name, target, cluster);
    if (!clash.isEmpty()) {
      return Verdict.deny(
          self
              + ": "
              + kind.targetField()
              + " '"
              + target
              + "' is already targeted by "
              + String.join(", ", clash)
              + "; registry keys are the bare target name shared by CRDConversionConfig and"
              + " XRDConversionConfig objects, so one target can have only one config of either"
              + " kind: edit "
              + clash.getFirst()
              + " instead, or delete it first",
          List.copyOf(warnings));
    }

    var ref = spec.webhookServerRef == null ? null : spec.webhookServerRef.name;
    if (ref != null
        && !ref.isBlank()
        && cluster.servers().stream().noneMatch(s -> ref.equals(s.getMetadata().getName()))) {
      warnings.add(
          self
              + ": spec.webhookServerRef names ConversionWebhookServer '"
              + ref
              + "', which does not exist; the config will report Invalid until it does (create"
              + " the server or fix the reference)");
    }

    var definition = kind == AdmittedConfigKind.CRD ? cluster.crd(target) : cluster.xrd(target);
    if (definition.isEmpty()) {
      warnings.add(
          self
              + ": "
              + kind.targetKind()
              + " '"
              + target
              + "' does not exist, so live validation against its schema was skipped; the"
              + " config waits until it exists (check it offline first: versio analyze -c FILE --"
              + kind.targetKind().toLowerCase(Locale.ROOT)
              + " DEFINITION.yaml)");
      return Verdict.allow(List.copyOf(warnings));
    }
    var refusal =
        consent.refusal(
            kind.kind(),
            name,
            kind.targetKind(),
            target,
            definition.get(),
            annotationsOf(definition.get()));
    if (refusal.isPresent()) {
      return Verdict.deny(self + ": " + refusal.get(), List.copyOf(warnings));
    }
    return live(kind, self, target, definition.get(), parsed, warnings);
  }

  private static java.util.Map<String, String> annotationsOf(JsonNode definition) {
    var out = new java.util.HashMap<String, String>();
    definition
        .path("metadata")
        .path("annotations")
        .properties()
        .forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  private Verdict live(
      AdmittedConfigKind kind,
      String self,
      String target,
      JsonNode definition,
      ConfigParser.Result.Parsed parsed,
      LinkedHashSet<String> warnings) {
    CompileResult result;
    try {
      var source =
          kind == AdmittedConfigKind.CRD
              ? ResourceSchemas.crd(definition)
              : ResourceSchemas.xrd(definition);
      result = compiler.compile(parsed.config(), source);
    } catch (RuntimeException e) {
      return Verdict.deny(
          self
              + ": cannot validate against the live "
              + kind.targetKind()
              + " schema of "
              + target
              + ": "
              + e.getMessage()
              + "; check the "
              + kind.targetKind()
              + "'s spec.versions",
          List.copyOf(warnings));
    }
    return switch (result) {
      case CompileResult.Rejected rejected -> {
        rejected.diagnostics().stream()
            .filter(d -> !d.isError())
            .forEach(d -> warnings.add(self + ": " + d));
        yield Verdict.deny(
            self
                + ": configuration is invalid against the live "
                + kind.targetKind()
                + " schema of "
                + target
                + ": "
                + errors(rejected.diagnostics())
                + "; fix the rules named above, or change the "
                + kind.targetKind()
                + " first",
            List.copyOf(warnings));
      }
      case CompileResult.Compiled compiled -> {
        compiled.config().warnings().stream()
            .filter(d -> !d.isError())
            .forEach(d -> warnings.add(self + ": " + d));
        yield Verdict.allow(List.copyOf(warnings));
      }
    };
  }

  /** Other configs (either kind, not this one) whose target is {@code target}, sorted. */
  private static List<String> otherConfigsTargeting(
      AdmittedConfigKind kind, String name, String target, ClusterView cluster) {
    var crd =
        cluster.crdConfigs().stream()
            .filter(c -> c.getSpec() != null && target.equals(c.getSpec().targetName()))
            .map(c -> c.getMetadata().getName())
            .filter(n -> !(kind == AdmittedConfigKind.CRD && n.equals(name)))
            .map(AdmittedConfigKind.CRD::ref);
    var xrd =
        cluster.xrdConfigs().stream()
            .filter(c -> c.getSpec() != null && target.equals(c.getSpec().targetName()))
            .map(c -> c.getMetadata().getName())
            .filter(n -> !(kind == AdmittedConfigKind.XRD && n.equals(name)))
            .map(AdmittedConfigKind.XRD::ref);
    return Stream.concat(crd, xrd).sorted().toList();
  }

  /** Whether the kind is enabled on this installation. */
  boolean enabled(AdmittedConfigKind kind) {
    return kind == AdmittedConfigKind.CRD ? crdSupport : xrdSupport;
  }

  static String disabledMessage(AdmittedConfigKind kind) {
    return (kind == AdmittedConfigKind.CRD
            ? "native CRD conversion support"
            : "XRD conversion support")
        + " is disabled on this installation ("
        + kind.flag()
        + "=false); enable it before creating "
        + kind.kind()
        + " objects";
  }

  /** {@code N error(s): d1; d2; ...} with at most {@link #MAX_LISTED} spelled out. */
  static String errors(List<Diagnostic> diagnostics) {
    var errors = diagnostics.stream().filter(Diagnostic::isError).toList();
    var listed = new ArrayList<String>();
    errors.stream().limit(MAX_LISTED).forEach(d -> listed.add(d.toString()));
    if (errors.size() > MAX_LISTED) {
      listed.add("and " + (errors.size() - MAX_LISTED) + " more");
    }
    return errors.size() + " error(s): " + String.join("; ", listed);
  }
}
