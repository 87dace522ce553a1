package dev.versio.operator.server.children;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The objects a ConversionWebhookServer in Service mode runs on, as the operator server-side
 * applies them: a pure function of the server, its namespace and the cluster's API versions, so the
 * same server always yields the same objects (drift is whatever differs from them).
 *
 * <ul>
 *   <li>ServiceAccount {@code <n>-webhook-server} (unless {@code spec.serviceAccountName} names the
 *       user's own);
 *   <li>Role and RoleBinding {@code <n>-webhook-server-leases}: get, create, update, delete on
 *       Leases in the server's namespace — the replicas' served-target reports, nothing else;
 *   <li>ClusterRoleBinding {@code versio-webhook-server-<n>} to the ClusterRole {@value
 *       #READER_CLUSTER_ROLE} (read configs, servers, CRDs, XRDs; the install provides it);
 *   <li>Service {@code <n>-webhook-server}: port {@code spec.service.port} (443) to the replicas'
 *       conversion port;
 *   <li>Deployment {@code <n>-webhook-server}: see {@link #deployment};
 *   <li>HorizontalPodAutoscaler only with {@code spec.autoscaling}, PodDisruptionBudget only with
 *       {@code spec.podDisruptionBudget}, in the API versions the cluster serves.
 * </ul>
 *
 * Every child carries a controller owner reference to the server, so deleting the server deletes
 * them.
 */
public final class WebhookServerChildren {
  public static final String READER_CLUSTER_ROLE = "versio-webhook-server";

  /** The Service in front of every shared server's replicas of a namespace (Service mode). */
  public static final String FRONT_SERVICE = dev.versio.api.server.EndpointMatch.FRONT_SERVICE;

  /** The pod label the front Service selects. */
  public static final String FRONT_LABEL = "versio.dev/front";

  public static final int CONVERSION_PORT = 9443;

  /** The replicas' plain-HTTP health and metrics port (not 8443, which reads as HTTPS). */
  public static final int OPS_PORT = 8080;

  static final int DEFAULT_STARTUP_PERIOD_SECONDS = 5;
  static final int DEFAULT_STARTUP_FAILURES = 60;

  public static final String CONTAINER = "webhook-server";
  static final String NAME_LABEL = "app.kubernetes.io/name";
  static final String INSTANCE_LABEL = "app.kubernetes.io/instance";
  static final String COMPONENT_LABEL = "app.kubernetes.io/component";
  static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

  /**
   * Everything one server runs on.
   *
   * @param serviceAccount null when {@code spec.serviceAccountName} names the user's own
   * @param autoscaler empty unless {@code spec.autoscaling} is set
   * @param disruptionBudget empty unless {@code spec.podDisruptionBudget} is set
   */
  public record Children(
      ServiceAccount serviceAccount,
      Role leaseRole,
      RoleBinding leaseRoleBinding,
      ClusterRoleBinding readerBinding,
      Service service,
      Deployment deployment,
      Optional<GenericKubernetesResource> autoscaler,
      Optional<GenericKubernetesResource> disruptionBudget,
      Optional<GenericKubernetesResource> certificate,
      Optional<Service> front) {
    /**
     * The children in the order they are applied (what the pods need comes first); the front
     * Service, shared with the other servers of the namespace, is applied on its own.
     */
    public List<HasMetadata> inApplyOrder() {
      var out = new ArrayList<HasMetadata>();
      certificate.ifPresent(out::add); // the Secret the pods mount comes from it
      if (serviceAccount != null) {
        out.add(serviceAccount);
      }
      out.addAll(List.of(leaseRole, leaseRoleBinding, readerBinding, service, deployment));
      autoscaler.ifPresent(out::add);
      disruptionBudget.ifPresent(out::add);
      return out;
    }
  }

  private final ChildApis apis;
  private final String defaultImage;
  private final boolean serviceFront;

  /**
   * @param defaultImage the image of replicas whose server names none: the operator's own (Versio
   *     ships one image for both commands)
   */
  public WebhookServerChildren(ChildApis apis, String defaultImage) {
    this(apis, defaultImage, false);
  }

  /**
   * @param serviceFront whether shared servers sit behind the namespace's front Service ({@code
   *     versio operator --service-front})
   */
  public WebhookServerChildren(ChildApis apis, String defaultImage, boolean serviceFront) {
    this.apis = Objects.requireNonNull(apis, "apis");
    this.defaultImage = Objects.requireNonNull(defaultImage, "defaultImage");
    this.serviceFront = serviceFront;
  }

  /**
   * Whether {@code server}'s replicas sit behind its namespace's front Service: the front is on,
   * the server runs in Service mode, is not {@code spec.isolated}, and its certificate comes from
   * the operator (signed by the installation CA, like every other replica's behind the front).
   */
  public static boolean behindFront(ConversionWebhookServer server, boolean serviceFront) {
    var spec = server.getSpec() == null ? new ConversionWebhookServerSpec() : server.getSpec();
    return serviceFront
        && spec.url == null
        && !server.isIsolated()
        && ServerCertificate.managedByOperator(spec);
  }

  /** The children of {@code server}, in {@code namespace}. */
  public Children of(ConversionWebhookServer server, String namespace) {
    var spec = server.getSpec() == null ? new ConversionWebhookServerSpec() : server.getSpec();
    var name = server.getMetadata().getName();
    var child = childName(name);
    var owner = owner(server);
    var labels = labels(name);
    boolean front = behindFront(server, serviceFront);
    var account = spec.serviceAccountName != null ? spec.serviceAccountName : child;
    ServiceAccount serviceAccount =
        spec.serviceAccountName != null
            ? null
            : new ServiceAccountBuilder()
                .withMetadata(meta(child, namespace, labels, owner))
                .build();
    var leases = child + "-leases";
    var role =
        new RoleBuilder()
            .withMetadata(meta(leases, namespace, labels, owner))
            .addNewRule()
            .withApiGroups("coordination.k8s.io")
            .withResources("leases")
            .withVerbs(
                front
                    // behind the front a replica reads its peers' Leases to find who holds what
                    ? List.of("get", "list", "watch", "create", "update", "delete")
                    : List.of("get", "create", "update", "delete"))
            .endRule()
            .build();
    var roleBinding =
        new RoleBindingBuilder()
            .withMetadata(meta(leases, namespace, labels, owner))
            .withNewRoleRef("rbac.authorization.k8s.io", "Role", leases)
            .addNewSubject()
            .withKind("ServiceAccount")
            .withName(account)
            .withNamespace(namespace)
            .endSubject()
            .build();
    var readerBinding =
        new ClusterRoleBindingBuilder()
            .withMetadata(meta(READER_CLUSTER_ROLE + "-" + name, null, labels, owner))
            .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", READER_CLUSTER_ROLE)
            .addNewSubject()
            .withKind("ServiceAccount")
            .withName(account)
            .withNamespace(namespace)
            .endSubject()
            .build();
    var serviceSpec =
        spec.service == null ? new ConversionWebhookServerSpec.Service() : spec.service;
    var serviceMeta = meta(child, namespace, labels, owner);
    if (serviceSpec.annotations != null && !serviceSpec.annotations.isEmpty()) {
      serviceMeta.setAnnotations(new LinkedHashMap<>(serviceSpec.annotations));
    }
    var service =
        new ServiceBuilder()
            .withMetadata(serviceMeta)
            .withNewSpec()
            .withType(serviceSpec.type == null ? "ClusterIP" : serviceSpec.type)
            .withSelector(selector(name))
            .addNewPort()
            .withName("conversion")
            .withPort(serviceSpec.port == null ? 443 : serviceSpec.port)
            .withTargetPort(new IntOrString("conversion"))
            .withProtocol("TCP")
            .endPort()
            .endSpec()
            .build();
    return new Children(
        serviceAccount,
        role,
        roleBinding,
        readerBinding,
        service,
        deployment(server, spec, namespace, account, labels, owner, front),
        autoscaler(spec, child, namespace, owner),
        disruptionBudget(spec, name, child, namespace, owner),
        certificate(spec, name, child, namespace, owner),
        front ? Optional.of(frontService(server, namespace)) : Optional.empty());
  }

  /**
   * The front Service of {@code namespace}: port 443 to the conversion port of every pod labelled
   * {@value #FRONT_LABEL}. Each server behind it applies it with a field manager of its own and
   * adds itself as a (non-controller) owner, so it goes when the last of them goes.
   */
  private static Service frontService(ConversionWebhookServer server, String namespace) {
    var owner = owner(server);
    owner.setController(false);
    owner.setBlockOwnerDeletion(false);
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(FRONT_SERVICE)
        .withNamespace(namespace)
        .withLabels(Map.of(NAME_LABEL, "versio-webhook-front", MANAGED_BY_LABEL, "versio-operator"))
        .withOwnerReferences(owner)
        .endMetadata()
        .withNewSpec()
        .withType("ClusterIP")
        .withSelector(Map.of(FRONT_LABEL, "true"))
        .addNewPort()
        .withName("conversion")
        .withPort(443)
        .withTargetPort(new IntOrString("conversion"))
        .withProtocol("TCP")
        .endPort()
        .endSpec()
        .build();
  }

  /**
   * cert-manager mode ({@code spec.certificate.issuerRef}): a {@code Certificate} for the Service's
   * names into the Secret the pods mount ({@code <child>-tls}), with the server's lifetime. None
   * when the operator issues the certificate itself, or when cert-manager is not installed (the
   * server's CertificateReady then says the Secret is missing).
   */
  private Optional<GenericKubernetesResource> certificate(
      ConversionWebhookServerSpec spec,
      String name,
      String child,
      String namespace,
      OwnerReference owner) {
    if (ServerCertificate.managedByOperator(spec) || !apis.certManager()) {
      return Optional.empty();
    }
    var wanted = ServerCertificate.of(name, namespace, spec, false);
    var issuer = spec.certificate.issuerRef;
    var body = new LinkedHashMap<String, Object>();
    body.put("secretName", child + "-tls");
    body.put("dnsNames", wanted.hosts());
    body.put("duration", wanted.validity().toHours() + "h");
    body.put("renewBefore", wanted.renewBefore().toHours() + "h");
    body.put(
        "issuerRef",
        Map.of(
            "name",
            issuer.name,
            "kind",
            issuer.kind == null ? "ClusterIssuer" : issuer.kind,
            "group",
            "cert-manager.io"));
    body.put(
        "privateKey",
        Map.of("algorithm", "ECDSA", "size", 256, "encoding", "PKCS8", "rotationPolicy", "Always"));
    body.put("usages", List.of("server auth", "digital signature", "key encipherment"));
    return Optional.of(
        new GenericKubernetesResourceBuilder()
            .withApiVersion(ChildApis.CERTIFICATE_API)
            .withKind("Certificate")
            .withMetadata(meta(child, namespace, labels(name), owner))
            .withAdditionalProperties(Map.of("spec", body))
            .build());
  }

  /** The name of every namespaced child of server {@code name}. */
  public static String childName(String name) {
    return name + "-webhook-server";
  }

  /**
   * The Deployment: replicas unless autoscaled; a rolling update that never goes below the wanted
   * count; the pod runs {@code versio webhook-server} with Versio's flags first and {@code
   * extraArgs} last (admission refuses extra arguments that set a flag Versio manages), knows its
   * pod name, UID and namespace from the downward API, is PSS-restricted, probed on its ops port
   * (startup on {@code /readyz}, 5 s × 60, so a slow cold start is never killed), and gets the TLS
   * Secret at {@code /tls} and a writable {@code /tmp}.
   */
  private Deployment deployment(
      ConversionWebhookServer server,
      ConversionWebhookServerSpec spec,
      String namespace,
      String account,
      Map<String, String> labels,
      OwnerReference owner,
      boolean front) {
    var name = server.getMetadata().getName();
    var child = childName(name);
    var podLabels = new LinkedHashMap<String, String>();
    if (spec.podLabels != null) {
      podLabels.putAll(spec.podLabels);
    }
    podLabels.putAll(labels); // Versio's own labels win: the selector depends on them
    if (front) {
      podLabels.put(FRONT_LABEL, "true"); // the front Service selects it
    }
    var args = new ArrayList<>(List.of("webhook-server", "--server-name", name));
    args.addAll(List.of("--tls-cert-dir", "/tls"));
    args.addAll(List.of("--bind-address", "0.0.0.0"));
    args.addAll(List.of("--conversion-port", Integer.toString(CONVERSION_PORT)));
    args.addAll(List.of("--ops-port", Integer.toString(OPS_PORT)));
    var selector = selectorText(spec.cacheSelector);
    if (selector != null) {
      args.addAll(List.of("--config-selector", selector));
    }
    if (front) {
      // peers reach it at $POD_IP:9443 and trust /tls/ca.crt, the installation CA
      args.add("--forward-reviews");
    }
    if (spec.extraArgs != null) {
      args.addAll(spec.extraArgs);
    }
    var env = new ArrayList<EnvVar>();
    if (front) {
      env.add(fieldRef("POD_IP", "status.podIP"));
    }
    env.add(fieldRef("POD_NAME", "metadata.name"));
    env.add(fieldRef("POD_UID", "metadata.uid"));
    env.add(fieldRef("POD_NAMESPACE", "metadata.namespace"));
    env.addAll(HeapFromMemoryLimit.environment(spec.resources, spec.extraEnv));
    var mounts = new ArrayList<VolumeMount>();
    mounts.add(
        new VolumeMountBuilder().withName("tls").withMountPath("/tls").withReadOnly(true).build());
    mounts.add(new VolumeMountBuilder().withName("tmp").withMountPath("/tmp").build());
    if (spec.extraVolumeMounts != null) {
      mounts.addAll(spec.extraVolumeMounts);
    }
    var volumes = new ArrayList<Volume>();
    volumes.add(
        new VolumeBuilder()
            .withName("tls")
            .withNewSecret()
            .withSecretName(child + "-tls")
            .endSecret()
            .build());
    volumes.add(new VolumeBuilder().withName("tmp").withNewEmptyDir().endEmptyDir().build());
    if (spec.extraVolumes != null) {
      volumes.addAll(spec.extraVolumes);
    }
    var container =
        new ContainerBuilder()
            .withName(CONTAINER)
            .withImage(image(spec.image))
            .withImagePullPolicy(spec.image == null ? null : spec.image.pullPolicy)
            .withArgs(args)
            .withPorts(port("conversion", CONVERSION_PORT), port("ops", OPS_PORT))
            .withEnv(env)
            .withResources(spec.resources)
            .withReadinessProbe(probe("/readyz", 5, 3))
            .withLivenessProbe(probe("/healthz", 10, 3))
            .withStartupProbe(
                probe(
                    "/readyz",
                    startup(spec.startupProbe, true, DEFAULT_STARTUP_PERIOD_SECONDS),
                    startup(spec.startupProbe, false, DEFAULT_STARTUP_FAILURES)))
            .withVolumeMounts(mounts)
            .withNewSecurityContext()
            .withRunAsNonRoot(true)
            .withAllowPrivilegeEscalation(false)
            .withReadOnlyRootFilesystem(true)
            .withNewCapabilities()
            .withDrop("ALL")
            .endCapabilities()
            .withNewSeccompProfile()
            .withType("RuntimeDefault")
            .endSeccompProfile()
            .endSecurityContext()
            .build();
    var podMeta = new ObjectMetaBuilder().withLabels(podLabels);
    if (spec.podAnnotations != null && !spec.podAnnotations.isEmpty()) {
      podMeta.withAnnotations(new LinkedHashMap<>(spec.podAnnotations));
    }
    return new DeploymentBuilder()
        .withMetadata(meta(child, namespace, labels, owner))
        .withNewSpec()
        .withReplicas(spec.autoscaling != null ? null : spec.replicas == null ? 2 : spec.replicas)
        .withNewSelector()
        .withMatchLabels(selector(name))
        .endSelector()
        .withNewStrategy()
        .withType("RollingUpdate")
        .withNewRollingUpdate()
        .withMaxUnavailable(new IntOrString(0))
        .withMaxSurge(new IntOrString(1))
        .endRollingUpdate()
        .endStrategy()
        .withNewTemplate()
        .withMetadata(podMeta.build())
        .withNewSpec()
        .withServiceAccountName(account)
        .withNewSecurityContext()
        .withRunAsNonRoot(true)
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .endSecurityContext()
        .withContainers(container)
        .withVolumes(volumes)
        .withNodeSelector(
            spec.nodeSelector == null || spec.nodeSelector.isEmpty() ? null : spec.nodeSelector)
        .withTolerations(spec.tolerations)
        .withAffinity(spec.affinity)
        .withTopologySpreadConstraints(spec.topologySpreadConstraints)
        .withPriorityClassName(spec.priorityClassName)
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private Optional<GenericKubernetesResource> autoscaler(
      ConversionWebhookServerSpec spec, String child, String namespace, OwnerReference owner) {
    var scaling = spec.autoscaling;
    if (scaling == null) {
      return Optional.empty();
    }
    int min = scaling.minReplicas == null ? 2 : scaling.minReplicas;
    int max = scaling.maxReplicas == null ? Math.max(min, 5) : scaling.maxReplicas;
    int cpu =
        scaling.targetCPUUtilizationPercentage == null
            ? 75
            : scaling.targetCPUUtilizationPercentage;
    var body = new LinkedHashMap<String, Object>();
    body.put(
        "scaleTargetRef", Map.of("apiVersion", "apps/v1", "kind", "Deployment", "name", child));
    body.put("minReplicas", min);
    body.put("maxReplicas", max);
    body.put(
        "metrics",
        List.of(
            Map.of(
                "type",
                "Resource",
                "resource",
                Map.of(
                    "name",
                    "cpu",
                    "target",
                    Map.of("type", "Utilization", "averageUtilization", cpu)))));
    return Optional.of(
        generic(apis.hpa(), "HorizontalPodAutoscaler", child, namespace, owner, body));
  }

  private Optional<GenericKubernetesResource> disruptionBudget(
      ConversionWebhookServerSpec spec,
      String name,
      String child,
      String namespace,
      OwnerReference owner) {
    var pdb = spec.podDisruptionBudget;
    if (pdb == null) {
      return Optional.empty();
    }
    var body = new LinkedHashMap<String, Object>();
    body.put("selector", Map.of("matchLabels", selector(name)));
    if (pdb.minAvailable != null) {
      body.put("minAvailable", intOrString(pdb.minAvailable));
    }
    if (pdb.maxUnavailable != null) {
      body.put("maxUnavailable", intOrString(pdb.maxUnavailable));
    }
    if (pdb.minAvailable == null && pdb.maxUnavailable == null) {
      body.put("maxUnavailable", 1); // an empty block still protects: one replica at a time
    }
    return Optional.of(generic(apis.pdb(), "PodDisruptionBudget", child, namespace, owner, body));
  }

  private static Object intOrString(IntOrString value) {
    return value.getIntVal() != null ? value.getIntVal() : value.getStrVal();
  }

  private static GenericKubernetesResource generic(
      String apiVersion,
      String kind,
      String name,
      String namespace,
      OwnerReference owner,
      Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(apiVersion)
        .withKind(kind)
        .withMetadata(meta(name, namespace, null, owner))
        .addToAdditionalProperties("spec", spec)
        .build();
  }

  private String image(ConversionWebhookServerSpec.Image image) {
    if (image == null || image.repository == null || image.repository.isBlank()) {
      return defaultImage;
    }
    if (image.digest != null && !image.digest.isBlank()) {
      return image.repository + "@" + image.digest;
    }
    return image.repository
        + ":"
        + (image.tag == null || image.tag.isBlank() ? "latest" : image.tag);
  }

  /** The label selector as {@code kubectl} takes it, or null when it selects everything. */
  static String selectorText(LabelSelector selector) {
    if (selector == null) {
      return null;
    }
    var parts = new ArrayList<String>();
    if (selector.getMatchLabels() != null) {
      selector.getMatchLabels().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> parts.add(e.getKey() + "=" + e.getValue()));
    }
    if (selector.getMatchExpressions() != null) {
      for (var e : selector.getMatchExpressions()) {
        var values = e.getValues() == null ? List.<String>of() : e.getValues();
        parts.add(
            switch (e.getOperator()) {
              case "In" -> e.getKey() + " in (" + String.join(",", values) + ")";
              case "NotIn" -> e.getKey() + " notin (" + String.join(",", values) + ")";
              case "Exists" -> e.getKey();
              case "DoesNotExist" -> "!" + e.getKey();
              default ->
                  throw new IllegalArgumentException(
                      "spec.cacheSelector: unknown operator '"
                          + e.getOperator()
                          + "' for "
                          + e.getKey());
            });
      }
    }
    return parts.isEmpty() ? null : String.join(",", parts);
  }

  private static Map<String, String> labels(String name) {
    var labels = new LinkedHashMap<>(selector(name));
    labels.put(MANAGED_BY_LABEL, "versio-operator");
    return labels;
  }

  /** The labels that select a server's pods (never change: a Deployment's selector is fixed). */
  static Map<String, String> selector(String name) {
    var labels = new LinkedHashMap<String, String>();
    labels.put(NAME_LABEL, "versio-webhook-server");
    labels.put(INSTANCE_LABEL, name);
    labels.put(COMPONENT_LABEL, "webhook-server");
    return labels;
  }

  private static ObjectMeta meta(
      String name, String namespace, Map<String, String> labels, OwnerReference owner) {
    var meta = new ObjectMetaBuilder().withName(name).withNamespace(namespace);
    if (labels != null) {
      meta.withLabels(new LinkedHashMap<>(labels));
    }
    return meta.withOwnerReferences(owner).build();
  }

  /** The controlling owner reference every child of {@code server} carries. */
  public static OwnerReference owner(ConversionWebhookServer server) {
    return new OwnerReferenceBuilder()
        .withApiVersion(
            server.getApiVersion() == null ? "versio.dev/v1alpha1" : server.getApiVersion())
        .withKind("ConversionWebhookServer")
        .withName(server.getMetadata().getName())
        .withUid(server.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  /** The startup probe's period or failure threshold: the spec's, else the default. */
  private static int startup(
      ConversionWebhookServerSpec.StartupProbe probe, boolean period, int fallback) {
    if (probe == null) {
      return fallback;
    }
    var value = period ? probe.periodSeconds : probe.failureThreshold;
    return value == null ? fallback : value;
  }

  private static EnvVar fieldRef(String name, String path) {
    return new EnvVarBuilder()
        .withName(name)
        .withNewValueFrom()
        .withNewFieldRef()
        .withFieldPath(path)
        .endFieldRef()
        .endValueFrom()
        .build();
  }

  private static ContainerPort port(String name, int port) {
    return new ContainerPortBuilder()
        .withName(name)
        .withContainerPort(port)
        .withProtocol("TCP")
        .build();
  }

  private static Probe probe(String path, int periodSeconds, int failureThreshold) {
    return new ProbeBuilder()
        .withNewHttpGet()
        .withPath(path)
        .withPort(new IntOrString("ops"))
        .endHttpGet()
        .withPeriodSeconds(periodSeconds)
        .withFailureThreshold(failureThreshold)
        .build();
  }
}
