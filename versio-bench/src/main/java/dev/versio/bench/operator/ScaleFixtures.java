package dev.versio.bench.operator;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.CRDConversionConfigSpec;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.SpokeSpec;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;

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
    var yaml =
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: widgets.GROUP}
        spec:
          group: GROUP
          scope: Namespaced
          names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
          versions:
          - name: v1
            served: true
            storage: false
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      size: {type: integer}
                      engine: {type: string}
          - name: v2
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      replicas: {type: integer}
                      engine: {type: string}
        """
            .replace("GROUP", group(i));
    return Serialization.unmarshal(yaml, CustomResourceDefinition.class);
  }

  /** Renames {@code spec.replicas} (v2, hub) to {@code spec.size} (v1); no webhookServerRef. */
  static CRDConversionConfig renameConfig(int i) {
    var config = new CRDConversionConfig();
    config.setMetadata(new ObjectMetaBuilder().withName(configName(i)).build());
    var spec = new CRDConversionConfigSpec();
    spec.targetCRD = new NameRef(crdName(i));
    spec.hubVersion = "v2";
    var spoke = new SpokeSpec();
    spoke.version = "v1";
    var rule = EngineJson.nodes().objectNode().put("strategy", "FieldRename");
    rule.putObject("fieldRename").put("hubPath", "spec.replicas").put("spokePath", "spec.size");
    spoke.rules = List.of(rule);
    spec.spokes = List.of(spoke);
    config.setSpec(spec);
    return config;
  }

  /** The default ConversionWebhookServer in URL mode. */
  static ConversionWebhookServer defaultUrlServer(String url, String caBundle) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName(SERVER).build());
    server.setSpec(new ConversionWebhookServerSpec());
    server.getSpec().isDefault = true;
    server.getSpec().url = url;
    server.getSpec().caBundle = caBundle;
    return server;
  }
}
