package dev.versio.bench.memory;

import dev.versio.bench.webhook.OpenLoop;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;

/**
 * The resident set of a replica while it converts at a fixed rate: an open-loop load ({@link
 * OpenLoop}) of ConversionReviews over one HTTP/2 connection, as one apiserver sends them, going
 * round every target and every direction, while the replica's {@code VmRSS} is sampled from {@code
 * /proc} every {@link #SAMPLE}. Every answer is checked as in {@link ReviewTraffic}: a review
 * counts as answered only when it converted every object to the version asked for.
 */
final class SustainedLoad {
  /** How often the replica's resident set is read during the load. */
  static final Duration SAMPLE = Duration.ofMillis(100);

  /**
   * What a load did.
   *
   * @param load the open loop's figures (latency from the due time; wrong answers are errors)
   * @param wrong wrong answers by what was wrong
   * @param rssSamplesKiB every resident-set reading taken during the load, in order
   */
  record Result(OpenLoop.Result load, Map<String, Integer> wrong, long[] rssSamplesKiB) {
    long maxRssKiB() {
      long max = -1;
      for (long s : rssSamplesKiB) {
        max = Math.max(max, s);
      }
      return max;
    }

    long medianRssKiB() {
      var sorted = rssSamplesKiB.clone();
      java.util.Arrays.sort(sorted);
      return sorted.length == 0 ? -1 : sorted[sorted.length / 2];
    }
  }

  /** A review the replica answered, but wrongly. */
  private static final class WrongAnswer extends RuntimeException {
    WrongAnswer(String problem) {
      super(problem, null, false, false);
    }
  }

  private SustainedLoad() {}

  /**
   * Sends {@code rate} reviews a second for {@code duration} to targets {@code 0..n-1} of the
   * replica at {@code baseUrl} (process {@code pid}), {@code objects} objects each, at most {@code
   * maxInFlight} outstanding; a review unanswered 10 s after its send is an error.
   */
  static Result run(
      String baseUrl,
      SSLContext trust,
      long pid,
      int n,
      int objects,
      int rate,
      Duration duration,
      int maxInFlight)
      throws InterruptedException {
    var pool = Executors.newFixedThreadPool(2);
    var sampler = Executors.newSingleThreadScheduledExecutor();
    var http = ReviewTraffic.client(trust, pool);
    var wrong = new ConcurrentHashMap<String, LongAdder>();
    var samples = new ArrayList<Long>();
    try {
      sampler.scheduleAtFixedRate(
          () -> {
            try {
              var rss = JvmProbe.procStatus(pid).getOrDefault("VmRSS", -1L);
              synchronized (samples) {
                samples.add(rss);
              }
            } catch (IOException e) {
              // the replica exited: the load's errors say so
            }
          },
          0,
          SAMPLE.toMillis(),
          TimeUnit.MILLISECONDS);
      var settings = new OpenLoop.Settings(rate, duration, maxInFlight, Duration.ofSeconds(10));
      OpenLoop.Sender sender =
          index -> {
            int target = index % n;
            var pair = ReviewTraffic.pair(index, n);
            var request =
                ReviewTraffic.request(
                    baseUrl,
                    target,
                    MemoryFixture.review(target, pair[0], pair[1], objects, index));
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .thenCompose(
                    response -> {
                      var problem = ReviewTraffic.check(response, pair[1], target, objects);
                      if (problem == null) {
                        return CompletableFuture.completedFuture(200);
                      }
                      wrong.computeIfAbsent(problem, p -> new LongAdder()).increment();
                      return CompletableFuture.failedFuture(new WrongAnswer(problem));
                    });
          };
      var load = OpenLoop.run(settings, sender);
      long[] rss;
      synchronized (samples) {
        rss = samples.stream().mapToLong(Long::longValue).filter(v -> v > 0).toArray();
      }
      var wrongCounts = new TreeMap<String, Integer>();
      wrong.forEach((problem, count) -> wrongCounts.put(problem, count.intValue()));
      return new Result(load, wrongCounts, rss);
    } finally {
      sampler.shutdownNow();
      http.shutdownNow();
      pool.shutdownNow();
    }
  }
}
