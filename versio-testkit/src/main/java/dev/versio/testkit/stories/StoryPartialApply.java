package dev.versio.testkit.stories;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.VersionSchema;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The check that a story's conversions hold when GitOps tools apply its objects server-side: the
 * apiserver then converts partial objects (the fields each field manager owns, at the version its
 * fields are recorded at) through the webhook while it prunes the fields a manager stopped applying
 * (kubernetes issues 117260, 117356, 117357). For every sample written at two versions, one field
 * manager applies the whole sample at the first version (not the storage version where the sample
 * allows), then the sample at the second version lacking some of its {@code spec} fields, then the
 * sample at the first version lacking others; every apply must succeed. The fields one rule reads
 * together (a join, a split, a CEL expression) go or stay together, as a manifest that sets only
 * some of them cannot be converted. For a story without expected files (every conversion exact),
 * each field the last apply set reads back at that version with the value it applied. The
 * conversion webhook must already be wired in.
 */
public final class StoryPartialApply {
  private static final String MANAGER = "versio-partial-apply";

  private StoryPartialApply() {}

  /** Runs the check on every sample of {@code story}; returns how many applies were made. */
  public static int assertPartialObjectsApplyServerSide(
      KubernetesClient client, String namespace, ExampleStory story) {
    var type = CustomResourceType.of(story.crd());
    var schemas = story.schemas().versions();
    var storage =
        schemas.stream().filter(VersionSchema::storage).map(VersionSchema::name).findFirst();
    boolean exact = !Files.isDirectory(story.dir().resolve("expected"));
    var together = fieldsThatGoTogether(story);
    int applies = 0;
    for (var sample : story.samples()) {
      var versions = new ArrayList<>(sample.byVersion().keySet());
      if (versions.size() < 2) {
        continue;
      }
      // a version that is not the storage version first: the apply itself goes through conversion
      versions.sort(Comparator.comparing(v -> storage.map(v::equals).orElse(false)));
      var first = versions.get(0);
      var second = versions.get(1);
      var name = (story.name() + "-" + sample.name() + "-ssa").toLowerCase();
      var random = new Random(name.hashCode());
      var ns = type.namespaced() ? namespace : null;
      var what = story.name() + ": sample " + sample.name();
      var whole = declaredOnly(sample.byVersion().get(first), schema(schemas, first));
      apply(client, type, ns, name, first, whole, what + " whole");
      var atSecond =
          withoutSomeSpecFields(sample.byVersion().get(second), schema(schemas, second), together);
      apply(client, type, ns, name, second, atSecond.apply(random), what + " partial");
      var last =
          withoutSomeSpecFields(sample.byVersion().get(first), schema(schemas, first), together);
      var lastApplied = last.apply(random);
      apply(client, type, ns, name, first, lastApplied, what + " partial");
      applies += 3;
      if (exact) {
        var read =
            Serialization.jsonMapper()
                .valueToTree(type.objects(client, first, namespace).withName(name).get());
        lastApplied
            .path("spec")
            .properties()
            .forEach(
                field ->
                    assertThat(
                            EngineJson.sameValue(
                                read.path("spec").get(field.getKey()), field.getValue()))
                        .as(
                            "%s: spec.%s after the partial apply at %s%n got:     %s%n applied: %s",
                            what,
                            field.getKey(),
                            first,
                            read.path("spec").get(field.getKey()),
                            field.getValue())
                        .isTrue());
      }
    }
    return applies;
  }

  /**
   * The sample as an apply sends it: its {@code spec} with only the fields the version declares
   * (the apiserver refuses others in an apply) and no {@code status} (a subresource, not applied
   * through the main resource).
   */
  private static ObjectNode declaredOnly(JsonNode sample, SchemaNode schema) {
    var copy = (ObjectNode) sample.deepCopy();
    if (copy.has("spec")) {
      copy.set(
          "spec",
          SchemaPruner.prune(copy.get("spec"), schema.property("spec").orElse(SchemaNode.empty())));
    }
    copy.remove("status");
    return copy;
  }

  /**
   * The top-level {@code spec} fields a rule reads together, which a manifest sets all or none of:
   * a rule that finds only some of them cannot convert the object, and says so (a {@code
   * FieldsToScalar} join, a {@code ScalarToFields} split, a {@code CEL} expression). A manifest
   * that sets only some is refused by the conversion, as it should be; this check leaves them out
   * together.
   */
  private static List<Set<String>> fieldsThatGoTogether(ExampleStory story) {
    var parsed =
        new ConfigParser()
            .parse(Serialization.unmarshal(story.configYaml(), JsonNode.class).path("spec"));
    var groups = new ArrayList<Set<String>>();
    if (parsed instanceof ConfigParser.Result.Parsed ok) {
      for (var spoke : ok.config().spokes()) {
        for (var rule : spoke.rules()) {
          switch (rule) {
            case Rule.FieldsToScalar join -> groups.add(specFields(join.hubFields().values()));
            case Rule.ScalarToFields split -> groups.add(specFields(split.spokeFields().values()));
            case Rule.CEL cel -> {
              groups.add(specFields(cel.hubPaths()));
              groups.add(specFields(cel.spokePaths()));
            }
            default -> {}
          }
        }
      }
    }
    return groups;
  }

  private static Set<String> specFields(java.util.Collection<FieldPath> paths) {
    var names = new java.util.HashSet<String>();
    for (var path : paths) {
      var segments = path.segments();
      if (segments.size() >= 2 && segments.getFirst().equals("spec")) {
        names.add(segments.get(1));
      }
    }
    return names;
  }

  /** The sample as {@link #declaredOnly} sends it, without some optional fields of its spec. */
  private static java.util.function.Function<Random, ObjectNode> withoutSomeSpecFields(
      JsonNode sample, SchemaNode schema, List<Set<String>> together) {
    var specSchema = schema.property("spec").orElse(SchemaNode.empty());
    return random -> {
      var copy = declaredOnly(sample, schema);
      if (copy.path("spec") instanceof ObjectNode fields && fields.size() > 1) {
        var names = new ArrayList<String>();
        fields.fieldNames().forEachRemaining(names::add);
        for (var field : names) {
          // a required field the manager stops applying would be pruned, and the object refused
          if (!fields.has(field)
              || specSchema.isRequired(field)
              || !random.nextBoolean()
              || fields.size() <= 1) {
            continue;
          }
          fields.remove(field);
          for (var group : together) {
            if (group.contains(field)) {
              group.forEach(fields::remove);
            }
          }
        }
      }
      return copy;
    };
  }

  private static SchemaNode schema(java.util.List<VersionSchema> schemas, String version) {
    return schemas.stream()
        .filter(v -> v.name().equals(version))
        .findFirst()
        .orElseThrow()
        .schema();
  }

  private static void apply(
      KubernetesClient client,
      CustomResourceType type,
      String namespace,
      String name,
      String version,
      JsonNode object,
      String what) {
    var copy = (ObjectNode) object.deepCopy();
    var metadata = (ObjectNode) copy.path("metadata");
    metadata.put("name", name);
    metadata.remove("namespace");
    if (namespace != null) {
      metadata.put("namespace", namespace);
    }
    var resource = Serialization.unmarshal(copy.toString(), GenericKubernetesResource.class);
    try {
      type.objects(client, version, namespace)
          .resource(resource)
          .fieldManager(MANAGER)
          .forceConflicts()
          .serverSideApply();
    } catch (KubernetesClientException e) {
      throw new AssertionError(
          what
              + " applied server-side at "
              + version
              + " failed: "
              + e.getMessage()
              + "\n applied: "
              + copy,
          e);
    }
  }
}
