package dev.versio.operator.config;

import dev.versio.api.config.XRDConversionConfig;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.fanout.ConfigTriggers;
import dev.versio.operator.gate.HandoverGate;
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.operator.write.ClusterWriter;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import java.time.Clock;

/**
 * The {@link ConfigReconciler} of XRDConversionConfigs (the interfaces are repeated so the operator
 * framework can read the resource type).
 */
public final class XRDConfigReconciler extends ConfigReconciler<XRDConversionConfig>
    implements Reconciler<XRDConversionConfig>, Cleaner<XRDConversionConfig> {
  public XRDConfigReconciler(
      ClusterCache cache,
      ClusterWriter writer,
      OperatorMetrics metrics,
      ConfigTriggers<XRDConversionConfig> triggers,
      HandoverGate handover,
      OperatorOptions options,
      dev.versio.operator.migrate.StorageMigrations migrations,
      RetirementStep retirement,
      Clock clock) {
    super(
        ConfigKind.XRD,
        cache,
        writer,
        metrics,
        triggers,
        handover,
        options,
        migrations,
        retirement,
        clock);
  }
}
