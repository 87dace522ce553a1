package dev.versio.bench.operator;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.testkit.fleet.Widgets;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

/**
 * The objects of the operator scale run: the same two-version Widget CRD and renaming config as the
 * operator's integration tests (v2 hub has {@code spec.replicas}, v1 calls it {@code spec.size}),
 * one CRD per API group, and the default server in URL mode.
 */
final class ScaleFixtures {
  static final String SERVER = "bench";

  private ScaleFixtures() {}

  /** The API group of target {@code i}: {@code g<i>.bench.versio.dev}. */
  static String group(int i) {
    return "g" + i + ".bench.versio.dev";
  }

  /** The CRD name of target {@code i}: {@code widgets.g<i>.bench.versio.dev}. */
  static String crdName(int i) {
    return "widgets." + group(i);
  }

  /** The config name of target {@code i}. */
  static String configName(int i) {
    return "widgets-" + i;
  }

  static CustomResourceDefinition widgetCrd(int i) {
    return Widgets.crd(group(i), "widgets", "Widget");
  }

  /** Renames {@code spec.replicas} (v2, hub) to {@code spec.size} (v1); no webhookServerRef. */
  static CRDConversionConfig renameConfig(int i) {
    return Widgets.renameConfig(configName(i), crdName(i), null);
  }

  /** The default ConversionWebhookServer in URL mode. */
  static ConversionWebhookServer defaultUrlServer(String url, String caBundle) {
    var server = Widgets.urlServer(SERVER, url, caBundle);
    server.getSpec().isDefault = true;
    return server;
  }
}
