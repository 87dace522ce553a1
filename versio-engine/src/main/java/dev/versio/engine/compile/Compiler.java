package dev.versio.engine.compile;

import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import dev.versio.engine.rule.ConversionConfig;
import dev.versio.engine.runtime.CanonicalJson;
import dev.versio.engine.runtime.NullContainers;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * Compiles a config against a target's schemas. The hub must exist and be the storage version;
 * every listed spoke must be served; every served version must be the hub or a listed spoke.
 */
public final class Compiler {
  private final Tools tools = new Tools(new CanonicalJson(), new CelScripts(), true);

  /**
   * Plans for every spoke, or every diagnostic if any is an error. Counterexamples are searched
   * only for losses that are not acknowledged (they explain the rejection); {@link #analyze} shows
   * them for every lossy rule.
   */
  public CompileResult compile(ConversionConfig config, SchemaSource target) {
    var report = analyze(config, target, tools.withAcknowledgedCounterexamples(false));
    if (report.hasErrors()) {
      return new CompileResult.Rejected(report.diagnostics());
    }
    var plans = new LinkedHashMap<String, Plan>();
    report.spokes().forEach(s -> plans.put(s.version(), s.plan().orElseThrow()));
    return new CompileResult.Compiled(
        new CompiledConfig(target.describe(), config.hubVersion(), plans, report.diagnostics()));
  }

  /** Analyses every spoke; returned even when there are errors. */
  public AnalyzeReport analyze(ConversionConfig config, SchemaSource target) {
    return analyze(config, target, tools);
  }

  private AnalyzeReport analyze(ConversionConfig config, SchemaSource target, Tools tools) {
    var versions = new LinkedHashMap<String, VersionSchema>();
    target.versions().forEach(v -> versions.put(v.name(), v));
    var global = Diagnostics.forSpoke(null);
    var hub = versions.get(config.hubVersion());
    if (hub == null) {
      global.error(
          DiagnosticCode.HUB_NOT_FOUND,
          null,
          "hub version "
              + config.hubVersion()
              + " is not a version of "
              + target.describe()
              + " (versions: "
              + String.join(", ", versions.keySet())
              + ")",
          "set hubVersion to the storage version");
    } else if (!hub.storage()) {
      global.error(
          DiagnosticCode.HUB_NOT_STORAGE,
          null,
          "hub version "
              + hub.name()
              + " is not the storage version of "
              + target.describe()
              + " (storage: "
              + versions.values().stream()
                  .filter(VersionSchema::storage)
                  .map(VersionSchema::name)
                  .findFirst()
                  .orElse("none")
              + ")",
          "make the hub the storage version; every stored object then converts in one step");
    }
    var listed = new HashSet<String>();
    config.spokes().forEach(s -> listed.add(s.version()));
    var stored = new HashSet<>(target.storedVersions());
    for (var v : versions.values()) {
      if (!v.served()
          && stored.contains(v.name())
          && !v.name().equals(config.hubVersion())
          && !listed.contains(v.name())) {
        global.error(
            DiagnosticCode.STORED_VERSION_NOT_COVERED,
            null,
            "version "
                + v.name()
                + " of "
                + target.describe()
                + " is no longer served, but objects may still be stored at it"
                + " (status.storedVersions lists it): the apiserver reads them at "
                + v.name()
                + " and converts them, and without a spoke entry they could not be converted",
            "keep spokes: [{version: "
                + v.name()
                + ", rules: [...]}] until every object is stored at the storage version"
                + " (versio migrate-storage re-stores them and prunes status.storedVersions)");
      }
      if (v.served() && !v.name().equals(config.hubVersion()) && !listed.contains(v.name())) {
        global.error(
            DiagnosticCode.SERVED_VERSION_NOT_COVERED,
            null,
            "served version "
                + v.name()
                + " of "
                + target.describe()
                + " has no spoke entry, so reads at "
                + v.name()
                + " could not be converted",
            "add spokes: [{version: " + v.name() + ", rules: [...]}] or stop serving " + v.name());
      }
    }
    var spokes = new ArrayList<SpokeReport>();
    NullContainers hubNulls = null; // one for every spoke's plan, built with the first
    for (var spoke : config.spokes()) {
      var d = Diagnostics.forSpoke(spoke.version());
      var version = versions.get(spoke.version());
      if (version == null) {
        d.error(
            DiagnosticCode.SPOKE_NOT_FOUND,
            null,
            "spoke version " + spoke.version() + " is not a version of " + target.describe(),
            "remove the spoke or fix its name");
      } else if (!version.served() && !stored.contains(version.name())) {
        d.error(
            DiagnosticCode.SPOKE_NOT_SERVED,
            null,
            "spoke version "
                + spoke.version()
                + " is not served by "
                + target.describe()
                + ", and no object is stored at it (status.storedVersions)",
            "serve the version, or remove its spoke entry");
      }
      if (version == null || hub == null || d.hasErrors()) {
        spokes.add(
            new SpokeReport(
                spoke.version(),
                new Verdict(false, false),
                List.of(),
                List.of(),
                List.of(),
                d.all(),
                Optional.empty(),
                List.of()));
        continue;
      }
      var scope =
          Scope.top(
              spoke.version(),
              hub.schema(),
              version.schema(),
              config.unmappedFieldPolicy(),
              d,
              tools);
      var outcome = new SpokeCompiler().compile(scope, spoke.rules());
      if (hubNulls == null && !d.hasErrors()) {
        hubNulls = NullContainers.of(hub.schema());
      }
      var plan =
          d.hasErrors()
              ? Optional.<Plan>empty()
              : Optional.of(
                  new Plan(
                      spoke.version(),
                      outcome.hubToSpoke(),
                      outcome.spokeToHub(),
                      outcome.verdict(),
                      hubNulls,
                      NullContainers.of(version.schema())));
      spokes.add(
          new SpokeReport(
              spoke.version(),
              outcome.verdict(),
              outcome.uncoveredHub(),
              outcome.uncoveredSpoke(),
              outcome.ruleResults(),
              d.all(),
              plan,
              outcome.opaque()));
    }
    return new AnalyzeReport(target.describe(), config.hubVersion(), global.all(), spokes);
  }
}
