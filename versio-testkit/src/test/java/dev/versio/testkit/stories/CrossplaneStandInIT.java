package dev.versio.testkit.stories;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

/**
 * The Crossplane stand-in against a real apiserver: XRDs stored and reported Established,
 * conversions propagated.
 */
@KubeApiServerTest
class CrossplaneStandInIT {
  @Test
  void theXrdIsReportedEstablishedAndItsConversionReachesTheGeneratedCrdEachTimeItIsPropagated(
      KubernetesClient client, KubeTestScope scope) {
    CrossplaneStandIn.installXrdApi(client);
    var group = scope.apiGroup();
    var name = "things." + group;
    var xrd = xrd(name, group);
    client.resource(generic(xrd)).serverSideApply();
    var installed =
        Crds.apply(
            client,
            Serialization.unmarshal(
                CrossplaneStandIn.generatedCrd(xrd).toString(), CustomResourceDefinition.class));
    assertThat(installed.getSpec().getVersions())
        .extracting(v -> v.getName() + ":" + v.getStorage())
        .containsExactly("v1:false", "v2:true");

    var established = CrossplaneStandIn.reportEstablished(client, name);
    assertThat(established.getAdditionalProperties().get("status"))
        .asInstanceOf(InstanceOfAssertFactories.MAP)
        .extractingByKey("conditions")
        .asInstanceOf(InstanceOfAssertFactories.LIST)
        .singleElement()
        .asInstanceOf(InstanceOfAssertFactories.MAP)
        .containsEntry("type", "Established")
        .containsEntry("status", "True");
    CrossplaneStandIn.reportEstablished(client, name); // idempotent: still one condition
    assertThat(
            (List<?>)
                ((Map<?, ?>)
                        client
                            .genericKubernetesResources(
                                "apiextensions.crossplane.io/v2", "CompositeResourceDefinition")
                            .withName(name)
                            .get()
                            .getAdditionalProperties()
                            .get("status"))
                    .get("conditions"))
        .hasSize(1);

    var url = "https://127.0.0.1:1/convert/" + name;
    ((ObjectNode) xrd.path("spec"))
        .set(
            "conversion",
            EngineJson.newMapper()
                .valueToTree(
                    Map.of(
                        "strategy",
                        "Webhook",
                        "webhook",
                        Map.of(
                            "conversionReviewVersions",
                            List.of("v1"),
                            "clientConfig",
                            Map.of("url", url)))));
    client.resource(generic(xrd)).serverSideApply();
    assertThat(CrossplaneStandIn.propagateConversion(client, name).getSpec().getConversion())
        .satisfies(
            c -> {
              assertThat(c.getStrategy()).isEqualTo("Webhook");
              assertThat(c.getWebhook().getClientConfig().getUrl()).isEqualTo(url);
              assertThat(c.getWebhook().getConversionReviewVersions()).isEqualTo(List.of("v1"));
            });

    ((ObjectNode) xrd.path("spec")).remove("conversion");
    client.resource(generic(xrd)).serverSideApply();
    CrossplaneStandIn.propagateConversion(client, name);
    assertThat(
            client
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(name)
                .get()
                .getSpec()
                .getConversion()
                .getStrategy())
        .isEqualTo("None");
  }

  private static ObjectNode xrd(String name, String group) {
    var xrd = EngineJson.nodes().objectNode();
    xrd.put("apiVersion", "apiextensions.crossplane.io/v2")
        .put("kind", "CompositeResourceDefinition");
    xrd.putObject("metadata").put("name", name);
    var spec = xrd.putObject("spec").put("group", group).put("scope", "Namespaced");
    spec.putObject("names").put("kind", "Thing").put("plural", "things");
    var versions = spec.putArray("versions");
    for (var version : List.of("v1", "v2")) {
      versions
          .addObject()
          .put("name", version)
          .put("served", true)
          .put("referenceable", version.equals("v2"))
          .putObject("schema")
          .set(
              "openAPIV3Schema",
              EngineJson.newMapper()
                  .valueToTree(
                      Map.of(
                          "type",
                          "object",
                          "properties",
                          Map.of(
                              "spec",
                              Map.of(
                                  "type",
                                  "object",
                                  "x-kubernetes-preserve-unknown-fields",
                                  true)))));
    }
    return xrd;
  }

  private static GenericKubernetesResource generic(ObjectNode object) {
    return Serialization.unmarshal(object.toString(), GenericKubernetesResource.class);
  }
}
