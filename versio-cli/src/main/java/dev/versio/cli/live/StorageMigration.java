package dev.versio.cli.live;

import dev.versio.cli.offline.LoadError;
import dev.versio.operator.migrate.ObjectRewriter;
import dev.versio.operator.migrate.Pacer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Rewrites every object of a CRD so the apiserver stores it at the current storage version, then
 * prunes {@code status.storedVersions} to that version, so that old versions can later be removed
 * from the CRD. Each object is written back unchanged with its resourceVersion (an optimistic
 * lock): the apiserver re-encodes it at the storage version. A conflict means someone else wrote
 * the object meanwhile, which stored it at the storage version too; an object deleted meanwhile
 * needs nothing. {@code storedVersions} is pruned only when every listed object was handled and the
 * storage version did not change during the run. Running again is always safe.
 */
final class StorageMigration {
  private static final int MAX_LIST_RESTARTS = 3;

  /** Progress after each page: objects handled so far and the apiserver's estimate of the total. */
  interface Listener {
    void progress(long handled, long estimatedTotal);
  }

  /** What a migration did. */
  record Result(
      String crd,
      String storageVersion,
      List<String> storedVersionsBefore,
      List<String> storedVersionsAfter,
      boolean dryRun,
      long rewritten,
      long writtenMeanwhile,
      long deletedMeanwhile,
      List<String> failures,
      boolean pruned,
      String notPrunedBecause,
      Duration elapsed) {
    Result {
      storedVersionsBefore = List.copyOf(storedVersionsBefore);
      storedVersionsAfter = List.copyOf(storedVersionsAfter);
      failures = List.copyOf(failures);
      Objects.requireNonNull(elapsed, "elapsed");
    }
  }

  private final KubernetesClient client;
  private final Clock clock;

  StorageMigration(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  Result run(String crdName, int pageSize, Pacer pacer, boolean dryRun, Listener listener) {
    var started = clock.instant();
    var stored = StoredResource.read(client, crdName);
    var storage = stored.storageVersion();
    var before = stored.storedVersions();
    var server = client.getMasterUrl().toString();
    var rewriter =
        new ObjectRewriter(client, stored.storageContext(), e -> ClusterErrors.describe(server, e));
    long rewritten = 0;
    long writtenMeanwhile = 0;
    long deletedMeanwhile = 0;
    var failures = new ArrayList<String>();
    String next = null;
    int restarts = 0;
    long handled = 0;
    do {
      ObjectRewriter.Page page;
      try {
        page = rewriter.page(next, pageSize, pacer, dryRun, ObjectRewriter.Guard.always());
      } catch (KubernetesClientException e) {
        var fresh = ObjectRewriter.freshToken(e);
        if (e.getCode() == 410
            && next != null
            && fresh.isPresent()
            && restarts < MAX_LIST_RESTARTS) {
          // The continue token expired (etcd compacted): go on from the fresh token the apiserver
          // hands out with its answer (objects created meanwhile are stored at the new version).
          restarts++;
          next = fresh.get();
          continue;
        }
        throw new LoadError(
            "cannot list "
                + crdName
                + " at its storage version "
                + storage
                + ": "
                + ClusterErrors.describe(server, e)
                + " (check that its conversion webhook serves and that you may list it)");
      }
      rewritten += page.rewritten();
      writtenMeanwhile += page.writtenMeanwhile();
      deletedMeanwhile += page.deletedMeanwhile();
      failures.addAll(page.failures());
      handled += page.handled();
      listener.progress(handled, handled + page.remaining());
      next = page.next();
    } while (next != null);

    var after = before;
    var pruned = false;
    String reason;
    if (dryRun) {
      reason = "dry run";
    } else if (!failures.isEmpty()) {
      reason = failures.size() + " object(s) could not be rewritten; fix them and run again";
    } else if (before.equals(List.of(storage))) {
      reason = "status.storedVersions already lists only " + storage;
    } else {
      var latest = StoredResource.read(client, crdName);
      var fresh = latest.crd();
      var now = latest.storageVersion();
      if (!now.equals(storage)) {
        reason =
            "the storage version changed from "
                + storage
                + " to "
                + now
                + " during the migration; run it again";
      } else {
        fresh.getStatus().setStoredVersions(new ArrayList<>(List.of(storage)));
        try {
          client.apiextensions().v1().customResourceDefinitions().resource(fresh).updateStatus();
          after = List.of(storage);
          pruned = true;
          reason = null;
        } catch (KubernetesClientException e) {
          reason =
              "cannot update status.storedVersions of "
                  + crdName
                  + ": "
                  + ClusterErrors.describe(client.getMasterUrl().toString(), e)
                  + " (every object is migrated; run again to prune)";
        }
      }
    }
    return new Result(
        crdName,
        storage,
        before,
        after,
        dryRun,
        rewritten,
        writtenMeanwhile,
        deletedMeanwhile,
        failures,
        pruned,
        reason,
        Duration.between(started, clock.instant()));
  }
}
