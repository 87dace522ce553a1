package dev.versio.cli.live;

import dev.versio.cli.offline.LoadError;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;

/** A CRD as the cluster has it, and how to reach its objects at the storage version. */
record StoredResource(CustomResourceDefinition crd, String storageVersion) {

  /** Reads crd/{@code name}; a missing CRD or one without a storage version is a load error. */
  static StoredResource read(KubernetesClient client, String name) {
    CustomResourceDefinition crd;
    try {
      crd = client.apiextensions().v1().customResourceDefinitions().withName(name).get();
    } catch (KubernetesClientException e) {
      throw new LoadError(
          "cannot read crd/"
              + name
              + ": "
              + ClusterErrors.describe(client.getMasterUrl().toString(), e));
    }
    if (crd == null) {
      throw new LoadError(
          "there is no CustomResourceDefinition named "
              + name
              + " in the cluster; check the context, or list them with kubectl get crd (the name"
              + " is <plural>.<group>)");
    }
    var storage =
        crd.getSpec().getVersions().stream()
            .filter(v -> Boolean.TRUE.equals(v.getStorage()))
            .map(CustomResourceDefinitionVersion::getName)
            .findFirst()
            .orElseThrow(() -> new LoadError("crd/" + name + " marks no version as storage"));
    return new StoredResource(crd, storage);
  }

  boolean namespaced() {
    return "Namespaced".equals(crd.getSpec().getScope());
  }

  /** The objects' API at the storage version. */
  ResourceDefinitionContext storageContext() {
    return new ResourceDefinitionContext.Builder()
        .withGroup(crd.getSpec().getGroup())
        .withVersion(storageVersion)
        .withKind(crd.getSpec().getNames().getKind())
        .withPlural(crd.getSpec().getNames().getPlural())
        .withNamespaced(namespaced())
        .build();
  }

  /** {@code status.storedVersions}, empty when not reported. */
  List<String> storedVersions() {
    return crd.getStatus() == null || crd.getStatus().getStoredVersions() == null
        ? List.of()
        : List.copyOf(crd.getStatus().getStoredVersions());
  }
}
