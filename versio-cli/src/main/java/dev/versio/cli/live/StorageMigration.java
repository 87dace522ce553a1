package dev.versio.cli.live;

import dev.versio.cli.offline.LoadError;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
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
    var namespaced = stored.namespaced();
    var api = client.genericKubernetesResources(stored.storageContext());
    long rewritten = 0;
    long writtenMeanwhile = 0;
    long deletedMeanwhile = 0;
    var failures = new ArrayList<String>();
    String next = null;
    int restarts = 0;
    long handled = 0;
    do {
      var options = new ListOptionsBuilder().withLimit((long) pageSize).withContinue(next).build();
      List<GenericKubernetesResource> items;
      String continueToken;
      long remaining;
      try {
        var page = namespaced ? api.inAnyNamespace().list(options) : api.list(options);
        items = page.getItems();
        continueToken = page.getMetadata().getContinue();
        remaining =
            page.getMetadata().getRemainingItemCount() == null
                ? 0
                : page.getMetadata().getRemainingItemCount();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 410 && next != null && restarts < MAX_LIST_RESTARTS) {
          // The continue token expired (etcd compacted); start over, rewriting is idempotent.
          restarts++;
          next = null;
          continue;
        }
        throw new LoadError(
            "cannot list "
                + crdName
                + " at its storage version "
                + storage
                + ": "
                + ClusterErrors.describe(client.getMasterUrl().toString(), e)
                + " (check that its conversion webhook serves and that you may list it)");
      }
      for (var item : items) {
        pacer.acquire();
        var resource =
            namespaced
                ? api.inNamespace(item.getMetadata().getNamespace()).resource(item)
                : api.resource(item);
        try {
          if (dryRun) {
            resource.dryRun().update();
          } else {
            resource.update();
          }
          rewritten++;
        } catch (KubernetesClientException e) {
          switch (e.getCode()) {
            case 409 -> writtenMeanwhile++;
            case 404 -> deletedMeanwhile++;
            default ->
                failures.add(
                    describe(item)
                        + ": "
                        + ClusterErrors.describe(client.getMasterUrl().toString(), e));
          }
        }
        handled++;
      }
      listener.progress(handled, handled + remaining);
      next = continueToken == null || continueToken.isEmpty() ? null : continueToken;
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

  private static String describe(GenericKubernetesResource item) {
    var ns = item.getMetadata().getNamespace();
    return (ns == null ? "" : ns + "/") + item.getMetadata().getName();
  }
}
