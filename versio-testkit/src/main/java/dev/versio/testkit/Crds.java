package dev.versio.testkit;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** CustomResourceDefinition set-up for integration tests: apply, then wait until it is served. */
public final class Crds {
  private Crds() {}

  /** Server-side applies the CRD in {@code file} and waits until it is Established. */
  public static CustomResourceDefinition apply(KubernetesClient client, Path file)
      throws IOException {
    return apply(
        client, Serialization.unmarshal(Files.readString(file), CustomResourceDefinition.class));
  }

  /**
   * Server-side applies {@code crd} and waits until it is Established and API discovery lists it
   * (discovery lags Established a little, and clients resolve generic resources through it).
   */
  public static CustomResourceDefinition apply(
      KubernetesClient client, CustomResourceDefinition crd) {
    client.resource(crd).forceConflicts().fieldManager("versio-it").serverSideApply();
    awaitEstablished(client, crd.getMetadata().getName());
    awaitDiscovered(client, crd);
    return crd;
  }

  /**
   * Waits (up to 30 s) until discovery lists {@code crd}'s plural in each of its served versions.
   */
  public static void awaitDiscovered(KubernetesClient client, CustomResourceDefinition crd) {
    var plural = crd.getSpec().getNames().getPlural();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (var version : crd.getSpec().getVersions()) {
      if (!Boolean.TRUE.equals(version.getServed())) {
        continue;
      }
      var groupVersion = crd.getSpec().getGroup() + "/" + version.getName();
      while (!discovered(client, groupVersion, plural)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              groupVersion + " " + plural + " is Established but not in API discovery after 30 s");
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // the apiserver's own lag
      }
    }
  }

  private static boolean discovered(KubernetesClient client, String groupVersion, String plural) {
    try {
      var resources = client.getApiResources(groupVersion);
      return resources != null
          && resources.getResources().stream().anyMatch(r -> r.getName().equals(plural));
    } catch (KubernetesClientException e) {
      return false; // 404 until the group is served
    }
  }

  /**
   * Applies Versio's own CRDs as released ({@code deploy/crds} of the checkout, every file in name
   * order), as a user without Helm installs them.
   */
  public static void applyVersioCrds(KubernetesClient client) {
    try (var files =
        java.nio.file.Files.list(
            dev.versio.testkit.stories.ExampleStory.repositoryRoot().resolve("deploy/crds"))) {
      for (var file : files.sorted().toList()) {
        apply(client, file);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read deploy/crds", e);
    }
  }

  /** Waits (up to 30 s) until the CRD {@code name} is Established, i.e. served by the apiserver. */
  public static void awaitEstablished(KubernetesClient client, String name) {
    awaitEstablished(client, name, java.time.Duration.ofSeconds(30));
  }

  /** Waits up to {@code timeout} until the CRD {@code name} is Established. */
  public static void awaitEstablished(
      KubernetesClient client, String name, java.time.Duration timeout) {
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
            timeout.toMillis(),
            TimeUnit.MILLISECONDS);
  }
}
