package dev.versio.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

@KubeApiServerTest
class TlsSecretIT {
  private static final List<String> HOSTS = List.of("127.0.0.1");

  @Test
  void aMissingSecretIsCreatedAndThenReused(KubernetesClient client, KubeTestScope scope) {
    var secret = new TlsSecret(client, scope.namespace(), scope.name("tls"), Clock.systemUTC());

    var created = secret.ensure("it", HOSTS);
    var again = secret.ensure("it", HOSTS);

    assertThat(again).isEqualTo(created);
    var stored = client.secrets().inNamespace(scope.namespace()).withName(scope.name("tls")).get();
    assertThat(stored.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(TlsMaterial.fromSecretData(stored.getData())).isEqualTo(created);
  }

  @Test
  void materialThatNoLongerFitsIsReplacedKeepingThePreviousCaTrusted(
      KubernetesClient client, KubeTestScope scope) {
    var now = Clock.systemUTC();
    var first =
        new TlsSecret(client, scope.namespace(), scope.name("tls"), now).ensure("it", HOSTS);

    var otherHosts =
        new TlsSecret(client, scope.namespace(), scope.name("tls"), now)
            .ensure("it", List.of("versio-admission.ops.svc"));
    var later = Clock.offset(now, SelfSignedCa.DEFAULT_VALIDITY.minus(Duration.ofDays(10)));
    var renewed =
        new TlsSecret(client, scope.namespace(), scope.name("tls"), later)
            .ensure("it", List.of("versio-admission.ops.svc"));

    assertThat(otherHosts).isNotEqualTo(first);
    assertThat(
            otherHosts.problem(List.of("versio-admission.ops.svc"), now.instant(), Duration.ZERO))
        .isEmpty();
    assertThat(Pem.certificates(otherHosts.caBundlePem()))
        .contains(Pem.certificates(first.caBundlePem()).getFirst());
    assertThat(renewed).isNotEqualTo(otherHosts);
    assertThat(
            renewed.problem(
                List.of("versio-admission.ops.svc"), later.instant(), TlsSecret.RENEW_BEFORE))
        .isEmpty();
  }

  @Test
  void replicasRacingToCreateTheSecretAllEndUpWithTheSameMaterial(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    int replicas = 4;
    var start = new CountDownLatch(1);
    try (var pool = Executors.newFixedThreadPool(replicas)) {
      var results = new ArrayList<Future<TlsMaterial>>();
      for (int i = 0; i < replicas; i++) {
        Callable<TlsMaterial> replica =
            () -> {
              start.await();
              return new TlsSecret(client, scope.namespace(), scope.name("race"), Clock.systemUTC())
                  .ensure("it", HOSTS);
            };
        results.add(pool.submit(replica));
      }
      start.countDown();
      var distinct = new HashSet<TlsMaterial>();
      for (var result : results) {
        distinct.add(result.get());
      }

      assertThat(distinct).hasSize(1);
    }
  }
}
