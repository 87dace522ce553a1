package dev.versio.operator.migrate;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.operator.migrate.MigrationDecision.Phases;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
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
  private final ExecutorService executor;
  private volatile boolean closed;

  /**
   * @param progressed asks for a reconcile of the config it names (after a page, at the end)
   * @param lane runs the runs, one at a time ({@link #newLane}): the migrations of both config
   *     kinds share one, so a replica runs one migration at a time
   */
  public StorageMigrations(
      KubernetesClient client,
      Clock clock,
      Consumer<String> progressed,
      Counts counts,
      ExecutorService lane) {
    this.client = client;
    this.clock = clock;
    this.progressed = progressed;
    this.counts = counts;
    this.executor = lane;
  }

  /** A lane that runs one migration at a time, on a daemon thread. */
  public static ExecutorService newLane() {
    return Executors.newSingleThreadExecutor(
        r -> Thread.ofPlatform().name("versio-storage-migration").daemon().unstarted(r));
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
      MigrationTarget target,
      boolean applied,
      ObjectRewriter.Guard owner) {
    var name = config.getMetadata().getName();
    var annotations = config.getMetadata().getAnnotations();
    var request =
        annotations == null ? null : annotations.get(StorageMigrationSpec.REQUEST_ANNOTATION);
    if (closed) {
      return previous;
    }
    var job = jobs.get(name);
    // done first, then the state: a job seen done has its final state
    boolean runningHere = job != null && !job.done();
    var latest = job == null ? null : job.snapshot();
    var known = previous;
    if (runningHere) {
      known = latest; // newer than any status read here
    } else if (job != null) {
      if (previous == null || sameRun(previous, latest)) {
        // it ended here: its end is the latest word until the status records it
        known = latest;
        if (recorded(previous, latest)) {
          jobs.remove(name, job); // recorded: from now on the status is the record
        }
      } else {
        jobs.remove(name, job); // an older run; the status records a later one
      }
    }
    var decision = MigrationDecision.decide(spec, request, known, target, applied, runningHere);
    if (decision instanceof MigrationDecision.Resume && !runningHere) {
      // another replica may have recorded the end after this replica's cache was filled: resume
      // only what the apiserver still says is under way
      var fresh = freshStatus(config);
      if (fresh != null && !MigrationDecision.UNDER_WAY.contains(fresh.phase)) {
        return fresh;
      }
    }
    return switch (decision) {
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
        yield submit(name, target, spec, state, owner);
      }
      case MigrationDecision.Resume resume -> {
        var state = copy(resume.from());
        state.resumed = (state.resumed == null ? 0 : state.resumed) + 1;
        state.message =
            "queued: continuing after " + (state.handled == null ? 0 : state.handled) + " objects";
        yield submit(name, target, spec, state, owner);
      }
      case MigrationDecision.Cancel cancel -> {
        var why =
            StorageMigrationSpec.CANCEL.equals(request)
                ? "cancelled (" + StorageMigrationSpec.REQUEST_ANNOTATION + ": cancel)"
                : "ended: the storage version is now "
                    + target.storageVersion()
                    + ", not "
                    + known.storageVersion;
        if (runningHere) {
          job.cancel(why);
          yield job.snapshot();
        }
        var state = copy(known);
        finish(state, Phases.CANCELLED, why);
        yield state;
      }
      case MigrationDecision.Pause pause -> {
        job.pause(pause.why());
        yield job.snapshot();
      }
      case MigrationDecision.Keep keep -> {
        if (runningHere) {
          job.goOn(); // ready again before it noticed a pause: it goes on
        }
        yield known;
      }
    };
  }

  /** The config's {@code status.storageMigration} as the apiserver has it now, or null. */
  private StorageMigrationStatus freshStatus(HasMetadata config) {
    try {
      var live = client.resources(config.getClass()).withName(config.getMetadata().getName()).get();
      return live instanceof CustomResource<?, ?> resource
              && resource.getStatus() instanceof ConversionConfigStatus status
          ? status.storageMigration
          : null;
    } catch (KubernetesClientException e) {
      return null; // cannot tell: go with the cache
    }
  }

  /** Stops the run of a config being deleted; its objects stay as they are. */
  public void forget(String config) {
    var job = jobs.remove(config);
    if (job != null) {
      job.cancel("the config was deleted");
    }
  }

  private StorageMigrationStatus submit(
      String name,
      MigrationTarget target,
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
        "storage migration of crd/{} for {}: {} at {} (page {}, {}/s)",
        target.name(),
        name,
        state.resumed != null && state.resumed > 0 ? "continuing" : "starting",
        target.storageVersion(),
        settings.pageSizeOrDefault(),
        settings.rateOrDefault());
    executor.execute(job);
    return job.snapshot();
  }

  /**
   * Whether the status records a run's last state: its phase, and for one still under way (stopped
   * here, e.g. paused) also where it stopped and why.
   */
  private static boolean recorded(StorageMigrationStatus status, StorageMigrationStatus latest) {
    return status != null
        && latest.phase.equals(status.phase)
        && (!MigrationDecision.UNDER_WAY.contains(latest.phase)
            || java.util.Objects.equals(latest.continueToken, status.continueToken)
                && java.util.Objects.equals(latest.handled, status.handled)
                && java.util.Objects.equals(latest.crd, status.crd)
                && java.util.Objects.equals(latest.message, status.message));
  }

  /** The same run as continued by the same replica: a run another replica went on with differs. */
  private static boolean sameRun(StorageMigrationStatus a, StorageMigrationStatus b) {
    return a.startedAt != null
        && a.startedAt.equals(b.startedAt)
        && java.util.Objects.equals(a.resumed, b.resumed);
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

  /**
   * Stops every run here at its next write (each stays under way for the next owner); the lane is
   * its creator's to shut down ({@link #shutDown}), after every migrations sharing it is closed.
   */
  @Override
  public void close() {
    closed = true;
  }

  /** Shuts a lane down once the migrations sharing it are closed: a write in flight ends first. */
  public static void shutDown(ExecutorService lane) {
    lane.shutdownNow();
    try {
      // a write in flight ends before the client it uses is closed
      lane.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One run: pages until the list ends, then the prune. */
  private final class Job implements Runnable {
    private final String config;
    private final MigrationTarget target;
    private final int pageSize;
    private final Pacer pacer;
    private final ObjectRewriter.Guard owner;
    private final StorageMigrationStatus state;
    private volatile String cancelled; // why, once cancelled
    private volatile String paused; // why, once paused
    private volatile boolean done;

    Job(
        String config,
        MigrationTarget target,
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
      if (state.crd == null) {
        state.crd = target.crds().getFirst().name();
      }
    }

    void cancel(String why) {
      cancelled = why;
    }

    void pause(String why) {
      paused = why;
    }

    void goOn() {
      paused = null;
    }

    boolean done() {
      return done;
    }

    synchronized StorageMigrationStatus snapshot() {
      return copy(state);
    }

    private boolean mayGoOn() {
      return guarded(() -> {});
    }

    /** Runs {@code write} as the config's owner unless the run is to stop. */
    private boolean guarded(Runnable write) {
      return cancelled == null && paused == null && !closed && owner.run(write);
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
        if (closed || Thread.currentThread().isInterrupted()) {
          stopped(); // the replica stops: the run stays under way for the next owner
        } else {
          LOG.warn("storage migration of crd/{} for {} failed", target.name(), config, e);
          end(Phases.FAILED, "failed: " + e.getMessage());
        }
      } finally {
        done = true;
        progressed.accept(config);
      }
    }

    /**
     * Re-stores the objects of each CRD in turn, from the one the state names on; false when the
     * run stopped before the last page of the last CRD.
     */
    private boolean pages() {
      int first = target.indexOf(state.crd);
      if (first < 0) {
        // the CRD it was re-storing is no longer one of the target's: start over with the first
        first = 0;
        synchronized (this) {
          state.crd = target.crds().getFirst().name();
          state.continueToken = null;
        }
      }
      var crds = target.crds();
      for (int i = first; i < crds.size(); i++) {
        var next = i + 1 < crds.size() ? crds.get(i + 1).name() : null;
        if (!pages(crds.get(i), next)) {
          return false;
        }
      }
      return true;
    }

    /**
     * Lists and rewrites the objects of {@code crd} page after page; false when the run stopped
     * before its last page. {@code next} is the CRD to re-store after it, or null for the last.
     */
    private boolean pages(StorageTarget crd, String next) {
      var rewriter = new ObjectRewriter(client, crd.storageContext(), StorageMigrations::describe);
      String token = state.continueToken;
      int restarts = 0;
      while (true) {
        if (!mayGoOn()) {
          return stopped();
        }
        ObjectRewriter.Page page;
        try {
          page = rewriter.page(token, pageSize, pacer, false, this::guarded);
        } catch (KubernetesClientException e) {
          if (closed) {
            return stopped(); // the replica stops: the run stays under way for the next owner
          }
          var fresh = ObjectRewriter.freshToken(e);
          if (e.getCode() == 410
              && token != null
              && fresh.isPresent()
              && restarts < MAX_LIST_RESTARTS) {
            // the continue token expired (etcd compacted): go on from the fresh one the apiserver
            // hands out with its answer (objects created meanwhile are stored at the new version)
            restarts++;
            token = fresh.get();
            continue;
          }
          end(
              Phases.FAILED,
              "cannot list "
                  + crd.plural()
                  + " at the storage version "
                  + crd.storageVersion()
                  + (token == null ? "" : " (continuing after " + state.handled + " objects)")
                  + ": "
                  + describe(e)
                  + "; status.storedVersions stays as it is; request a new run once the cause is"
                  + " fixed");
          return false;
        }
        if (page.stopped()) {
          // not counted: whoever continues lists this page again and counts it then
          return stopped();
        }
        metrics(crd, page);
        token = page.next();
        synchronized (this) {
          count(page);
          state.continueToken = token;
          state.total = state.handled + page.remaining();
          if (token == null) {
            if (next == null) {
              state.phase = Phases.PRUNING;
            } else {
              state.crd = next; // recorded with this page: a replica going on starts there
            }
          }
          state.message = progressMessage();
        }
        progressed.accept(config);
        if (token == null) {
          return true;
        }
      }
    }

    private boolean stopped() {
      var why = cancelled;
      var pausedBecause = paused;
      if (why == null && pausedBecause != null && !closed) {
        // stays under way: the next reconcile records this state, and continues it once resolved
        synchronized (this) {
          state.message =
              "paused after "
                  + state.handled
                  + " objects: "
                  + pausedBecause
                  + "; it goes on from there once that is resolved";
        }
        LOG.info("storage migration of crd/{} for {}: {}", target.name(), config, state.message);
      } else if (why != null && !closed) {
        end(
            Phases.CANCELLED,
            why
                + " after "
                + state.handled
                + " objects; status.storedVersions stays "
                + target.storedVersions());
      } else {
        // another replica owns the config now (or this one stops): it continues from the status
        jobs.remove(config, this);
        LOG.info(
            "storage migration of crd/{} for {} stops here after {} objects; the config's owner"
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

    private void metrics(StorageTarget crd, ObjectRewriter.Page page) {
      counts.objects(crd.name(), "rewritten", page.rewritten());
      counts.objects(crd.name(), "written_meanwhile", page.writtenMeanwhile());
      counts.objects(crd.name(), "deleted_meanwhile", page.deletedMeanwhile());
      counts.objects(crd.name(), "failed", page.failures().size());
    }

    private String progressMessage() {
      var crds = target.crds();
      return "re-storing at "
          + target.storageVersion()
          + ": "
          + state.handled
          + (state.total == null ? "" : " of about " + state.total)
          + " objects"
          + (crds.size() > 1
              ? " (now crd/"
                  + state.crd
                  + ", "
                  + (Math.max(0, target.indexOf(state.crd)) + 1)
                  + " of "
                  + crds.size()
                  + " CRDs)"
              : "");
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
      var revisions = new ArrayList<String>();
      var outcomes = new ArrayList<String>();
      for (var crd : target.crds()) {
        var pruned = prune(crd);
        if (pruned == null) {
          return; // ended or stopped
        }
        revisions.add(pruned.revision());
        outcomes.add(
            (target.crds().size() > 1 ? "of crd/" + crd.name() + " " : "") + pruned.outcome());
      }
      synchronized (this) {
        // also when this replica wrote nothing (another pruned before it stopped): the next view
        // of these same CRDs may still be from before the prune
        state.prunedCrd = String.join(",", revisions);
      }
      end(Phases.SUCCEEDED, succeeded(String.join("; ", outcomes)));
    }

    /** What a prune of one CRD did: its revision after it, and what it did. */
    private record Pruned(String revision, String outcome) {}

    /**
     * Sets {@code storedVersions} of {@code crd} to its storage version; null once the run ended.
     */
    private Pruned prune(StorageTarget crd) {
      var crds = client.apiextensions().v1().customResourceDefinitions();
      for (int attempt = 0; ; attempt++) {
        var fresh = crds.withName(crd.name()).get();
        if (fresh == null) {
          end(Phases.FAILED, "crd/" + crd.name() + " was deleted during the migration");
          return null;
        }
        var revision = fresh.getMetadata().getUid() + "/" + fresh.getMetadata().getGeneration();
        var now =
            fresh.getSpec().getVersions().stream()
                .filter(v -> Boolean.TRUE.equals(v.getStorage()))
                .map(v -> v.getName())
                .findFirst()
                .orElse("");
        if (!now.equals(target.storageVersion())) {
          end(
              Phases.FAILED,
              "the storage version of crd/"
                  + crd.name()
                  + " changed from "
                  + target.storageVersion()
                  + " to "
                  + now
                  + " during the migration; status.storedVersions is left as it is");
          return null;
        }
        var before = fresh.getStatus() == null ? null : fresh.getStatus().getStoredVersions();
        var only = List.of(target.storageVersion());
        if (only.equals(before)) {
          return new Pruned(revision, "already lists only " + target.storageVersion());
        }
        fresh.getStatus().setStoredVersions(new ArrayList<>(only));
        try {
          if (!guarded(() -> crds.resource(fresh).updateStatus())) {
            stopped();
            return null;
          }
          return new Pruned(revision, "pruned from " + before + " to " + only);
        } catch (KubernetesClientException e) {
          if (closed) {
            stopped();
            return null;
          }
          if (e.getCode() != 409 || attempt >= 2) {
            end(
                Phases.FAILED,
                "every object is re-stored, but status.storedVersions of crd/"
                    + crd.name()
                    + " could not be pruned: "
                    + describe(e)
                    + "; request a new run");
            return null;
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
      LOG.info("storage migration of crd/{} for {}: {}: {}", target.name(), config, phase, message);
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
