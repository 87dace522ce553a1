package dev.versio.bench.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.CRDConversionConfigSpec;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.SpokeSpec;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The targets of the memory run: one three-version "Gadget" CRD per API group ({@code v1}, the hub
 * and storage version; {@code v1beta1} and {@code v1alpha1}, its spokes) and one config per CRD
 * with nine rules in all (renames, an enum remap, a numeric scale, a field kept in an annotation
 * and a constant), and the ConversionReviews sent to them. A somewhat richer target than the
 * two-version Widget of the operator scale run, whose one rename barely exercises the engine.
 */
final class MemoryFixture {
  static final String PLURAL = "gadgets";
  static final String KIND = "Gadget";
  static final String HUB = "v1";
  static final List<String> VERSIONS = List.of("v1alpha1", "v1beta1", "v1");

  private static final ObjectMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();
  private static final ObjectMapper JSON = EngineJson.newMapper();

  private static final String CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: gadgets.GROUP}
      spec:
        group: GROUP
        scope: Namespaced
        names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
        versions:
        - name: v1alpha1
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
                    tier: {type: string, enum: [P, B]}
                    timeoutSec: {type: number}
                    engineName: {type: string}
                    image: {type: string}
                    apiLevel: {type: string}
                status:
                  type: object
                  properties:
                    phase: {type: string}
        - name: v1beta1
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
                    tier: {type: string, enum: [Premium, Basic]}
                    timeoutMs: {type: number}
                    engine: {type: string}
                    image: {type: string}
                    notes: {type: string}
                status:
                  type: object
                  properties:
                    phase: {type: string}
        - name: v1
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
                    tier: {type: string, enum: [Premium, Basic]}
                    timeoutMs: {type: number}
                    engine: {type: string}
                    image: {type: string}
                    notes: {type: string}
                status:
                  type: object
                  properties:
                    state: {type: string}
      """;

  private static final String BETA_RULES =
      """
      - strategy: FieldRename
        fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
      - strategy: FieldRename
        fieldRename: {hubPath: status.state, spokePath: status.phase}
      """;

  private static final String ALPHA_RULES =
      """
      - strategy: FieldRename
        fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
      - strategy: FieldRename
        fieldRename: {hubPath: spec.engine, spokePath: spec.engineName}
      - strategy: EnumRemap
        enumRemap:
          path: spec.tier
          mapping: [{hub: Premium, spoke: P}, {hub: Basic, spoke: B}]
      - strategy: NumericScale
        numericScale: {hubPath: spec.timeoutMs, spokePath: spec.timeoutSec, factor: 1000}
      - strategy: ToAnnotation
        toAnnotation: {hubPath: spec.notes, key: bench.versio.dev/notes, restoreOnReverse: true}
      - strategy: Constant
        constant: {path: spec.apiLevel, existsOn: Spoke, value: "1"}
        acknowledgeLossy: true
        reason: v1alpha1 clients read a fixed API level
      - strategy: FieldRename
        fieldRename: {hubPath: status.state, spokePath: status.phase}
      """;

  private MemoryFixture() {}

  /** The API group of target {@code i}. */
  static String group(int i) {
    return "g" + i + ".memory.bench.versio.dev";
  }

  /** The CRD name of target {@code i}, which is also the target's name in the webhook's URL. */
  static String crdName(int i) {
    return PLURAL + "." + group(i);
  }

  static String configName(int i) {
    return PLURAL + "-" + i;
  }

  static CustomResourceDefinition crd(int i) {
    return Serialization.unmarshal(CRD.replace("GROUP", group(i)), CustomResourceDefinition.class);
  }

  /** The config of target {@code i}; no {@code webhookServerRef}: the default server takes it. */
  static CRDConversionConfig config(int i) {
    var config = new CRDConversionConfig();
    config.setMetadata(new ObjectMetaBuilder().withName(configName(i)).build());
    var spec = new CRDConversionConfigSpec();
    spec.targetCRD = new NameRef(crdName(i));
    spec.hubVersion = HUB;
    spec.spokes = List.of(spoke("v1beta1", BETA_RULES), spoke("v1alpha1", ALPHA_RULES));
    config.setSpec(spec);
    return config;
  }

  private static SpokeSpec spoke(String version, String rules) {
    var spoke = new SpokeSpec();
    spoke.version = version;
    var list = new ArrayList<JsonNode>();
    try {
      YAML.readTree(rules).forEach(list::add);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    spoke.rules = list;
    return spoke;
  }

  /** The number of rules in one config. */
  static int ruleCount() {
    return config(0).getSpec().spokes.stream().mapToInt(s -> s.rules.size()).sum();
  }

  /**
   * A ConversionReview for target {@code i} with {@code objects} Gadgets at {@code from}, asking
   * for {@code to}; {@code seq} varies names and values.
   */
  static byte[] review(int i, String from, String to, int objects, int seq) {
    var review = JSON.createObjectNode();
    review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
    var request = review.putObject("request");
    request
        .put("uid", String.format("00000000-0000-4000-8000-%012d", (long) seq))
        .put("desiredAPIVersion", group(i) + "/" + to);
    var list = request.putArray("objects");
    for (int k = 0; k < objects; k++) {
      var o = list.addObject();
      o.put("apiVersion", group(i) + "/" + from).put("kind", KIND);
      var md = o.putObject("metadata");
      md.put("name", "gadget-" + seq + "-" + k)
          .put("namespace", "default")
          .put("uid", "uid-" + seq + "-" + k)
          .put("resourceVersion", Integer.toString(1000 + seq))
          .put("generation", 1);
      md.putObject("labels").put("app", "gadget").put("team", "memory");
      var spec = o.putObject("spec");
      var status = o.putObject("status");
      boolean premium = (seq + k) % 2 == 0;
      switch (from) {
        case "v1alpha1" -> {
          spec.put("size", 1 + (seq + k) % 5)
              .put("tier", premium ? "P" : "B")
              .put("timeoutSec", 1.5 + k)
              .put("engineName", "redis")
              .put("image", "registry.example.com/gadget:1." + seq % 10)
              .put("apiLevel", "1");
          status.put("phase", "Ready");
        }
        case "v1beta1" -> {
          spec.put("size", 1 + (seq + k) % 5)
              .put("tier", premium ? "Premium" : "Basic")
              .put("timeoutMs", 1500 + 1000 * k)
              .put("engine", "redis")
              .put("image", "registry.example.com/gadget:1." + seq % 10)
              .put("notes", "gadget " + seq);
          status.put("phase", "Ready");
        }
        default -> {
          spec.put("replicas", 1 + (seq + k) % 5)
              .put("tier", premium ? "Premium" : "Basic")
              .put("timeoutMs", 1500 + 1000 * k)
              .put("engine", "redis")
              .put("image", "registry.example.com/gadget:1." + seq % 10)
              .put("notes", "gadget " + seq);
          status.put("state", "Ready");
        }
      }
    }
    try {
      return JSON.writeValueAsBytes(review);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
