package dev.versio.webhook;

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
    int maxInFlight) {

  /**
   * 64 MiB: a list of 10,000 typical objects (3–6 KiB each as JSON) is 30–60 MiB; the apiserver
   * itself caps request bodies at 3 MiB per object and lists are paged, so this bounds memory per
   * request while never refusing a legitimate review.
   */
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  /**
   * 256 reviews at once: far above what a replica answers in a millisecond (a few), so only an
   * overload reaches it; beyond it a replica answers 429 at once instead of queueing bodies without
   * bound.
   */
  public static final int DEFAULT_MAX_IN_FLIGHT = 256;

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
        maxInFlight);
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
        value);
  }
}
