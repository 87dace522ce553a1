package dev.versio.api.server;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A horizontally scalable instance of the conversion webhook runtime. */
@Group("versio.dev")
@Version("v1alpha1")
@AdditionalPrinterColumn(
    name = "Default",
    jsonPath = ".spec.default",
    type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.readyReplicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Reporting",
    jsonPath = ".status.reportingReplicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Served",
    jsonPath = ".status.servedTargetCount",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Assigned",
    jsonPath = ".status.assignedConfigCount",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Endpoint",
    jsonPath = ".status.endpoint",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class ConversionWebhookServer
    extends CustomResource<ConversionWebhookServerSpec, ConversionWebhookServerStatus> {

  /**
   * Whether this server is in the sharding pool (a present {@code sharding} block not disabled).
   */
  @JsonIgnore
  public boolean inShardingPool() {
    var sharding = getSpec() == null ? null : getSpec().sharding;
    return sharding != null && !Boolean.FALSE.equals(sharding.enabled);
  }

  /** Whether the server keeps its own endpoint instead of sitting behind the shared front. */
  @JsonIgnore
  public boolean isIsolated() {
    return getSpec() != null && Boolean.TRUE.equals(getSpec().isolated);
  }

  /** Whether this server is the default one. */
  @JsonIgnore
  public boolean isDefaultServer() {
    return getSpec() != null && Boolean.TRUE.equals(getSpec().isDefault);
  }
}
