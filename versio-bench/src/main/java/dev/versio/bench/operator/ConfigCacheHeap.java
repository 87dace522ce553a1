package dev.versio.bench.operator;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What caching every config costs an operator replica, to judge a shard-scoped cache: on a fresh
 * test control plane, creates configs (the test fleet's rename config, targets absent, so no CRD is
 * needed) up to each requested count, each with the status an Applied config carries (four
 * conditions, a spoke status, hashes, the webhook URL and the writer's stamp), then measures the
 * live heap of this JVM before and after an informer on CRDConversionConfigs has synced (full
 * collections until the heap stops falling), three times per count. A shard-scoped cache would keep
 * {@code 1/N} of that on each of N replicas.
 *
 * <p>Usage: {@code ConfigCacheHeap <count>...}, e.g. {@code ConfigCacheHeap 1000 10000}.
 */
public final class ConfigCacheHeap {
  private ConfigCacheHeap() {}

  public static void main(String[] args) throws Exception {
    var root = Files.createTempDirectory("versio-cache-heap");
    try (var cp = ControlPlane.start(ControlPlaneAssets.locate(), root, System.err::println);
        var client = cp.adminClient()) {
      try (var files = Files.list(Path.of("deploy", "crds"))) {
        for (var file : files.sorted().toList()) {
          Crds.apply(client, file);
        }
      }
      int created = 0;
      for (var arg : args) {
        int count = Integer.parseInt(arg);
        create(client, created, count);
        created = count;
        var perConfig = new ArrayList<Double>();
        // one baseline per count, taken before any informer of this count: an informer closed a
        // moment ago may still be reachable (its last list in flight), which would read low
        long baseline = liveHeap();
        for (int run = 0; run < 3; run++) {
          var informer = client.resources(CRDConversionConfig.class).inform();
          if (informer.getStore().list().size() != count) {
            throw new IllegalStateException(
                "informer holds " + informer.getStore().list().size() + ", expected " + count);
          }
          long after = liveHeap();
          perConfig.add((after - baseline) / (double) count);
          informer.close();
          informer = null;
          liveHeap(); // let the closed informer go before the next one
        }
        perConfig.sort(Double::compare);
        System.out.printf(
            Locale.ROOT,
            "configs %6d: informer cache %.1f MiB (%.0f B per config; min %.0f, max %.0f over 3"
                + " runs)%n",
            count,
            perConfig.get(1) * count / (1 << 20),
            perConfig.get(1),
            perConfig.get(0),
            perConfig.get(2));
      }
    }
  }

  private static void create(KubernetesClient client, int from, int to) throws Exception {
    try (var pool = Executors.newFixedThreadPool(8)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = from; i < to; i++) {
        var config =
            Widgets.renameConfig(
                "cache-" + i, "widgets.g" + i + ".cache.test", "server-" + (i % 3));
        var name = config.getMetadata().getName();
        futures.add(
            pool.submit(
                () -> {
                  client.resource(config).create();
                  client
                      .resources(CRDConversionConfig.class)
                      .withName(name)
                      .subresource("status")
                      .patch(
                          io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                              io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                          appliedStatus(name));
                  return null;
                }));
      }
      for (var future : futures) {
        future.get();
      }
    }
  }

  /** The status of a config the operator applied, as it writes it (sizes as in a real run). */
  static String appliedStatus(String name) {
    var hash = "%064x".formatted(new java.math.BigInteger(1, name.getBytes()));
    hash = hash.substring(hash.length() - 64);
    var conditions = new StringBuilder();
    for (var type : List.of("Validated", "TargetHealthy", "WebhookServerReady", "Applied")) {
      if (!conditions.isEmpty()) {
        conditions.append(',');
      }
      conditions.append(
          """
          {"type":"%s","status":"True","observedGeneration":1,\
          "lastTransitionTime":"2026-12-01T10:00:00Z","reason":"%s",\
          "message":"%s is true for generation 1"}"""
              .formatted(type, type, type));
    }
    return """
        {"status":{"observedGeneration":1,"observedTargetGeneration":1,"schemaHash":"%s",\
        "phase":"Applied","conditions":[%s],"assignedWebhookServer":"server-0",\
        "webhookPath":"/convert/%s","webhookURL":"https://server-0.versio-system.svc:443/convert/%s",\
        "overallLossless":true,"spokeStatuses":[{"version":"v1","hubToSpokeLossless":true,\
        "spokeToHubLossless":true}],"lastAppliedPlanHash":"%s",\
        "message":"conversion applied","writtenBy":"versio-operator-6c9f7d8b5-4kz2q/3"}}"""
        .formatted(hash, conditions, name, name, hash);
  }

  private static long liveHeap() {
    return OperatorProcess.liveHeap();
  }
}
