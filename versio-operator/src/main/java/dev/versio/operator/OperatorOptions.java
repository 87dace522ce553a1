package dev.versio.operator;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How the operator runs.
 *
 * @param namespace the operator's namespace: children of servers without {@code spec.namespace} and
 *     the admission TLS Secret live here
 * @param crdSupport whether CRDConversionConfigs are reconciled (and admitted)
 * @param xrdSupport whether XRDConversionConfigs are reconciled (and admitted)
 * @param host the address the ops and admission listeners bind to
 * @param opsPort plain-HTTP port of {@code /metrics}, {@code /healthz}, {@code /readyz} (0 = free)
 * @param admission how the admission webhook is served and registered; null = not served
 * @param fanoutQps how many configs per second a server change enqueues (0 = unpaced)
 * @param resyncInterval the periodic self-check of every config and server
 * @param gateRequeue how soon a config waiting on a gate (target, server) is looked at again
 * @param deletionRequeue how soon a blocked delete is looked at again
 * @param serverRecheck how often a ready server is looked at again: its URL probed (URL mode) and
 *     its serving certificate checked for renewal (a server not ready is looked at every 5 s)
 * @param reconcileThreads how many reconciles run at once
 * @param handoverGrace how long a move waits for a destination whose replicas report nothing at all
 *     before it goes ahead unverified
 * @param webhookServerImage the image of webhook-server replicas whose server names none (the
 *     operator's own image: one image runs both commands)
 * @param coordination how this replica shares the work with the others (shard Leases)
 * @param serverNamespaces namespaces besides {@code namespace} where servers may put their children
 *     ({@code *}: any, and the operator then watches children cluster-wide)
 * @param serverImageRepositories image repositories a server may name (empty: the repository of
 *     {@code webhookServerImage})
 * @param serverServiceAccounts ServiceAccounts ({@code namespace/name}) a server may run under
 *     besides the one the operator makes for it
 * @param operatorServiceAccount the operator's own ServiceAccount (in {@code namespace}), which no
 *     server may name; null when unknown
 * @param targetGroups API groups whose CRDs and XRDs consent to every config without their owner's
 *     annotation ({@link dev.versio.operator.config.TargetConsent})
 * @param allowUrlMode whether a server may name a {@code spec.url} (development: the operator then
 *     probes that address)
 * @param webhookCa how long the CA of the servers' operator-issued certificates lives and when its
 *     successor is made ({@link dev.versio.operator.tls.InstallationCa})
 * @param frontUrl URL mode only: the stable address in front of every replica of every shared
 *     URL-mode server (a balancer over them all), which targets of those servers are pointed at
 *     once and which then never changes with a move; null: each server's own {@code spec.url}
 */
public record OperatorOptions(
    String namespace,
    boolean crdSupport,
    boolean xrdSupport,
    String host,
    int opsPort,
    Admission admission,
    double fanoutQps,
    Duration resyncInterval,
    Duration gateRequeue,
    Duration deletionRequeue,
    Duration serverRecheck,
    int reconcileThreads,
    Duration handoverGrace,
    String webhookServerImage,
    Coordination coordination,
    java.util.Set<String> serverNamespaces,
    java.util.List<String> serverImageRepositories,
    java.util.Set<String> serverServiceAccounts,
    String operatorServiceAccount,
    java.util.List<String> targetGroups,
    boolean allowUrlMode,
    dev.versio.operator.tls.InstallationCa.Policy webhookCa,
    String frontUrl,
    boolean serviceFront) {

  public static final double DEFAULT_FANOUT_QPS = 50.0;

  /** The image webhook-server replicas run when neither the server nor the flag names one. */
  public static final String DEFAULT_WEBHOOK_SERVER_IMAGE = "versio:latest";

  public OperatorOptions {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(resyncInterval, "resyncInterval");
    Objects.requireNonNull(gateRequeue, "gateRequeue");
    Objects.requireNonNull(deletionRequeue, "deletionRequeue");
    Objects.requireNonNull(serverRecheck, "serverRecheck");
    if (!serverRecheck.isPositive()) {
      throw new IllegalArgumentException("--server-recheck must be positive, not " + serverRecheck);
    }
    Objects.requireNonNull(handoverGrace, "handoverGrace");
    Objects.requireNonNull(coordination, "coordination");
    Objects.requireNonNull(webhookCa, "webhookCa");
    if (webhookServerImage == null || webhookServerImage.isBlank()) {
      throw new IllegalArgumentException(
          "--webhook-server-image must name an image, e.g. ghcr.io/example/versio:1.0");
    }
    if (handoverGrace.isNegative()) {
      throw new IllegalArgumentException("--handover-grace must not be negative");
    }
    if (!crdSupport && !xrdSupport) {
      throw new IllegalArgumentException(
          "--enable-crd-support and --enable-xrd-support are both off: enable at least one");
    }
    if (fanoutQps < 0 || Double.isNaN(fanoutQps)) {
      throw new IllegalArgumentException("--fanout-qps must be 0 (unpaced) or positive");
    }
    if (reconcileThreads < 1) {
      throw new IllegalArgumentException("--max-concurrent-reconciles must be at least 1");
    }
    serverNamespaces = java.util.Set.copyOf(serverNamespaces);
    serverImageRepositories = java.util.List.copyOf(serverImageRepositories);
    serverServiceAccounts = java.util.Set.copyOf(serverServiceAccounts);
    if (operatorServiceAccount != null && operatorServiceAccount.isBlank()) {
      operatorServiceAccount = null;
    }
    targetGroups = java.util.List.copyOf(targetGroups);
    new dev.versio.operator.config.TargetConsent(targetGroups);
    if (frontUrl != null && frontUrl.isBlank()) {
      frontUrl = null;
    }
    if (frontUrl != null) {
      if (!allowUrlMode) {
        throw new IllegalArgumentException("--front-url is for URL mode: add --allow-url-mode");
      }
      if (!frontUrl.startsWith("https://")) {
        throw new IllegalArgumentException(
            "--front-url '" + frontUrl + "' must be an https:// URL (the apiserver calls it)");
      }
      frontUrl = frontUrl.replaceAll("/+$", "");
    }
    serverPolicy(
        namespace,
        webhookServerImage,
        serverNamespaces,
        serverImageRepositories,
        serverServiceAccounts,
        operatorServiceAccount,
        allowUrlMode);
  }

  /** Which targets let a config take their conversion over. */
  public dev.versio.operator.config.TargetConsent targetConsent() {
    return new dev.versio.operator.config.TargetConsent(targetGroups);
  }

  /** What a ConversionWebhookServer may ask the operator to run (image, account, namespace). */
  public dev.versio.operator.server.ServerSpecPolicy serverPolicy() {
    return serverPolicy(
        namespace,
        webhookServerImage,
        serverNamespaces,
        serverImageRepositories,
        serverServiceAccounts,
        operatorServiceAccount,
        allowUrlMode);
  }

  private static dev.versio.operator.server.ServerSpecPolicy serverPolicy(
      String namespace,
      String webhookServerImage,
      java.util.Set<String> serverNamespaces,
      java.util.List<String> serverImageRepositories,
      java.util.Set<String> serverServiceAccounts,
      String operatorServiceAccount,
      boolean allowUrlMode) {
    return new dev.versio.operator.server.ServerSpecPolicy(
        namespace,
        serverNamespaces,
        serverImageRepositories.isEmpty()
            ? java.util.List.of(
                dev.versio.operator.server.ServerSpecPolicy.repositoryOf(webhookServerImage))
            : serverImageRepositories,
        serverServiceAccounts,
        operatorServiceAccount,
        allowUrlMode);
  }

  /** Defaults for a namespace: both kinds, ops on a free loopback port, no admission. */
  public static OperatorOptions defaults(String namespace) {
    return new Builder(namespace).build();
  }

  public OperatorOptions withAdmission(Admission admission) {
    return toBuilder().admission(admission).build();
  }

  public OperatorOptions withGateRequeue(Duration requeue) {
    return toBuilder().gateRequeue(requeue).build();
  }

  public OperatorOptions withDeletionRequeue(Duration requeue) {
    return toBuilder().deletionRequeue(requeue).build();
  }

  public OperatorOptions withSupport(boolean crd, boolean xrd) {
    return toBuilder().crdSupport(crd).xrdSupport(xrd).build();
  }

  /** A builder holding these options, to change some of them. */
  public Builder toBuilder() {
    var b = new Builder(namespace);
    b.crdSupport = crdSupport;
    b.xrdSupport = xrdSupport;
    b.host = host;
    b.opsPort = opsPort;
    b.admission = admission;
    b.fanoutQps = fanoutQps;
    b.resyncInterval = resyncInterval;
    b.gateRequeue = gateRequeue;
    b.deletionRequeue = deletionRequeue;
    b.serverRecheck = serverRecheck;
    b.handoverGrace = handoverGrace;
    b.reconcileThreads = reconcileThreads;
    b.webhookServerImage = webhookServerImage;
    b.coordination = coordination;
    b.serverNamespaces = serverNamespaces;
    b.serverImageRepositories = serverImageRepositories;
    b.serverServiceAccounts = serverServiceAccounts;
    b.operatorServiceAccount = operatorServiceAccount;
    b.targetGroups = targetGroups;
    b.allowUrlMode = allowUrlMode;
    b.webhookCa = webhookCa;
    b.frontUrl = frontUrl;
    b.serviceFront = serviceFront;
    return b;
  }

  /** Options field by field; starts from the defaults. */
  public static final class Builder {
    private final String namespace;
    private boolean crdSupport = true;
    private boolean xrdSupport = true;
    private String host = "127.0.0.1";
    private int opsPort;
    private Admission admission;
    private double fanoutQps = DEFAULT_FANOUT_QPS;
    private Duration resyncInterval = Duration.ofMinutes(5);
    private Duration gateRequeue = Duration.ofSeconds(15);
    private Duration deletionRequeue = Duration.ofSeconds(30);
    private Duration serverRecheck = Duration.ofSeconds(30);
    private Duration handoverGrace = Duration.ofSeconds(30);
    private int reconcileThreads = 4;
    private String webhookServerImage = DEFAULT_WEBHOOK_SERVER_IMAGE;
    private Coordination coordination = Coordination.defaults(Coordination.randomReplicaId());
    private java.util.Set<String> serverNamespaces = java.util.Set.of();
    private java.util.List<String> serverImageRepositories = java.util.List.of();
    private java.util.Set<String> serverServiceAccounts = java.util.Set.of();
    private String operatorServiceAccount;
    private java.util.List<String> targetGroups = java.util.List.of();
    private boolean allowUrlMode;
    private String frontUrl;
    private boolean serviceFront;
    private dev.versio.operator.tls.InstallationCa.Policy webhookCa =
        dev.versio.operator.tls.InstallationCa.Policy.DEFAULT;

    public Builder(String namespace) {
      this.namespace = namespace;
    }

    public Builder crdSupport(boolean on) {
      crdSupport = on;
      return this;
    }

    public Builder xrdSupport(boolean on) {
      xrdSupport = on;
      return this;
    }

    public Builder host(String value) {
      host = value;
      return this;
    }

    public Builder opsPort(int value) {
      opsPort = value;
      return this;
    }

    public Builder admission(Admission value) {
      admission = value;
      return this;
    }

    public Builder fanoutQps(double value) {
      fanoutQps = value;
      return this;
    }

    public Builder resyncInterval(Duration value) {
      resyncInterval = value;
      return this;
    }

    public Builder gateRequeue(Duration value) {
      gateRequeue = value;
      return this;
    }

    public Builder deletionRequeue(Duration value) {
      deletionRequeue = value;
      return this;
    }

    public Builder serverRecheck(Duration value) {
      serverRecheck = value;
      return this;
    }

    public Builder handoverGrace(Duration value) {
      handoverGrace = value;
      return this;
    }

    public Builder reconcileThreads(int value) {
      reconcileThreads = value;
      return this;
    }

    /** The options; throws {@link IllegalArgumentException} naming the flag to fix. */
    public OperatorOptions build() {
      return new OperatorOptions(
          namespace,
          crdSupport,
          xrdSupport,
          host,
          opsPort,
          admission,
          fanoutQps,
          resyncInterval,
          gateRequeue,
          deletionRequeue,
          serverRecheck,
          reconcileThreads,
          handoverGrace,
          webhookServerImage,
          coordination,
          serverNamespaces,
          serverImageRepositories,
          serverServiceAccounts,
          operatorServiceAccount,
          targetGroups,
          allowUrlMode,
          webhookCa,
          frontUrl,
          serviceFront);
    }

    /** Service mode: shared servers behind their namespace's front Service. */
    public Builder serviceFront(boolean value) {
      serviceFront = value;
      return this;
    }

    /** URL mode: the stable front of every shared URL-mode server (null: none). */
    public Builder frontUrl(String value) {
      frontUrl = value;
      return this;
    }

    /** The lifetime and rotation of the servers' CA. */
    public Builder webhookCa(dev.versio.operator.tls.InstallationCa.Policy value) {
      webhookCa = value;
      return this;
    }

    /** API groups whose targets consent to every config ({@code *}: any). */
    public Builder targetGroups(java.util.Collection<String> value) {
      targetGroups = java.util.List.copyOf(value);
      return this;
    }

    /** Whether servers may use URL mode (development). */
    public Builder allowUrlMode(boolean value) {
      allowUrlMode = value;
      return this;
    }

    /** Namespaces besides the operator's where servers may put children ({@code *}: any). */
    public Builder serverNamespaces(java.util.Collection<String> value) {
      serverNamespaces = java.util.Set.copyOf(value);
      return this;
    }

    /** Image repositories a server may name (empty: that of the webhook-server image). */
    public Builder serverImageRepositories(java.util.Collection<String> value) {
      serverImageRepositories = java.util.List.copyOf(value);
      return this;
    }

    /** ServiceAccounts ({@code namespace/name}) a server may run under. */
    public Builder serverServiceAccounts(java.util.Collection<String> value) {
      serverServiceAccounts = java.util.Set.copyOf(value);
      return this;
    }

    /** The operator's own ServiceAccount name, which no server may name (null: unknown). */
    public Builder operatorServiceAccount(String value) {
      operatorServiceAccount = value;
      return this;
    }

    public Builder webhookServerImage(String value) {
      webhookServerImage = value;
      return this;
    }

    public Builder coordination(Coordination value) {
      coordination = value;
      return this;
    }
  }

  /**
   * How replicas share the work: each config and server belongs to one of {@code shards} shards,
   * each shard to one live replica, through Leases in the operator's namespace (docs/ha.md).
   *
   * @param replicaId this replica's id, unique among the replicas (the pod name)
   * @param shards the number of shards, equal on every replica
   * @param leaseDuration how long a silent replica keeps its shards before the others take them
   * @param renewInterval how often a replica renews its member Lease
   * @param renewDeadline how long after the start of its last good renewal a replica keeps writing
   * @param takeoverResyncRate objects per second a replica resyncs after gaining shards
   */
  public record Coordination(
      String replicaId,
      int shards,
      Duration leaseDuration,
      Duration renewInterval,
      Duration renewDeadline,
      double takeoverResyncRate) {
    public static final int DEFAULT_SHARDS =
        dev.versio.coordination.core.CoordinationSettings.DEFAULT_SHARDS;
    public static final double DEFAULT_TAKEOVER_RESYNC_RATE = 20;

    public Coordination {
      Objects.requireNonNull(replicaId, "replicaId");
      Objects.requireNonNull(leaseDuration, "leaseDuration");
      Objects.requireNonNull(renewInterval, "renewInterval");
      Objects.requireNonNull(renewDeadline, "renewDeadline");
      if (!(takeoverResyncRate > 0) || Double.isInfinite(takeoverResyncRate)) {
        throw new IllegalArgumentException(
            "--takeover-resync-rate must be a positive number of objects per second, e.g. 20");
      }
      try {
        dev.versio.coordination.kubernetes.LeaseNames.requireValidReplicaId(replicaId);
        settings(shards, leaseDuration, renewInterval, renewDeadline, "unknown");
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--replica-id/--shards/--lease-duration/--renew-interval/--renew-deadline: "
                + e.getMessage(),
            e);
      }
    }

    /** The defaults: 256 shards, 15 s lease, 5 s renew interval, 10 s deadline, 20/s resync. */
    public static Coordination defaults(String replicaId) {
      return new Coordination(
          replicaId,
          DEFAULT_SHARDS,
          dev.versio.coordination.core.CoordinationSettings.DEFAULT_LEASE_DURATION,
          dev.versio.coordination.core.CoordinationSettings.DEFAULT_RENEW_INTERVAL,
          dev.versio.coordination.core.CoordinationSettings.DEFAULT_RENEW_DEADLINE,
          DEFAULT_TAKEOVER_RESYNC_RATE);
    }

    /** A replica id for a process that was given none: {@code versio-operator-<8 hex>}. */
    public static String randomReplicaId() {
      return "versio-operator-"
          + java.util.HexFormat.of()
              .toHexDigits(java.util.concurrent.ThreadLocalRandom.current().nextInt());
    }

    /** The group's Lease settings (group {@code versio-operator}). */
    public dev.versio.coordination.core.CoordinationSettings settings(String buildVersion) {
      return settings(shards, leaseDuration, renewInterval, renewDeadline, buildVersion);
    }

    private static dev.versio.coordination.core.CoordinationSettings settings(
        int shards,
        Duration leaseDuration,
        Duration renewInterval,
        Duration renewDeadline,
        String buildVersion) {
      return new dev.versio.coordination.core.CoordinationSettings(
          GROUP,
          shards,
          leaseDuration,
          renewInterval,
          renewDeadline,
          dev.versio.coordination.core.CoordinationSettings.DEFAULT_RETRY_INTERVAL,
          buildVersion);
    }

    /** The Lease group of the operator: its Leases are {@code versio-operator-member-<id>}, ... */
    public static final String GROUP = "versio-operator";

    /**
     * How long one write request may take: below the margin between the renew deadline and the
     * lease duration, so that a write still in flight at the deadline lands before anyone else may
     * take the shard over.
     */
    public Duration writeTimeout() {
      var margin = leaseDuration.minus(renewDeadline);
      var timeout = margin.minusSeconds(1);
      return timeout.compareTo(Duration.ofMillis(500)) < 0 ? margin.dividedBy(2) : timeout;
    }
  }

  /**
   * The operator's own validating admission webhook.
   *
   * @param port HTTPS port it listens on (0 = free)
   * @param url how the apiserver reaches it, e.g. {@code https://127.0.0.1:9443} for local
   *     development and tests; null = through the in-cluster Service {@code serviceName}
   * @param serviceName the Service in front of the operator (Service mode)
   * @param servicePort that Service's port
   * @param tlsSecret the Secret holding the operator's self-signed CA and serving certificate
   * @param webhookConfiguration the ValidatingWebhookConfiguration the operator manages
   */
  public record Admission(
      int port,
      URI url,
      String serviceName,
      int servicePort,
      String tlsSecret,
      String webhookConfiguration) {
    public Admission {
      Objects.requireNonNull(tlsSecret, "tlsSecret");
      Objects.requireNonNull(webhookConfiguration, "webhookConfiguration");
      if (url == null && (serviceName == null || serviceName.isBlank())) {
        throw new IllegalArgumentException(
            "the admission webhook needs --admission-url (local) or --admission-service (in cluster)");
      }
    }

    /** URL mode on loopback, for local development and tests. */
    public static Admission local(int port, URI url) {
      return new Admission(
          port, url, null, 443, "versio-operator-admission-tls", "versio-admission");
    }
  }
}
