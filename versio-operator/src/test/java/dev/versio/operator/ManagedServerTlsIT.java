package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.operator.server.children.ServerCertificate;
import dev.versio.operator.tls.TlsMaterial;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Without cert-manager the operator issues a Service-mode server's serving certificate itself,
 * signed by the installation CA kept in the operator's namespace: a key pair that matches, for the
 * Service's names, in {@code <n>-webhook-server-tls} owned by the server, with the CA's bundle as
 * {@code ca.crt}; the bundle reaches the targets; and the certificate is renewed before it expires
 * without the bundle, or the target CRD, changing — judged by the operator's clock, which the test
 * moves forward instead of waiting 75 days.
 */
@KubeApiServerTest
class ManagedServerTlsIT {
  private static Secret awaitSecret(
      KubernetesClient client, String namespace, String name, Predicate<Secret> condition) {
    // a ready server is reconciled every 30 s: a renewal due after the clock moved shows within
    // that, plus a loaded machine's delay
    return await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> client.secrets().inNamespace(namespace).withName(name).get(),
            s -> s != null && condition.test(s));
  }

  private static java.util.List<java.security.cert.X509Certificate> certificates(String pem)
      throws Exception {
    return java.security.cert.CertificateFactory.getInstance("X.509")
        .generateCertificates(
            new java.io.ByteArrayInputStream(
                pem.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
        .stream()
        .map(c -> (java.security.cert.X509Certificate) c)
        .toList();
  }

  private static String caBundleOf(KubernetesClient client, String crd) {
    var conversion = OperatorFixture.conversionOf(client, crd);
    return conversion.getWebhook() == null
        ? null
        : conversion.getWebhook().getClientConfig().getCaBundle();
  }

  /**
   * Makes server {@code name} ready (its Deployment and Endpoints written as their controllers
   * would) and a target CRD converted by it, its config Applied; returns the CRD's name.
   */
  private static String convertedTarget(
      KubernetesClient client, KubeTestScope scope, String namespace, String name) {
    OperatorFixture.makeServerReadyAsItsControllersWould(client, namespace, name);
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    client.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(client, target);
    var config = scope.name("served");
    client.resource(OperatorFixture.renameConfig(config, target, name)).create();
    awaitConfig(client, config, phase("Applied"));
    return target;
  }

  @Test
  void theOperatorIssuesTheServingCertificateAndRenewsItBeforeItExpires(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var name = scope.name("tls");
    var child = name + "-webhook-server";
    var secretName = child + "-tls";
    var clock = new AdjustableClock();
    try (var operator = OperatorFixture.start(client, OperatorFixture.options(), clock)) {
      var server = OperatorFixture.serviceModeServer(name, namespace);
      client.resource(server).create();

      var first = awaitSecret(client, namespace, secretName, s -> true);
      var material = TlsMaterial.fromSecretData(first.getData());
      var hosts = ServerCertificate.of(name, namespace, server.getSpec()).hosts();
      assertThat(hosts).contains(child + "." + namespace + ".svc");
      assertThat(material.problem(hosts, clock.instant(), Duration.ofDays(15)))
          .as("key matches, CA signed it, every Service name covered, valid long enough")
          .isEmpty();
      var notAfter = certificates(material.certificatePem()).getFirst().getNotAfter().toInstant();
      assertThat(Duration.between(clock.instant(), notAfter))
          .isBetween(Duration.ofDays(89), Duration.ofDays(91));
      assertThat(first.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(o -> assertThat(o.getName()).isEqualTo(name));

      // the server becomes ready (the Deployment controller's part is written by the test) and a
      // target converted by it carries the operator's CA
      var target = convertedTarget(client, scope, namespace, name);
      assertThat(caBundleOf(client, target)).isEqualTo(first.getData().get("ca.crt"));

      var generation = OperatorFixture.crdGeneration(client, target);
      // the CA lives in the operator's namespace, where the servers' pods mount nothing; the
      // server's Secret holds no CA key
      var ca =
          client
              .secrets()
              .inNamespace(OperatorFixture.NAMESPACE)
              .withName(dev.versio.operator.tls.InstallationCaSecret.NAME)
              .get();
      assertThat(ca.getData()).containsKeys("ca.crt", "signer.crt", "signer.key");
      assertThat(first.getData()).containsOnlyKeys("ca.crt", "tls.crt", "tls.key");
      assertThat(first.getData().get("ca.crt")).isEqualTo(ca.getData().get("ca.crt"));

      // 80 days later the certificate is within 15 days of its end: renewed by the same CA, so
      // ca.crt — and every target's caBundle — stays as it was, and the target CRD is not written
      clock.advance(Duration.ofDays(80));
      var renewed =
          awaitSecret(
              client,
              namespace,
              secretName,
              s -> !s.getData().get("tls.crt").equals(first.getData().get("tls.crt")));
      var next = TlsMaterial.fromSecretData(renewed.getData());
      assertThat(next.problem(hosts, clock.instant(), Duration.ofDays(15))).isEmpty();
      assertThat(renewed.getData().get("ca.crt")).isEqualTo(first.getData().get("ca.crt"));
      // the Secret watch would carry a changed bundle to the target within about a second: for
      // five seconds after the renewal, the target keeps its caBundle and its generation
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  first.getData().get("ca.crt").equals(caBundleOf(client, target))
                      && generation == OperatorFixture.crdGeneration(client, target));
      assertThat(new String(Base64.getDecoder().decode(caBundleOf(client, target))))
          .contains("BEGIN CERTIFICATE");
    }
  }

  @Test
  void fiveYearsOfServingCertificateRenewalsNeverWriteTheTargetCrd(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var name = scope.name("years");
    var secretName = name + "-webhook-server-tls";
    var clock = new AdjustableClock();
    var start = clock.instant();
    try (var operator = OperatorFixture.start(client, OperatorFixture.options(), clock)) {
      var server = OperatorFixture.serviceModeServer(name, namespace);
      client.resource(server).create();
      var first = awaitSecret(client, namespace, secretName, s -> true);
      var hosts = ServerCertificate.of(name, namespace, server.getSpec()).hosts();
      var target = convertedTarget(client, scope, namespace, name);
      var generation = OperatorFixture.crdGeneration(client, target);
      var bundle = caBundleOf(client, target);
      assertThat(bundle).isEqualTo(first.getData().get("ca.crt"));

      // every 80 days the 90-day leaf is inside its 15-day renewal window (the defaults); touching
      // the Secret reconciles the server at once instead of at its next 30 s re-check
      var previous = first;
      int renewals = 0;
      while (Duration.between(start, clock.instant()).compareTo(Duration.ofDays(5 * 365)) < 0) {
        clock.advance(Duration.ofDays(80));
        var before = previous.getData().get("tls.crt");
        client
            .secrets()
            .inNamespace(namespace)
            .withName(secretName)
            .edit(
                s -> {
                  s.getMetadata()
                      .getAnnotations()
                      .put("test.versio.dev/renewal-check", clock.instant().toString());
                  return s;
                });
        previous =
            awaitSecret(
                client, namespace, secretName, s -> !s.getData().get("tls.crt").equals(before));
        renewals++;
        assertThat(
                TlsMaterial.fromSecretData(previous.getData())
                    .problem(hosts, clock.instant(), Duration.ofDays(15)))
            .as("renewal %d, %s", renewals, clock.instant())
            .isEmpty();
        assertThat(previous.getData().get("ca.crt"))
            .as("renewal %d keeps the installation CA's bundle", renewals)
            .isEqualTo(bundle);
      }
      assertThat(renewals).as("five years of 80-day steps").isEqualTo(23);
      // the Secret watch fans each renewal out to the server's configs within about a second: for
      // five seconds after the last one, the target keeps its generation and its caBundle
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  generation == OperatorFixture.crdGeneration(client, target)
                      && bundle.equals(caBundleOf(client, target)));
    }
  }

  @Test
  void aServerCertifiedByItsOwnCaBeforeTheInstallationCaMovesOverWithTwoTargetWrites(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var name = scope.name("old");
    var child = name + "-webhook-server";
    var secretName = child + "-tls";
    var clock = new AdjustableClock();
    var spec = OperatorFixture.serviceModeServer(name, namespace).getSpec();
    var hosts = ServerCertificate.of(name, namespace, spec).hosts();
    // what an earlier release wrote: a CA of the server's own that signed its certificate
    var legacy =
        dev.versio.operator.tls.SelfSignedCa.issue(
            "versio-webhook-server-" + name, hosts, clock.instant(), Duration.ofDays(90));
    client
        .secrets()
        .inNamespace(namespace)
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName(secretName)
                .withNamespace(namespace)
                .addToLabels("app.kubernetes.io/managed-by", "versio-operator")
                .endMetadata()
                .withType("kubernetes.io/tls")
                .withData(legacy.secretData())
                .build())
        .create();
    try (var operator = OperatorFixture.start(client, OperatorFixture.options(), clock)) {
      client.resource(OperatorFixture.serviceModeServer(name, namespace)).create();
      // the certificate is still good, so it stays; ca.crt trusts the installation CA too
      var migrated = awaitSecret(client, namespace, secretName, s -> certificatesOf(s).size() == 2);
      assertThat(migrated.getData().get("tls.crt")).isEqualTo(legacy.secretData().get("tls.crt"));
      assertThat(certificatesOf(migrated).get(1))
          .as("the server's own CA, after the installation CA")
          .isEqualTo(certificates(legacy.caBundlePem()).getFirst());

      var target = convertedTarget(client, scope, namespace, name);
      assertThat(caBundleOf(client, target)).isEqualTo(migrated.getData().get("ca.crt"));
      var generation = OperatorFixture.crdGeneration(client, target);

      // 80 days on, the certificate is renewed by the installation CA; the old CA is still valid,
      // so ca.crt — and the target — stay as they are
      clock.advance(Duration.ofDays(80));
      var renewed =
          awaitSecret(
              client,
              namespace,
              secretName,
              s -> !s.getData().get("tls.crt").equals(migrated.getData().get("tls.crt")));
      assertThat(renewed.getData().get("ca.crt")).isEqualTo(migrated.getData().get("ca.crt"));
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(10))
          .until(() -> OperatorFixture.crdGeneration(client, target) == generation);

      // once the old CA has ended, it leaves ca.crt: the second and last write of the target
      clock.advance(Duration.ofDays(11));
      var settled = awaitSecret(client, namespace, secretName, s -> certificatesOf(s).size() == 1);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> settled.getData().get("ca.crt").equals(caBundleOf(client, target)));
      assertThat(OperatorFixture.crdGeneration(client, target)).isEqualTo(generation + 1);
    }
  }

  private static java.util.List<java.security.cert.X509Certificate> certificatesOf(Secret secret) {
    try {
      return certificates(
          new String(
              Base64.getDecoder().decode(secret.getData().get("ca.crt")),
              java.nio.charset.StandardCharsets.US_ASCII));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
