package dev.versio.cli.live;

import dev.versio.cli.offline.LoadError;
import dev.versio.cli.offline.Output;
import dev.versio.cli.offline.OutputFormat;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.migrate.Pacer;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code versio migrate-storage}: rewrite every object at the storage version, then prune. */
@Command(
    name = "migrate-storage",
    mixinStandardHelpOptions = true,
    description = {
      "Rewrite every object of a CRD at its current storage version, paced, then set"
          + " status.storedVersions to only that version, so older versions can be removed from the"
          + " CRD. storedVersions is pruned only when every object was rewritten and the storage"
          + " version did not change meanwhile. Safe to run again at any time (each write is an"
          + " unchanged object under an optimistic lock)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  versio migrate-storage --crd-name widgets.example.com --dry-run",
      "  versio migrate-storage --crd-name widgets.example.com --rate 50 --context prod",
      "",
      "Exit codes: 0 migrated (or nothing to do), 1 some objects could not be rewritten or"
          + " storedVersions could not be pruned, 2 bad flags, no such CRD or cluster unreachable."
    })
public final class MigrateStorageCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;

  @Option(
      names = "--crd-name",
      required = true,
      paramLabel = "NAME",
      description = "The CRD to migrate, e.g. widgets.example.com.")
  String crd;

  @Option(
      names = "--rate",
      defaultValue = "100",
      paramLabel = "PER_SECOND",
      description =
          "At most this many writes per second; 0 for no limit (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      paramLabel = "N",
      names = "--page-size",
      defaultValue = "500",
      description = "Objects per list page (default: ${DEFAULT-VALUE}).")
  int pageSize;

  @Option(
      names = "--dry-run",
      description = "Send every write as a server-side dry run; change nothing and prune nothing.")
  boolean dryRun;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress on stderr.")
  boolean quiet;

  @Option(
      paramLabel = "FORMAT",
      names = {"-o", "--output"},
      defaultValue = "table",
      description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
  OutputFormat output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (rate < 0) {
      throw new LoadError("--rate must be 0 (no limit) or positive, not " + rate);
    }
    if (pageSize < 1) {
      throw new LoadError("--page-size must be positive, not " + pageSize);
    }
    var progress = new ProgressLine(spec.commandLine().getErr(), quiet, "rewriting " + crd);
    StorageMigration.Result result;
    try (var client = cluster.client()) {
      result =
          new StorageMigration(client, Clock.systemUTC())
              .run(
                  crd,
                  pageSize,
                  rate == 0 ? Pacer.unlimited() : Pacer.perSecond(rate),
                  dryRun,
                  progress::update);
    } finally {
      progress.finish();
    }
    if (output != OutputFormat.TABLE) {
      json(result);
    } else {
      table(result);
    }
    boolean done =
        result.failures().isEmpty()
            && (result.pruned()
                || result.dryRun()
                || result.storedVersionsBefore().equals(List.of(result.storageVersion())));
    return done ? 0 : 1;
  }

  private void table(StorageMigration.Result r) {
    var out = spec.commandLine().getOut();
    out.printf(
        "crd/%s: storage version %s, status.storedVersions %s%n",
        r.crd(), r.storageVersion(), r.storedVersionsBefore());
    out.printf(
        "%s %d object(s) in %.1f s (%d written by someone else meanwhile, %d deleted meanwhile),"
            + " %d failed%n",
        r.dryRun() ? "dry run: would rewrite" : "rewrote",
        r.rewritten(),
        r.elapsed().toMillis() / 1000.0,
        r.writtenMeanwhile(),
        r.deletedMeanwhile(),
        r.failures().size());
    r.failures().forEach(f -> Output.wrap(out, "  failed: " + f, "    "));
    if (r.pruned()) {
      out.printf(
          "status.storedVersions: %s -> %s; versions no longer listed can now be removed from the"
              + " CRD%n",
          r.storedVersionsBefore(), r.storedVersionsAfter());
    } else {
      Output.wrap(
          out,
          "status.storedVersions left at " + r.storedVersionsBefore() + ": " + r.notPrunedBecause(),
          "  ");
    }
  }

  private void json(StorageMigration.Result r) {
    var o = EngineJson.nodes().objectNode();
    o.put("crd", r.crd());
    o.put("storageVersion", r.storageVersion());
    r.storedVersionsBefore().forEach(o.putArray("storedVersionsBefore")::add);
    r.storedVersionsAfter().forEach(o.putArray("storedVersionsAfter")::add);
    o.put("dryRun", r.dryRun());
    o.put("rewritten", r.rewritten());
    o.put("writtenMeanwhile", r.writtenMeanwhile());
    o.put("deletedMeanwhile", r.deletedMeanwhile());
    r.failures().forEach(o.putArray("failures")::add);
    o.put("pruned", r.pruned());
    o.put("notPrunedBecause", r.notPrunedBecause());
    o.put("elapsedMillis", r.elapsed().toMillis());
    Output.structured(spec.commandLine().getOut(), o, output == OutputFormat.YAML);
  }
}
