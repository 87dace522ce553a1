package dev.versio.cli.live;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** CRD set-up for the live-mode tests. */
final class Crds {
  private Crds() {}

  /** Applies the CRD in {@code file} and waits until the apiserver serves it. */
  static CustomResourceDefinition apply(KubernetesClient client, Path file) throws IOException {
    var crd = Serialization.unmarshal(Files.readString(file), CustomResourceDefinition.class);
    client.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
    awaitEstablished(client, crd.getMetadata().getName());
    return crd;
  }

  static void awaitEstablished(KubernetesClient client, String name) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(name)
        .waitUntilCondition(
            c ->
                c != null
                    && c.getStatus() != null
                    && c.getStatus().getConditions() != null
                    && c.getStatus().getConditions().stream()
                        .anyMatch(
                            x -> x.getType().equals("Established") && x.getStatus().equals("True")),
            30,
            TimeUnit.SECONDS);
  }
}
