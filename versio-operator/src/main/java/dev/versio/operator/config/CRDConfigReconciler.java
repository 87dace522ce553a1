package dev.versio.operator.config;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.fanout.ConfigTriggers;
import dev.versio.operator.gate.HandoverGate;
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.operator.migrate.StorageMigrations;
import dev.versio.operator.write.ClusterWriter;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import java.time.Clock;

/**
 * The {@link ConfigReconciler} of CRDConversionConfigs (the interfaces are repeated so the operator
 * framework can read the resource type).
 */
public final class CRDConfigReconciler extends ConfigReconciler<CRDConversionConfig>
    implements Reconciler<CRDConversionConfig>, Cleaner<CRDConversionConfig> {
  public CRDConfigReconciler(
      ClusterCache cache,
      ClusterWriter writer,
      OperatorMetrics metrics,
      ConfigTriggers<CRDConversionConfig> triggers,
      HandoverGate handover,
      OperatorOptions options,
      StorageMigrations migrations,
      RetirementStep retirement,
      Clock clock) {
    super(
        ConfigKind.CRD,
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
