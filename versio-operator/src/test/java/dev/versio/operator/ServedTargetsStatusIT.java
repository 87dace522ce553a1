package dev.versio.operator;

import static org.awaitility.Awaitility.await;

import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerStatus;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.webhook.registry.RegistryEntry;
import dev.versio.webhook.served.ReplicaIdentity;
import dev.versio.webhook.served.ServedTargetsPublisher;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's status says what its live replicas serve: the intersection of their published sets and
 * how many report, following replicas that join, stop cleanly, or stop renewing.
 */
@KubeApiServerTest
class ServedTargetsStatusIT {
  private static final Router ROUTER =
      new Router(new CompiledConfig("CRD t", "v2", Map.of(), List.of()), "example.com");

  private static Map<String, RegistryEntry> serving(String... targets) {
    var out = new HashMap<String, RegistryEntry>();
    for (var t : targets) {
      out.put(
          t,
          new RegistryEntry(
              t, Optional.of(ROUTER), "crd/" + t, "gen=1/1", Instant.EPOCH, null, null));
    }
    return out;
  }

  private static ConversionWebhookServerStatus awaitStatus(
      KubernetesClient client, String server, Predicate<ConversionWebhookServerStatus> condition) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              var s = client.resources(ConversionWebhookServer.class).withName(server).get();
              return s == null ? null : s.getStatus();
            },
            s -> s != null && condition.test(s));
  }

  private static Predicate<ConversionWebhookServerStatus> served(int replicas, String... targets) {
    // servedTargetCount feeds the Served column of kubectl get conversionwebhookservers
    return s ->
        s.servedTargets.equals(List.of(targets))
            && s.reportingReplicas != null
            && s.reportingReplicas == replicas
            && s.servedTargetCount != null
            && s.servedTargetCount == targets.length;
  }

  @Test
  void theStatusIsTheIntersectionOverLiveReplicasAndFollowsThemComingAndGoing(
      KubernetesClient client, KubeTestScope scope, @TempDir Path certDir) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    var server = scope.name("served");
    var namespace = scope.namespace();
    client
        .resource(OperatorFixture.urlServer(server, "https://127.0.0.1:1", caBundle))
        .serverSideApply();
    try (var operator =
            OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
        var first =
            new ServedTargetsPublisher(
                client,
                new ReplicaIdentity(scope.name("r1"), null, namespace),
                server,
                Clock.systemUTC(),
                Duration.ofSeconds(1))) {
      var second =
          new ServedTargetsPublisher(
              client,
              new ReplicaIdentity(scope.name("r2"), null, namespace),
              server,
              Clock.systemUTC(),
              Duration.ofSeconds(1));
      first.start(serving("a.example.com", "b.example.com"));
      second.start(serving("b.example.com", "c.example.com"));
      awaitStatus(client, server, served(2, "b.example.com"));

      first.changed(serving("a.example.com", "b.example.com", "c.example.com"));
      awaitStatus(client, server, served(2, "b.example.com", "c.example.com"));

      second.close(); // a clean stop deletes its Leases: it stops counting at once
      awaitStatus(client, server, served(1, "a.example.com", "b.example.com", "c.example.com"));

      // a replica that published once and then stopped renewing (killed): counted until its
      // lease of 2 s runs out as this operator sees it, then no more
      var now = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
      client
          .leases()
          .inNamespace(namespace)
          .resource(
              new LeaseBuilder()
                  .withNewMetadata()
                  .withName("versio-served-" + scope.name("r3"))
                  .withLabels(
                      Map.of(
                          ServedTargetsCodec.SERVER_LABEL,
                          server,
                          ServedTargetsCodec.REPLICA_LABEL,
                          scope.name("r3")))
                  .withAnnotations(ServedTargetsCodec.encode(List.of("a.example.com")).getFirst())
                  .endMetadata()
                  .withNewSpec()
                  .withHolderIdentity(scope.name("r3"))
                  .withLeaseDurationSeconds(2)
                  .withRenewTime(now)
                  .endSpec()
                  .build())
          .create();
      awaitStatus(client, server, served(2, "a.example.com"));
      awaitStatus(client, server, served(1, "a.example.com", "b.example.com", "c.example.com"));
    }
  }
}
