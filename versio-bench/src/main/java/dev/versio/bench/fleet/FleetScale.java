package dev.versio.bench.fleet;

import dev.versio.bench.regression.RegressionCheck;
import dev.versio.bench.regression.ScaleRegressionCheck;
import dev.versio.bench.regression.ScaleResult;
import dev.versio.cli.Durations;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fleet-scale}: one {@link FleetRun} on a control plane of its own; writes the result JSON
 * (also when the run failed), then checks it — failed requests or a run without requests fail it,
 * and with {@code --previous} a regression beyond the threshold does too. Exits 0 when it passed, 1
 * when it failed, 2 on bad arguments.
 */
@Command(
    name = "fleet-scale",
    mixinStandardHelpOptions = true,
    description =
        "Generates a fleet of 3-version CRDs and their conversion configs, converts them through"
            + " the real apiserver, Versio's operator and webhook-server processes, and writes the"
            + " timings as a scale result.")
public final class FleetScale implements Callable<Integer> {
  @Option(names = "--crds", defaultValue = "100", description = "CRDs (default ${DEFAULT-VALUE})")
  int crds;

  @Option(
      names = "--objects",
      defaultValue = "100",
      description = "objects per CRD (default ${DEFAULT-VALUE})")
  int objects;

  @Option(
      names = "--parallel",
      defaultValue = "8",
      description = "requests in flight (default ${DEFAULT-VALUE})")
  int parallel;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "generator seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--strategies-min",
      defaultValue = "3",
      description = "(default ${DEFAULT-VALUE})")
  int strategiesMin;

  @Option(
      names = "--strategies-max",
      defaultValue = "10",
      description = "(default ${DEFAULT-VALUE})")
  int strategiesMax;

  @Option(
      names = "--list-repeats",
      defaultValue = "3",
      description = "lists per CRD and version (default ${DEFAULT-VALUE})")
  int listRepeats;

  @Option(
      names = "--get-repeats",
      defaultValue = "1",
      description = "gets per object and version (default ${DEFAULT-VALUE})")
  int getRepeats;

  @Option(
      names = "--webhook-replicas",
      defaultValue = "2",
      description = "webhook-server processes (default ${DEFAULT-VALUE})")
  int webhookReplicas;

  @Option(
      names = "--setup-timeout",
      defaultValue = "15m",
      description = "for CRDs Established and configs Applied (default ${DEFAULT-VALUE})")
  String setupTimeout;

  @Option(names = "--result-json", required = true, description = "where the result goes")
  Path resultJson;

  @Option(
      names = "--previous",
      description = "a previous result to compare with (same envelope and schema version only)")
  Path previous;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new FleetScale()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    FleetRun.Settings settings;
    try {
      settings =
          new FleetRun.Settings(
              crds,
              objects,
              parallel,
              seed,
              strategiesMin,
              strategiesMax,
              listRepeats,
              getRepeats,
              webhookReplicas,
              Durations.parse(setupTimeout));
      FleetPlan.generate(crds, strategiesMin, strategiesMax, seed);
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("error: " + e.getMessage());
      return 2;
    }
    var workDir = Files.createTempDirectory("versio-fleet-");
    FleetRun.Outcome outcome;
    try (var controlPlane =
        ControlPlane.start(
            ControlPlaneAssets.locate(), workDir.resolve("cluster"), System.err::println)) {
      outcome = FleetRun.run(controlPlane, settings, workDir, System.out);
    }
    var parent = resultJson.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(resultJson, outcome.json());
    var out = spec.commandLine().getOut();
    out.println("result written to " + resultJson);
    var check =
        new RegressionCheck(
                RegressionCheck.DEFAULT_THRESHOLD, RegressionCheck.DEFAULT_NOISE_FLOOR_MS)
            .check(
                ScaleResult.parse(outcome.json(), resultJson.toString()),
                previous == null
                    ? Optional.empty()
                    : Optional.of(
                        ScaleResult.parse(Files.readString(previous), previous.toString())));
    ScaleRegressionCheck.print(check, out);
    out.flush();
    return outcome.passed() && check.passed() ? 0 : 1;
  }
}
