package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.metrics.Exposition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator through a control-plane outage: etcd and kube-apiserver stopped for 20 s and started
 * again under a running operator. No config changes phase because a list or watch failed, nothing
 * is reverted, and a change made after the outage is reconciled; so is a change made while the
 * operator's apiserver was stopped, through a second apiserver on the same etcd.
 */
@KubeApiServerTest(dedicated = true)
class OperatorControlPlaneOutageIT {
  private static final String SERVER = "outage";
  private static final int CONFIGS = 3;

  @Test
  void configsKeepTheirPhaseThroughAnOutageAndAChangeAfterItIsReconciled(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    OperatorFixture.installVersioCrds(client);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    try (var webhook =
            OperatorFixture.startWebhookServer(controlPlane.adminClient(), SERVER, certDir);
        var operator =
            OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC())) {
      var url = "https://127.0.0.1:" + webhook.conversionPort();
      client.resource(OperatorFixture.urlServer(SERVER, url, caBundle)).serverSideApply();
      var names = new ArrayList<String>();
      for (int i = 0; i < CONFIGS; i++) {
        var crd = OperatorFixture.widgetCrd(group(scope, i), "widgets", "Widget");
        client.resource(crd).serverSideApply();
        Crds.awaitEstablished(client, crd.getMetadata().getName());
        var name = scope.name("widgets" + i);
        client
            .resource(OperatorFixture.renameConfig(name, crd.getMetadata().getName(), SERVER))
            .create();
        names.add(name);
      }
      for (var name : names) {
        awaitConfig(client, name, phase("Applied"));
      }
      double transitionsBefore = transitions(operator);

      controlPlane.stopServers();
      try {
        Thread.sleep(20_000); // the outage itself: nothing to wait for, the control plane is down
      } finally {
        controlPlane.startServers();
      }

      // back: a change made now is reconciled, and nothing changed phase on the way
      var edited = names.getFirst();
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .until(
              () -> {
                var config = client.resources(CRDConversionConfig.class).withName(edited).get();
                ((ObjectNode) config.getSpec().spokes.getFirst().rules.getFirst())
                    .put("reason", "changed after the outage");
                client.resource(config).update();
                return true;
              });
      var status =
          awaitConfig(
              client,
              edited,
              s ->
                  "Applied".equals(s.phase)
                      && s.observedGeneration != null
                      && s.observedGeneration == 2);
      assertThat(status.getStatus().phase).isEqualTo("Applied");
      for (var name : names) {
        var config = client.resources(CRDConversionConfig.class).withName(name).get();
        assertThat(config.getStatus().phase).as(name).isEqualTo("Applied");
      }
      assertThat(transitions(operator) - transitionsBefore)
          .as("phase changes through the outage and the change after it")
          .isZero();

      // a change made while the operator's apiserver is away, through a second apiserver on the
      // same etcd, is reconciled once its apiserver is back
      var editedAway = names.get(1);
      controlPlane.stopApiServer();
      try (var second = controlPlane.startSecondApiServer();
          var other = second.adminClient()) {
        var config = other.resources(CRDConversionConfig.class).withName(editedAway).get();
        ((ObjectNode) config.getSpec().spokes.getFirst().rules.getFirst())
            .put("reason", "changed while the operator's apiserver was away");
        other.resource(config).update();
      } finally {
        controlPlane.startApiServer();
      }
      var awayStatus =
          awaitConfig(
              client,
              editedAway,
              s ->
                  "Applied".equals(s.phase)
                      && s.observedGeneration != null
                      && s.observedGeneration == 2);
      assertThat(awayStatus.getStatus().phase).isEqualTo("Applied");
      for (int i = 0; i < CONFIGS; i++) {
        var conversion = OperatorFixture.conversionOf(client, "widgets." + group(scope, i));
        assertThat(conversion.getStrategy())
            .as("widgets%d still converts by webhook", i)
            .isEqualTo("Webhook");
        assertThat(conversion.getWebhook().getClientConfig().getUrl())
            .startsWith(url + "/convert/");
      }
    }
  }

  private static String group(KubeTestScope scope, int i) {
    return "g" + i + "." + scope.apiGroup();
  }

  private static double transitions(VersioOperator operator) {
    return Exposition.sum(operator.metrics().scrape(), "versio_operator_phase_transitions_total");
  }
}
