package dev.versio.operator.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.operator.gate.CaBundleSource.Result;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CaBundleSourceTest {
  private static final String WHERE = "versio-system/primary-webhook-server-tls";
  private static final String CA = b64("-----BEGIN CERTIFICATE-----\nCA\n");
  private static final String TLS = b64("-----BEGIN CERTIFICATE-----\nTLS\n");

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static Secret secret(Map<String, String> data, Map<String, String> stringData) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName("primary-webhook-server-tls")
        .withNamespace("versio-system")
        .endMetadata()
        .withData(data)
        .withStringData(stringData)
        .build();
  }

  private static ConversionWebhookServer server(String namespace, String url, String caBundle) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName("primary").build());
    var spec = new ConversionWebhookServerSpec();
    spec.namespace = namespace;
    spec.url = url;
    spec.caBundle = caBundle;
    server.setSpec(spec);
    return server;
  }

  @Test
  void caCrtWinsOverTlsCrt() {
    var result =
        CaBundleSource.fromSecret(secret(Map.of("ca.crt", CA, "tls.crt", TLS), null), WHERE);

    assertThat(result).isEqualTo(new Result.Found(CA));
  }

  @Test
  void tlsCrtIsUsedWhenThereIsNoCaCrt() {
    var result = CaBundleSource.fromSecret(secret(Map.of("tls.crt", TLS), null), WHERE);

    assertThat(result).isEqualTo(new Result.Found(TLS));
  }

  @Test
  void aBlankCaCrtFallsBackToTlsCrt() {
    var result =
        CaBundleSource.fromSecret(secret(Map.of("ca.crt", "  ", "tls.crt", TLS), null), WHERE);

    assertThat(result).isEqualTo(new Result.Found(TLS));
  }

  @Test
  void theBundleIsTrimmed() {
    var result = CaBundleSource.fromSecret(secret(Map.of("ca.crt", CA + "\n"), null), WHERE);

    assertThat(result).isEqualTo(new Result.Found(CA));
  }

  @Test
  void stringDataIsBase64EncodedForTheApiserver() {
    var pem = "-----BEGIN CERTIFICATE-----\nCA\n";

    var result = CaBundleSource.fromSecret(secret(null, Map.of("ca.crt", pem)), WHERE);

    assertThat(result).isEqualTo(new Result.Found(b64(pem)));
  }

  @Test
  void caCrtInStringDataWinsOverTlsCrtInData() {
    var pem = "-----BEGIN CERTIFICATE-----\nCA\n";

    var result =
        CaBundleSource.fromSecret(secret(Map.of("tls.crt", TLS), Map.of("ca.crt", pem)), WHERE);

    assertThat(result).isEqualTo(new Result.Found(b64(pem)));
  }

  @Test
  void tlsCrtInStringDataIsUsedWhenThereIsNoCaCrt() {
    var pem = "-----BEGIN CERTIFICATE-----\nTLS\n";

    var result = CaBundleSource.fromSecret(secret(null, Map.of("tls.crt", pem)), WHERE);

    assertThat(result).isEqualTo(new Result.Found(b64(pem)));
  }

  @Test
  void aSecretWithNeitherKeyIsMissingNamingTheSecret() {
    var other = CaBundleSource.fromSecret(secret(Map.of("tls.key", CA), null), WHERE);
    var empty = CaBundleSource.fromSecret(secret(null, null), WHERE);

    var expected =
        new Result.Missing(
            "Secret versio-system/primary-webhook-server-tls has neither ca.crt nor tls.crt");
    assertThat(other).isEqualTo(expected);
    assertThat(empty).isEqualTo(expected);
  }

  @Test
  void theSecretOfAServerIsNamedAfterIt() {
    assertThat(CaBundleSource.secretName("primary")).isEqualTo("primary-webhook-server-tls");
  }

  @Test
  void childrenLiveInTheServersNamespaceOrElseTheOperators() {
    assertThat(CaBundleSource.namespaceOf(server("team-a", null, null), "versio-system"))
        .isEqualTo("team-a");
    assertThat(CaBundleSource.namespaceOf(server(" ", null, null), "versio-system"))
        .isEqualTo("versio-system");
    assertThat(CaBundleSource.namespaceOf(server(null, null, null), "versio-system"))
        .isEqualTo("versio-system");
  }

  @Test
  void aUrlModeServerBringsItsOwnBundle() {
    var source = new CaBundleSource(null, "versio-system");

    var found = source.bundle(server(null, "https://versio.example", " " + CA + "\n"));
    var missing = source.bundle(server(null, "https://versio.example", null));

    assertThat(found).isEqualTo(new Result.Found(CA));
    assertThat(missing)
        .isEqualTo(
            new Result.Missing(
                "ConversionWebhookServer primary sets spec.url but no spec.caBundle; add the CA"));
  }
}
