package dev.versio.cli.live;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.cli.offline.LoadError;
import dev.versio.operator.migrate.StorageTarget;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;

/**
 * A CRD as the cluster has it, and how to reach its objects at the storage version (the operator's
 * {@link StorageTarget}, read from the same CRD).
 */
record StoredResource(CustomResourceDefinition crd, StorageTarget target) {

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
    var target =
        StorageTarget.of(client.getKubernetesSerialization().convertValue(crd, JsonNode.class))
            .orElseThrow(() -> new LoadError("crd/" + name + " marks no version as storage"));
    return new StoredResource(crd, target);
  }

  String storageVersion() {
    return target.storageVersion();
  }

  boolean namespaced() {
    return target.namespaced();
  }

  /** The objects' API at the storage version. */
  ResourceDefinitionContext storageContext() {
    return target.storageContext();
  }

  /** {@code status.storedVersions}, empty when not reported. */
  List<String> storedVersions() {
    return target.storedVersions();
  }
}
