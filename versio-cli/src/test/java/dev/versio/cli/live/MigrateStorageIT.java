package dev.versio.cli.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.cli.CliContractIT;
import dev.versio.cli.VersioCommand;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code versio migrate-storage} against a real apiserver: objects stored at an old version are
 * rewritten at the new storage version, {@code status.storedVersions} is pruned, and the old
 * version can then be removed from the CRD while every object stays readable (the apiserver refuses
 * to read an object stored at a version the CRD no longer lists, so this fails if any object was
 * not rewritten).
 */
@KubeApiServerTest
class MigrateStorageIT {
  private static final int OBJECTS = 23;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void migratedObjectsStayReadableAfterTheOldVersionIsRemoved(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope) throws Exception {
    var group = scope.apiGroup();
    var name = "gizmos." + group;
    var namespace = scope.namespace();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(crd(name, group, version("v1", true), version("v2", false)))
        .create();
    Crds.awaitEstablished(client, name);
    var v1 = client.genericKubernetesResources(context(group, "v1"));
    for (int i = 0; i < OBJECTS; i++) {
      v1.inNamespace(namespace)
          .resource(
              new GenericKubernetesResourceBuilder()
                  .withApiVersion(group + "/v1")
                  .withKind("Gizmo")
                  .withNewMetadata()
                  .withName("g" + i)
                  .endMetadata()
                  .withAdditionalProperties(Map.of("spec", Map.of("size", i)))
                  .build())
          .create();
    }
    var crds = client.apiextensions().v1().customResourceDefinitions();
    crds.withName(name)
        .edit(
            c -> {
              c.getSpec().getVersions().forEach(v -> v.setStorage(v.getName().equals("v2")));
              return c;
            });
    assertThat(crds.withName(name).get().getStatus().getStoredVersions())
        .containsExactlyInAnyOrder("v1", "v2");
    assertThatThrownBy(() -> removeV1(client, name))
        .as("the apiserver keeps v1 while objects may be stored at it")
        .isInstanceOf(KubernetesClientException.class);

    int code =
        run(
            "migrate-storage",
            "--crd-name",
            name,
            "--kubeconfig",
            controlPlane.kubeconfig().toString(),
            "--page-size",
            "5",
            "--rate",
            "0",
            "-o",
            "json");

    assertThat(code).as("%s%s", out, err).isZero();
    var result = new ObjectMapper().readTree(out.toString());
    CliContractIT.assertDocumented(
        "migrate-storage", result, CliContractIT.documentedFields().get("migrate-storage"));
    assertThat(result.path("rewritten").asInt()).isEqualTo(OBJECTS);
    assertThat(result.path("pruned").asBoolean()).isTrue();
    assertThat(crds.withName(name).get().getStatus().getStoredVersions()).containsExactly("v2");
    removeV1(client, name);
    var v2 = client.genericKubernetesResources(context(group, "v2")).inNamespace(namespace);
    var items = v2.list().getItems();
    assertThat(items).hasSize(OBJECTS);
    for (int i = 0; i < OBJECTS; i++) {
      assertThat(v2.withName("g" + i).get().getAdditionalProperties().get("spec"))
          .isEqualTo(Map.of("size", i));
    }
  }

  @Test
  void aDryRunWritesNothingAndLeavesStoredVersionsAlone(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope) {
    var group = scope.apiGroup();
    var name = "gizmos." + group;
    var crds = client.apiextensions().v1().customResourceDefinitions();
    crds.resource(crd(name, group, version("v1", false), version("v2", true))).create();
    Crds.awaitEstablished(client, name);
    var status = crds.withName(name).get();
    status.getStatus().setStoredVersions(List.of("v1", "v2"));
    crds.resource(status).updateStatus();

    int code =
        run(
            "migrate-storage",
            "--crd-name",
            name,
            "--kubeconfig",
            controlPlane.kubeconfig().toString(),
            "--dry-run");

    assertThat(code).as("%s%s", out, err).isZero();
    assertThat(out.toString()).contains("dry run: would rewrite 0 object(s)");
    assertThat(crds.withName(name).get().getStatus().getStoredVersions())
        .containsExactly("v1", "v2");
  }

  @Test
  void anUnknownCrdIsALoadErrorThatSaysHowToFindTheName(ControlPlane controlPlane) {
    int code =
        run(
            "migrate-storage",
            "--crd-name",
            "nothings.example.test",
            "--kubeconfig",
            controlPlane.kubeconfig().toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .contains("no CustomResourceDefinition named nothings.example.test")
        .contains("kubectl get crd");
  }

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static void removeV1(KubernetesClient client, String name) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(name)
        .edit(
            c -> {
              c.getSpec().getVersions().removeIf(v -> v.getName().equals("v1"));
              return c;
            });
  }

  private static ResourceDefinitionContext context(String group, String version) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind("Gizmo")
        .withPlural("gizmos")
        .withNamespaced(true)
        .build();
  }

  private static CustomResourceDefinitionVersion version(String name, boolean storage) {
    return new CustomResourceDefinitionVersionBuilder()
        .withName(name)
        .withServed(true)
        .withStorage(storage)
        .withNewSchema()
        .withNewOpenAPIV3Schema()
        .withType("object")
        .addToProperties(
            "spec",
            new io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder()
                .withType("object")
                .addToProperties(
                    "size",
                    new io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder()
                        .withType("integer")
                        .build())
                .build())
        .endOpenAPIV3Schema()
        .endSchema()
        .build();
  }

  private static CustomResourceDefinition crd(
      String name, String group, CustomResourceDefinitionVersion... versions) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withGroup(group)
        .withScope("Namespaced")
        .withNewNames()
        .withKind("Gizmo")
        .withPlural("gizmos")
        .withSingular("gizmo")
        .withListKind("GizmoList")
        .endNames()
        .withVersions(versions)
        .endSpec()
        .build();
  }
}
