package dev.versio.cli;

import dev.versio.operator.OperatorOptions;
import dev.versio.operator.VersioOperator;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code versio operator}: one replica of the Versio operator. */
@Command(
    name = "operator",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run the Versio operator until SIGTERM or Ctrl-C.",
      "",
      "Reconciles CRDConversionConfigs, XRDConversionConfigs and ConversionWebhookServers: deploys"
          + " webhook servers and points each target CRD at its server once the config compiled,"
          + " the target is Established and the server is ready. Serves Versio's validating"
          + " admission webhook (in the cluster through a Service, locally through a URL), and"
          + " /metrics, /healthz and /readyz over plain HTTP on the ops port.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  # in a cluster, behind the Service versio-operator",
      "  versio operator --admission-service versio-operator",
      "  # on a laptop, against a local apiserver (what versio dev runs)",
      "  versio operator --bind-address 127.0.0.1 \\",
      "      --admission-url https://127.0.0.1:9443",
      "",
      "Exit codes: 0 stopped by SIGTERM or Ctrl-C; 2 invalid flags; 1 failed to start."
    })
public final class OperatorCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(OperatorCommand.class);

  /** Where Kubernetes mounts the namespace of a pod's service account. */
  static final Path SERVICE_ACCOUNT_NAMESPACE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  @Option(
      names = "--namespace",
      paramLabel = "NAME",
      description =
          "Namespace of the webhook servers' children (unless a server sets spec.namespace) and of"
              + " the admission TLS Secret (default: $POD_NAMESPACE, else the pod's service-account"
              + " namespace, else default).")
  String namespace;

  @Option(
      names = "--enable-crd-support",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Reconcile and admit CRDConversionConfigs (default: ${DEFAULT-VALUE}; turn off with"
              + " --no-enable-crd-support).")
  boolean crdSupport;

  @Option(
      names = "--enable-xrd-support",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Reconcile and admit XRDConversionConfigs; waits for Crossplane's XRD API while it is"
              + " missing (default: ${DEFAULT-VALUE}; turn off with --no-enable-xrd-support).")
  boolean xrdSupport;

  @Option(
      names = "--bind-address",
      defaultValue = "0.0.0.0",
      paramLabel = "ADDRESS",
      description = "Address of the ops and admission listeners (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--ops-port",
      defaultValue = "8080",
      paramLabel = "PORT",
      description =
          "Plain-HTTP port of /metrics, /healthz and /readyz; 0 picks a free port (default:"
              + " ${DEFAULT-VALUE}).")
  int opsPort;

  @Option(
      names = "--admission-port",
      defaultValue = "9443",
      paramLabel = "PORT",
      description =
          "HTTPS port of the admission webhook; 0 picks a free port (default: ${DEFAULT-VALUE}).")
  int admissionPort;

  @Option(
      names = "--admission-url",
      paramLabel = "URL",
      description =
          "URL mode: how the apiserver reaches the admission webhook, e.g."
              + " https://127.0.0.1:9443 for a local apiserver.")
  URI admissionUrl;

  @Option(
      names = "--admission-service",
      paramLabel = "NAME",
      description =
          "Service mode: the Service (in --namespace) in front of the operator's admission port.")
  String admissionService;

  @Option(
      names = "--admission-service-port",
      paramLabel = "PORT",
      description = "Port of --admission-service (default: 443).")
  Integer admissionServicePort;

  @Option(
      names = "--admission-tls-secret",
      defaultValue = "versio-operator-admission-tls",
      paramLabel = "NAME",
      description =
          "Secret (in --namespace) holding the admission webhook's CA and serving certificate;"
              + " created when missing (default: ${DEFAULT-VALUE}).")
  String admissionTlsSecret;

  @Option(
      names = "--webhook-configuration-name",
      defaultValue = "versio-admission",
      paramLabel = "NAME",
      description =
          "The ValidatingWebhookConfiguration the operator manages (default: ${DEFAULT-VALUE}).")
  String webhookConfiguration;

  @Option(
      names = "--no-admission",
      description =
          "Neither serve nor register the admission webhook (invalid configs are then only"
              + " reported in their status).")
  boolean noAdmission;

  @Option(
      names = "--fanout-qps",
      defaultValue = "50",
      paramLabel = "QPS",
      description =
          "How many configs per second a change of a webhook server re-queues when their"
              + " reconcile rewrites the target CRD (moves behind the shared front are not"
              + " paced); 0 = unpaced (default: ${DEFAULT-VALUE}).")
  double fanoutQps;

  @Option(
      names = "--resync-interval",
      defaultValue = "5m",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description =
          "How often every config and server is checked again without a change, e.g. 5m"
              + " (default: 5m).")
  Duration resyncInterval;

  @Option(
      names = "--gate-requeue",
      defaultValue = "15s",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description =
          "How soon a config waiting for its target or server is looked at again (default: 15s).")
  Duration gateRequeue;

  @Option(
      names = "--server-recheck",
      defaultValue = "30s",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description =
          "How often a ready webhook server is looked at again: its URL probed (URL mode) and its"
              + " serving certificate checked for renewal (default: 30s).")
  Duration serverRecheck;

  @Option(
      names = "--handover-grace",
      defaultValue = "30s",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description =
          "How long a move of a target to another server waits for a destination whose replicas"
              + " report nothing at all before it goes ahead unverified (HandoverUnverified)"
              + " (default: 30s).")
  Duration handoverGrace;

  @Option(
      names = "--webhook-server-image",
      defaultValue = "${env:VERSIO_IMAGE:-versio:latest}",
      paramLabel = "IMAGE",
      description =
          "The image of webhook-server replicas whose ConversionWebhookServer names none: the"
              + " operator's own, as the chart sets it through $VERSIO_IMAGE (default: $VERSIO_IMAGE,"
              + " else versio:latest).")
  String webhookServerImage;

  @Option(
      names = "--webhook-server-namespaces",
      split = ",",
      paramLabel = "NAMESPACE",
      description =
          "Namespaces besides the operator's where a ConversionWebhookServer may put its children"
              + " (spec.namespace); the operator lists and watches Secrets, Services, Deployments"
              + " and Leases only there. '*' allows every namespace and watches them cluster-wide"
              + " (default: none, only the operator's namespace).")
  List<String> webhookServerNamespaces = new ArrayList<>();

  @Option(
      names = "--webhook-server-image-repositories",
      split = ",",
      paramLabel = "REPOSITORY",
      description =
          "Image repositories a ConversionWebhookServer may name in spec.image.repository: an"
              + " exact repository, a prefix ending in '/', or '*' for any (default: the"
              + " repository of --webhook-server-image). A server that names no image runs the"
              + " operator's own.")
  List<String> webhookServerImageRepositories = new ArrayList<>();

  @Option(
      names = "--webhook-server-service-accounts",
      split = ",",
      paramLabel = "NAMESPACE/NAME",
      description =
          "ServiceAccounts a ConversionWebhookServer may name in spec.serviceAccountName, as"
              + " namespace/name (default: none; the operator makes one per server with only the"
              + " rights its replicas need). The operator's own is never allowed.")
  List<String> webhookServerServiceAccounts = new ArrayList<>();

  @Option(
      names = "--target-groups",
      split = ",",
      paramLabel = "GROUP",
      description =
          "API groups whose CRDs and XRDs consent to every config without their owner's"
              + " annotation versio.dev/conversion-config: a group, '*.' and a group (the group"
              + " and its subgroups), or '*' for any (default: none; every target needs the"
              + " annotation).")
  List<String> targetGroups = new ArrayList<>();

  @Option(
      names = "--allow-url-mode",
      description =
          "Lets a ConversionWebhookServer name spec.url (the apiserver then calls that address,"
              + " and the operator probes it): for development, where replicas run outside the"
              + " cluster. Off by default.")
  boolean allowUrlMode;

  @Option(
      paramLabel = "URL",
      names = "--front-url",
      description =
          "URL mode: the stable https:// address in front of every replica of every shared"
              + " URL-mode server (a balancer over them all, whose replicas run with"
              + " --forward-reviews). Targets are pointed at it once, and moves between those"
              + " servers no longer rewrite their CRDs. Needs --allow-url-mode.")
  String frontUrl;

  @Option(
      names = "--service-front",
      description =
          "Service mode: put the replicas of every server that is not spec.isolated (and whose"
              + " certificate the operator issues) behind one Service per namespace,"
              + " versio-webhook-front, and let them forward reviews to the replica that holds the"
              + " target. Targets are pointed at the front once; moves between those servers then"
              + " leave the target CRDs alone. Off by default.")
  boolean serviceFront;

  @Option(
      names = "--operator-service-account",
      defaultValue = "${env:POD_SERVICE_ACCOUNT:-}",
      paramLabel = "NAME",
      description =
          "The operator's own ServiceAccount (in --namespace), which no server may run under;"
              + " the chart sets it through $POD_SERVICE_ACCOUNT (default: $POD_SERVICE_ACCOUNT).")
  String operatorServiceAccount;

  @Option(
      names = "--max-concurrent-reconciles",
      defaultValue = "4",
      paramLabel = "N",
      description =
          "How many reconciles of this replica run at once; replicas divide the configs between"
              + " them (default: ${DEFAULT-VALUE}).")
  int reconcileThreads;

  @Option(
      names = "--replica-id",
      paramLabel = "ID",
      description =
          "This replica's id among the operator's replicas, unique per replica (default: $POD_NAME,"
              + " else versio-operator-<random>).")
  String replicaId;

  @Option(
      names = "--shards",
      defaultValue = "256",
      paramLabel = "N",
      description =
          "How many shards configs and servers are divided into; every replica must use the same"
              + " (default: ${DEFAULT-VALUE}).")
  int shards;

  @Option(
      names = "--lease-duration",
      defaultValue = "15s",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description =
          "How long a replica that stopped renewing keeps its shards before the others take them"
              + " over (whole seconds; default: 15s).")
  Duration leaseDuration;

  @Option(
      names = "--renew-interval",
      defaultValue = "5s",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description = "How often a replica renews its member Lease (default: 5s).")
  Duration renewInterval;

  @Option(
      names = "--renew-deadline",
      defaultValue = "10s",
      paramLabel = "DURATION",
      converter = Durations.Converter.class,
      description =
          "How long after its last good renewal a replica keeps writing; at most --lease-duration"
              + " minus --renew-interval (default: 10s).")
  Duration renewDeadline;

  @Option(
      names = "--takeover-resync-rate",
      defaultValue = "20",
      paramLabel = "PER_SECOND",
      description =
          "How many objects per second a replica re-checks after gaining shards, behind live"
              + " events (default: ${DEFAULT-VALUE}).")
  double takeoverResyncRate;

  /** Reads environment variables; replaced in tests. */
  UnaryOperator<String> environment = System::getenv;

  /** The service-account namespace file; replaced in tests. */
  Path serviceAccountNamespace = SERVICE_ACCOUNT_NAMESPACE;

  @Override
  public Integer call() throws Exception {
    var options = options();
    var stop = StopSignal.install(Duration.ofSeconds(30));
    try (var client = new KubernetesClientBuilder().build();
        var operator = VersioOperator.start(client, options, Clock.systemUTC())) {
      LOG.info(
          "versio operator running in namespace {}: ops on {}:{}{}",
          options.namespace(),
          options.host(),
          operator.opsPort(),
          operator.admissionPort().isPresent()
              ? ", admission on " + options.host() + ":" + operator.admissionPort().getAsInt()
              : ", admission off");
      stop.await();
      LOG.info("{}: stopping", stop.reason());
    } finally {
      stop.stopped();
    }
    return 0;
  }

  /**
   * The options the flags describe; throws {@link IllegalArgumentException} on bad combinations.
   */
  OperatorOptions options() {
    requirePort("--ops-port", opsPort);
    requirePositive("--resync-interval", resyncInterval);
    requirePositive("--gate-requeue", gateRequeue);
    requirePositive("--server-recheck", serverRecheck);
    if (fanoutQps < 0 || Double.isNaN(fanoutQps) || Double.isInfinite(fanoutQps)) {
      throw new IllegalArgumentException(
          "--fanout-qps must be 0 (unpaced) or a positive number, not " + fanoutQps);
    }
    return new OperatorOptions.Builder(namespace())
        .crdSupport(crdSupport)
        .xrdSupport(xrdSupport)
        .host(host)
        .opsPort(opsPort)
        .admission(admission())
        .fanoutQps(fanoutQps)
        .resyncInterval(resyncInterval)
        .gateRequeue(gateRequeue)
        .serverRecheck(serverRecheck)
        .handoverGrace(handoverGrace)
        .webhookServerImage(webhookServerImage)
        .serverNamespaces(trimmed(webhookServerNamespaces))
        .serverImageRepositories(trimmed(webhookServerImageRepositories))
        .serverServiceAccounts(trimmed(webhookServerServiceAccounts))
        .operatorServiceAccount(operatorServiceAccount)
        .targetGroups(trimmed(targetGroups))
        .allowUrlMode(allowUrlMode)
        .frontUrl(frontUrl)
        .serviceFront(serviceFront)
        .reconcileThreads(reconcileThreads)
        .coordination(coordination())
        .build();
  }

  private static List<String> trimmed(List<String> values) {
    return values.stream().map(String::strip).filter(v -> !v.isEmpty()).toList();
  }

  private OperatorOptions.Admission admission() {
    if (noAdmission) {
      var given = admissionUrl != null ? "--admission-url" : null;
      given = given == null && admissionService != null ? "--admission-service" : given;
      given = given == null && admissionServicePort != null ? "--admission-service-port" : given;
      if (given != null) {
        throw new IllegalArgumentException(
            "--no-admission turns the admission webhook off, so "
                + given
                + " has no effect:"
                + " drop one of them");
      }
      return null;
    }
    requirePort("--admission-port", admissionPort);
    if (admissionPort != 0 && admissionPort == opsPort) {
      throw new IllegalArgumentException(
          "--admission-port and --ops-port are both "
              + opsPort
              + ": the two listeners need different ports");
    }
    if (admissionUrl == null && admissionService == null) {
      throw new IllegalArgumentException(
          "the admission webhook needs --admission-url (local apiserver) or --admission-service"
              + " (in a cluster); or pass --no-admission to run without it");
    }
    if (admissionUrl != null && admissionService != null) {
      throw new IllegalArgumentException(
          "--admission-url and --admission-service are alternatives: give one");
    }
    if (admissionUrl != null) {
      if (!"https".equals(admissionUrl.getScheme()) || admissionUrl.getHost() == null) {
        throw new IllegalArgumentException(
            "--admission-url must be an https:// URL with a host, e.g. https://127.0.0.1:9443, not"
                + " '"
                + admissionUrl
                + "'");
      }
      if (admissionServicePort != null) {
        throw new IllegalArgumentException(
            "--admission-service-port belongs to --admission-service; with --admission-url put the"
                + " port into the URL");
      }
    }
    int servicePort = admissionServicePort == null ? 443 : admissionServicePort;
    if (servicePort < 1 || servicePort > 65535) {
      throw new IllegalArgumentException(
          "--admission-service-port must be between 1 and 65535, not " + servicePort);
    }
    return new OperatorOptions.Admission(
        admissionPort,
        admissionUrl,
        admissionService,
        servicePort,
        admissionTlsSecret,
        webhookConfiguration);
  }

  private OperatorOptions.Coordination coordination() {
    if (shards < 1) {
      throw new IllegalArgumentException("--shards must be at least 1, e.g. 256");
    }
    requirePositive("--lease-duration", leaseDuration);
    requirePositive("--renew-interval", renewInterval);
    requirePositive("--renew-deadline", renewDeadline);
    return new OperatorOptions.Coordination(
        replicaId(), shards, leaseDuration, renewInterval, renewDeadline, takeoverResyncRate);
  }

  /** {@code --replica-id}, else {@code $POD_NAME}, else a random one. */
  String replicaId() {
    if (replicaId != null) {
      return replicaId;
    }
    var pod = environment.apply("POD_NAME");
    return pod != null && !pod.isBlank()
        ? pod.trim()
        : OperatorOptions.Coordination.randomReplicaId();
  }

  /** {@code --namespace}, else {@code $POD_NAMESPACE}, else the service account's, else default. */
  String namespace() {
    if (namespace != null) {
      if (namespace.isBlank()) {
        throw new IllegalArgumentException("--namespace must not be empty");
      }
      return namespace;
    }
    var fromEnv = environment.apply("POD_NAMESPACE");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv.trim();
    }
    try {
      if (Files.isReadable(serviceAccountNamespace)) {
        var fromFile = Files.readString(serviceAccountNamespace).trim();
        if (!fromFile.isEmpty()) {
          return fromFile;
        }
      }
    } catch (IOException e) {
      // unreadable: fall back like a missing file
    }
    return "default";
  }

  private static void requirePort(String flag, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          flag + " must be between 0 (a free port) and 65535, not " + port);
    }
  }

  private static void requirePositive(String flag, Duration duration) {
    if (duration.isZero() || duration.isNegative()) {
      throw new IllegalArgumentException(flag + " must be longer than 0, e.g. 30s");
    }
  }
}
