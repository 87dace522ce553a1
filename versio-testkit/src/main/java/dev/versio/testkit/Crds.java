package dev.versio.testkit;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** CustomResourceDefinition set-up for integration tests: apply, then wait until it is served. */
public final class Crds {
  private Crds() {}

  /** Server-side applies the CRD in {@code file} and waits until it is Established. */
  public static CustomResourceDefinition apply(KubernetesClient client, Path file)
      throws IOException {
    return apply(
        client, Serialization.unmarshal(Files.readString(file), CustomResourceDefinition.class));
  }

  /** Server-side applies {@code crd} and waits until it is Established. */
  public static CustomResourceDefinition apply(
      KubernetesClient client, CustomResourceDefinition crd) {
    client.resource(crd).forceConflicts().fieldManager("versio-it").serverSideApply();
    awaitEstablished(client, crd.getMetadata().getName());
    return crd;
  }

  /** Waits (up to 30 s) until the CRD {@code name} is Established, i.e. served by the apiserver. */
  public static void awaitEstablished(KubernetesClient client, String name) {
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
