package dev.versio.testkit.fleet;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.CRDConversionConfigSpec;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.SpokeSpec;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.config.XRDConversionConfigSpec;
import dev.versio.api.crd.XrdApi;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;

/**
 * The smallest realistic conversion target, for operator tests and scale runs: a two-version
 * "Widget" CRD whose v2 (storage, the hub) has {@code spec.replicas} where v1 says {@code
 * spec.size}, the config that renames one into the other, and a server in URL mode.
 */
public final class Widgets {
  private Widgets() {}

  /** The Widget CRD {@code <plural>.<group>} of kind {@code kind}. */
  public static CustomResourceDefinition crd(String group, String plural, String kind) {
    var yaml =
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: PLURAL.GROUP}
        spec:
          group: GROUP
          scope: Namespaced
          names: {kind: KIND, plural: PLURAL, singular: SINGULAR, listKind: KINDList}
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
            .replace("PLURAL", plural)
            .replace("SINGULAR", plural.substring(0, plural.length() - 1))
            .replace("GROUP", group)
            .replace("KIND", kind);
    return Serialization.unmarshal(yaml, CustomResourceDefinition.class);
  }

  /**
   * The config that renames {@code spec.replicas} (v2, hub) to {@code spec.size} (v1); {@code
   * server} null = no {@code webhookServerRef}.
   */
  public static CRDConversionConfig renameConfig(String name, String target, String server) {
    var config = new CRDConversionConfig();
    config.setMetadata(new ObjectMetaBuilder().withName(name).build());
    var spec = new CRDConversionConfigSpec();
    spec.targetCRD = new NameRef(target);
    spec.hubVersion = "v2";
    var spoke = new SpokeSpec();
    spoke.version = "v1";
    var rule = EngineJson.nodes().objectNode().put("strategy", "FieldRename");
    rule.putObject("fieldRename").put("hubPath", "spec.replicas").put("spokePath", "spec.size");
    spoke.rules = List.of(rule);
    spec.spokes = List.of(spoke);
    spec.webhookServerRef = server == null ? null : new NameRef(server);
    config.setSpec(spec);
    return config;
  }

  /**
   * A cluster-scoped Widget XRD {@code xwidgets.<group>} with claims ({@code widgetclaims}), as
   * Crossplane's API stores it: v1 has {@code spec.size}, v2 {@code spec.replicas}; {@code
   * referenceable} is the version Crossplane stores its generated CRDs at.
   */
  public static ObjectNode xrd(String group, String referenceable) {
    var xrd = EngineJson.nodes().objectNode();
    xrd.put("apiVersion", XrdApi.apiVersion(XrdApi.PREFERRED_VERSION))
        .put("kind", "CompositeResourceDefinition");
    xrd.putObject("metadata").put("name", "xwidgets." + group);
    var spec = xrd.putObject("spec").put("group", group).put("scope", "Cluster");
    spec.putObject("names").put("kind", "XWidget").put("plural", "xwidgets");
    spec.putObject("claimNames").put("kind", "WidgetClaim").put("plural", "widgetclaims");
    var versions = spec.putArray("versions");
    for (var version : List.of("v1", "v2")) {
      var field = version.equals("v1") ? "size" : "replicas";
      var v =
          versions
              .addObject()
              .put("name", version)
              .put("served", true)
              .put("referenceable", version.equals(referenceable));
      v.putObject("schema")
          .putObject("openAPIV3Schema")
          .put("type", "object")
          .putObject("properties")
          .putObject("spec")
          .put("type", "object")
          .putObject("properties")
          .putObject(field)
          .put("type", "integer");
    }
    return xrd;
  }

  /** {@link #renameConfig} for the XRD {@code xrd}. */
  public static XRDConversionConfig xrdRenameConfig(String name, String xrd, String server) {
    var crdConfig = renameConfig(name, xrd, server);
    var config = new XRDConversionConfig();
    config.setMetadata(crdConfig.getMetadata());
    var spec = new XRDConversionConfigSpec();
    spec.targetXRD = new NameRef(xrd);
    spec.hubVersion = crdConfig.getSpec().hubVersion;
    spec.spokes = crdConfig.getSpec().spokes;
    spec.webhookServerRef = crdConfig.getSpec().webhookServerRef;
    config.setSpec(spec);
    return config;
  }

  /** A ConversionWebhookServer in URL mode. */
  public static ConversionWebhookServer urlServer(String name, String url, String caBundle) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName(name).build());
    server.setSpec(new ConversionWebhookServerSpec());
    server.getSpec().url = url;
    server.getSpec().caBundle = caBundle;
    return server;
  }
}
