package dev.versio.operator.migrate;

import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.operator.migrate.MigrationDecision.Phases;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage migrations this operator replica runs: at most one at a time (the others queue), each
 * only while this replica owns its config's shard. A run never writes the config's status itself:
 * after each page it asks for a reconcile of the config, which folds {@link #observe}'s answer into
 * the status it writes anyway, so the status has one writer. The page's continue token and counts
 * are in that status, so the replica that owns the config next continues from there.
 */
public final class StorageMigrations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StorageMigrations.class);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final int MAX_LIST_RESTARTS = 3;

  /** Counts objects by outcome; called from the migration thread. */
  public interface Counts {
    void objects(String target, String outcome, long count);
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final Consumer<String> progressed;
  private final Counts counts;
  private final Map<String, Job> jobs = new ConcurrentHashMap<>();
  private final ExecutorService executor =
      Executors.newSingleThreadExecutor(
          r -> Thread.ofPlatform().name("versio-storage-migration").daemon().unstarted(r));
  private volatile boolean closed;

  /**
   * @param progressed asks for a reconcile of the config it names (after a page, at the end)
   */
  public StorageMigrations(
      KubernetesClient client, Clock clock, Consumer<String> progressed, Counts counts) {
    this.client = client;
    this.clock = clock;
    this.progressed = progressed;
    this.counts = counts;
  }

  /**
   * What {@code status.storageMigration} of {@code config} says now, after starting, resuming or
   * cancelling a run as {@link MigrationDecision#decide} says; null while there never was one.
   *
   * @param previous the status as last written
   * @param applied whether the config is Applied after this reconcile
   * @param owner runs a write only while this replica owns the config, holding the ownership while
   *     it runs; a run stops as soon as it runs nothing
   */
  public synchronized StorageMigrationStatus observe(
      HasMetadata config,
      StorageMigrationSpec spec,
      StorageMigrationStatus previous,
      StorageTarget target,
      boolean applied,
      ObjectRewriter.Guard owner) {
    var name = config.getMetadata().getName();
    var annotations = config.getMetadata().getAnnotations();
    var request =
        annotations == null ? null : annotations.get(StorageMigrationSpec.REQUEST_ANNOTATION);
    var job = jobs.get(name);
    // a run that ended here is still the latest word until the status records its end (the status
    // read here may be older than the run's last pages)
    boolean runningHere =
        job != null && (!job.done() || previous == null || sameRun(previous, job.snapshot()));
    var decision = MigrationDecision.decide(spec, request, previous, target, applied, runningHere);
    switch (decision) {
      case MigrationDecision.Start start -> {
        var state = new StorageMigrationStatus();
        state.phase = Phases.RUNNING;
        state.storageVersion = target.storageVersion();
        state.storedVersionsBefore = new ArrayList<>(target.storedVersions());
        state.handled = 0L;
        state.rewritten = 0L;
        state.writtenMeanwhile = 0L;
        state.deletedMeanwhile = 0L;
        state.failed = 0L;
        state.resumed = 0L;
        state.request = start.request();
        state.startedAt = clock.instant().toString();
        state.message = "queued: re-storing every object at " + target.storageVersion();
        return submit(name, target, spec, state, owner);
      }
      case MigrationDecision.Resume resume -> {
        var state = copy(resume.from());
        state.resumed = (state.resumed == null ? 0 : state.resumed) + 1;
        state.message =
            "queued: continuing after "
                + (state.handled == null ? 0 : state.handled)
                + " objects (the replica that ran it stopped)";
        return submit(name, target, spec, state, owner);
      }
      case MigrationDecision.Cancel cancel -> {
        if (job != null && runningHere) {
          job.cancel();
          return job.snapshot();
        }
        var state = copy(previous);
        finish(
            state,
            Phases.CANCELLED,
            StorageMigrationSpec.CANCEL.equals(request)
                ? "cancelled (" + StorageMigrationSpec.REQUEST_ANNOTATION + ": cancel)"
                : "ended: the storage version is now "
                    + target.storageVersion()
                    + ", not "
                    + previous.storageVersion);
        return state;
      }
      case MigrationDecision.Keep keep -> {
        if (job == null || !runningHere) {
          if (job != null) {
            // an older run that ended here; the status records a later one
            jobs.remove(name, job);
          }
          return previous;
        }
        var latest = job.snapshot();
        if (job.done()
            && previous != null
            && sameRun(previous, latest)
            && latest.phase.equals(previous.phase)) {
          // its end is in the status: from now on the status is the record
          jobs.remove(name, job);
        }
        return latest;
      }
    }
  }

  /** Stops the run of a config being deleted; its objects stay as they are. */
  public void forget(String config) {
    var job = jobs.remove(config);
    if (job != null) {
      job.cancel();
    }
  }

  /** Whether this replica runs or queued a migration of {@code config} now. */
  public boolean running(String config) {
    var job = jobs.get(config);
    return job != null && !job.done();
  }

  private StorageMigrationStatus submit(
      String name,
      StorageTarget target,
      StorageMigrationSpec spec,
      StorageMigrationStatus state,
      ObjectRewriter.Guard owner) {
    var settings = spec == null ? new StorageMigrationSpec() : spec;
    var job =
        new Job(
            name,
            target,
            settings.pageSizeOrDefault(),
            Pacer.perSecond(settings.rateOrDefault()),
            state,
            owner);
    jobs.put(name, job);
    LOG.info(
        "storage migration of {} for {}: {} at {} (page {}, {}/s)",
        target.name(),
        name,
        state.resumed != null && state.resumed > 0 ? "continuing" : "starting",
        target.storageVersion(),
        settings.pageSizeOrDefault(),
        settings.rateOrDefault());
    executor.execute(job);
    return job.snapshot();
  }

  private static boolean sameRun(StorageMigrationStatus a, StorageMigrationStatus b) {
    return a.startedAt != null && a.startedAt.equals(b.startedAt);
  }

  private void finish(StorageMigrationStatus state, String phase, String message) {
    state.phase = phase;
    state.finishedAt = clock.instant().toString();
    state.continueToken = null;
    state.message = message;
  }

  private static StorageMigrationStatus copy(StorageMigrationStatus status) {
    return status == null ? new StorageMigrationStatus() : SERIALIZATION.clone(status);
  }

  @Override
  public void close() {
    closed = true;
    jobs.values().forEach(Job::cancel);
    executor.shutdownNow();
  }

  /** One run: pages until the list ends, then the prune. */
  private final class Job implements Runnable {
    private final String config;
    private final StorageTarget target;
    private final int pageSize;
    private final Pacer pacer;
    private final ObjectRewriter.Guard owner;
    private final ObjectRewriter rewriter;
    private final StorageMigrationStatus state;
    private volatile boolean cancelled;
    private volatile boolean done;

    Job(
        String config,
        StorageTarget target,
        int pageSize,
        Pacer pacer,
        StorageMigrationStatus state,
        ObjectRewriter.Guard owner) {
      this.config = config;
      this.target = target;
      this.pageSize = pageSize;
      this.pacer = pacer;
      this.state = state;
      this.owner = owner;
      this.rewriter =
          new ObjectRewriter(client, target.storageContext(), StorageMigrations::describe);
    }

    void cancel() {
      cancelled = true;
    }

    boolean done() {
      return done;
    }

    synchronized StorageMigrationStatus snapshot() {
      return copy(state);
    }

    private boolean mayGoOn() {
      return !cancelled && !closed && owner.run(() -> {});
    }

    /** Runs {@code write} as the config's owner unless the run is to stop. */
    private boolean guarded(Runnable write) {
      return !cancelled && !closed && owner.run(write);
    }

    @Override
    public void run() {
      try {
        if (Phases.RUNNING.equals(state.phase)) {
          synchronized (this) {
            state.message = progressMessage();
          }
          progressed.accept(config);
          if (!pages()) {
            return;
          }
        }
        prune();
      } catch (RuntimeException e) {
        LOG.warn("storage migration of {} for {} failed", target.name(), config, e);
        end(Phases.FAILED, "failed: " + e.getMessage());
      } finally {
        done = true;
        progressed.accept(config);
      }
    }

    /** Lists and rewrites page after page; false when the run stopped before the last page. */
    private boolean pages() {
      String token = state.continueToken;
      int restarts = 0;
      do {
        if (!mayGoOn()) {
          return stopped();
        }
        ObjectRewriter.Page page;
        try {
          page = rewriter.page(token, pageSize, pacer, false, this::guarded);
        } catch (KubernetesClientException e) {
          var fresh = ObjectRewriter.freshToken(e);
          if (e.getCode() == 410 && token != null && restarts < MAX_LIST_RESTARTS) {
            // the continue token expired (etcd compacted): go on from the apiserver's fresh one,
            // or else from the start (rewriting again is harmless)
            restarts++;
            token = fresh.orElse(null);
            continue;
          }
          end(
              Phases.FAILED,
              "cannot list "
                  + target.plural()
                  + " at the storage version "
                  + target.storageVersion()
                  + ": "
                  + describe(e)
                  + "; request a new run once the cause is fixed");
          return false;
        }
        metrics(page);
        if (page.stopped()) {
          // not counted in the state: whoever continues lists this page again and counts it then
          return stopped();
        }
        token = page.next();
        synchronized (this) {
          count(page);
          state.continueToken = token;
          state.total = state.handled + page.remaining();
          state.message = progressMessage();
          if (token == null) {
            state.phase = Phases.PRUNING;
          }
        }
        progressed.accept(config);
      } while (token != null);
      return true;
    }

    private boolean stopped() {
      if (cancelled && !closed) {
        end(
            Phases.CANCELLED,
            "cancelled after "
                + state.handled
                + " objects ("
                + StorageMigrationSpec.REQUEST_ANNOTATION
                + ": cancel); status.storedVersions stays "
                + target.storedVersions());
      } else {
        // another replica owns the config now (or this one stops): it continues from the status
        jobs.remove(config, this);
        LOG.info(
            "storage migration of {} for {} stops here after {} objects; the config's owner"
                + " continues it",
            target.name(),
            config,
            state.handled);
      }
      return false;
    }

    private void count(ObjectRewriter.Page page) {
      state.handled += page.handled();
      state.rewritten += page.rewritten();
      state.writtenMeanwhile += page.writtenMeanwhile();
      state.deletedMeanwhile += page.deletedMeanwhile();
      state.failed += page.failures().size();
      if (state.firstError == null && !page.failures().isEmpty()) {
        state.firstError = page.failures().getFirst();
      }
    }

    private void metrics(ObjectRewriter.Page page) {
      counts.objects(target.name(), "rewritten", page.rewritten());
      counts.objects(target.name(), "written_meanwhile", page.writtenMeanwhile());
      counts.objects(target.name(), "deleted_meanwhile", page.deletedMeanwhile());
      counts.objects(target.name(), "failed", page.failures().size());
    }

    private String progressMessage() {
      return "re-storing at "
          + target.storageVersion()
          + ": "
          + state.handled
          + (state.total == null ? "" : " of about " + state.total)
          + " objects";
    }

    private void prune() {
      if (state.failed != null && state.failed > 0) {
        end(
            Phases.FAILED,
            state.failed
                + " object(s) could not be rewritten (first: "
                + state.firstError
                + "); status.storedVersions stays "
                + target.storedVersions()
                + "; fix them and request a new run");
        return;
      }
      if (!mayGoOn()) {
        stopped();
        return;
      }
      var crds = client.apiextensions().v1().customResourceDefinitions();
      for (int attempt = 0; ; attempt++) {
        var fresh = crds.withName(target.name()).get();
        if (fresh == null) {
          end(Phases.FAILED, "crd/" + target.name() + " was deleted during the migration");
          return;
        }
        var now =
            fresh.getSpec().getVersions().stream()
                .filter(v -> Boolean.TRUE.equals(v.getStorage()))
                .map(v -> v.getName())
                .findFirst()
                .orElse("");
        if (!now.equals(target.storageVersion())) {
          end(
              Phases.FAILED,
              "the storage version changed from "
                  + target.storageVersion()
                  + " to "
                  + now
                  + " during the migration; status.storedVersions is left as it is");
          return;
        }
        var before = fresh.getStatus() == null ? null : fresh.getStatus().getStoredVersions();
        var only = List.of(target.storageVersion());
        if (only.equals(before)) {
          end(Phases.SUCCEEDED, succeeded("already lists only " + target.storageVersion()));
          return;
        }
        fresh.getStatus().setStoredVersions(new ArrayList<>(only));
        try {
          if (!guarded(() -> crds.resource(fresh).updateStatus())) {
            stopped();
            return;
          }
          end(Phases.SUCCEEDED, succeeded("pruned from " + before + " to " + only));
          return;
        } catch (KubernetesClientException e) {
          if (e.getCode() != 409 || attempt >= 2) {
            end(
                Phases.FAILED,
                "every object is re-stored, but status.storedVersions of crd/"
                    + target.name()
                    + " could not be pruned: "
                    + describe(e)
                    + "; request a new run");
            return;
          }
        }
      }
    }

    private String succeeded(String storedVersions) {
      return state.handled
          + " objects re-stored at "
          + target.storageVersion()
          + " ("
          + state.rewritten
          + " rewritten, "
          + state.writtenMeanwhile
          + " written and "
          + state.deletedMeanwhile
          + " deleted by others meanwhile); status.storedVersions "
          + storedVersions;
    }

    private synchronized void end(String phase, String message) {
      finish(state, phase, message);
      LOG.info("storage migration of {} for {}: {}: {}", target.name(), config, phase, message);
    }
  }

  private static String describe(KubernetesClientException e) {
    var status = e.getStatus() == null ? null : e.getStatus().getMessage();
    var text = status != null && !status.isBlank() ? status : "HTTP " + e.getCode();
    return e.getCode() == 403
        ? text
            + " (the operator may re-store only the groups the chart's storageMigrationGroups"
            + " names; add this one there, or run versio migrate-storage with your own rights)"
        : text;
  }
}
