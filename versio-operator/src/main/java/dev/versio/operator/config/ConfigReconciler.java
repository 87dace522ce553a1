package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.assign.Assignment;
import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.fanout.ConfigTriggers;
import dev.versio.operator.gate.CaBundleSource;
import dev.versio.operator.gate.HandoverGate;
import dev.versio.operator.gate.ServerReadyGate;
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.operator.migrate.StorageMigrations;
import dev.versio.operator.status.Analysis;
import dev.versio.operator.status.Conditions;
import dev.versio.operator.status.ConfigStatusPolicy;
import dev.versio.operator.status.ConfigStatusPolicy.DriftPolicy;
import dev.versio.operator.status.Observation;
import dev.versio.operator.status.Observation.Check;
import dev.versio.operator.status.Observation.InvalidCause;
import dev.versio.operator.status.Observation.Outcome;
import dev.versio.operator.status.Observation.Revert;
import dev.versio.operator.status.Observation.WaitCause;
import dev.versio.operator.status.Phase;
import dev.versio.operator.write.ClusterWriter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one config kind through the gate chain: target → rules → analysis against the live
 * schema → status → assignment → target Established → server ready → handover → caBundle →
 * server-side apply of only {@code spec.conversion}. The phase rules live in {@link
 * ConfigStatusPolicy}; every write goes through {@link ClusterWriter}.
 */
public abstract class ConfigReconciler<
        C extends CustomResource<? extends ConversionConfigSpec, ConversionConfigStatus>>
    implements Reconciler<C>, Cleaner<C> {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigReconciler.class);
  public static final String FINALIZER = "versio.dev/safe-revert";
  public static final String ALLOW_UNSAFE_DELETE = "versio.dev/allow-unsafe-delete";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Reads JSON text into trees with the engine's number settings (immutable, shared). */
  private static final com.fasterxml.jackson.databind.ObjectReader TREES =
      EngineJson.newMapper().reader();

  private static final int HTTP_UNPROCESSABLE = 422;

  private final ConfigKind<C> kind;
  private final ClusterCache cache;
  private final ClusterWriter writer;
  private final OperatorMetrics metrics;
  private final ConfigTriggers<C> triggers;
  private final CaBundleSource caBundles;
  private final HandoverGate handover;
  private final OperatorOptions options;
  private final TargetConsent consent;
  private final Clock clock;
  private final ConfigAnalyzer analyzer = new ConfigAnalyzer();
  private final StorageMigrationStep storageMigration;
  private final RetirementStep retirement;

  protected ConfigReconciler(
      ConfigKind<C> kind,
      ClusterCache cache,
      ClusterWriter writer,
      OperatorMetrics metrics,
      ConfigTriggers<C> triggers,
      HandoverGate handover,
      OperatorOptions options,
      StorageMigrations migrations,
      RetirementStep retirement,
      Clock clock) {
    this.kind = kind;
    this.retirement = retirement;
    this.storageMigration =
        migrations == null ? null : new StorageMigrationStep(migrations, writer);
    this.cache = cache;
    this.writer = writer;
    this.metrics = metrics;
    this.triggers = triggers;
    this.caBundles = new CaBundleSource(cache, options.namespace());
    this.handover = handover;
    this.options = options;
    this.consent = options.targetConsent();
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, C>> prepareEventSources(EventSourceContext<C> context) {
    return List.of(triggers);
  }

  @Override
  public UpdateControl<C> reconcile(C config, Context<C> context) {
    if (!writer.mayWrite(config)) {
      return UpdateControl.noUpdate();
    }
    var previous = config.getStatus();
    var run = new Run(config);
    var observation = run.observe();
    var now = clock.instant();
    var decision = ConfigStatusPolicy.next(previous, observation, now);
    var migrationRecheck = Optional.<Duration>empty();
    if (storageMigration != null && run.targetView != null) {
      migrationRecheck =
          storageMigration.fold(
              config,
              config.getSpec(),
              previous,
              decision.status(),
              kind.migrationTarget(cache, run.targetView).orElse(null),
              run.generation,
              now);
    }
    var retirementRecheck =
        retirement == null
            ? Optional.<Duration>empty()
            : retirement.fold(
                config.getSpec(),
                decision.status(),
                run.targetView == null
                    ? null
                    : kind.versionsView(cache, run.targetView).orElse(null),
                run.generation,
                now);
    writeStatus(config, previous, decision.status());
    decision
        .change()
        .ifPresent(
            change -> {
              metrics.phaseTransition(
                  kind.label(),
                  run.target,
                  change.from() == null ? null : change.from().text(),
                  change.to().text(),
                  change.reason());
              writer.event(
                  config,
                  change.warning(),
                  change.to().text(),
                  (change.from() == null ? "None" : change.from().text())
                      + " -> "
                      + change.to().text()
                      + ": "
                      + change.message());
              LOG.info(
                  "{} {}: {} -> {} ({}): {}",
                  kind.kind(),
                  config.getMetadata().getName(),
                  change.from() == null ? "None" : change.from().text(),
                  change.to().text(),
                  change.reason(),
                  change.message());
            });
    if (observation.outcome() instanceof Outcome.ValidationFailed f
        && f.revert() == Revert.REVERT_FAILED) {
      throw new IllegalStateException(
          kind.kind() + " " + config.getMetadata().getName() + ": " + run.revertError);
    }
    boolean recheck =
        switch (observation.outcome()) {
          case Outcome.Waiting w -> true;
          // no server resolves (e.g. between one server's default: false and another's true):
          // the server event that ends it fans out too; this re-check only backs that up
          case Outcome.Invalid i -> i.cause() == InvalidCause.UNRESOLVED_SERVER;
          default -> false;
        };
    if (recheck) {
      // not a JOSDK reschedule: that timed reconcile would take a thread ahead of live events, and
      // a default flip can leave many configs waiting on the handover gate at once
      triggers.later(config.getMetadata().getName(), options.gateRequeue());
    } else {
      // which versions may be retired can change by time alone (a use ages out), and a storage
      // migration may start once the conversion has settled: one recheck, the sooner of the two
      java.util.stream.Stream.of(retirementRecheck, migrationRecheck)
          .flatMap(Optional::stream)
          .min(Duration::compareTo)
          .ifPresent(in -> triggers.later(config.getMetadata().getName(), in));
    }
    return UpdateControl.noUpdate();
  }

  /** One server-side apply onto a target, timed into {@code apply_duration_seconds}. */
  private GenericKubernetesResource timedApply(C config, String target, ObjectNode body) {
    long started = System.nanoTime();
    boolean ok = false;
    try {
      var stored = writer.apply(config, kind.targetContext(cache), body);
      ok = true;
      return stored;
    } finally {
      metrics.applyDuration(
          kind.label(), target, ok, Duration.ofNanos(System.nanoTime() - started));
    }
  }

  /**
   * Reverts {@code target} to {@code strategy: None}, timed into {@code apply_duration_seconds} as
   * one apply. First the server-side apply of only {@code strategy: None}, which drops the webhook
   * fields only the operator owns. When another field manager owns part of {@code spec.conversion}
   * as well (client-side {@code kubectl apply}, {@code kubectl edit}: Update operations own what
   * they set), apply keeps the webhook fields that manager owns: the apiserver refuses that for a
   * CRD (422: a webhook without {@code strategy: Webhook}), and an XRD keeps them. Then one guarded
   * JSON Patch sets {@code strategy: None} and removes the webhook (and this config's annotations)
   * in the same request ({@link ConversionPatch#webhookRemoval}).
   */
  private void revertTarget(C config, String target) {
    long started = System.nanoTime();
    boolean ok = false;
    try {
      var type = kind.targetContext(cache);
      GenericKubernetesResource current;
      KubernetesClientException refused = null;
      try {
        current =
            writer.apply(
                config,
                type,
                ConversionPatch.revert(kind.targetApiVersion(cache), kind.targetKind(), target));
      } catch (KubernetesClientException e) {
        if (e.getCode() != HTTP_UNPROCESSABLE) {
          throw e;
        }
        refused = e;
        current = writer.read(type, target);
      }
      if (current == null) {
        ok = true; // the target is gone: nothing of ours is on it any more
        return;
      }
      var json = tree(current);
      var managedBy = kind.kind() + "/" + config.getMetadata().getName();
      var removal = ConversionPatch.webhookRemoval(json, managedBy);
      if (removal.isEmpty()) {
        if (refused != null) {
          throw refused; // refused for another reason than a webhook left behind
        }
        ok = true;
        return;
      }
      try {
        writer.jsonPatch(config, type, target, removal.get());
      } catch (KubernetesClientException e) {
        if (refused != null) {
          e.addSuppressed(refused);
        }
        throw e;
      }
      var owners = ConversionPatch.otherConversionOwners(json);
      LOG.info(
          "{} {}: the server-side apply of strategy None {} {} {}, because other field managers"
              + " own part of spec.conversion too ({}); removed the webhook with a JSON patch",
          kind.kind(),
          config.getMetadata().getName(),
          refused != null ? "was refused on" : "left spec.conversion.webhook on",
          kind.targetNoun(),
          target,
          owners.isEmpty() ? "unknown" : String.join(", ", owners));
      ok = true;
    } finally {
      metrics.applyDuration(
          kind.label(), target, ok, Duration.ofNanos(System.nanoTime() - started));
    }
  }

  private void writeStatus(C config, ConversionConfigStatus previous, ConversionConfigStatus next) {
    if (previous != null && EngineJson.sameValue(unstamped(previous), unstamped(next))) {
      return;
    }
    writer.replaceStatus(config, next);
  }

  /** The status as a tree without {@code writtenBy}: who wrote it last is not a difference. */
  private static JsonNode unstamped(Object status) {
    var tree = tree(status);
    if (tree instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
      object.remove(ClusterWriter.STATUS_WRITTEN_BY);
    }
    return tree;
  }

  private static JsonNode tree(Object value) {
    try {
      return TREES.readTree(SERIALIZATION.asJson(value));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What a gate step found: the value the next step needs, or the observation that ends the pass.
   */
  private record Step<T>(T value, Observation stop) {
    static <T> Step<T> next(T value) {
      return new Step<>(value, null);
    }

    static <T> Step<T> stopAt(Observation observation) {
      return new Step<>(null, observation);
    }

    boolean stops() {
      return stop != null;
    }
  }

  /** A server that passed the readiness gate, and the check that passed it. */
  private record ReadyServer(ConversionWebhookServer server, Check ready) {}

  /** One pass through the gates for one config. */
  private final class Run {
    private final C config;
    private final ConversionConfigSpec spec;
    private final String name;
    private final long generation;
    private final String target;
    private String revertError;
    private TargetView targetView;

    Run(C config) {
      this.config = config;
      this.spec = config.getSpec();
      this.name = config.getMetadata().getName();
      this.generation =
          config.getMetadata().getGeneration() == null ? 0 : config.getMetadata().getGeneration();
      this.target = spec == null || spec.targetName() == null ? "" : spec.targetName();
    }

    /**
     * The gate chain: each step either stops the pass with what it observed or hands the next one
     * what it found. The order is the one the status table documents (docs/operator.md).
     */
    Observation observe() {
      if (spec == null || target.isBlank()) {
        return invalid(
            null,
            InvalidCause.INVALID_CONFIG,
            kind.kind() + " " + name + " has no spec.target" + kind.targetNoun() + ".name; set it");
      }
      var found = findTarget();
      if (found.stops()) {
        return found.stop();
      }
      var targetView = found.value();
      this.targetView = targetView;
      var consented = requireConsent(targetView);
      if (consented.stops()) {
        return consented.stop();
      }
      var analyzed = analyze(targetView);
      if (analyzed.stops()) {
        return analyzed.stop();
      }
      var analysis = analyzed.value();
      var assigned = assign(targetView, analysis);
      if (assigned.stops()) {
        return assigned.stop();
      }
      var serverName = assigned.value();
      var established = requireEstablished(targetView, analysis, serverName);
      if (established.stops()) {
        return established.stop();
      }
      var targetHealthy = established.value();
      var readyServer = requireReadyServer(targetView, analysis, serverName, targetHealthy);
      if (readyServer.stops()) {
        return readyServer.stop();
      }
      var server = readyServer.value().server();
      var ready = readyServer.value().ready();
      var endpoint = endpoint(server);
      var handedOver = awaitHandover(targetView, analysis, server, targetHealthy, ready, endpoint);
      if (handedOver.stops()) {
        return handedOver.stop();
      }
      var verdict = handedOver.value();
      var bundle = requireCaBundle(targetView, analysis, server, targetHealthy);
      if (bundle.stops()) {
        return bundle.stop();
      }
      var caBundle = bundle.value();
      return applyConversion(
              targetView, analysis, serverName, targetHealthy, ready, endpoint, caBundle)
          .withHandover(verdict);
    }

    /** Step 1: the target exists (and, for an XRD, Crossplane's API is there). */
    private Step<TargetView> findTarget() {
      if (kind.xrd() && !cache.xrdApiAvailable()) {
        var problem = cache.xrdApiProblem();
        var check =
            problem
                .map(p -> new Check(false, "XRDApiUnsupported", p))
                .orElse(new Check(false, "XRDApiMissing", "Crossplane's XRD API is not installed"));
        var message =
            problem
                .map(
                    p ->
                        p
                            + "; the config waits and the operator picks the API up by itself once"
                            + " Crossplane is upgraded")
                .orElse(
                    "Crossplane's XRD API (compositeresourcedefinitions.apiextensions.crossplane.io)"
                        + " is not installed (or its cache is still filling); the config waits and"
                        + " the operator picks the API up by itself once Crossplane is installed");
        return Step.stopAt(
            new Observation(
                generation,
                null,
                null,
                null,
                check,
                null,
                new Outcome.Waiting(WaitCause.XRD_API_MISSING, message)));
      }
      var found = kind.target(cache, target);
      if (found.isEmpty()) {
        return Step.stopAt(
            new Observation(
                generation,
                null,
                null,
                null,
                new Check(false, "TargetNotFound", kind.targetNoun() + " " + target + " not found"),
                null,
                new Outcome.Invalid(
                    InvalidCause.TARGET_NOT_FOUND,
                    "target "
                        + kind.targetNoun()
                        + " "
                        + target
                        + " not found; create it or fix spec.target"
                        + kind.targetNoun()
                        + ".name")));
      }
      return Step.next(found.get());
    }

    /**
     * Step 1b: the target lets this config take its conversion over (its owner's annotation or an
     * allowed group), and no webhook someone else manages is on it unless handed over.
     */
    private Step<TargetView> requireConsent(TargetView targetView) {
      var refusal =
          consent.refusal(
              kind.kind(),
              name,
              kind.targetNoun(),
              target,
              targetView.json(),
              targetView.annotations());
      if (refusal.isPresent()) {
        return Step.stopAt(invalid(targetView, InvalidCause.TARGET_NOT_CONSENTING, refusal.get()));
      }
      return Step.next(targetView);
    }

    /** Steps 2-3: the rules parse and fit the live schema; under FailClosed a misfit acts. */
    private Step<Analysis> analyze(TargetView targetView) {
      Analysis analysis;
      switch (analyzer.analyze(spec, targetView, kind.xrd())) {
        case ConfigAnalyzer.Result.Unparseable u -> {
          metrics.analyzeFailure(kind.label(), target, "InvalidConfig");
          return Step.stopAt(invalid(targetView, InvalidCause.INVALID_CONFIG, u.message()));
        }
        case ConfigAnalyzer.Result.Crashed c -> {
          metrics.analyzeFailure(kind.label(), target, "AnalyzeFailed");
          LOG.error("{} {}: {}", kind.kind(), name, c.message());
          return Step.stopAt(invalid(targetView, InvalidCause.ANALYZE_FAILED, c.message()));
        }
        case ConfigAnalyzer.Result.Analyzed a -> analysis = a.analysis();
      }
      if (analysis.hasErrors()) {
        metrics.analyzeFailure(kind.label(), target, "ValidationErrors");
        var message =
            "the rules do not fit the live schema of "
                + kind.targetNoun()
                + " "
                + target
                + ": "
                + ConfigAnalyzer.summaryOf(analysis.errors());
        var revert = Revert.NOT_ATTEMPTED;
        if (ConfigStatusPolicy.shouldRevert(config.getStatus(), DriftPolicy.of(spec.driftPolicy))) {
          // the deletion guard's rule: with several versions served (or objects still stored at
          // another one), strategy None would hand out unconverted objects; the webhook stays and
          // its replicas refuse the target instead
          revert =
              targetView.versionsInUse().size() > 1 && owns(targetView)
                  ? Revert.FAILING_CLOSED
                  : revert(targetView);
        }
        return Step.stopAt(
            new Observation(
                generation,
                targetView.generation(),
                analysis,
                null,
                null,
                null,
                new Outcome.ValidationFailed(message, revert)));
      }
      return Step.next(analysis);
    }

    /** Step 4: a server resolves for the target. */
    private Step<String> assign(TargetView targetView, Analysis analysis) {
      var servers = cache.servers();
      var assignment =
          AssignmentResolver.resolve(
              spec.webhookServerRef == null ? null : spec.webhookServerRef.name,
              target,
              servers.stream().map(ServerView::of).toList());
      if (assignment instanceof Assignment.Unresolved unresolved) {
        return Step.stopAt(
            new Observation(
                generation,
                targetView.generation(),
                analysis,
                null,
                null,
                null,
                new Outcome.Invalid(InvalidCause.UNRESOLVED_SERVER, unresolved.reason())));
      }
      return Step.next(((Assignment.Assigned) assignment).server());
    }

    /** Step 5: the target is Established; what it found is the TargetHealthy check. */
    private Step<Check> requireEstablished(
        TargetView targetView, Analysis analysis, String serverName) {
      if (!targetView.established()) {
        var message = kind.targetNoun() + " " + target + " is not Established yet";
        return Step.stopAt(
            new Observation(
                generation,
                targetView.generation(),
                analysis,
                serverName,
                new Check(false, "NotEstablished", message),
                null,
                new Outcome.Waiting(WaitCause.NOT_ESTABLISHED, message)));
      }
      return Step.next(
          new Check(true, "Established", kind.targetNoun() + " " + target + " is Established"));
    }

    /** Step 6: the assigned server is in the cache and ready (with the check that says so). */
    private Step<ReadyServer> requireReadyServer(
        TargetView targetView, Analysis analysis, String serverName, Check targetHealthy) {
      var server = cache.server(serverName).orElse(null);
      if (server == null) {
        var message = "ConversionWebhookServer " + serverName + " is not in the cache yet";
        return Step.stopAt(
            waitingOnServer(targetView, analysis, serverName, targetHealthy, message));
      }
      var ready = ServerReadyGate.check(server);
      if (!ready.ok()) {
        return Step.stopAt(
            new Observation(
                generation,
                targetView.generation(),
                analysis,
                serverName,
                targetHealthy,
                ready,
                new Outcome.Waiting(WaitCause.SERVER_NOT_READY, ready.message())));
      }
      return Step.next(new ReadyServer(server, ready));
    }

    /** Step 7: a move waits until every live replica of the destination serves the target. */
    private Step<dev.versio.operator.gate.HandoverVerdict> awaitHandover(
        TargetView targetView,
        Analysis analysis,
        ConversionWebhookServer server,
        Check targetHealthy,
        Check ready,
        ConversionPatch.Endpoint endpoint) {
      var verdict =
          handover.judge(kind.kind(), name, target, config.getStatus(), server, endpoint.url());
      if (!verdict.proceeds()) {
        return Step.stopAt(
            new Observation(
                    generation,
                    targetView.generation(),
                    analysis,
                    server.getMetadata().getName(),
                    targetHealthy,
                    ready,
                    new Outcome.Waiting(WaitCause.HANDOVER, verdict.message()))
                .withHandover(verdict));
      }
      return Step.next(verdict);
    }

    /** Step 8: the CA bundle the apiserver verifies the server with (base64). */
    private Step<String> requireCaBundle(
        TargetView targetView,
        Analysis analysis,
        ConversionWebhookServer server,
        Check targetHealthy) {
      var bundle = caBundles.bundle(server);
      if (bundle instanceof CaBundleSource.Result.Missing missing) {
        return Step.stopAt(
            waitingOnServer(
                targetView,
                analysis,
                server.getMetadata().getName(),
                targetHealthy,
                "no CA bundle: " + missing.message()));
      }
      return Step.next(((CaBundleSource.Result.Found) bundle).base64());
    }

    /** Step 9: server-side apply of spec.conversion (steps 7-8, handover and CA bundle, passed). */
    private Observation applyConversion(
        TargetView targetView,
        Analysis analysis,
        String serverName,
        Check targetHealthy,
        Check ready,
        ConversionPatch.Endpoint endpoint,
        String caBundle) {
      var body =
          ConversionPatch.apply(
              kind.targetApiVersion(cache),
              kind.targetKind(),
              target,
              kind.kind() + "/" + name,
              analysis.schemaHash(),
              endpoint,
              caBundle,
              spec.conversionReviewVersions);
      // the status records the target's generation after our apply (the apply bumps it), so the
      // reconcile that the target's own update event triggers finds nothing left to write
      long targetGeneration = targetView.generation();
      if (!ConversionPatch.alreadyApplied(targetView, body)) {
        try {
          // a webhook handed over by its owner may hold an endpoint of the other kind that only
          // its owner's field manager can drop: taken out first, or the apply is refused
          var foreign = ConversionPatch.foreignEndpointReplacement(targetView.json(), body);
          if (foreign.isPresent()) {
            writer.jsonPatch(config, kind.targetContext(cache), target, foreign.get());
          }
          var stored = timedApply(config, target, body);
          if (stored != null && stored.getMetadata().getGeneration() != null) {
            targetGeneration = stored.getMetadata().getGeneration();
          }
        } catch (RuntimeException e) {
          throw new IllegalStateException(
              "server-side apply of spec.conversion on "
                  + kind.targetNoun()
                  + " "
                  + target
                  + " failed (retrying): "
                  + e.getMessage(),
              e);
        }
      }
      return new Observation(
          generation,
          targetGeneration,
          analysis,
          serverName,
          targetHealthy,
          ready,
          new Outcome.Applied(
              endpoint.url(),
              endpoint.path(),
              kind.targetNoun()
                  + " "
                  + target
                  + " converts through ConversionWebhookServer "
                  + serverName
                  + " at "
                  + endpoint.url()));
    }

    private Observation waitingOnServer(
        TargetView targetView,
        Analysis analysis,
        String serverName,
        Check targetHealthy,
        String message) {
      return new Observation(
          generation,
          targetView.generation(),
          analysis,
          serverName,
          targetHealthy,
          new Check(false, "ServerNotReady", message),
          new Outcome.Waiting(WaitCause.SERVER_NOT_READY, message));
    }

    private Observation invalid(TargetView targetView, InvalidCause cause, String message) {
      return new Observation(
          generation,
          targetView == null ? null : targetView.generation(),
          null,
          null,
          null,
          null,
          new Outcome.Invalid(cause, message));
    }

    private Revert revert(TargetView targetView) {
      if (!owns(targetView)) {
        return Revert.REVERTED; // nothing of ours is on the target any more
      }
      try {
        revertTarget(config, target);
        return Revert.REVERTED;
      } catch (RuntimeException e) {
        revertError =
            "reverting " + kind.targetNoun() + " " + target + " failed: " + e.getMessage();
        LOG.warn("{} {}: {}", kind.kind(), name, revertError);
        return Revert.REVERT_FAILED;
      }
    }

    private boolean owns(TargetView targetView) {
      return (kind.kind() + "/" + name)
          .equals(targetView.annotations().get(ConversionPatch.MANAGED_BY));
    }

    private ConversionPatch.Endpoint endpoint(ConversionWebhookServer server) {
      return ConfigEndpoint.of(server, target, options);
    }
  }

  @Override
  public DeleteControl cleanup(C config, Context<C> context) {
    var control = deletion(config);
    if (storageMigration != null && control.isRemoveFinalizer()) {
      // only once the config goes: a blocked deletion (several versions in use) is exactly when
      // the migration must go on
      storageMigration.forget(config.getMetadata().getName());
    }
    return control;
  }

  private DeleteControl deletion(C config) {
    if (!writer.mayWrite(config)) {
      return DeleteControl.noFinalizerRemoval();
    }
    var name = config.getMetadata().getName();
    var status = config.getStatus();
    var phase = status == null ? null : Phase.of(status.phase);
    boolean pointsAtWebhook =
        ConfigStatusPolicy.wasApplied(status)
            || ConfigStatusPolicy.shouldRevert(status, DriftPolicy.FAIL_CLOSED)
                && phase == Phase.FAILED;
    var target = config.getSpec() == null ? null : config.getSpec().targetName();
    var found = target == null ? Optional.<TargetView>empty() : kind.target(cache, target);
    if (!pointsAtWebhook
        || found.isEmpty()
        || !(kind.kind() + "/" + name)
            .equals(found.get().annotations().get(ConversionPatch.MANAGED_BY))) {
      return DeleteControl.defaultDelete();
    }
    var targetView = found.get();
    var annotations = config.getMetadata().getAnnotations();
    boolean unsafeAllowed =
        annotations != null && "true".equals(annotations.get(ALLOW_UNSAFE_DELETE));
    if (targetView.versionsInUse().size() > 1 && !unsafeAllowed) {
      var message =
          "deletion blocked: "
              + kind.targetNoun()
              + " "
              + target
              + " serves or stores "
              + targetView.versionsInUse().size()
              + " versions ("
              + String.join(", ", targetView.versionsInUse())
              + ": served, or listed in status.storedVersions), and without this config reads at"
              + " a non-storage version, and of objects stored at an older one, would no longer be"
              + " converted. Stop serving all but one version and re-store every object at the"
              + " storage version (versio migrate-storage, which prunes status.storedVersions)"
              + " first, or annotate the config "
              + ALLOW_UNSAFE_DELETE
              + "=\"true\" to delete anyway";
      var next =
          ConfigStatusPolicy.deletionBlocked(
              status, config.getMetadata().getGeneration(), message, clock.instant());
      boolean newlyBlocked =
          status == null || !Conditions.isTrue(status.conditions, Conditions.DELETION_BLOCKED);
      writeStatus(config, status, next);
      if (newlyBlocked) {
        writer.event(config, true, "DeletionBlocked", message);
      }
      return DeleteControl.noFinalizerRemoval()
          .rescheduleAfter(options.deletionRequeue().toMillis());
    }
    try {
      revertTarget(config, target);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "reverting "
              + kind.targetNoun()
              + " "
              + target
              + " before deleting "
              + name
              + " failed (retrying): "
              + e.getMessage(),
          e);
    }
    writer.event(
        config,
        false,
        "Reverted",
        kind.targetNoun()
            + " "
            + target
            + " reverted to strategy None before the config was deleted");
    LOG.info(
        "{} {}: reverted {} {} to strategy None; removing the finalizer",
        kind.kind(),
        name,
        kind.targetNoun(),
        target);
    return DeleteControl.defaultDelete();
  }
}
