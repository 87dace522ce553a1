package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The apiserver behaviours HA and the operator build on: Lease optimistic concurrency and SSA. */
@KubeApiServerTest
class LeaseAndServerSideApplyIT {

  @Test
  void aLeaseRenewalWithAStaleResourceVersionIsRejectedWithAConflict(
      KubernetesClient client, KubeTestScope scope) {
    var leases = client.leases().inNamespace(scope.namespace());
    var created =
        leases
            .resource(
                new LeaseBuilder()
                    .withNewMetadata()
                    .withName("shard-0")
                    .endMetadata()
                    .withNewSpec()
                    .withHolderIdentity("replica-a")
                    .withLeaseDurationSeconds(10)
                    .withAcquireTime(ZonedDateTime.now())
                    .withRenewTime(ZonedDateTime.now())
                    .endSpec()
                    .build())
            .create();

    Lease renewed =
        new LeaseBuilder(created).editSpec().withRenewTime(ZonedDateTime.now()).endSpec().build();
    var afterRenew = leases.resource(renewed).update();
    assertThat(afterRenew.getMetadata().getResourceVersion())
        .isNotEqualTo(created.getMetadata().getResourceVersion());

    Lease stale =
        new LeaseBuilder(created).editSpec().withHolderIdentity("replica-b").endSpec().build();
    assertThatThrownBy(() -> leases.resource(stale).update())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(leases.withName("shard-0").get().getSpec().getHolderIdentity())
        .isEqualTo("replica-a");
  }

  @Test
  void aServerSideApplyOwnsItsFieldsAndAConflictingManagerNeedsForce(
      KubernetesClient client, KubeTestScope scope) {
    var configMaps = client.configMaps().inNamespace(scope.namespace());
    configMaps.resource(configMap("from-alpha")).fieldManager("alpha").serverSideApply();

    var applied = configMaps.withName("settings").get();
    assertThat(managerOf(applied, "alpha").getOperation()).isEqualTo("Apply");
    assertThat(managerOf(applied, "alpha").getFieldsV1().getAdditionalProperties().toString())
        .contains("f:mode");

    assertThatThrownBy(
            () ->
                configMaps.resource(configMap("from-beta")).fieldManager("beta").serverSideApply())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(409);
              assertThat(e.getMessage()).contains("conflict").contains("alpha");
            });
    assertThat(configMaps.withName("settings").get().getData()).containsEntry("mode", "from-alpha");

    configMaps
        .resource(configMap("from-beta"))
        .fieldManager("beta")
        .forceConflicts()
        .serverSideApply();
    var forced = configMaps.withName("settings").get();
    assertThat(forced.getData()).containsEntry("mode", "from-beta");
    assertThat(forced.getMetadata().getManagedFields())
        .extracting(ManagedFieldsEntry::getManager)
        .contains("beta")
        .doesNotContain("alpha");
  }

  private static ConfigMap configMap(String mode) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("settings")
        .endMetadata()
        .addToData("mode", mode)
        .build();
  }

  private static ManagedFieldsEntry managerOf(ConfigMap configMap, String manager) {
    return configMap.getMetadata().getManagedFields().stream()
        .filter(m -> m.getManager().equals(manager))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no managedFields entry for " + manager));
  }
}
