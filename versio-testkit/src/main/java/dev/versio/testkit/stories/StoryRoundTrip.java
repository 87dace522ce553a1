package dev.versio.testkit.stories;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.schema.VersionSchema;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The check that a story's conversions hold through a real apiserver, standing in for the clients
 * of a converted resource that read it at another version than it was written at: every sample,
 * created at each version it is given in, reads back at every other version with get, list and
 * watch equal to the story's expected output (as the apiserver prunes it to that version's schema),
 * with the same labels and annotations. The conversion webhook must already be wired in.
 */
public final class StoryRoundTrip {
  private StoryRoundTrip() {}

  /**
   * Creates every sample of {@code story} at each of its versions (in {@code namespace} where the
   * resource is namespaced) and asserts each reads back at every other served version as {@link
   * ExampleStory#readBacks()} expects (a pair without an expectation fails); returns how many
   * conversions were checked.
   */
  public static int assertEverySampleReadsBackAtEveryOtherVersion(
      KubernetesClient client, String namespace, ExampleStory story) {
    return assertEverySampleReadsBackAtEveryOtherVersion(
        client, namespace, story, CustomResourceType.of(story.crd()));
  }

  /**
   * The same with the samples written as objects of {@code type} (kind included): e.g. the claims
   * of an XRD story, whose CRD Crossplane generates with the XR's versions and conversion.
   */
  public static int assertEverySampleReadsBackAtEveryOtherVersion(
      KubernetesClient client, String namespace, ExampleStory story, CustomResourceType type) {
    var versions = story.schemas().versions();
    var readBacks = story.readBacks(); // fails on a pair without an expectation, before any write
    for (var sample : story.samples()) {
      for (var from : sample.byVersion().entrySet()) {
        type.objects(client, from.getKey(), namespace)
            .resource(
                toCreate(
                    from.getValue(),
                    type.kind(),
                    objectName(story, sample, from.getKey()),
                    type.namespaced() ? namespace : null))
            .create();
      }
    }
    for (var readBack : readBacks) {
      var to =
          versions.stream().filter(v -> v.name().equals(readBack.to())).findFirst().orElseThrow();
      var what =
          story.name()
              + ": "
              + readBack.sample().name()
              + " created at "
              + readBack.from()
              + ", read";
      assertReadsBack(
          client,
          namespace,
          type,
          objectName(story, readBack.sample(), readBack.from()),
          to,
          readBack.expected(),
          what);
    }
    return readBacks.size();
  }

  private static String objectName(ExampleStory story, StorySample sample, String from) {
    return (story.name() + "-" + sample.name() + "-from-" + from).toLowerCase();
  }

  /**
   * Asserts the object {@code name} of {@code type} reads at version {@code to} with get, list and
   * watch as {@code expected}: its {@code spec} and {@code status} pruned to {@code to}'s schema,
   * its labels and annotations as they are. {@code what} starts each failure message.
   */
  public static void assertReadsBack(
      KubernetesClient client,
      String namespace,
      CustomResourceType type,
      String name,
      VersionSchema to,
      JsonNode expected,
      String what) {
    var objects = type.objects(client, to.name(), namespace);
    for (var read : Read.values()) {
      assertSame(json(read.of(objects, name)), expected, to, what + " with " + read);
    }
  }

  /** The ways a client reads an object, each through the apiserver's conversion. */
  private enum Read {
    GET,
    LIST,
    WATCH;

    GenericKubernetesResource of(
        NonNamespaceOperation<
                GenericKubernetesResource,
                GenericKubernetesResourceList,
                Resource<GenericKubernetesResource>>
            objects,
        String name) {
      return switch (this) {
        case GET -> objects.withName(name).get();
        case LIST ->
            objects.list().getItems().stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " is not in the list"));
        case WATCH -> watchAdded(objects, name);
      };
    }

    @Override
    public String toString() {
      return name().toLowerCase();
    }
  }

  private static void assertSame(JsonNode got, JsonNode expected, VersionSchema to, String what) {
    assertThat(got.path("apiVersion").asText()).as(what).endsWith("/" + to.name());
    for (var field : new String[] {"spec", "status"}) {
      var property = to.schema().property(field);
      if (property.isEmpty()) {
        continue;
      }
      var want = SchemaPruner.prune(expected.get(field), property.get());
      var have = got.get(field);
      assertThat(EngineJson.sameValue(have, want))
          .as("%s at %s: %s%n got:      %s%n expected: %s", what, to.name(), field, have, want)
          .isTrue();
    }
    for (var field : new String[] {"labels", "annotations"}) {
      var want = expected.path("metadata").path(field);
      var have = got.path("metadata").path(field);
      assertThat(EngineJson.sameValue(orEmpty(have), orEmpty(want)))
          .as(
              "%s at %s: metadata.%s%n got:      %s%n expected: %s",
              what, to.name(), field, have, want)
          .isTrue();
    }
  }

  private static JsonNode orEmpty(JsonNode node) {
    return node.isMissingNode() ? EngineJson.nodes().objectNode() : node;
  }

  /**
   * {@code sample} as a {@code kind} named {@code name}, in {@code namespace} (none when it is
   * null).
   */
  private static GenericKubernetesResource toCreate(
      JsonNode sample, String kind, String name, String namespace) {
    var copy = (ObjectNode) sample.deepCopy();
    copy.put("kind", kind);
    var metadata = (ObjectNode) copy.path("metadata");
    metadata.put("name", name);
    metadata.remove("namespace");
    if (namespace != null) {
      metadata.put("namespace", namespace);
    }
    return Serialization.unmarshal(copy.toString(), GenericKubernetesResource.class);
  }

  /** The object as the first (synthetic ADDED) event of a watch delivers it. */
  private static GenericKubernetesResource watchAdded(
      FilterWatchListDeletable<GenericKubernetesResource, ?, ?> objects, String name) {
    var added = new CompletableFuture<GenericKubernetesResource>();
    try (var watch =
        objects
            .withField("metadata.name", name)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, GenericKubernetesResource resource) {
                    if (action == Action.ADDED) {
                      added.complete(resource);
                    } else if (action == Action.ERROR) {
                      added.completeExceptionally(
                          new AssertionError("watch of " + name + " sent an ERROR event"));
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {
                    added.completeExceptionally(
                        new AssertionError("watch of " + name + " closed: " + cause.getMessage()));
                  }
                })) {
      return added.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof AssertionError a ? a : new AssertionError(e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("watch of " + name + " sent no ADDED event in 30 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted watching " + name, e);
    }
  }

  private static JsonNode json(GenericKubernetesResource resource) {
    try {
      return EngineJson.newMapper().readTree(Serialization.asJson(resource));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
