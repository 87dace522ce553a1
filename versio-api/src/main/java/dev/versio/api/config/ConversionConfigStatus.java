package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** What the operator last concluded about a config. */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ConversionConfigStatus {
  public Long observedGeneration;
  public Long observedTargetGeneration;
  public String schemaHash;

  /** Pending, Invalid, Applied, Stale or Failed. */
  public String phase;

  public List<Condition> conditions = new ArrayList<>();
  public String assignedWebhookServer;

  /**
   * The server whose replicas convert the target now: set when the conversion is applied, so during
   * a move it still names the source until the destination serves the target.
   */
  public String servedBy;

  public String webhookPath;
  public String webhookURL;
  public Boolean overallLossless;
  public List<SpokeStatus> spokeStatuses = new ArrayList<>();
  public String lastAppliedPlanHash;
  public String message;

  /** The target's storage migration (CRD configs), once one was started. */
  public StorageMigrationStatus storageMigration;

  /**
   * Who wrote this status: the operator replica and the ownership epoch of this object's shard,
   * {@code <replica>/<epoch>} (see docs/ha.md). Not part of what the operator compares.
   */
  public String writtenBy;

  /** The analysis of one spoke. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class SpokeStatus {
    public String version;
    public Boolean hubToSpokeLossless;
    public Boolean spokeToHubLossless;
    public List<String> fieldsUncoveredHub = new ArrayList<>();
    public List<String> fieldsUncoveredSpoke = new ArrayList<>();
    public List<String> errors = new ArrayList<>();
    public List<String> warnings = new ArrayList<>();
  }
}
