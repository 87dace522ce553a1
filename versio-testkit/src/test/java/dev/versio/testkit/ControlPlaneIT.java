package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What the kit promises: identities for RBAC tests, a kubeconfig for humans, logs under target/.
 */
@KubeApiServerTest
class ControlPlaneIT {

  @Test
  void anotherIdentityIsDeniedUntilRbacGrantsItsGroup(
      KubernetesClient admin, ControlPlane controlPlane, KubeTestScope scope) {
    var namespace = scope.namespace();
    try (var alice = controlPlane.clientAs("alice", "team-a")) {
      assertThatThrownBy(() -> alice.configMaps().inNamespace(namespace).list())
          .isInstanceOfSatisfying(
              KubernetesClientException.class,
              e -> {
                assertThat(e.getCode()).isEqualTo(403);
                assertThat(e.getMessage()).contains("User \"alice\"");
              });

      admin
          .rbac()
          .roles()
          .inNamespace(namespace)
          .resource(
              new RoleBuilder()
                  .withNewMetadata()
                  .withName("read-config")
                  .endMetadata()
                  .addNewRule()
                  .withApiGroups("")
                  .withResources("configmaps")
                  .withVerbs("list")
                  .endRule()
                  .build())
          .create();
      admin
          .rbac()
          .roleBindings()
          .inNamespace(namespace)
          .resource(
              new RoleBindingBuilder()
                  .withNewMetadata()
                  .withName("team-a-reads")
                  .endMetadata()
                  .withNewRoleRef("rbac.authorization.k8s.io", "Role", "read-config")
                  .addNewSubject()
                  .withKind("Group")
                  .withApiGroup("rbac.authorization.k8s.io")
                  .withName("team-a")
                  .endSubject()
                  .build())
          .create();

      await()
          .atMost(Duration.ofSeconds(10))
          .ignoreException(KubernetesClientException.class)
          .until(() -> alice.configMaps().inNamespace(namespace).list() != null);
    }
    try (var bob = controlPlane.clientAs("bob", "team-b")) {
      assertThatThrownBy(() -> bob.configMaps().inNamespace(namespace).list())
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
  }

  @Test
  void theKubeconfigWrittenForHumansReachesTheApiServerAsAdmin(ControlPlane controlPlane)
      throws Exception {
    var text = Files.readString(controlPlane.kubeconfig());
    try (var client =
        new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(text)).build()) {
      assertThat(client.namespaces().withName("default").get()).isNotNull();
      assertThat(client.getMasterUrl().toString()).startsWith(controlPlane.url().toString());
    }
  }

  @Test
  void eachProcessKeepsItsLogUnderTheBuildFolder(ControlPlane controlPlane) throws Exception {
    assertThat(controlPlane.directory().toString()).contains("target");
    assertThat(Files.readString(controlPlane.apiServerLog())).contains("Serving securely");
    assertThat(controlPlane.etcdLog()).exists();
    assertThat(controlPlane.pids())
        .allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());
  }
}
