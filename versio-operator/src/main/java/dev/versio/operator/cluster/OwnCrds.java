package dev.versio.operator.cluster;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Versio's own CRDs, which the operator's caches and controllers list. The operator starts its
 * informers once all of them are Established: applied together with the operator (one {@code
 * kubectl apply}, or {@code versio dev}), a CRD may still be on its way when the operator's JVM is
 * up, and an informer that lists a resource the apiserver does not serve yet retries only after its
 * back-off.
 */
final class OwnCrds {
  private static final Logger LOG = LoggerFactory.getLogger(OwnCrds.class);
  private static final Duration POLL = Duration.ofMillis(100);

  static final List<String> NAMES =
      List.of(
          HasMetadata.getFullResourceName(ConversionWebhookServer.class),
          HasMetadata.getFullResourceName(CRDConversionConfig.class),
          HasMetadata.getFullResourceName(XRDConversionConfig.class));

  private OwnCrds() {}

  /**
   * Those of {@code names} that {@code lookup} finds absent (null) or not Established, in order.
   */
  static List<String> notEstablished(
      List<String> names, Function<String, CustomResourceDefinition> lookup) {
    return names.stream().filter(name -> !ClusterCache.established(lookup.apply(name))).toList();
  }

  /** What the operator waits for, and how to end the wait. */
  static String waitingFor(List<String> missing) {
    return "Versio's CRDs "
        + String.join(", ", missing)
        + " are not Established yet; the operator starts once they are (apply deploy/crds/, or"
        + " install the chart, which has them)";
  }

  /**
   * Waits until each of {@link #NAMES} is Established (read by name, a few small requests; nothing
   * is listed), and logs once what it waits for.
   *
   * @throws IllegalStateException naming the missing CRDs when {@code deadlineNanos} passes first
   */
  static void await(KubernetesClient client, long deadlineNanos) {
    var api = client.apiextensions().v1().customResourceDefinitions();
    boolean logged = false;
    while (true) {
      List<String> missing;
      try {
        missing = notEstablished(NAMES, name -> api.withName(name).get());
      } catch (KubernetesClientException e) {
        if (e.getCode() == 401 || e.getCode() == 403) {
          throw new IllegalStateException(
              "cannot read Versio's CRDs ("
                  + e.getMessage()
                  + "): the operator needs get on customresourcedefinitions (docs/install.md)",
              e);
        }
        // the apiserver busy or briefly away: the informers would retry too, so this does
        missing = NAMES;
        if (!logged) {
          LOG.warn("cannot read Versio's CRDs yet, retrying: {}", e.getMessage());
        }
      }
      if (missing.isEmpty()) {
        if (logged) {
          LOG.info("Versio's CRDs are Established; starting the caches");
        }
        return;
      }
      if (System.nanoTime() > deadlineNanos) {
        throw new IllegalStateException(waitingFor(missing) + "; gave up waiting");
      }
      if (!logged) {
        LOG.warn(waitingFor(missing));
        logged = true;
      }
      try {
        Thread.sleep(POLL); // waiting for the apiserver to establish a CRD, not for test logic
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for Versio's CRDs", e);
      }
    }
  }
}
