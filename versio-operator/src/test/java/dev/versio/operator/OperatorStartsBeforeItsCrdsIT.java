package dev.versio.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.process.LoopbackPorts;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The CRDs and the operator applied together ({@code kubectl apply} of one file, {@code versio
 * dev}): the operator's process may be up before Versio's CRDs are Established. It waits for them,
 * not ready and not failing, and starts once they are. A control plane of its own: the shared one
 * has Versio's CRDs from the first test on.
 */
@KubeApiServerTest(dedicated = true)
class OperatorStartsBeforeItsCrdsIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void anOperatorStartedBeforeVersiosCrdsWaitsUnreadyAndStartsOnceTheyAreEstablished(
      KubernetesClient client) throws Exception {
    OperatorFixture.ensureNamespace(client, OperatorFixture.NAMESPACE);
    int opsPort = LoopbackPorts.free();
    int admissionPort = LoopbackPorts.free();
    var options =
        OperatorFixture.withUrlAdmission(
            OperatorFixture.options().toBuilder().opsPort(opsPort).build(), admissionPort);
    // a thread of its own: the client completes its requests on the common pool, which a start
    // blocked in there would starve on a 2-core machine
    var starting = new FutureTask<>(() -> VersioOperator.start(client, options, Clock.systemUTC()));
    Thread.ofPlatform().name("operator-start").start(starting);
    try {
      await("the ops listener")
          .atMost(Duration.ofSeconds(60))
          .until(() -> status(opsPort, "/healthz") == 200);
      assertThat(status(opsPort, "/readyz")).as("/readyz without Versio's CRDs").isEqualTo(503);
      assertThat(starting).as("the start, without Versio's CRDs").isNotDone();

      Crds.applyVersioCrds(client);

      try (var operator = starting.get(2, TimeUnit.MINUTES)) {
        assertThat(operator.ready()).isTrue();
        assertThat(status(opsPort, "/readyz")).isEqualTo(200);
        assertThat(
                client
                    .admissionRegistration()
                    .v1()
                    .validatingWebhookConfigurations()
                    .withName("versio-operator-admission")
                    .get())
            .as("the admission webhook, registered once the caches are full")
            .isNotNull();
      }
    } finally {
      if (!starting.isDone()) {
        starting.cancel(true);
      }
    }
  }

  private static int status(int port, String path) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (java.io.IOException e) {
      return -1; // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
