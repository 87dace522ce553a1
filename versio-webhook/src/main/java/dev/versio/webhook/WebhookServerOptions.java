package dev.versio.webhook;

import dev.versio.api.http.InFlightLimits;
import dev.versio.webhook.http.ReviewLimits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How one webhook-server replica runs.
 *
 * @param serverName the ConversionWebhookServer this replica belongs to
 * @param tlsCertDir folder with {@code tls.crt} and {@code tls.key}
 * @param host the address both listeners bind to
 * @param conversionPort HTTPS port of {@code /convert/{target}} (0 picks a free one)
 * @param opsPort plain-HTTP port of health, readiness, metrics and debug (0 picks a free one)
 * @param certReloadInterval how often the certificate files are checked for rotation
 * @param maxBodyBytes the largest request body accepted (413 above it)
 * @param initialSyncWorkers threads of the initial parallel compile
 * @param configLabelSelector optional label selector limiting which configs this replica watches
 * @param drain how long a target is still served after it is neither assigned to this server nor
 *     named by the live target's {@code spec.conversion}
 * @param debugEndpoints whether the ops port serves {@code /debug/registry} (off by default: it
 *     lists every config and error this replica holds)
 * @param metricsVersionLabels whether review metrics also carry {@code from} and {@code to} (off by
 *     default: they multiply every target's series by its version pairs)
 * @param maxInFlight reviews held at once (429 above it)
 * @param reviewBudget how long a review processed off the event loops may take before it is
 *     answered with a Failure naming the budget
 * @param eventLoops event loops (one HTTPS server each) of the conversion listener
 * @param maxInFlightPerClient reviews one remote address may hold at once (429 above it)
 * @param maxBytesInFlight request body bytes all reviews together may hold at once (429 above it)
 * @param bodyTimeout how long a request may take to send its whole body (408 after it)
 */
public record WebhookServerOptions(
    String serverName,
    Path tlsCertDir,
    String host,
    int conversionPort,
    int opsPort,
    Duration certReloadInterval,
    long maxBodyBytes,
    int initialSyncWorkers,
    String configLabelSelector,
    Duration drain,
    boolean debugEndpoints,
    boolean metricsVersionLabels,
    int maxInFlight,
    Duration reviewBudget,
    int eventLoops,
    int maxInFlightPerClient,
    long maxBytesInFlight,
    Duration bodyTimeout) {

  /**
   * 64 MiB, the most the body limit defaults to: a list of 10,000 typical objects (3–6 KiB each as
   * JSON) is 30–60 MiB, and the apiserver caps request bodies at 3 MiB per object.
   */
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  /**
   * How many bytes of heap handling a review may hold per byte of its body: measured 16 for objects
   * as the apiserver sends them and 27 for a body dense with short strings (its parsed tree, the
   * converted review and the answer alive at once; {@code hack/bench.sh --review-memory}), rounded
   * up.
   */
  static final int HEAP_PER_BODY_BYTE = 32;

  /**
   * The body limit by default: what the heap can hold while one review is handled (a {@value
   * #HEAP_PER_BODY_BYTE}th of the largest heap), at least 1 MiB and at most {@link
   * #DEFAULT_MAX_BODY_BYTES}.
   */
  public static long defaultMaxBodyBytes() {
    return Math.clamp(
        Runtime.getRuntime().maxMemory() / HEAP_PER_BODY_BYTE, 1L << 20, DEFAULT_MAX_BODY_BYTES);
  }

  /**
   * 256 reviews at once: far above what a replica answers in a millisecond (a few), so only an
   * overload reaches it; beyond it a replica answers 429 at once instead of queueing bodies without
   * bound.
   */
  public static final int DEFAULT_MAX_IN_FLIGHT = 256;

  /**
   * 5 s: well under the apiserver's 30 s conversion timeout, so the apiserver gets a Failure that
   * names the budget instead of a timeout, and far above what a legitimate review takes (a list of
   * 500 objects converts in milliseconds).
   */
  public static final Duration DEFAULT_REVIEW_BUDGET = Duration.ofSeconds(5);

  /** One event loop per core the JVM may use (container-aware). */
  public static int defaultEventLoops() {
    return Runtime.getRuntime().availableProcessors();
  }

  public WebhookServerOptions {
    Objects.requireNonNull(serverName, "serverName");
    if (serverName.isBlank()) {
      throw new IllegalArgumentException(
          "--server-name is required: the ConversionWebhookServer this replica belongs to");
    }
    Objects.requireNonNull(tlsCertDir, "tlsCertDir");
    if (initialSyncWorkers < 1) {
      throw new IllegalArgumentException("--initial-sync-workers must be at least 1");
    }
    if (maxBodyBytes < 1024) {
      throw new IllegalArgumentException("--max-body-bytes must be at least 1024");
    }
    Objects.requireNonNull(drain, "drain");
    if (drain.isNegative()) {
      throw new IllegalArgumentException("--drain must not be negative");
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("--max-in-flight must be at least 1");
    }
    Objects.requireNonNull(reviewBudget, "reviewBudget");
    if (reviewBudget.isNegative() || reviewBudget.isZero()) {
      throw new IllegalArgumentException("--review-timeout must be positive");
    }
    if (eventLoops < 1) {
      throw new IllegalArgumentException("--event-loops must be at least 1");
    }
    if (maxInFlightPerClient < 1) {
      throw new IllegalArgumentException("--max-in-flight-per-client must be at least 1");
    }
    if (maxBytesInFlight < maxBodyBytes) {
      throw new IllegalArgumentException(
          "--max-bytes-in-flight ("
              + maxBytesInFlight
              + ") must be at least --max-body-bytes ("
              + maxBodyBytes
              + "), or the largest review could never be admitted");
    }
    Objects.requireNonNull(bodyTimeout, "bodyTimeout");
    if (bodyTimeout.isNegative() || bodyTimeout.isZero()) {
      throw new IllegalArgumentException("--body-timeout must be positive");
    }
  }

  /**
   * Half of {@code maxInFlight} (at least 1): one client (a hostile one, or one stuck) can never
   * take every slot from the apiservers.
   */
  public static int defaultPerClient(int maxInFlight) {
    return Math.max(1, (maxInFlight + 1) / 2);
  }

  /**
   * The byte budget of request bodies in flight: a {@value #HEAP_PER_BODY_BYTE}th of the largest
   * heap (handling a review holds up to that many times its body), and at least the largest body.
   */
  public static long defaultBytesInFlight(long maxBodyBytes) {
    return Math.max(maxBodyBytes, Runtime.getRuntime().maxMemory() / HEAP_PER_BODY_BYTE);
  }

  /** These limits as the conversion endpoint takes them. */
  public ReviewLimits reviewLimits() {
    return new ReviewLimits(
        maxBodyBytes,
        new InFlightLimits(maxInFlight, maxInFlightPerClient, maxBytesInFlight),
        bodyTimeout,
        reviewBudget);
  }

  /** The options with the default review budget and one event loop per core. */
  public WebhookServerOptions(
      String serverName,
      Path tlsCertDir,
      String host,
      int conversionPort,
      int opsPort,
      Duration certReloadInterval,
      long maxBodyBytes,
      int initialSyncWorkers,
      String configLabelSelector,
      Duration drain,
      boolean debugEndpoints,
      boolean metricsVersionLabels,
      int maxInFlight) {
    this(
        serverName,
        tlsCertDir,
        host,
        conversionPort,
        opsPort,
        certReloadInterval,
        maxBodyBytes,
        initialSyncWorkers,
        configLabelSelector,
        drain,
        debugEndpoints,
        metricsVersionLabels,
        maxInFlight,
        DEFAULT_REVIEW_BUDGET,
        defaultEventLoops(),
        defaultPerClient(maxInFlight),
        defaultBytesInFlight(maxBodyBytes),
        ReviewLimits.DEFAULT_BODY_TIMEOUT);
  }

  /** The options with the default limit of reviews in flight. */
  public WebhookServerOptions(
      String serverName,
      Path tlsCertDir,
      String host,
      int conversionPort,
      int opsPort,
      Duration certReloadInterval,
      long maxBodyBytes,
      int initialSyncWorkers,
      String configLabelSelector,
      Duration drain,
      boolean debugEndpoints,
      boolean metricsVersionLabels) {
    this(
        serverName,
        tlsCertDir,
        host,
        conversionPort,
        opsPort,
        certReloadInterval,
        maxBodyBytes,
        initialSyncWorkers,
        configLabelSelector,
        drain,
        debugEndpoints,
        metricsVersionLabels,
        DEFAULT_MAX_IN_FLIGHT);
  }

  /** The options with the default drain period (30 s). */
  public WebhookServerOptions(
      String serverName,
      Path tlsCertDir,
      String host,
      int conversionPort,
      int opsPort,
      Duration certReloadInterval,
      long maxBodyBytes,
      int initialSyncWorkers,
      String configLabelSelector) {
    this(
        serverName,
        tlsCertDir,
        host,
        conversionPort,
        opsPort,
        certReloadInterval,
        maxBodyBytes,
        initialSyncWorkers,
        configLabelSelector,
        DEFAULT_DRAIN,
        false,
        false);
  }

  /** The default drain period. */
  public static final Duration DEFAULT_DRAIN = Duration.ofSeconds(30);

  /** These options with another drain period. */
  public WebhookServerOptions withDrain(Duration value) {
    return new WebhookServerOptions(
        serverName,
        tlsCertDir,
        host,
        conversionPort,
        opsPort,
        certReloadInterval,
        maxBodyBytes,
        initialSyncWorkers,
        configLabelSelector,
        value,
        debugEndpoints,
        metricsVersionLabels,
        maxInFlight,
        reviewBudget,
        eventLoops,
        maxInFlightPerClient,
        maxBytesInFlight,
        bodyTimeout);
  }

  /** These options with another limit of reviews in flight. */
  public WebhookServerOptions withMaxInFlight(int value) {
    return new WebhookServerOptions(
        serverName,
        tlsCertDir,
        host,
        conversionPort,
        opsPort,
        certReloadInterval,
        maxBodyBytes,
        initialSyncWorkers,
        configLabelSelector,
        drain,
        debugEndpoints,
        metricsVersionLabels,
        value,
        reviewBudget,
        eventLoops,
        defaultPerClient(value),
        maxBytesInFlight,
        bodyTimeout);
  }

  /** These options with another review budget. */
  public WebhookServerOptions withReviewBudget(Duration value) {
    return new WebhookServerOptions(
        serverName,
        tlsCertDir,
        host,
        conversionPort,
        opsPort,
        certReloadInterval,
        maxBodyBytes,
        initialSyncWorkers,
        configLabelSelector,
        drain,
        debugEndpoints,
        metricsVersionLabels,
        maxInFlight,
        value,
        eventLoops,
        maxInFlightPerClient,
        maxBytesInFlight,
        bodyTimeout);
  }
}
