package dev.versio.api.server;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** What the operator observed about a webhook server. */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ConversionWebhookServerStatus {
  public Long observedGeneration;
  public List<Condition> conditions = new ArrayList<>();
  public Integer replicas;
  public Integer readyReplicas;
  public String endpoint;
  public List<AssignedConfig> assignedConfigs = new ArrayList<>();

  /**
   * Who wrote this status: the operator replica and the ownership epoch of this object's shard,
   * {@code <replica>/<epoch>} (see docs/ha.md). Not part of what the operator compares.
   */
  public String writtenBy;

  /** Targets every live replica reports it can serve (the intersection). */
  public List<String> servedTargets = new ArrayList<>();

  public Integer reportingReplicas;

  /** How many targets are in {@code servedTargets} (for {@code kubectl get}). */
  public Integer servedTargetCount;

  /** How many configs are in {@code assignedConfigs} (for {@code kubectl get}). */
  public Integer assignedConfigCount;

  /** A config the resolver assigns to this server. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class AssignedConfig {
    public String kind;
    public String name;
    public String target;
    public String phase;
  }
}
