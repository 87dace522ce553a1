package dev.versio.cli.dev;

import dev.versio.cli.Durations;
import dev.versio.cli.StopSignal;
import dev.versio.testkit.ControlPlaneAssets;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code versio dev}: Versio working end to end on this machine, until Ctrl-C. */
@Command(
    name = "dev",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "See Versio work: a local apiserver, the operator, a webhook server and one example story.",
      "",
      "Starts etcd and kube-apiserver 1.20.2 on loopback ports, installs Versio's CRDs, runs"
          + " `versio webhook-server` and `versio operator` as child processes, creates the"
          + " default ConversionWebhookServer (URL mode), applies a story from examples/ (its CRD,"
          + " config and samples) and waits until the operator reports the config Applied. Then"
          + " it prints kubectl commands that read the same object at every version, converted"
          + " by the webhook server, and stays up until Ctrl-C or SIGTERM, which stops"
          + " everything it started.",
      "",
      "For an XRD story (crossplane-xr) it stands in for Crossplane, which the local control"
          + " plane does not run: it installs a minimal XRD API, applies the CRD Crossplane would"
          + " generate from the XRD, and copies the conversion the operator writes into the XRD"
          + " onto that CRD.",
      "",
      "Needs the etcd and kube-apiserver binaries that hack/control-plane.sh provisions once per"
          + " machine (about 5 minutes; root or sudo). When they are missing, versio dev runs that"
          + " script itself first (found next to the examples folder); --no-provision makes it"
          + " stop and say so instead.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  versio dev",
      "  versio dev --story kitchen-sink --work-dir /tmp/versio-dev",
      "  versio dev --story crossplane-xr",
      "",
      "Exit codes: 0 stopped by Ctrl-C or SIGTERM; 1 a step failed (the message names the log);"
          + " 2 bad flags, an unknown story or missing binaries."
    })
public final class DevCommand implements Callable<Integer> {
  @Option(
      names = "--story",
      defaultValue = "field-rename",
      paramLabel = "NAME",
      description =
          "The example story to apply: a folder of --examples-dir with crd.yaml (or xrd.yaml),"
              + " config.yaml and samples/ (default: ${DEFAULT-VALUE}).")
  String story;

  @Option(
      names = "--examples-dir",
      paramLabel = "DIR",
      description =
          "Where the stories are (default: the first examples/ folder in the current directory or"
              + " above, else next to the versio installation).")
  Path examplesDir;

  @Option(
      names = "--work-dir",
      defaultValue = "target/versio-dev",
      paramLabel = "DIR",
      description =
          "Where each run keeps its kubeconfig, certificates and logs, in a folder cp-<id> of its"
              + " own (default: ${DEFAULT-VALUE}).")
  Path workDir;

  @Option(
      names = "--timeout",
      defaultValue = "120s",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description = "How long to wait until the config is Applied (default: 120s).")
  Duration timeout;

  @Option(
      names = "--provision",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Run hack/control-plane.sh first when the etcd and kube-apiserver binaries are missing"
              + " (default: on; --no-provision stops with instructions instead).")
  boolean provision;

  @Option(
      names = "--aot-cache",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Start the webhook server and the operator with an AOT cache of their own start, recorded"
              + " on the first run (written when they stop) and kept under $VERSIO_CACHE_DIR or"
              + " ~/.cache/versio, in dev-aot/ (default: on; --no-aot-cache starts them without).")
  boolean aotCache;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    if (timeout.isZero()) {
      throw new IllegalArgumentException("--timeout must be longer than 0, e.g. 120s");
    }
    // from the JVM's start: the time to ready a user sees includes starting this JVM
    var progress = new Progress(out, Clock.systemUTC(), Progress.processStart());
    Story loaded;
    ControlPlaneAssets assets;
    try {
      var examples = examples();
      loaded = Story.load(examples, story);
      assets = assets(examples, progress);
    } catch (DevFailure e) {
      report(err, e, null);
      return e.exitCode();
    }
    // from here on, SIGTERM and Ctrl-C stop what was started, and the exit code is 0
    var stop = StopSignal.install(Duration.ofSeconds(60));
    var session =
        new DevSession(
            progress, stop::isRequested, aotCache ? childAotCaches().orElse(null) : null);
    int code = 0;
    var phases = new StartupPhases(progress::elapsed);
    phases.end("versio dev's JVM");
    try {
      session.startControlPlane(assets, workDir.toAbsolutePath().normalize());
      phases.end("control plane");
      // the children start first, as early as they can, and their JVMs start while the rest is
      // set up: the webhook server's informers list until Versio's CRDs are served, the operator
      // waits for them to be Established; it keeps its Leases in the namespace from the start
      session.createNamespace();
      if (loaded.isXrd()) {
        session.installXrdApi(); // the webhook server watches XRDs if their API exists at start
      }
      var endpoint = session.webhookEndpoint();
      var webhook = session.startWebhookServer(endpoint);
      var operator = session.startOperator();
      session.installVersioCrds();
      session.createDefaultServer(endpoint);
      session.applyStoryDefinition(loaded);
      phases.end("Versio's CRDs, server and the story's CRD");
      session.awaitReady(webhook, "webhook server ready (" + endpoint.url() + ")");
      phases.end("webhook server");
      session.awaitReady(operator, "operator ready");
      phases.end("operator");
      session.applyStoryConfig(loaded);
      session.awaitApplied(loaded, timeout);
      session.followXrd(loaded);
      var failed = session.checkConversions(loaded);
      phases.end("story");
      printInstructions(progress, session, loaded, phases);
      if (!failed.isEmpty()) {
        err.println("versio dev: warning: reads through the webhook server failed:");
        failed.forEach(f -> err.println("  " + f));
        err.println("  Webhook server log: " + session.childLog("webhook-server"));
        err.flush();
      }
      code = runUntilStopped(session, loaded, stop, progress, err);
    } catch (RuntimeException e) {
      if (stop.isRequested()) {
        // Ctrl-C reaches the children too: what failed after it is part of stopping
        progress.step(stop.reason() + " received before everything was up");
      } else {
        var failure =
            e instanceof DevFailure f
                ? f
                : DevFailure.runtime(e.getMessage() == null ? e.toString() : e.getMessage());
        report(err, failure, session);
        code = failure.exitCode();
      }
    } finally {
      progress.step("stopping the operator, the webhook server, kube-apiserver and etcd");
      session.close();
      progress.step(
          "stopped everything"
              + (session.controlPlaneStarted() ? "; logs kept in " + session.directory() : ""));
      stop.stopped();
    }
    return code;
  }

  /** Waits for SIGTERM or Ctrl-C; a child or the control plane dying ends the run with 1. */
  private static int runUntilStopped(
      DevSession session, Story story, StopSignal stop, Progress progress, PrintWriter err) {
    try {
      while (!stop.await(Duration.ofSeconds(1))) {
        session.followXrd(story);
        var dead = session.deadProcess();
        // a terminal's Ctrl-C signals the children too, and one may be gone before we hear of it
        if (dead.isPresent() && !stop.await(Duration.ofMillis(500))) {
          report(err, DevFailure.runtime("a process died: " + dead.get()), session);
          return DevFailure.RUNTIME;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    progress.step(stop.reason() + " received");
    return 0;
  }

  private static void printInstructions(
      Progress progress, DevSession session, Story story, StartupPhases phases) {
    progress.step(
        "ready: the apiserver converts "
            + story.kind()
            + " objects through Versio's webhook server");
    progress.print("");
    progress.print("  " + phases.render());
    session
        .childStartup("webhook-server", "start-up of webhook server")
        .ifPresent(line -> progress.print("  " + line));
    progress.print("");
    progress.print("  kubeconfig: " + session.kubeconfig());
    progress.print("");
    progress.print("  Read the same object at each version:");
    var sample = story.toCreate().getFirst();
    var namespace =
        story.namespaced() && !sample.namespace().equals("default")
            ? " -n " + sample.namespace()
            : "";
    for (var version : story.versions()) {
      progress.print(
          "    "
              + session.kubectl()
              + " get "
              + story.resourceAt(version)
              + " "
              + sample.objectName()
              + namespace
              + " -o yaml");
    }
    progress.print("");
    progress.print(
        "  The config:   "
            + session.kubectl()
            + " get "
            + story.configResource()
            + " "
            + story.configName());
    progress.print("  Logs:         " + session.directory());
    progress.print("");
    progress.print("  Press Ctrl-C to stop; everything started here stops with it.");
  }

  private static void report(PrintWriter err, DevFailure failure, DevSession session) {
    err.println("versio dev: " + failure.getMessage());
    failure.hints().forEach(h -> err.println("  " + h));
    if (session != null && session.controlPlaneStarted()) {
      err.println("  Logs of this run: " + session.directory());
    }
    err.flush();
  }

  /** The children's AOT caches: for this Java runtime and the jars this JVM runs from. */
  private static java.util.Optional<ChildAotCaches> childAotCaches() {
    var cache = System.getenv("VERSIO_CACHE_DIR");
    var root =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "versio");
    return ChildAotCaches.of(
        root.resolve("dev-aot"),
        System.getProperty("java.home"),
        Runtime.version().toString(),
        System.getProperty("java.class.path"),
        // the children inherit these, and a cache recorded under other JVM flags may not fit
        String.join(" ", DevSession.CHILD_JVM_FLAGS)
            + "|"
            + java.util.Objects.toString(System.getenv("JDK_JAVA_OPTIONS"), "")
            + "|"
            + java.util.Objects.toString(System.getenv("JAVA_TOOL_OPTIONS"), ""));
  }

  private Path examples() {
    if (examplesDir != null) {
      if (!Files.isDirectory(examplesDir)) {
        throw DevFailure.setup("--examples-dir " + examplesDir + " is not a folder");
      }
      return examplesDir.toAbsolutePath().normalize();
    }
    return Story.findExamples(Path.of(""), installation())
        .orElseThrow(
            () ->
                DevFailure.setup(
                    "no examples/ folder in " + Path.of("").toAbsolutePath() + " or above",
                    "Run versio dev inside the Versio repository, or pass --examples-dir"));
  }

  /**
   * Where this Versio is installed: {@code -Dversio.home}, which the launcher of the download
   * (hack/dist.sh) sets because classes loaded from its AOT cache have no code location; else where
   * the CLI's classes are, e.g. {@code versio-cli/target/versio-cli.jar}.
   */
  private static Path installation() {
    var home = System.getProperty("versio.home");
    if (home != null && !home.isBlank()) {
      return Path.of(home);
    }
    try {
      return Path.of(DevCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /** The etcd and kube-apiserver binaries; provisions them unless {@code --no-provision}. */
  private ControlPlaneAssets assets(Path examples, Progress progress) {
    try {
      return ControlPlaneAssets.locate();
    } catch (IllegalStateException missing) {
      var script = examples.getParent().resolve("hack").resolve("control-plane.sh");
      if (!provision) {
        throw DevFailure.setup(
            "the etcd and kube-apiserver binaries are missing. " + missing.getMessage(),
            Files.isExecutable(script)
                ? "Run once: " + script + "   (or drop --no-provision)"
                : "Get hack/control-plane.sh from the Versio repository and run it once.");
      }
      if (!Files.isExecutable(script)) {
        throw DevFailure.setup(
            "--provision: no executable hack/control-plane.sh next to " + examples,
            missing.getMessage());
      }
      progress.step("provisioning etcd and kube-apiserver with " + script + " (once per machine)");
      try {
        var process = new ProcessBuilder(script.toString()).inheritIO().start();
        int exit = process.waitFor();
        if (exit != 0) {
          throw DevFailure.setup(script + " failed with exit code " + exit + " (see above)");
        }
      } catch (IOException e) {
        throw DevFailure.setup("cannot run " + script + ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw DevFailure.setup("interrupted while running " + script);
      }
      return ControlPlaneAssets.locate();
    }
  }
}
