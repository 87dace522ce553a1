package dev.versio.operator.ha;

import dev.versio.operator.write.ClusterWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.List;
import java.util.Objects;

/**
 * Puts shard ownership in front of a reconciler: every reconcile starts with the ownership check
 * (an object of another replica's shard is left alone, with no write and no retry), and the
 * finalizer is added and removed by this replica's {@link ClusterWriter} — under the shard's
 * ownership and stamped like every other write — instead of by JOSDK, which is why the controller
 * runs in JOSDK's "trigger the reconciler on all events" mode and this class is not a {@link
 * Cleaner} itself. The wrapped reconciler's {@code cleanup} still decides when the finalizer may
 * go.
 *
 * <p>Abstract so that each kind is a named subclass that names its resource class: JOSDK reads the
 * primary resource class from the reconciler's type arguments, and the controller from its class
 * name.
 *
 * @param <P> the primary resource
 */
public abstract class OwnedReconciler<P extends HasMetadata> implements Reconciler<P> {
  private final Reconciler<P> reconciler;
  private final Cleaner<P> cleaner;
  private final String finalizer;
  private final ClusterWriter writer;
  private final LiveEventWaits waits;

  /**
   * @param reconciler what a reconcile of an owned, live object does
   * @param cleaner what a reconcile of an owned object being deleted does (usually {@code
   *     reconciler} itself)
   */
  protected OwnedReconciler(
      Reconciler<P> reconciler,
      Cleaner<P> cleaner,
      String finalizer,
      ClusterWriter writer,
      LiveEventWaits waits) {
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    this.cleaner = Objects.requireNonNull(cleaner, "cleaner");
    this.finalizer = Objects.requireNonNull(finalizer, "finalizer");
    this.writer = Objects.requireNonNull(writer, "writer");
    this.waits = Objects.requireNonNull(waits, "waits");
  }

  @Override
  public final List<EventSource<?, P>> prepareEventSources(EventSourceContext<P> context) {
    return reconciler.prepareEventSources(context);
  }

  @Override
  public final UpdateControl<P> reconcile(P resource, Context<P> context) throws Exception {
    var kind = resource.getKind();
    var name = resource.getMetadata().getName();
    waits.started(kind, name);
    try {
      return reconcileOwned(resource, context);
    } finally {
      waits.finished(kind, name);
    }
  }

  private UpdateControl<P> reconcileOwned(P resource, Context<P> context) throws Exception {
    if (context.isPrimaryResourceDeleted() || !writer.mayWrite(resource)) {
      return UpdateControl.noUpdate();
    }
    var meta = resource.getMetadata();
    boolean held = meta.getFinalizers() != null && meta.getFinalizers().contains(finalizer);
    if (meta.getDeletionTimestamp() != null) {
      if (!held) {
        return UpdateControl.noUpdate();
      }
      var delete = cleaner.cleanup(resource, context);
      if (delete.isRemoveFinalizer()) {
        writer.removeFinalizer(resource, finalizer);
        return UpdateControl.noUpdate();
      }
      return delete
          .getScheduleDelay()
          .map(delay -> UpdateControl.<P>noUpdate().rescheduleAfter(delay))
          .orElseGet(UpdateControl::noUpdate);
    }
    if (!held) {
      // the update event of the finalizer write reconciles it again, with the finalizer in place
      writer.addFinalizer(resource, finalizer);
      return UpdateControl.noUpdate();
    }
    return reconciler.reconcile(resource, context);
  }

  /** CRDConversionConfigs behind the ownership gate. */
  public static final class CrdConfigs
      extends OwnedReconciler<dev.versio.api.config.CRDConversionConfig> {
    public <
            R extends
                Reconciler<dev.versio.api.config.CRDConversionConfig>
                    & Cleaner<dev.versio.api.config.CRDConversionConfig>>
        CrdConfigs(R reconciler, String finalizer, ClusterWriter writer, LiveEventWaits waits) {
      super(reconciler, reconciler, finalizer, writer, waits);
    }
  }

  /** XRDConversionConfigs behind the ownership gate. */
  public static final class XrdConfigs
      extends OwnedReconciler<dev.versio.api.config.XRDConversionConfig> {
    public <
            R extends
                Reconciler<dev.versio.api.config.XRDConversionConfig>
                    & Cleaner<dev.versio.api.config.XRDConversionConfig>>
        XrdConfigs(R reconciler, String finalizer, ClusterWriter writer, LiveEventWaits waits) {
      super(reconciler, reconciler, finalizer, writer, waits);
    }
  }

  /** ConversionWebhookServers behind the ownership gate. */
  public static final class Servers
      extends OwnedReconciler<dev.versio.api.server.ConversionWebhookServer> {
    public <
            R extends
                Reconciler<dev.versio.api.server.ConversionWebhookServer>
                    & Cleaner<dev.versio.api.server.ConversionWebhookServer>>
        Servers(R reconciler, String finalizer, ClusterWriter writer, LiveEventWaits waits) {
      super(reconciler, reconciler, finalizer, writer, waits);
    }
  }
}
