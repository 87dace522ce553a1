package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.cli.live.ClusterOptions;
import dev.versio.cli.live.LiveObjects;
import dev.versio.engine.json.EngineJson;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code versio diff}: what changes between two configs of the same target. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two configs of the same target, spoke by spoke: lossless verdicts each way, claims"
          + " (rules by strategy and paths) added or removed, and coverage gaps opened or closed."
          + " With --live, compare a local config with the one applied in the cluster."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  versio diff old.yaml new.yaml --crd crd.yaml",
      "  versio diff --live new.yaml --context prod",
      "",
      "Exit codes: 0 no difference, 1 differences (the summary says whether any direction became"
          + " lossy), 2 unreadable files, bad flags or a config that does not parse."
    })
public final class DiffCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "CONFIG",
      arity = "1..2",
      description = "OLD and NEW configs; with --live, only NEW (the old one is the applied one).")
  List<Path> configs;

  @Mixin DefinitionFile schema;

  @Option(
      names = "--live",
      description =
          "Compare NEW with the config of the same name applied in the cluster; the schema comes"
              + " from the cluster unless --crd/--xrd is given.")
  boolean live;

  @Mixin ClusterOptions cluster;

  @Option(
      paramLabel = "FORMAT",
      names = {"-o", "--output"},
      defaultValue = "table",
      description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
  OutputFormat output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (configs.size() != (live ? 1 : 2)) {
      throw new LoadError(
          live
              ? "with --live pass only the local config; the old one is read from the cluster"
              : "pass two configs, OLD and NEW (or one config and --live)");
    }
    var after = Inputs.config(configs.getLast(), InputLimits.defaults());
    Inputs.Config before;
    Inputs.Target target;
    if (live) {
      try (var client = cluster.client()) {
        var objects = new LiveObjects(client);
        before = objects.appliedConfig(after);
        target = schema.given() ? schema.load() : objects.definition(after);
      }
    } else {
      before = Inputs.config(configs.getFirst(), InputLimits.defaults());
      target = schema.load();
    }
    if (before.xrd() != after.xrd()) {
      throw new LoadError(
          "one config is a CRDConversionConfig and the other an XRDConversionConfig");
    }
    if (schema.given() && schema.xrd() != after.xrd()) {
      throw new LoadError(
          "the configs are "
              + (after.xrd()
                  ? "XRDConversionConfigs; pass --xrd"
                  : "CRDConversionConfigs; pass --crd"));
    }
    var old = Analysis.of(before, target);
    var now = Analysis.of(after, target);
    for (var a : List.of(old, now)) {
      if (!a.structurallyValid()) {
        throw new LoadError(
            (a == old ? "the old config " : "the new config ")
                + a.config().name()
                + " does not parse; run versio validate on it first");
      }
    }
    var diff = ConfigDiff.of(old, now);
    if (output != OutputFormat.TABLE) {
      json(diff);
    } else {
      table(diff);
    }
    return diff.unchanged() ? 0 : 1;
  }

  private void table(ConfigDiff diff) {
    var out = spec.commandLine().getOut();
    if (!diff.hubBefore().equals(diff.hubAfter())) {
      out.println("hub version: " + diff.hubBefore() + " -> " + diff.hubAfter());
    }
    for (var s : diff.spokes()) {
      if (s.unchanged()) {
        out.println("spoke " + s.version() + ": unchanged");
        continue;
      }
      out.println(
          "spoke "
              + s.version()
              + ": "
              + (s.verdictBefore() == null
                  ? "added"
                  : s.verdictAfter() == null ? "removed" : "changed")
              + (s.worse() ? " (WORSE)" : ""));
      if (s.verdictBefore() != null
          && s.verdictAfter() != null
          && !s.verdictBefore().equals(s.verdictAfter())) {
        out.println(
            "  hub->spoke "
                + word(s.verdictBefore().charAt(0))
                + " -> "
                + word(s.verdictAfter().charAt(0))
                + ", spoke->hub "
                + word(s.verdictBefore().charAt(1))
                + " -> "
                + word(s.verdictAfter().charAt(1)));
      }
      s.claimsAdded().forEach(c -> Output.wrap(out, "  + " + c, "      "));
      s.claimsRemoved().forEach(c -> Output.wrap(out, "  - " + c, "      "));
      s.uncoveredAdded().forEach(c -> Output.wrap(out, "  now uncovered: " + c, "      "));
      s.uncoveredRemoved().forEach(c -> Output.wrap(out, "  now covered: " + c, "      "));
      if (s.errorsBefore() != s.errorsAfter()) {
        out.println("  errors: " + s.errorsBefore() + " -> " + s.errorsAfter());
      }
      s.behaviour().forEach(d -> Output.wrap(out, "  behaviour " + d.describe(), "      "));
    }
    out.println(
        diff.unchanged()
            ? "no difference"
            : diff.worse()
                ? "differences; some direction became lossy or invalid, or now loses fields"
                : "differences");
  }

  private static String word(char c) {
    return c == 'L' ? "lossless" : "LOSSY";
  }

  private void json(ConfigDiff diff) {
    var o = EngineJson.nodes().objectNode();
    o.put("hubBefore", diff.hubBefore());
    o.put("hubAfter", diff.hubAfter());
    o.put("unchanged", diff.unchanged());
    o.put("worse", diff.worse());
    var spokes = o.putArray("spokes");
    for (var s : diff.spokes()) {
      var j = spokes.addObject();
      j.put("version", s.version());
      j.set("before", verdict(s.verdictBefore()));
      j.set("after", verdict(s.verdictAfter()));
      s.claimsAdded().forEach(j.putArray("claimsAdded")::add);
      s.claimsRemoved().forEach(j.putArray("claimsRemoved")::add);
      s.uncoveredAdded().forEach(j.putArray("uncoveredAdded")::add);
      s.uncoveredRemoved().forEach(j.putArray("uncoveredRemoved")::add);
      j.put("errorsBefore", s.errorsBefore());
      j.put("errorsAfter", s.errorsAfter());
      j.put("worse", s.worse());
      var behaviour = j.putArray("behaviour");
      for (var d : s.behaviour()) {
        var b = behaviour.addObject();
        b.put("direction", d.direction());
        b.put("differing", d.differing());
        b.put("tried", d.tried());
        d.paths().forEach(b.putArray("paths")::add);
        d.newlyLost().forEach(b.putArray("newlyLost")::add);
        d.noLongerWritten().forEach(b.putArray("noLongerWritten")::add);
      }
    }
    Output.structured(spec.commandLine().getOut(), o, output == OutputFormat.YAML);
  }

  private static JsonNode verdict(String v) {
    if (v == null) {
      return EngineJson.nodes().nullNode();
    }
    var o = EngineJson.nodes().objectNode();
    o.put("losslessHubToSpoke", v.charAt(0) == 'L');
    o.put("losslessSpokeToHub", v.charAt(1) == 'L');
    return o;
  }
}
