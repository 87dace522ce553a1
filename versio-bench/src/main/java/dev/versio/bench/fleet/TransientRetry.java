package dev.versio.bench.fleet;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Retries a request while it fails for a reason that passes (reference: scalegen): too many
 * requests (429), a server error or timeout (500, 503, 504), no answer at all (a client timeout or
 * a broken connection), and a not-found right after a CRD became Established (the apiserver's
 * discovery catching up). Up to {@code attempts} tries, waiting from {@code first} and doubling up
 * to {@code cap}.
 */
record TransientRetry(int attempts, Duration first, Duration cap) {
  static final TransientRetry DEFAULT =
      new TransientRetry(30, Duration.ofMillis(200), Duration.ofSeconds(5));

  TransientRetry {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be ≥ 1, got " + attempts);
    }
    if (first.isNegative() || cap.compareTo(first) < 0) {
      throw new IllegalArgumentException("need 0 ≤ first ≤ cap, got " + first + ", " + cap);
    }
  }

  /** Whether {@code error} is worth another try. */
  static boolean isTransient(Throwable error) {
    if (error instanceof KubernetesClientException k) {
      int code = k.getCode();
      return code == 0 || code == 404 || code == 429 || code == 500 || code == 503 || code == 504;
    }
    return error instanceof java.io.IOException
        || error instanceof java.util.concurrent.TimeoutException;
  }

  /** The wait before try number {@code attempt + 1} (the first retry is attempt 1). */
  Duration backoff(int attempt) {
    var wait = first;
    for (int i = 1; i < attempt && wait.compareTo(cap) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(cap) > 0 ? cap : wait;
  }

  /** Runs {@code request} until it succeeds, fails for good, or runs out of tries. */
  <T> T run(Callable<T> request) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return request.call();
      } catch (Exception e) {
        if (attempt >= attempts || !isTransient(e)) {
          throw e;
        }
        Thread.sleep(backoff(attempt).toMillis());
      }
    }
  }
}
