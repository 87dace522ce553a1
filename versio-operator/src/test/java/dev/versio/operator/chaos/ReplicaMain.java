package dev.versio.operator.chaos;

import dev.versio.operator.OperatorOptions;
import dev.versio.operator.VersioOperator;
import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import dev.versio.webhook.served.ReplicaIdentity;
import dev.versio.webhook.served.ServedTargetsPublication;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * One process of the operator chaos run, running the product's own code: {@code operator
 * <kubeconfig> <namespace> <replica-id> <clock-offset-seconds> <lease-seconds> <renew-ms>
 * <deadline-ms> <reconcile-threads> [<admission-url> <webhook-configuration>]} runs {@link
 * VersioOperator} as {@code versio operator} does, with its wall clock offset by the given seconds,
 * and serves admission on a free port when an admission URL (where the apiserver reaches the
 * replicas) is given; {@code webhook <kubeconfig> <server> <cert-dir> <namespace> <replica-name>}
 * runs a webhook-server replica as {@code versio webhook-server} does (with a {@link
 * #WEBHOOK_DRAIN} drain), publishing its served targets in that namespace. Prints {@code READY
 * <port>...} (the ops port and the admission port, or the conversion port) once serving; SIGTERM is
 * the planned stop.
 */
public final class ReplicaMain {
  /**
   * How long a webhook replica keeps serving a target that moved away: shorter than the product's
   * 30 s so that the run's quiet points (every target served only where it is assigned) come soon
   * after a default flip.
   */
  static final Duration WEBHOOK_DRAIN = Duration.ofSeconds(3);

  private ReplicaMain() {}

  public static void main(String[] args) throws Exception {
    var config = Config.fromKubeconfig(Files.readString(Path.of(args[1])));
    var client = new KubernetesClientBuilder().withConfig(config).build();
    var stopped = new CountDownLatch(1);
    AutoCloseable running;
    String ports;
    if (args[0].equals("operator")) {
      var clock = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(Long.parseLong(args[4])));
      var coordination =
          new OperatorOptions.Coordination(
              args[3],
              OperatorOptions.Coordination.DEFAULT_SHARDS,
              Duration.ofSeconds(Long.parseLong(args[5])),
              Duration.ofMillis(Long.parseLong(args[6])),
              Duration.ofMillis(Long.parseLong(args[7])),
              OperatorOptions.Coordination.DEFAULT_TAKEOVER_RESYNC_RATE);
      var options =
          OperatorOptions.defaults(args[2]).toBuilder()
              .coordination(coordination)
              // as the operator tests: replicas are processes, the CRDs the tests' own
              .allowUrlMode(true)
              .targetGroups(java.util.List.of("*"))
              .gateRequeue(Duration.ofSeconds(2))
              .reconcileThreads(Integer.parseInt(args[8]))
              .build();
      if (args.length > 10) {
        options =
            options.withAdmission(
                new OperatorOptions.Admission(
                    0,
                    java.net.URI.create(args[9]),
                    null,
                    443,
                    "versio-operator-admission-tls",
                    args[10]));
      }
      var operator = VersioOperator.start(client, options, clock);
      running = operator;
      ports =
          operator.opsPort()
              + operator.admissionPort().stream().mapToObj(p -> " " + p).findFirst().orElse("");
    } else {
      var server =
          WebhookServer.start(
              client,
              new WebhookServerOptions(
                      args[2],
                      Path.of(args[3]),
                      "127.0.0.1",
                      0,
                      0,
                      Duration.ofMillis(500),
                      WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
                      2,
                      null)
                  .withDrain(WEBHOOK_DRAIN),
              Clock.systemUTC(),
              dev.versio.webhook.tracing.ReviewTracing.off(),
              new ServedTargetsPublication(
                  new ReplicaIdentity(args[5], null, args[4]), Duration.ofSeconds(1)));
      running = server;
      ports = Integer.toString(server.conversionPort());
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    running.close();
                  } catch (Exception e) {
                    System.err.println("stopping: " + e);
                  }
                  client.close();
                  stopped.countDown();
                }));
    System.out.println("READY " + ports);
    System.out.flush();
    stopped.await();
  }
}
