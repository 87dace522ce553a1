package dev.versio.coordination.chaos;

import dev.versio.coordination.core.CoordinationSettings;
import dev.versio.coordination.gate.ReconcileLanes;
import dev.versio.coordination.gate.ReconcileQueue;
import dev.versio.coordination.gate.TakeoverResync;
import dev.versio.coordination.gate.TokenBucket;
import dev.versio.coordination.kubernetes.CoordinationMetrics;
import dev.versio.coordination.kubernetes.LeaseCoordinator;
import dev.versio.coordination.kubernetes.MonotonicClock;
import dev.versio.coordination.shard.ObjectKey;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A small replica for the chaos harness: it "reconciles" the ConfigMaps of its shards by writing
 * the annotation {@value #OWNER} = {@code <replica>/<epoch>}, and writes nothing when the
 * annotation is already right. Run as its own JVM; SIGTERM is a planned stop.
 *
 * <p>Arguments: kubeconfig namespace replicaId clockOffsetSeconds shards leaseSeconds renewMillis
 * deadlineMillis retryMillis resyncPerSecond
 */
public final class DemoWorker {
  static final String OWNER = "versio.dev/owner";
  static final String LABEL = "versio.dev/chaos";
  static final String GROUP = "chaos";

  public static void main(String[] args) throws Exception {
    var kubeconfig = Files.readString(Path.of(args[0]));
    var namespace = args[1];
    var replicaId = args[2];
    var wallClock =
        Clock.offset(
            Clock.systemUTC(), Duration.ofMillis((long) (Double.parseDouble(args[3]) * 1000)));
    var settings =
        new CoordinationSettings(
            GROUP,
            Integer.parseInt(args[4]),
            Duration.ofSeconds(Long.parseLong(args[5])),
            Duration.ofMillis(Long.parseLong(args[6])),
            Duration.ofMillis(Long.parseLong(args[7])),
            Duration.ofMillis(Long.parseLong(args[8])),
            "chaos-1");
    double resyncRate = Double.parseDouble(args[9]);
    var config = Config.fromKubeconfig(kubeconfig);
    config.setRequestTimeout(2_000);
    var monotonic = new MonotonicClock();
    var metrics = new CoordinationMetrics(new SimpleMeterRegistry());
    var liveWaits = java.util.Collections.synchronizedList(new ArrayList<Double>());
    var coordinator =
        new LeaseCoordinator(config, namespace, replicaId, settings, wallClock, monotonic, metrics);
    var client = new KubernetesClientBuilder().withConfig(config).build();
    var configMaps = client.configMaps().inNamespace(namespace).withLabel(LABEL);
    var queue =
        new ReconcileQueue<ObjectKey>(
            new ReconcileLanes<>(monotonic, new TokenBucket(monotonic, resyncRate)),
            (lane, waited) -> {
              metrics.queueWait(lane, waited);
              if (lane == ReconcileLanes.Lane.LIVE) {
                liveWaits.add(waited.toNanos() / 1e6);
              }
            });
    metrics.resyncBacklog(queue::resyncBacklog);
    var informer =
        configMaps.inform(
            new ResourceEventHandler<ConfigMap>() {
              @Override
              public void onAdd(ConfigMap cm) {
                offer(cm);
              }

              @Override
              public void onUpdate(ConfigMap before, ConfigMap after) {
                offer(after);
              }

              @Override
              public void onDelete(ConfigMap cm, boolean unknownFinalState) {}

              private void offer(ConfigMap cm) {
                var key = keyOf(cm);
                if (coordinator.owns(key)) {
                  queue.offerLive(key);
                }
              }
            },
            0);
    coordinator.addListener(
        new TakeoverResync<>(
            queue,
            shards -> {
              var keys = new ArrayList<ObjectKey>();
              for (var cm : informer.getStore().list()) {
                var key = keyOf(cm);
                if (shards.contains(coordinator.shardOf(key))) {
                  keys.add(key);
                }
              }
              return keys;
            },
            coordinator::shardOf));
    var stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            Thread.ofPlatform()
                .unstarted(
                    () -> {
                      coordinator.close();
                      stopped.countDown();
                      System.out.println(queueWaitSummary(liveWaits));
                    }));
    Thread.ofPlatform()
        .daemon()
        .name("parent-watch")
        .start(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // the harness never writes; EOF means it is gone
                }
              } catch (java.io.IOException ignored) {
                // same as EOF
              }
              System.exit(3);
            });
    coordinator.start();
    System.out.println("READY " + replicaId);
    System.out.flush();
    // what this worker believes, every 5 s, for the log a failed run keeps: the shards it may write
    // for and its queue (a key that is never written shows up as owned with nothing queued)
    Thread.ofPlatform()
        .daemon()
        .name("state-report")
        .start(
            () -> {
              while (true) {
                try {
                  Thread.sleep(5_000);
                } catch (InterruptedException e) {
                  return;
                }
                System.out.println(
                    "STATE may write for "
                        + new java.util.TreeSet<>(coordinator.ownedShards().keySet())
                        + "; queued "
                        + queue.backlog()
                        + " (resync "
                        + queue.resyncBacklog()
                        + ")");
                System.out.flush();
              }
            });
    while (stopped.getCount() > 0) {
      var next = queue.take(Duration.ofMillis(500));
      if (next.isEmpty()) {
        continue;
      }
      var key = next.get();
      try {
        coordinator.writeAsOwner(
            key, epoch -> reconcile(client, informer, namespace, replicaId, key, epoch));
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          if (e.getCode() != 409) {
            System.err.println("write of " + key + " failed: " + e.getMessage());
          }
          queue.offerLive(key); // the cache was behind: try again with the fresh object
        }
      }
    }
  }

  /** Writes the owner annotation unless it is already right; returns whether it wrote. */
  private static Boolean reconcile(
      io.fabric8.kubernetes.client.KubernetesClient client,
      io.fabric8.kubernetes.client.informers.SharedIndexInformer<ConfigMap> informer,
      String namespace,
      String replicaId,
      ObjectKey key,
      long epoch) {
    var cm = informer.getStore().getByKey(key.namespace() + "/" + key.name());
    var wanted = replicaId + "/" + epoch;
    if (cm == null || wanted.equals(annotations(cm).get(OWNER))) {
      return false; // nothing to do: a no-op resync makes no write
    }
    var desired =
        new ConfigMapBuilder(cm)
            .editMetadata()
            .addToAnnotations(OWNER, wanted)
            .endMetadata()
            .build();
    client.configMaps().inNamespace(namespace).resource(desired).update();
    return true;
  }

  /** {@code QUEUE-WAIT live n=<count> p99=<ms> max=<ms>}, read by the chaos run. */
  static String queueWaitSummary(java.util.List<Double> waits) {
    var sorted = new ArrayList<Double>();
    synchronized (waits) {
      sorted.addAll(waits);
    }
    sorted.sort(null);
    if (sorted.isEmpty()) {
      return "QUEUE-WAIT live n=0 p99=0 max=0";
    }
    int p99 = Math.max(0, (int) Math.ceil(0.99 * sorted.size()) - 1);
    return String.format(
        java.util.Locale.ROOT,
        "QUEUE-WAIT live n=%d p99=%.1f max=%.1f",
        sorted.size(),
        sorted.get(p99),
        sorted.getLast());
  }

  static ObjectKey keyOf(ConfigMap cm) {
    return new ObjectKey(cm.getMetadata().getNamespace(), cm.getMetadata().getName());
  }

  static Map<String, String> annotations(ConfigMap cm) {
    var a = cm.getMetadata().getAnnotations();
    return a == null ? Map.of() : a;
  }
}
