package dev.versio.bench.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.json.EngineJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * ConversionReviews sent straight to a replica's HTTPS conversion endpoint, as the apiserver sends
 * them: every target gets some, in every direction between its three versions, so the steady state
 * that is measured afterwards has warm conversion code and a metrics series for each target.
 */
final class ReviewTraffic {
  /** Version pairs, from then to; the i-th review of a target takes the i-th pair (mod 6). */
  private static final List<String[]> PAIRS =
      List.of(
          new String[] {"v1alpha1", "v1"},
          new String[] {"v1", "v1alpha1"},
          new String[] {"v1beta1", "v1alpha1"},
          new String[] {"v1alpha1", "v1beta1"},
          new String[] {"v1", "v1beta1"},
          new String[] {"v1beta1", "v1"});

  private static final ObjectMapper JSON = EngineJson.newMapper();

  private ReviewTraffic() {}

  /** What a burst of reviews did. */
  record Result(int sent, int ok, Map<String, Integer> failures, double seconds) {}

  /**
   * Sends {@code perTarget} reviews to each of targets {@code 0..n-1} (at least {@code minTotal} in
   * all, going round the targets again), {@code objects} Gadgets each, {@code concurrency} at a
   * time over one HTTP/2 connection, and checks every answer.
   */
  static Result send(
      String baseUrl,
      SSLContext trust,
      int n,
      int perTarget,
      int minTotal,
      int objects,
      int concurrency)
      throws InterruptedException {
    int total = Math.max(n * perTarget, minTotal);
    var pool = Executors.newFixedThreadPool(2);
    var http = client(trust, pool);
    var permits = new Semaphore(concurrency);
    var ok = new AtomicInteger();
    var failures = new ConcurrentHashMap<String, Integer>();
    long start = System.nanoTime();
    try {
      for (int k = 0; k < total; k++) {
        int target = k % n;
        var pair = pair(k, n);
        var body = MemoryFixture.review(target, pair[0], pair[1], objects, k);
        var request = request(baseUrl, target, body);
        permits.acquire();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
            .whenComplete(
                (response, error) -> {
                  try {
                    var problem =
                        error != null
                            ? error.getClass().getSimpleName()
                            : check(response, pair[1], target, objects);
                    if (problem == null) {
                      ok.incrementAndGet();
                    } else {
                      failures.merge(problem, 1, Integer::sum);
                    }
                  } finally {
                    permits.release();
                  }
                });
      }
      if (!permits.tryAcquire(concurrency, 60, TimeUnit.SECONDS)) {
        failures.merge(
            "unanswered after 60 s", concurrency - permits.availablePermits(), Integer::sum);
      }
    } finally {
      http.shutdownNow();
      pool.shutdownNow();
    }
    return new Result(total, ok.get(), new TreeMap<>(failures), (System.nanoTime() - start) / 1e9);
  }

  /**
   * The versions, from then to, of review {@code k} when reviews go round targets {@code 0..n-1}:
   * target {@code k % n}, each round of the targets shifting every target to its next pair.
   */
  static String[] pair(int k, int n) {
    return PAIRS.get((k % n + k / n) % PAIRS.size());
  }

  /** An HTTP/2 client trusting {@code trust}, as the apiserver talks to a replica. */
  static HttpClient client(SSLContext trust, Executor pool) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_2)
        .sslContext(trust)
        .connectTimeout(Duration.ofSeconds(5))
        .executor(pool)
        .build();
  }

  /**
   * The ConversionReview {@code body} for target {@code target}, to the replica at {@code baseUrl}.
   */
  static HttpRequest request(String baseUrl, int target, byte[] body) {
    return HttpRequest.newBuilder(URI.create(baseUrl + "/convert/" + MemoryFixture.crdName(target)))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
  }

  /** Null when the review converted every object to the desired version, else what was wrong. */
  static String check(HttpResponse<byte[]> response, String to, int target, int objects) {
    if (response.statusCode() != 200) {
      return "HTTP " + response.statusCode();
    }
    try {
      var answer = JSON.readTree(response.body()).path("response");
      if (!"Success".equals(answer.path("result").path("status").asText())) {
        return "result " + answer.path("result").path("message").asText();
      }
      var converted = answer.path("convertedObjects");
      if (converted.size() != objects) {
        return "converted " + converted.size() + " of " + objects + " objects";
      }
      var want = MemoryFixture.group(target) + "/" + to;
      for (var o : converted) {
        if (!want.equals(o.path("apiVersion").asText())) {
          return "converted to " + o.path("apiVersion").asText() + ", not " + to;
        }
      }
      return null;
    } catch (java.io.IOException e) {
      return "unreadable answer";
    }
  }
}
