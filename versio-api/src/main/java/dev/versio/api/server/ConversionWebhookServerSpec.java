package dev.versio.api.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.List;
import java.util.Map;

/** The desired webhook-server deployment, and how the apiserver reaches it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ConversionWebhookServerSpec {
  /**
   * The fallback server for configs without {@code webhookServerRef}; at most one may be default.
   */
  @Default("false")
  @JsonProperty("default")
  public Boolean isDefault;

  /** Namespace of the child objects (default: the operator's namespace). */
  public String namespace;

  /** Replicas when {@code autoscaling} is not set. */
  @Default("2")
  @Min(0)
  public Integer replicas;

  public Autoscaling autoscaling;
  public Image image;
  public ResourceRequirements resources;
  public Map<String, String> nodeSelector;
  public List<Toleration> tolerations;
  public Affinity affinity;
  public String priorityClassName;
  public List<TopologySpreadConstraint> topologySpreadConstraints;
  public String serviceAccountName;
  public List<String> extraArgs;
  public List<EnvVar> extraEnv;
  public List<Volume> extraVolumes;
  public List<VolumeMount> extraVolumeMounts;
  public Map<String, String> podLabels;
  public Map<String, String> podAnnotations;

  /** Limits which configs the server's replicas watch. */
  public LabelSelector cacheSelector;

  public Certificate certificate;
  public Service service;
  public PodDisruptionBudget podDisruptionBudget;

  /**
   * How long a replica may take to start: the startup probe on {@code /readyz} (default every 5 s,
   * 60 times, so 5 minutes) before liveness takes over; raise it for very many targets.
   */
  public StartupProbe startupProbe;

  public Sharding sharding;

  /**
   * Keep this server out of the shared front: its targets name its own endpoint (a move to or from
   * it rewrites their CRD), and no replica of another server ever relays its reviews. For tenants
   * that must not share a trust domain.
   */
  @Default("false")
  public Boolean isolated;

  /**
   * Reach the server at this base URL instead of its in-cluster Service (local development and
   * tests); conversions go to {@code <url>/convert/<target>}. Needs {@code caBundle}.
   */
  @Pattern("^https://.+")
  public String url;

  /** Base64 PEM of the CA that signed the server certificate, for {@code url} mode. */
  public String caBundle;

  /** HPA settings; when set, the HPA owns the replica count. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Autoscaling {
    @Min(1)
    public Integer minReplicas;

    @Min(1)
    public Integer maxReplicas;

    @Default("75")
    public Integer targetCPUUtilizationPercentage;
  }

  /** The container image; {@code digest} wins over {@code tag}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Image {
    public String repository;
    public String tag;
    public String digest;
    public String pullPolicy;
  }

  /** The serving certificate, issued by cert-manager or by the operator's own CA. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Certificate {
    public IssuerRef issuerRef;
    public List<String> dnsNames;
    public String duration;
    public String renewBefore;
  }

  /** A cert-manager issuer. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class IssuerRef {
    public String name;

    @Default("ClusterIssuer")
    @Pattern("^(Issuer|ClusterIssuer)$")
    public String kind;
  }

  /** The Service in front of the replicas. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Service {
    @Default("ClusterIP")
    public String type;

    @Default("443")
    public Integer port;

    public Map<String, String> annotations;
  }

  /** A PodDisruptionBudget is created when this block is present. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class PodDisruptionBudget {
    public IntOrString minAvailable;
    public IntOrString maxUnavailable;
  }

  /** The replicas' startup probe on {@code /readyz}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class StartupProbe {
    @Default("5")
    @Min(1)
    public Integer periodSeconds;

    @Default("60")
    @Min(1)
    public Integer failureThreshold;
  }

  /** Membership of the sharding pool: omitted = not in the pool, {} = in it. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Sharding {
    @Default("true")
    public Boolean enabled;

    /** Relative share of targets in weighted rendezvous hashing (default 1). */
    public Double weight;
  }
}
