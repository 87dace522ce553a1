package dev.versio.operator.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.api.server.ConversionWebhookServerStatus;
import dev.versio.api.server.ConversionWebhookServerStatus.AssignedConfig;
import dev.versio.api.server.EndpointMatch;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.fanout.ConfigTriggers;
import dev.versio.operator.gate.CaBundleSource;
import dev.versio.operator.served.ServedTargetsWatch;
import dev.versio.operator.server.ServerObservation.Check;
import dev.versio.operator.server.children.ChildApis;
import dev.versio.operator.server.children.IssuerVerdict;
import dev.versio.operator.server.children.ServerCertificate;
import dev.versio.operator.server.children.WebhookServerChildren;
import dev.versio.operator.status.Conditions;
import dev.versio.operator.tls.InstallationCa;
import dev.versio.operator.tls.InstallationCaSecret;
import dev.versio.operator.tls.ServerTls;
import dev.versio.operator.tls.TlsMaterial;
import dev.versio.operator.tls.TlsSecret;
import dev.versio.operator.write.ClusterWriter;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status part of a ConversionWebhookServer: Available, CertificateReady, ServiceReady,
 * DefaultConflict, endpoint, replica counts and the sorted configs assigned to it (both kinds); and
 * the finalizer that keeps a server in use from being deleted. In URL mode readiness is judged from
 * the URL itself; in Service mode from the Deployment, Service and TLS Secret (the children are
 * created by the install work; this reads them).
 */
public final class ServerReconciler
    implements Reconciler<ConversionWebhookServer>, Cleaner<ConversionWebhookServer> {
  private static final Logger LOG = LoggerFactory.getLogger(ServerReconciler.class);
  public static final String FINALIZER = "versio.dev/protect-in-use";
  public static final String ALLOW_FORCE_DELETE = "versio.dev/allow-force-delete";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Reads JSON text into trees with the engine's number settings (immutable, shared). */
  private static final com.fasterxml.jackson.databind.ObjectReader TREES =
      EngineJson.newMapper().reader();

  private final ClusterCache cache;
  private final ClusterWriter writer;
  private final ConfigTriggers<ConversionWebhookServer> triggers;
  private final OperatorOptions options;
  private final ServerSpecPolicy policy;
  private final Clock clock;
  private final ServedTargetsWatch served;
  private final WebhookServerChildren children;
  private final ChildApis childApis;
  private final InstallationCaSecret installationCa;
  private final UrlProbe probe = new UrlProbe(Duration.ofSeconds(3));
  private final java.util.Map<String, Probed> probed =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The last probe of a URL-mode server: every config change re-reconciles the servers (for {@code
   * assignedConfigs}), and that must not cost an HTTPS round trip each time.
   */
  private record Probed(String url, String caBundle, UrlProbe.Result result, Instant at) {}

  private static final Duration PROBE_REUSE = Duration.ofSeconds(5);

  /** What was last applied as a server's children, and when. */
  private record Applied(String fingerprint, Instant at) {}

  /** Servers and issuers ({@code server/kind/name}) already warned of as self-signed. */
  private final java.util.Set<String> issuersWarnedOf =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final java.util.Map<String, Applied> applied =
      new java.util.concurrent.ConcurrentHashMap<>();

  public ServerReconciler(
      ClusterCache cache,
      ClusterWriter writer,
      ConfigTriggers<ConversionWebhookServer> triggers,
      ServedTargetsWatch served,
      ChildApis childApis,
      OperatorOptions options,
      Clock clock) {
    this.served = served;
    this.childApis = childApis;
    this.children =
        new WebhookServerChildren(childApis, options.webhookServerImage(), options.serviceFront());
    this.cache = cache;
    this.writer = writer;
    this.triggers = triggers;
    this.options = options;
    this.policy = options.serverPolicy();
    this.clock = clock;
    this.installationCa =
        new InstallationCaSecret(cache.client(), options.namespace(), clock, options.webhookCa());
  }

  @Override
  public List<EventSource<?, ConversionWebhookServer>> prepareEventSources(
      EventSourceContext<ConversionWebhookServer> context) {
    return List.of(triggers);
  }

  @Override
  public UpdateControl<ConversionWebhookServer> reconcile(
      ConversionWebhookServer server, Context<ConversionWebhookServer> context) {
    if (!writer.mayWrite(server)) {
      return UpdateControl.noUpdate();
    }
    // a spec the operator must not run (an image, account, namespace or volume its author may
    // not use) gets no children written; what already runs stays as it was (admission refuses
    // such a spec, so this is a server written before the policy or while admission was off)
    var refusals = policy.refusals(server);
    if (!isUrlMode(server) && refusals.isEmpty()) {
      applyChildren(server);
    }
    var observation =
        refusals.isEmpty() ? observe(server, true) : refused(observe(server, false), refusals);
    var previous = server.getStatus();
    var next =
        ServerStatusPolicy.next(
            previous,
            server.isDefaultServer(),
            server.getMetadata().getName(),
            generation(server),
            observation,
            clock.instant());
    write(server, previous, next);
    boolean ready =
        observation.available().ok()
            && observation.certificateReady().ok()
            && observation.serviceReady().ok();
    // URL mode has nothing to watch, and the Deployment and Service are not watched until the
    // operator owns them: look again soon while not ready, and every --server-recheck (30 s) after
    var again = ready ? options.serverRecheck() : Duration.ofSeconds(5);
    return UpdateControl.<ConversionWebhookServer>noUpdate().rescheduleAfter(again);
  }

  /**
   * Server-side applies the objects a Service-mode server runs on, and deletes the autoscaler and
   * the disruption budget when its spec no longer asks for them — only when something can have
   * changed: what the server wants differs from what was last applied, a watched child (Deployment,
   * Service) was edited or deleted, or the resync interval has passed (which also takes back edits
   * of the unwatched children). Every config change reconciles the servers, and that must not cost
   * a round of writes each time.
   */
  private void applyChildren(ConversionWebhookServer server) {
    var name = server.getMetadata().getName();
    var namespace = CaBundleSource.namespaceOf(server, options.namespace());
    var spec = server.getSpec() == null ? new ConversionWebhookServerSpec() : server.getSpec();
    if (ServerCertificate.managedByOperator(spec)) {
      ensureCertificate(
          server,
          namespace,
          ServerCertificate.of(
              name,
              namespace,
              spec,
              WebhookServerChildren.behindFront(server, options.serviceFront())));
    }
    var desired = children.of(server, namespace);
    var fingerprint =
        SERIALIZATION.asJson(desired.inApplyOrder())
            + desired.front().map(SERIALIZATION::asJson).orElse("");
    var now = clock.instant();
    var last = applied.get(name);
    if (last != null
        && last.fingerprint().equals(fingerprint)
        && now.isBefore(last.at().plus(options.resyncInterval()))) {
      return;
    }
    for (var child : desired.inApplyOrder()) {
      writer.applyChild(server, child);
    }
    // shared by the namespace's servers: each applies it as its own manager, so its owner
    // reference is its own entry and none removes another's
    desired
        .front()
        .ifPresent(front -> writer.applyChild(server, front, "versio-operator-front-" + name));
    var child = WebhookServerChildren.childName(name);
    if (desired.autoscaler().isEmpty()) {
      deleteIfPresent(server, childApis.hpa(), "HorizontalPodAutoscaler", namespace, child);
    }
    if (desired.disruptionBudget().isEmpty()) {
      deleteIfPresent(server, childApis.pdb(), "PodDisruptionBudget", namespace, child);
    }
    if (desired.certificate().isEmpty() && childApis.certManager()) {
      deleteIfPresent(server, ChildApis.CERTIFICATE_API, "Certificate", namespace, child);
    }
    if (desired.certificate().isPresent()) {
      warnOfAnIssuerThatRotatesItsCa(server, spec, namespace);
    }
    applied.put(name, new Applied(fingerprint, now));
  }

  /**
   * A Warning Event (and a log line) when the server's cert-manager issuer is self-signed, once per
   * server and issuer: its every renewal would rewrite the server's targets' caBundle. Needs {@code
   * get} on cert-manager's issuers and clusterissuers; without it (or without the issuer) nothing
   * is said.
   */
  private void warnOfAnIssuerThatRotatesItsCa(
      ConversionWebhookServer server, ConversionWebhookServerSpec spec, String namespace) {
    var ref = spec.certificate.issuerRef;
    var kind = ref.kind == null ? "ClusterIssuer" : ref.kind;
    var key = server.getMetadata().getName() + "/" + kind + "/" + ref.name;
    if (issuersWarnedOf.contains(key)) {
      return;
    }
    try {
      var resources = cache.client().genericKubernetesResources(ChildApis.CERTIFICATE_API, kind);
      var issuer =
          kind.equals("Issuer")
              ? resources.inNamespace(namespace).withName(ref.name).get()
              : resources.withName(ref.name).get();
      if (issuer == null) {
        return;
      }
      @SuppressWarnings("unchecked")
      var issuerSpec = (java.util.Map<String, Object>) issuer.getAdditionalProperties().get("spec");
      var warning = IssuerVerdict.warning(kind, ref.name, issuerSpec);
      if (warning.isPresent()) {
        issuersWarnedOf.add(key);
        writer.event(server, true, "SelfSignedIssuer", warning.get());
        LOG.warn("ConversionWebhookServer {}: {}", server.getMetadata().getName(), warning.get());
      }
    } catch (KubernetesClientException | ClassCastException e) {
      LOG.debug("cannot read the issuer {} of {}: {}", ref.name, key, e.toString());
    }
  }

  /** A watched child of {@code server} was edited or deleted: apply its children again. */
  public void childChanged(String server) {
    applied.remove(server);
  }

  /**
   * Issues or renews the serving certificate when the Secret (as cached) cannot serve the Service's
   * names until the renewal margin, or its {@code ca.crt} is not the installation CA's bundle (a
   * step of that CA's rotation); otherwise nothing is read or written. Certificates are signed by
   * the installation CA ({@link InstallationCa}), so a renewal leaves {@code ca.crt}, and with it
   * every target's {@code caBundle}, as it was.
   */
  private void ensureCertificate(
      ConversionWebhookServer server, String namespace, ServerCertificate certificate) {
    var name = server.getMetadata().getName();
    var secretName = CaBundleSource.secretName(name);
    var cached = cache.secret(namespace, secretName);
    var cachedCa = cache.secret(installationCa.namespace(), InstallationCaSecret.NAME);
    var now = clock.instant();
    if (cached.isPresent() && cached.get().getData() != null && cachedCa.isPresent()) {
      try {
        var ca = InstallationCaSecret.read(cachedCa.get());
        var material = TlsMaterial.fromSecretData(cached.get().getData());
        if (ca.next(now, options.webhookCa()).equals(ca)
            && ServerTls.desired(
                    material,
                    ca,
                    certificate.hosts(),
                    now,
                    certificate.validity(),
                    certificate.renewBefore())
                .isEmpty()) {
          return;
        }
      } catch (IllegalArgumentException e) {
        // unreadable: the Secrets below say why and replace what they can
      }
    }
    // the serving certificate first: the pods mount it, and its CA reaches every target
    try {
      writer.ensureTlsSecret(
          server,
          new TlsSecret(cache.client(), namespace, secretName, clock)
              .withLifetime(certificate.validity(), certificate.renewBefore())
              .ownedBy(WebhookServerChildren.owner(server))
              .signedBy(() -> installationCa.ensure(cachedCa.orElse(null))),
          "versio-webhook-server-" + name,
          certificate.hosts());
    } catch (IllegalArgumentException e) {
      // a damaged CA Secret must not stop the server's children and status: its certificate stays
      // as it is (CertificateReady says whether it still serves) until the Secret is repaired
      LOG.error(
          "cannot issue the certificate of ConversionWebhookServer {}: {}; repair Secret {}/{}, or"
              + " delete it for a new CA (every target's caBundle then changes once)",
          name,
          e.getMessage(),
          installationCa.namespace(),
          InstallationCaSecret.NAME);
    }
  }

  private void deleteIfPresent(
      ConversionWebhookServer server,
      String apiVersion,
      String kind,
      String namespace,
      String name) {
    var present =
        cache
                .client()
                .genericKubernetesResources(apiVersion, kind)
                .inNamespace(namespace)
                .withName(name)
                .get()
            != null;
    if (present) {
      writer.deleteChild(server, apiVersion, kind, namespace, name);
      LOG.info(
          "ConversionWebhookServer {}: deleted its {} (no longer in its spec)",
          server.getMetadata().getName(),
          kind);
    }
  }

  private void write(
      ConversionWebhookServer server,
      ConversionWebhookServerStatus previous,
      ConversionWebhookServerStatus next) {
    if (previous != null && EngineJson.sameValue(unstamped(previous), unstamped(next))) {
      return;
    }
    writer.replaceStatus(server, next);
  }

  /**
   * @param probe whether a URL-mode server's address may be probed (not while its spec is refused:
   *     URL mode off must not leave the operator calling addresses a server names)
   */
  private ServerObservation observe(ConversionWebhookServer server, boolean probe) {
    var name = server.getMetadata().getName();
    var assigned = assignedConfigs(name);
    var otherDefaults =
        cache.servers().stream()
            .filter(ConversionWebhookServer::isDefaultServer)
            .map(s -> s.getMetadata().getName())
            .filter(n -> !n.equals(name))
            .sorted()
            .toList();
    var spec = server.getSpec();
    if (isUrlMode(server) && !probe) {
      var notProbed = new Check(false, "NotProbed", "the address is not probed: " + spec.url);
      return new ServerObservation(
          notProbed,
          notProbed,
          new Check(
              true, "UrlMode", "URL mode: the apiserver would call " + spec.url + " directly"),
          null,
          null,
          spec.url,
          assigned,
          otherDefaults,
          served.view(name));
    }
    if (isUrlMode(server)) {
      var result = probeOf(server.getMetadata().getName(), spec.url, spec.caBundle);
      return new ServerObservation(
          new Check(
              result.reachable() && result.certificateOk(),
              result.reachable() ? "Reachable" : "Unreachable",
              result.message()),
          new Check(
              result.certificateOk(),
              result.certificateOk() ? "CertificateVerified" : "CertificateNotVerified",
              result.certificateOk()
                  ? "spec.caBundle verifies the server's certificate"
                  : result.message()),
          new Check(true, "UrlMode", "URL mode: the apiserver calls " + spec.url + " directly"),
          null,
          null,
          spec.url,
          assigned,
          otherDefaults,
          served.view(name));
    }
    var namespace = CaBundleSource.namespaceOf(server, options.namespace());
    var child = name + "-webhook-server";
    int port =
        spec == null || spec.service == null || spec.service.port == null ? 443 : spec.service.port;
    var deployment = cache.deployment(namespace, child).orElse(null);
    Check available;
    Integer replicas = null;
    Integer readyReplicas = null;
    if (deployment == null) {
      available =
          new Check(
              false,
              "DeploymentNotAvailable",
              "Deployment " + namespace + "/" + child + " does not exist");
    } else {
      var status = deployment.getStatus();
      replicas = status == null || status.getReplicas() == null ? 0 : status.getReplicas();
      readyReplicas =
          status == null || status.getReadyReplicas() == null ? 0 : status.getReadyReplicas();
      boolean ok =
          status != null
              && status.getConditions() != null
              && status.getConditions().stream()
                  .anyMatch(c -> "Available".equals(c.getType()) && "True".equals(c.getStatus()));
      available =
          new Check(
              ok,
              ok ? "DeploymentAvailable" : "DeploymentNotAvailable",
              ok
                  ? readyReplicas + " of " + replicas + " replicas ready"
                  : "Deployment "
                      + namespace
                      + "/"
                      + child
                      + " is not Available ("
                      + readyReplicas
                      + " of "
                      + replicas
                      + " replicas ready)");
    }
    var service = serviceCheck(namespace, child);
    return new ServerObservation(
        available,
        certificate(namespace, CaBundleSource.secretName(name), child + "." + namespace + ".svc"),
        service,
        replicas,
        readyReplicas,
        "https://" + child + "." + namespace + ".svc:" + port,
        assigned,
        otherDefaults,
        served.view(name));
  }

  /** {@code observation} with the server unavailable because its spec is refused. */
  private static ServerObservation refused(ServerObservation observation, List<String> refusals) {
    var message =
        "the operator does not run this spec: "
            + String.join("; ", refusals)
            + " (nothing of it is applied until it is fixed)";
    return new ServerObservation(
        new Check(false, "SpecRefused", message),
        observation.certificateReady(),
        observation.serviceReady(),
        observation.replicas(),
        observation.readyReplicas(),
        observation.endpoint(),
        observation.assignedConfigs(),
        observation.otherDefaults(),
        observation.served());
  }

  private UrlProbe.Result probeOf(String name, String url, String caBundle) {
    var bundle = caBundle == null ? "" : caBundle;
    var now = clock.instant();
    var last = probed.get(name);
    if (last != null
        && last.url().equals(url)
        && last.caBundle().equals(bundle)
        && last.at().plus(PROBE_REUSE).isAfter(now)) {
      return last.result();
    }
    var result = probe.probe(url, bundle);
    probed.put(name, new Probed(url, bundle, result, now));
    return result;
  }

  /**
   * Ready when the Service exists and its Endpoints list at least one ready address: the apiserver
   * can reach a replica through it, not merely "the object exists".
   */
  private Check serviceCheck(String namespace, String child) {
    var where = "Service " + namespace + "/" + child;
    try {
      if (cache.service(namespace, child).isEmpty()) {
        return new Check(false, "ServiceMissing", where + " does not exist");
      }
      var endpoints = cache.client().endpoints().inNamespace(namespace).withName(child).get();
      long ready =
          endpoints == null || endpoints.getSubsets() == null
              ? 0
              : endpoints.getSubsets().stream()
                  .mapToLong(s -> s.getAddresses() == null ? 0 : s.getAddresses().size())
                  .sum();
      return ready > 0
          ? new Check(true, "ServiceReady", where + " has " + ready + " ready endpoint(s)")
          : new Check(
              false,
              "NoReadyEndpoints",
              where + " has no ready endpoints (no replica passes /readyz yet)");
    } catch (KubernetesClientException e) {
      return new Check(false, "ServiceMissing", "service lookup error: " + e.getMessage());
    }
  }

  /**
   * Ready when the Secret holds a certificate and key that belong together, valid now, covering
   * {@code host} (the name the apiserver calls), and — when it has {@code ca.crt} — signed by one
   * of its CAs.
   */
  private Check certificate(String namespace, String secretName, String host) {
    Secret secret;
    try {
      secret =
          cache
              .secret(namespace, secretName)
              .orElseGet(
                  () -> cache.client().secrets().inNamespace(namespace).withName(secretName).get());
    } catch (KubernetesClientException e) {
      return new Check(false, "CertificateNotReady", "secret lookup error: " + e.getMessage());
    }
    var where = "Secret " + namespace + "/" + secretName;
    var data = secret == null ? null : secret.getData();
    if (data == null || data.get("tls.crt") == null || data.get("tls.key") == null) {
      return new Check(false, "CertificateNotReady", where + " has no tls.crt and tls.key yet");
    }
    var withCa = new java.util.HashMap<>(data);
    withCa.putIfAbsent("ca.crt", data.get("tls.crt")); // no CA given: judge the leaf on its own
    TlsMaterial material;
    try {
      material = TlsMaterial.fromSecretData(withCa);
    } catch (IllegalArgumentException e) {
      return new Check(false, "CertificateNotReady", where + ": " + e.getMessage());
    }
    var problem = material.problem(List.of(host), clock.instant(), Duration.ZERO).orElse(null);
    if (problem != null && !data.containsKey("ca.crt") && problem.contains("not signed by")) {
      problem = null; // a leaf without its CA in the Secret: nothing to check it against here
    }
    if (problem != null) {
      return new Check(
          false,
          problem.contains("expire") ? "CertificateExpired" : "CertificateNotReady",
          where + ": " + problem);
    }
    var notAfter = material.certificateNotAfter();
    return new Check(
        true, "CertificateReady", where + ": key pair matches, valid until " + notAfter);
  }

  private List<AssignedConfig> assignedConfigs(String server) {
    var views = cache.servers().stream().map(ServerView::of).toList();
    var out = new ArrayList<AssignedConfig>();
    Stream.concat(
            cache.crdConfigs().stream().map(c -> entry("CRDConversionConfig", c)),
            cache.xrdConfigs().stream().map(c -> entry("XRDConversionConfig", c)))
        .forEach(
            e -> {
              var spec = e.config().getSpec();
              if (spec == null || spec.targetName() == null) {
                return;
              }
              var explicit = spec.webhookServerRef == null ? null : spec.webhookServerRef.name;
              if (AssignmentResolver.resolve(explicit, spec.targetName(), views).isTo(server)) {
                var assigned = new AssignedConfig();
                assigned.kind = e.kind();
                assigned.name = e.config().getMetadata().getName();
                assigned.target = spec.targetName();
                assigned.phase =
                    e.config().getStatus() == null ? null : e.config().getStatus().phase;
                out.add(assigned);
              }
            });
    return out;
  }

  private record Entry(
      String kind, CustomResource<? extends ConversionConfigSpec, ConversionConfigStatus> config) {}

  private static Entry entry(
      String kind, CustomResource<? extends ConversionConfigSpec, ConversionConfigStatus> config) {
    return new Entry(kind, config);
  }

  @Override
  public DeleteControl cleanup(
      ConversionWebhookServer server, Context<ConversionWebhookServer> context) {
    if (!writer.mayWrite(server)) {
      return DeleteControl.noFinalizerRemoval();
    }
    var annotations = server.getMetadata().getAnnotations();
    if (annotations != null && "true".equals(annotations.get(ALLOW_FORCE_DELETE))) {
      probed.remove(server.getMetadata().getName());
      applied.remove(server.getMetadata().getName());
      return DeleteControl.defaultDelete();
    }
    var name = server.getMetadata().getName();
    var assigned = assignedConfigs(name);
    var naming = targetsNaming(server);
    // after a move its replicas keep serving for their drain period, because the apiserver
    // refreshes a CRD's webhook asynchronously; deleting now would remove them (and in Service
    // mode their Deployment) before that
    var draining = served.view(name).servedTargets();
    if (assigned.isEmpty() && naming.isEmpty() && draining.isEmpty()) {
      probed.remove(name);
      applied.remove(name);
      return DeleteControl.defaultDelete();
    }
    var names = assigned.stream().map(a -> a.name).sorted().toList();
    var message =
        assigned.isEmpty() && naming.isEmpty()
            ? drainingMessage(draining)
            : assigned.isEmpty()
                ? namingMessage(naming)
                : "deletion blocked: "
                    + names.size()
                    + " config(s) still resolve to this server"
                    + (server.isDefaultServer()
                        ? " (this is the DEFAULT server: every config without webhookServerRef uses it)"
                        : "")
                    + ": "
                    + firstTen(names)
                    + ". Point them at another server first, or annotate the server "
                    + ALLOW_FORCE_DELETE
                    + "=\"true\" to delete it anyway";
    var previous = server.getStatus();
    var next =
        ServerStatusPolicy.deletionBlocked(previous, generation(server), message, clock.instant());
    boolean newlyBlocked =
        previous == null || !Conditions.isTrue(previous.conditions, Conditions.DELETION_BLOCKED);
    write(server, previous, next);
    if (newlyBlocked) {
      writer.event(server, true, "DeletionBlocked", message);
      LOG.info("ConversionWebhookServer {}: {}", name, message);
    }
    return DeleteControl.noFinalizerRemoval().rescheduleAfter(options.deletionRequeue().toMillis());
  }

  /** Targets of any config whose live spec.conversion still sends reviews to {@code server}. */
  private List<String> targetsNaming(ConversionWebhookServer server) {
    return EndpointMatch.targetsNaming(
        server,
        cache.crdConfigs(),
        t -> cache.crd(t).map(d -> SERIALIZATION.convertValue(d, JsonNode.class)),
        cache.xrdConfigs(),
        t -> cache.xrd(t).map(d -> SERIALIZATION.convertValue(d, JsonNode.class)));
  }

  private static String namingMessage(List<String> naming) {
    return "deletion blocked: "
        + naming.size()
        + " target(s) still send their conversions to this server (a move away is not complete"
        + " yet): "
        + firstTen(naming)
        + ". Wait until their configs are Applied elsewhere, or annotate the server "
        + ALLOW_FORCE_DELETE
        + "=\"true\" to delete it anyway";
  }

  /** The first ten names, and how many more there are. */
  private static String firstTen(List<String> names) {
    return String.join(", ", names.subList(0, Math.min(10, names.size())))
        + (names.size() > 10 ? " and " + (names.size() - 10) + " more" : "");
  }

  private static String drainingMessage(List<String> draining) {
    return "deletion waits: its replicas still serve "
        + draining.size()
        + " target(s) that moved away, for their drain period (--drain, 30 s by default), because"
        + " the apiserver may still send a few conversions here: "
        + firstTen(draining)
        + ". It completes by itself; annotate the server "
        + ALLOW_FORCE_DELETE
        + "=\"true\" to delete it at once";
  }

  private static boolean isUrlMode(ConversionWebhookServer server) {
    return server.getSpec() != null && server.getSpec().url != null;
  }

  private static long generation(ConversionWebhookServer server) {
    var g = server.getMetadata().getGeneration();
    return g == null ? 0 : g;
  }

  /** The status as a tree without {@code writtenBy}: who wrote it last is not a difference. */
  private static com.fasterxml.jackson.databind.JsonNode unstamped(Object status) {
    var tree = tree(status);
    if (tree instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
      object.remove(ClusterWriter.STATUS_WRITTEN_BY);
    }
    return tree;
  }

  private static com.fasterxml.jackson.databind.JsonNode tree(Object value) {
    try {
      return TREES.readTree(SERIALIZATION.asJson(value));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
