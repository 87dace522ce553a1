package dev.versio.operator.migrate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a storage migration: lists objects at the storage version and writes each back
 * unchanged under its resourceVersion (an optimistic lock), so the apiserver re-encodes it at the
 * storage version. A conflict means someone else wrote the object meanwhile, which stored it at the
 * storage version too; an object deleted meanwhile needs nothing. Writing again is always safe.
 */
public final class ObjectRewriter {
  private final KubernetesClient client;
  private final ResourceDefinitionContext storage;
  private final boolean namespaced;
  private final Function<KubernetesClientException, String> describe;

  /** What one page did, and where the next one starts. */
  public record Page(
      long rewritten,
      long writtenMeanwhile,
      long deletedMeanwhile,
      List<String> failures,
      String next,
      long remaining,
      boolean stopped) {
    public Page {
      failures = List.copyOf(failures);
    }

    /** Objects this page handled. */
    public long handled() {
      return rewritten + writtenMeanwhile + deletedMeanwhile + failures.size();
    }
  }

  /**
   * @param storage the objects' API at the storage version
   * @param describe turns a failed write into the text a user reads next to the object's name
   */
  public ObjectRewriter(
      KubernetesClient client,
      ResourceDefinitionContext storage,
      Function<KubernetesClientException, String> describe) {
    this.client = client;
    this.storage = Objects.requireNonNull(storage, "storage");
    this.namespaced = storage.isNamespaceScoped();
    this.describe = describe;
  }

  /** Runs one object's write if the run may go on, or runs nothing and says no. */
  public interface Guard {
    boolean run(Runnable write);

    /** Every write runs. */
    static Guard always() {
      return write -> {
        write.run();
        return true;
      };
    }
  }

  /**
   * Lists the page that starts at {@code continueToken} (null: the first) and rewrites its objects,
   * each after {@code pacer} lets it and through {@code guard}; when the guard runs nothing, the
   * page stops there with {@code stopped} set and {@code next} the token it started at (a run that
   * continues from there rewrites the page's first objects again, which is harmless).
   *
   * @throws KubernetesClientException when the list fails (410: the token expired, see {@link
   *     #freshToken})
   */
  public Page page(String continueToken, int pageSize, Pacer pacer, boolean dryRun, Guard guard) {
    var options =
        new ListOptionsBuilder().withLimit((long) pageSize).withContinue(continueToken).build();
    var api = client.genericKubernetesResources(storage);
    var list = namespaced ? api.inAnyNamespace().list(options) : api.list(options);
    long rewritten = 0;
    long writtenMeanwhile = 0;
    long deletedMeanwhile = 0;
    var failures = new ArrayList<String>();
    for (var item : list.getItems()) {
      pacer.acquire();
      var resource =
          namespaced
              ? api.inNamespace(item.getMetadata().getNamespace()).resource(item)
              : api.resource(item);
      var outcome = new int[1]; // 0 rewritten, 409 written meanwhile, 404 deleted, else failed
      var failure = new String[1];
      boolean ran =
          guard.run(
              () -> {
                try {
                  if (dryRun) {
                    resource.dryRun().update();
                  } else {
                    resource.update();
                  }
                } catch (KubernetesClientException e) {
                  outcome[0] = e.getCode() == 409 || e.getCode() == 404 ? e.getCode() : -1;
                  failure[0] = describe(item) + ": " + describe.apply(e);
                }
              });
      if (!ran) {
        return new Page(
            rewritten, writtenMeanwhile, deletedMeanwhile, failures, continueToken, 0, true);
      }
      switch (outcome[0]) {
        case 0 -> rewritten++;
        case 409 -> writtenMeanwhile++;
        case 404 -> deletedMeanwhile++;
        default -> failures.add(failure[0]);
      }
    }
    var meta = list.getMetadata();
    var next =
        meta.getContinue() == null || meta.getContinue().isEmpty() ? null : meta.getContinue();
    long remaining = meta.getRemainingItemCount() == null ? 0 : meta.getRemainingItemCount();
    return new Page(
        rewritten, writtenMeanwhile, deletedMeanwhile, failures, next, remaining, false);
  }

  /**
   * The token to go on with after a list failed with 410 because {@code continue} expired (etcd
   * compacted): the apiserver hands one out that lists the rest at the latest state. A migration
   * may take it (an object created meanwhile is stored at the storage version already).
   */
  public static Optional<String> freshToken(KubernetesClientException e) {
    if (e.getCode() != 410 || e.getStatus() == null || e.getStatus().getMetadata() == null) {
      return Optional.empty();
    }
    var token = e.getStatus().getMetadata().getContinue();
    return token == null || token.isEmpty() ? Optional.empty() : Optional.of(token);
  }

  /** {@code namespace/name}, or {@code name} for a cluster-scoped object. */
  public static String describe(GenericKubernetesResource item) {
    var ns = item.getMetadata().getNamespace();
    return (ns == null ? "" : ns + "/") + item.getMetadata().getName();
  }
}
