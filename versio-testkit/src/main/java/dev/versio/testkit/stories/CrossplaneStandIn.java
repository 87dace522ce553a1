package dev.versio.testkit.stories;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.testkit.Crds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stands in for Crossplane in a cluster that does not run it, as far as conversions need it: the
 * API that stores XRDs ({@link #XRD_API_CRD}), and Crossplane's propagation of an XRD to the CRD it
 * generates from it ({@link #generatedCrd}, {@link #propagateConversion}, {@link
 * #reportEstablished}). Nothing else of Crossplane (compositions, claims, the generated schema's
 * extra fields) is here.
 */
public final class CrossplaneStandIn {
  /**
   * A minimal stand-in for Crossplane's XRD CRD: enough for XRD objects to be stored and watched.
   */
  public static final String XRD_API_CRD = xrdApiCrd("name: v2, served: true, storage: true");

  /**
   * Crossplane 1.x's XRD API (1.12 to 1.20): {@code apiextensions.crossplane.io/v1} only, keeping
   * an XRD's {@code spec.conversion}.
   */
  public static final String XRD_API_CRD_CROSSPLANE_1 =
      xrdApiCrd("name: v1, served: true, storage: true");

  /**
   * Crossplane 1.0–1.11's XRD API: {@code v1} only, with a schema that has no {@code
   * spec.conversion} (the apiserver drops it from every XRD), so no conversion webhook can be set.
   */
  public static final String XRD_API_CRD_CROSSPLANE_1_BEFORE_1_12 =
      XRD_API_CRD_CROSSPLANE_1.replace(
          "schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}",
          "schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties:"
              + " {group: {type: string}, versions: {type: array, items: {type: object,"
              + " x-kubernetes-preserve-unknown-fields: true}}, names: {type: object,"
              + " x-kubernetes-preserve-unknown-fields: true}, claimNames: {type: object,"
              + " x-kubernetes-preserve-unknown-fields: true}}}, status: {type: object,"
              + " x-kubernetes-preserve-unknown-fields: true}}}}");

  /**
   * Crossplane 2.x's XRD API as it ships it: {@code v1} still the storage version (deprecated),
   * {@code v2} served beside it; what a cluster has after upgrading from 1.x.
   */
  public static final String XRD_API_CRD_CROSSPLANE_2 =
      xrdApiCrd(
          "name: v1, served: true, storage: true, deprecated: true",
          "name: v2, served: true, storage: false");

  /**
   * The XRD API's CRD with {@code versions}, each the fields of one version entry as flow YAML;
   * every version keeps every field of an XRD.
   */
  private static String xrdApiCrd(String... versions) {
    var out =
        new StringBuilder(
            """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: compositeresourcedefinitions.apiextensions.crossplane.io}
            spec:
              group: apiextensions.crossplane.io
              scope: Cluster
              names: {kind: CompositeResourceDefinition, plural: compositeresourcedefinitions}
              versions:
            """);
    for (var version : versions) {
      out.append("  - {")
          .append(version)
          .append(
              ", schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields:"
                  + " true}}}\n");
    }
    return out.toString();
  }

  private static final CustomResourceType XRDS =
      new CustomResourceType(
          "apiextensions.crossplane.io",
          "CompositeResourceDefinition",
          "compositeresourcedefinitions",
          false);

  private CrossplaneStandIn() {}

  /** Installs {@link #XRD_API_CRD} (idempotent) and waits until XRDs are served. */
  public static void installXrdApi(KubernetesClient client) {
    Crds.apply(client, Serialization.unmarshal(XRD_API_CRD, CustomResourceDefinition.class));
  }

  /** Installs {@link #XRD_API_CRD_CROSSPLANE_1_BEFORE_1_12}, the XRD API of Crossplane 1.0–1.11. */
  public static void installXrdApiOfCrossplaneBefore112(KubernetesClient client) {
    Crds.apply(
        client,
        Serialization.unmarshal(
            XRD_API_CRD_CROSSPLANE_1_BEFORE_1_12, CustomResourceDefinition.class));
  }

  /** Installs {@link #XRD_API_CRD_CROSSPLANE_1}, the XRD API of Crossplane 1.12–1.20. */
  public static void installXrdApiOfCrossplane1(KubernetesClient client) {
    Crds.apply(
        client, Serialization.unmarshal(XRD_API_CRD_CROSSPLANE_1, CustomResourceDefinition.class));
  }

  /**
   * Installs (or upgrades 1.x's to) {@link #XRD_API_CRD_CROSSPLANE_2}, the XRD API of Crossplane
   * 2.x.
   */
  public static void installXrdApiOfCrossplane2(KubernetesClient client) {
    Crds.apply(
        client, Serialization.unmarshal(XRD_API_CRD_CROSSPLANE_2, CustomResourceDefinition.class));
  }

  /**
   * The CRD Crossplane generates from {@code xrd}: the same name, group, names, scope and version
   * schemas, the referenceable version as the storage version, and the XRD's {@code
   * spec.conversion} where it has one.
   */
  public static ObjectNode generatedCrd(JsonNode xrd) {
    var crd = EngineJson.nodes().objectNode();
    crd.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "CustomResourceDefinition");
    crd.putObject("metadata").put("name", xrd.path("metadata").path("name").asText());
    var spec = crd.putObject("spec");
    spec.put("group", xrd.path("spec").path("group").asText());
    spec.put("scope", xrd.path("spec").path("scope").asText("Cluster"));
    spec.set("names", xrd.path("spec").path("names").deepCopy());
    var versions = spec.putArray("versions");
    for (var v : xrd.path("spec").path("versions")) {
      versions
          .addObject()
          .put("name", v.path("name").asText())
          .put("served", v.path("served").asBoolean(true))
          .put("storage", v.path("referenceable").asBoolean(false))
          .set("schema", v.path("schema").deepCopy());
    }
    if (xrd.path("spec").has("conversion")) {
      spec.set("conversion", xrd.path("spec").path("conversion").deepCopy());
    }
    return crd;
  }

  /**
   * Applies {@code xrd} (server-side), then, as Crossplane does, the CRDs it generates from it: the
   * composite's and, when it declares {@code claimNames}, the claim's; waits until both are served.
   */
  public static void applyWithGeneratedCrds(KubernetesClient client, ObjectNode xrd) {
    client
        .resource(Serialization.unmarshal(xrd.toString(), GenericKubernetesResource.class))
        .serverSideApply();
    var crds = new ArrayList<ObjectNode>(List.of(generatedCrd(xrd)));
    if (xrd.path("spec").path("claimNames").has("plural")) {
      crds.add(generatedClaimCrd(xrd));
    }
    for (var crd : crds) {
      Crds.apply(client, Serialization.unmarshal(crd.toString(), CustomResourceDefinition.class));
    }
  }

  /**
   * The claim CRD Crossplane generates from {@code xrd} when it declares {@code claimNames}: the
   * same versions, schemas, storage version and conversion as {@link #generatedCrd}, namespaced,
   * named {@code <claimNames.plural>.<group>}.
   */
  public static ObjectNode generatedClaimCrd(JsonNode xrd) {
    var crd = generatedCrd(xrd);
    var spec = (ObjectNode) crd.path("spec");
    var claimNames = xrd.path("spec").path("claimNames");
    if (!claimNames.has("plural")) {
      throw new IllegalArgumentException("the XRD declares no claimNames");
    }
    spec.set("names", claimNames.deepCopy());
    spec.put("scope", "Namespaced");
    ((ObjectNode) crd.path("metadata"))
        .put("name", claimNames.path("plural").asText() + "." + spec.path("group").asText());
    return crd;
  }

  /**
   * Writes the {@code Established=True} condition onto the XRD {@code xrdName}, as Crossplane does
   * once the CRD it generated from the XRD is served; returns the updated XRD. The stand-in XRD API
   * has no status subresource, so an update of the object carries the status.
   */
  public static GenericKubernetesResource reportEstablished(
      KubernetesClient client, String xrdName) {
    var established =
        Map.of(
            "type", "Established",
            "status", "True",
            "reason", "WatchingCompositeResource",
            "lastTransitionTime", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    return XRDS.objects(client, xrdApiVersion(client), null)
        .withName(xrdName)
        .edit(
            xrd -> {
              var status =
                  xrd.getAdditionalProperties().get("status") instanceof Map<?, ?> m
                      ? new LinkedHashMap<String, Object>(castKeys(m))
                      : new LinkedHashMap<String, Object>();
              var conditions = new ArrayList<Object>();
              if (status.get("conditions") instanceof List<?> list) {
                list.stream()
                    .filter(
                        c -> !(c instanceof Map<?, ?> cm && "Established".equals(cm.get("type"))))
                    .forEach(conditions::add);
              }
              conditions.add(established);
              status.put("conditions", conditions);
              xrd.getAdditionalProperties().put("status", status);
              return xrd;
            });
  }

  /** The version XRDs are read at in this cluster, as Versio chooses it ({@code v2} if unsure). */
  private static String xrdApiVersion(KubernetesClient client) {
    var api =
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName(dev.versio.api.crd.XrdApi.CRD_NAME)
            .get();
    return api == null
        ? dev.versio.api.crd.XrdApi.PREFERRED_VERSION
        : dev.versio.api.crd.XrdApi.version(api)
            .orElse(dev.versio.api.crd.XrdApi.PREFERRED_VERSION);
  }

  private static Map<String, Object> castKeys(Map<?, ?> map) {
    var out = new LinkedHashMap<String, Object>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  /**
   * Copies the {@code spec.conversion} of the XRD {@code xrdName}, as the apiserver has it now,
   * onto the CRD generated from it ({@code None} where the XRD has none), as Crossplane does when
   * an XRD's conversion changes; returns the updated CRD.
   */
  public static CustomResourceDefinition propagateConversion(
      KubernetesClient client, String xrdName) {
    return propagateConversion(client, xrdName, xrdName);
  }

  /**
   * Copies the {@code spec.conversion} of the XRD {@code xrdName} onto the CRD {@code crdName}
   * generated from it: the XR's ({@code crdName} = {@code xrdName}) or, from Crossplane 1.12 on,
   * the claim's ({@code <claimNames.plural>.<group>}), which gets the same conversion.
   */
  public static CustomResourceDefinition propagateConversion(
      KubernetesClient client, String xrdName, String crdName) {
    var xrd = XRDS.objects(client, xrdApiVersion(client), null).withName(xrdName).get();
    if (xrd == null) {
      throw new IllegalStateException("no XRD " + xrdName);
    }
    var conversion =
        xrd.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
            ? spec.get("conversion")
            : null;
    var copy =
        conversion == null
            ? new CustomResourceConversionBuilder().withStrategy("None").build()
            : client
                .getKubernetesSerialization()
                .convertValue(conversion, CustomResourceConversion.class);
    return client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(crdName)
        .edit(
            crd -> {
              crd.getSpec().setConversion(copy);
              return crd;
            });
  }
}
