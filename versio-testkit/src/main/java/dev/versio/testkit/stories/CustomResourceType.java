package dev.versio.testkit.stories;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Where the objects of a custom resource live in the API, as its CRD declares it: group, kind,
 * plural and scope. Stands in for the typed client a user of the resource would have.
 *
 * @param group the API group, e.g. {@code example.com}
 * @param kind the kind, e.g. {@code Widget}
 * @param plural the plural the URLs use, e.g. {@code widgets}
 * @param namespaced whether objects live in a namespace
 */
public record CustomResourceType(String group, String kind, String plural, boolean namespaced) {
  /** The type a CRD ({@code apiextensions.k8s.io/v1}, as JSON) declares. */
  public static CustomResourceType of(JsonNode crd) {
    var spec = crd.path("spec");
    return new CustomResourceType(
        spec.path("group").asText(),
        spec.path("names").path("kind").asText(),
        spec.path("names").path("plural").asText(),
        spec.path("scope").asText().equals("Namespaced"));
  }

  /** The type at {@code version}, for the generic client. */
  public ResourceDefinitionContext at(String version) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(namespaced)
        .build();
  }

  /** The objects at {@code version}: those in {@code namespace} for a namespaced type, else all. */
  public NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      objects(KubernetesClient client, String version, String namespace) {
    var api = client.genericKubernetesResources(at(version));
    return namespaced ? api.inNamespace(namespace) : api;
  }
}
