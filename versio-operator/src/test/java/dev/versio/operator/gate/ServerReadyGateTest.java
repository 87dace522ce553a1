package dev.versio.operator.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.api.server.ConversionWebhookServerStatus;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerReadyGateTest {
  private static final List<String> ALL = List.of("Available", "CertificateReady", "ServiceReady");

  private static ConversionWebhookServer server(String url, Integer readyReplicas) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName("primary").build());
    var spec = new ConversionWebhookServerSpec();
    spec.url = url;
    server.setSpec(spec);
    var status = new ConversionWebhookServerStatus();
    status.readyReplicas = readyReplicas;
    server.setStatus(status);
    return server;
  }

  private static ConversionWebhookServer serviceMode(int readyReplicas) {
    return server(null, readyReplicas);
  }

  private static ConversionWebhookServer urlMode() {
    return server("https://versio.example:8443", null);
  }

  private static ConversionWebhookServer with(
      ConversionWebhookServer server, String type, boolean ok, String reason, String message) {
    server
        .getStatus()
        .conditions
        .add(
            new ConditionBuilder()
                .withType(type)
                .withStatus(ok ? "True" : "False")
                .withReason(reason)
                .withMessage(message)
                .build());
    return server;
  }

  private static ConversionWebhookServer allTrue(ConversionWebhookServer server) {
    ALL.forEach(type -> with(server, type, true, "Ready", type + " ok"));
    return server;
  }

  @Test
  void aServiceModeServerWithTheThreeConditionsAndAReadyReplicaIsReady() {
    var check = ServerReadyGate.check(allTrue(serviceMode(1)));

    assertThat(check.ok()).isTrue();
    assertThat(check.reason()).isEqualTo("ServerReady");
    assertThat(check.message()).isEqualTo("ConversionWebhookServer primary is ready");
  }

  @Test
  void aUrlModeServerNeedsOnlyTheThreeConditions() {
    var check = ServerReadyGate.check(allTrue(urlMode()));

    assertThat(check.ok()).isTrue();
  }

  @Test
  void aServiceModeServerWithoutAReadyReplicaIsNotReady() {
    var zero = ServerReadyGate.check(allTrue(serviceMode(0)));
    var unknown = ServerReadyGate.check(allTrue(server(null, null)));

    assertThat(zero.ok()).isFalse();
    assertThat(zero.reason()).isEqualTo("ServerNotReady");
    assertThat(zero.message())
        .isEqualTo(
            "ConversionWebhookServer primary is not ready: no ready replica; see kubectl describe"
                + " conversionwebhookserver primary");
    assertThat(unknown.ok()).isFalse();
  }

  @Test
  void aServerWithoutSpecIsInServiceModeAndNeedsAReadyReplica() {
    var server = allTrue(serviceMode(0));
    server.setSpec(null);

    assertThat(ServerReadyGate.check(server).message()).contains("no ready replica");
  }

  @Test
  void aFalseConditionIsNamedWithItsReasonAndMessage() {
    var server = serviceMode(2);
    with(server, "Available", true, "Ready", "ok");
    with(server, "CertificateReady", false, "Expired", "the certificate expired");
    with(server, "ServiceReady", true, "Ready", "ok");

    var check = ServerReadyGate.check(server);

    assertThat(check.ok()).isFalse();
    assertThat(check.reason()).isEqualTo("ServerNotReady");
    assertThat(check.message())
        .isEqualTo(
            "ConversionWebhookServer primary is not ready: CertificateReady is False (Expired: the"
                + " certificate expired); see kubectl describe conversionwebhookserver primary");
  }

  @Test
  void aConditionNotReportedYetIsNamed() {
    var server = urlMode();
    with(server, "Available", true, "Ready", "ok");
    with(server, "CertificateReady", true, "Ready", "ok");

    var check = ServerReadyGate.check(server);

    assertThat(check.ok()).isFalse();
    assertThat(check.message())
        .startsWith(
            "ConversionWebhookServer primary is not ready: ServiceReady is not reported yet;");
  }

  @Test
  void everyMissingPieceIsListedInOrder() {
    var server = serviceMode(0);
    with(server, "Available", false, "NoReplicas", "0/2 replicas");

    var check = ServerReadyGate.check(server);

    assertThat(check.message())
        .isEqualTo(
            "ConversionWebhookServer primary is not ready: Available is False (NoReplicas: 0/2"
                + " replicas); CertificateReady is not reported yet; ServiceReady is not reported"
                + " yet; no ready replica; see kubectl describe conversionwebhookserver primary");
  }

  @Test
  void aServerWithoutStatusIsNotReadyYet() {
    var server = urlMode();
    server.setStatus(null);

    var check = ServerReadyGate.check(server);

    assertThat(check.ok()).isFalse();
    assertThat(check.reason()).isEqualTo("ServerNotReady");
    assertThat(check.message())
        .isEqualTo(
            "ConversionWebhookServer primary is not ready: it has no status yet (the operator has"
                + " not observed it); see kubectl describe conversionwebhookserver primary");
  }
}
