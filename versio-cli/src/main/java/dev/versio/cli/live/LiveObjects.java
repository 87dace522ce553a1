package dev.versio.cli.live;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.cli.offline.Inputs;
import dev.versio.cli.offline.LoadError;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a config's target from a cluster: its definition (CRD, or Crossplane XRD) and every
 * existing object, at the storage version, page by page.
 */
public final class LiveObjects {
  private final KubernetesClient client;

  public LiveObjects(KubernetesClient client) {
    this.client = client;
  }

  /** The definition the config targets, as the cluster has it. */
  public Inputs.Target definition(Inputs.Config config) {
    var name = Inputs.targetName(config);
    var origin = (config.xrd() ? "xrd/" : "crd/") + name + " in the cluster";
    try {
      Object definition =
          config.xrd()
              ? client
                  .genericKubernetesResources(ClusterXrdApi.context(client))
                  .withName(name)
                  .get()
              : client.apiextensions().v1().customResourceDefinitions().withName(name).get();
      if (definition == null) {
        throw new LoadError(
            "there is no "
                + (config.xrd() ? "CompositeResourceDefinition" : "CustomResourceDefinition")
                + " named "
                + name
                + " in the cluster; check the context, or pass the schema with "
                + (config.xrd() ? "--xrd FILE" : "--crd FILE"));
      }
      var doc = client.getKubernetesSerialization().convertValue(definition, JsonNode.class);
      return Inputs.target(doc, config.xrd(), null, origin);
    } catch (KubernetesClientException e) {
      throw new LoadError(
          "cannot read "
              + origin
              + ": "
              + ClusterErrors.describe(client.getMasterUrl().toString(), e));
    }
  }

  /** The config of the same kind and name as {@code local}, as applied in the cluster. */
  public Inputs.Config appliedConfig(Inputs.Config local) {
    var kind = local.xrd() ? "XRDConversionConfig" : "CRDConversionConfig";
    var origin = kind + " " + local.name() + " in the cluster";
    try {
      var applied =
          client
              .genericKubernetesResources("versio.dev/v1alpha1", kind)
              .withName(local.name())
              .get();
      if (applied == null) {
        throw new LoadError(
            "there is no "
                + origin
                + "; check the context, or compare two files with versio diff OLD NEW");
      }
      var doc = client.getKubernetesSerialization().convertValue(applied, JsonNode.class);
      return new Inputs.Config(null, local.xrd(), local.name(), doc.path("spec"));
    } catch (KubernetesClientException e) {
      throw new LoadError(
          "cannot read "
              + origin
              + ": "
              + ClusterErrors.describe(client.getMasterUrl().toString(), e));
    }
  }

  /**
   * Every object of the target, read at the storage version of its CRD (for an XRD, the CRD
   * Crossplane generated under the same name).
   */
  public List<Inputs.Sample> all(Inputs.Target target, int pageSize) {
    var resource = StoredResource.read(client, target.name());
    var storage = resource.storageVersion();
    var namespaced = resource.namespaced();
    var api = client.genericKubernetesResources(resource.storageContext());
    var out = new ArrayList<Inputs.Sample>();
    String next = null;
    do {
      var options = new ListOptionsBuilder().withLimit((long) pageSize).withContinue(next).build();
      try {
        var page = namespaced ? api.inAnyNamespace().list(options) : api.list(options);
        for (var item : page.getItems()) {
          out.add(
              new Inputs.Sample(
                  client.getKubernetesSerialization().convertValue(item, JsonNode.class)));
        }
        var token = page.getMetadata().getContinue();
        next = token == null || token.isEmpty() ? null : token;
      } catch (KubernetesClientException e) {
        throw new LoadError(
            "cannot list "
                + target.name()
                + " at its storage version "
                + storage
                + ": "
                + ClusterErrors.describe(client.getMasterUrl().toString(), e)
                + " (check that its conversion webhook serves and that you may list it)");
      }
    } while (next != null);
    return out;
  }
}
