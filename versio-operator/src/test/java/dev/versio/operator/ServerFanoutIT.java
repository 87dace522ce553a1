package dev.versio.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.config.ConfigKind;
import dev.versio.operator.config.ConfigWatches;
import dev.versio.operator.fanout.ConfigTriggers;
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.testkit.KubeApiServerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A server change enqueues exactly the configs assigned to it under the old or the new view, spread
 * at the configured rate — watched on a real apiserver, recorded instead of reconciled.
 */
@KubeApiServerTest(dedicated = true)
class ServerFanoutIT {
  private record Trigger(String name, long nanos) {}

  @Test
  void flippingDefaultEnqueuesExactlyTheConfigsThatResolvedToItSpreadAtTheConfiguredRate(
      KubernetesClient client) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var a = OperatorFixture.urlServer("server-a", "https://127.0.0.1:1", "Cg==");
    a.getSpec().isDefault = true;
    client.resource(a).create();
    client.resource(OperatorFixture.urlServer("server-b", "https://127.0.0.1:2", "Cg==")).create();
    var onDefault = new ArrayList<String>();
    for (int i = 0; i < 200; i++) {
      var name = "on-default-" + i;
      client.resource(OperatorFixture.renameConfig(name, "t" + i + ".example.test", null)).create();
      onDefault.add(name);
    }
    for (int i = 0; i < 50; i++) {
      client
          .resource(
              OperatorFixture.renameConfig("pinned-" + i, "p" + i + ".example.test", "server-b"))
          .create();
    }

    var recorded = new ConcurrentLinkedQueue<Trigger>();
    var scheduler = Executors.newSingleThreadScheduledExecutor();
    double qps = 50;
    try (var cache = new ClusterCache(client, false)) {
      var triggers =
          new ConfigTriggers<CRDConversionConfig>(
              scheduler, qps, name -> recorded.add(new Trigger(name, System.nanoTime())));
      new ConfigWatches<>(
              ConfigKind.CRD,
              cache,
              triggers,
              new OperatorMetrics(),
              OperatorOptions.defaults("versio-system"))
          .register();
      cache.start(Duration.ofSeconds(30));
      await().atMost(Duration.ofSeconds(30)).until(() -> cache.crdConfigs().size() == 250);
      // the initial adds of both servers fan out too (paced, and while the config cache may
      // still be filling): wait until no trigger arrives for a poll interval
      var lastSize = new java.util.concurrent.atomic.AtomicInteger(-1);
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(600))
          .until(() -> lastSize.getAndSet(recorded.size()) == recorded.size());
      recorded.clear();

      OperatorFixture.mergePatch(
          client, ConversionWebhookServer.class, "server-a", "{\"spec\":{\"default\":false}}");

      await().atMost(Duration.ofSeconds(30)).until(() -> recorded.size() >= 200);
      // and nothing else follows
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(2))
          .until(() -> recorded.size() == 200);
      List<Trigger> triggered = new ArrayList<>(recorded);
      assertThat(triggered)
          .extracting(Trigger::name)
          .containsExactlyInAnyOrderElementsOf(onDefault);
      assertThat(new HashSet<>(triggered.stream().map(Trigger::name).toList())).hasSize(200);
      var spread = Duration.ofNanos(triggered.getLast().nanos() - triggered.getFirst().nanos());
      System.out.printf(
          "fan-out: %d configs enqueued over %d ms (designed: (200 - 1) / %.0f/s = 3980 ms)%n",
          triggered.size(), spread.toMillis(), qps);
      // (200 - 1) / 50 = 3.98 s; the scheduler adds a little, never less
      assertThat(spread).isBetween(Duration.ofMillis(3900), Duration.ofMillis(5500));
      var gaps =
          IntStream.range(1, triggered.size())
              .mapToLong(i -> triggered.get(i).nanos() - triggered.get(i - 1).nanos())
              .sorted()
              .toArray();
      // at most a handful of keys arrive together (scheduler jitter), the rest 1/qps apart
      assertThat(gaps[gaps.length / 2]).isBetween(15_000_000L, 25_000_000L);
    } finally {
      scheduler.shutdownNow();
    }
  }
}
