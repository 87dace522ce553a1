package dev.versio.bench.handover;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the cluster's controllers of the fixture's resources go through while targets move: one
 * long-lived watch per target at the converted version ({@code v1}) and one at the stored version
 * ({@code v2}), as informers hold them, each reopened at once when the apiserver ends it; every end
 * is counted. It also records each target CRD's {@code metadata.generation} at the start and at the
 * end (a write to a CRD's {@code spec} raises it, and ends every watch on its resources).
 *
 * <p>The watches are raw streaming requests, not a client library's watch, because a library
 * reconnects on its own and would hide the very end the audit counts.
 */
final class WatchAudit implements AutoCloseable {
  private static final List<String> VERSIONS = List.of("v1", "v2");

  /** What the audit saw: ended watches by {@code <plural>@<version>}, and generations. */
  record Result(
      Map<String, Integer> endedWatches,
      Map<String, Long> generationsAtStart,
      Map<String, Long> generationsAtEnd) {
    int endedTotal() {
      return endedWatches.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The targets whose CRD generation changed during the run. */
    List<String> writtenTargets() {
      var out = new ArrayList<String>();
      generationsAtStart.forEach(
          (crd, before) -> {
            if (!before.equals(generationsAtEnd.get(crd))) {
              out.add(crd);
            }
          });
      return out;
    }
  }

  private final KubernetesClient client;
  private final String namespace;
  private final Map<String, AtomicInteger> ended = new ConcurrentHashMap<>();
  private final Map<String, AsyncBody> open = new ConcurrentHashMap<>();
  private final Map<String, Long> generationsAtStart;
  private final AtomicBoolean closed = new AtomicBoolean();

  private WatchAudit(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
    this.generationsAtStart = generations();
  }

  /** Opens the watches: two per target of the fixture, in {@code namespace}. */
  static WatchAudit start(KubernetesClient client, String namespace) {
    var audit = new WatchAudit(client, namespace);
    for (var plural : MoveFixture.PLURALS) {
      for (var version : VERSIONS) {
        audit.ended.put(plural + "@" + version, new AtomicInteger());
        audit.watch(plural, version);
      }
    }
    return audit;
  }

  private void watch(String plural, String version) {
    if (closed.get()) {
      return;
    }
    var key = plural + "@" + version;
    var url =
        client.getMasterUrl().toString().replaceAll("/$", "")
            + "/apis/"
            + MoveFixture.GROUP
            + "/"
            + version
            + "/namespaces/"
            + namespace
            + "/"
            + plural
            + "?watch=true&timeoutSeconds=7200";
    var request =
        client
            .getHttpClient()
            .newHttpRequestBuilder()
            .uri(url)
            .forStreaming()
            .timeout(0, java.util.concurrent.TimeUnit.SECONDS)
            .build();
    CompletableFuture<HttpResponse<AsyncBody>> response =
        client.getHttpClient().consumeBytes(request, (buffers, body) -> body.consume());
    response.whenComplete(
        (r, failure) -> {
          if (failure != null || r.code() != 200) {
            if (r != null) {
              r.body().cancel();
            }
            reopenAfterEnd(key, plural, version);
            return;
          }
          open.put(key, r.body());
          r.body().consume();
          r.body().done().whenComplete((v, e) -> reopenAfterEnd(key, plural, version));
        });
  }

  private void reopenAfterEnd(String key, String plural, String version) {
    open.remove(key);
    if (closed.get()) {
      return;
    }
    ended.get(key).incrementAndGet();
    // as an informer backs off a little before it watches again
    CompletableFuture.delayedExecutor(100, java.util.concurrent.TimeUnit.MILLISECONDS)
        .execute(() -> watch(plural, version));
  }

  private Map<String, Long> generations() {
    var out = new TreeMap<String, Long>();
    for (var plural : MoveFixture.PLURALS) {
      var crd =
          client
              .apiextensions()
              .v1()
              .customResourceDefinitions()
              .withName(MoveFixture.target(plural))
              .get();
      out.put(MoveFixture.target(plural), crd == null ? -1L : crd.getMetadata().getGeneration());
    }
    return out;
  }

  /** Watches open now (established and streaming). */
  int openWatches() {
    return open.size();
  }

  /** Watches ended so far, all targets together. */
  int endedSoFar() {
    return ended.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** Stops the watches and says what was seen. */
  Result finish() {
    closed.set(true);
    open.values().forEach(AsyncBody::cancel);
    var counts = new TreeMap<String, Integer>();
    ended.forEach((k, v) -> counts.put(k, v.get()));
    return new Result(counts, generationsAtStart, generations());
  }

  @Override
  public void close() {
    closed.set(true);
    open.values().forEach(AsyncBody::cancel);
  }
}
