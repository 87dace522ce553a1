package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.operator.server.children.WebhookServerChildren;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import dev.versio.webhook.forward.Forwarding;
import dev.versio.webhook.served.ReplicaIdentity;
import dev.versio.webhook.served.ServedTargetsPublication;
import dev.versio.webhook.tracing.ReviewTracing;
import io.fabric8.kubernetes.api.model.EndpointsBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.AsyncBody;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Service mode behind the shared front, end to end on the real apiserver: the apiserver resolves
 * the front Service {@code versio-webhook-front} to a replica through its Endpoints (as it does
 * with {@code --enable-aggregator-routing}; no kube-proxy runs here to route a ClusterIP), checks
 * the replica's certificate against the installation CA in the CRD's {@code caBundle} under the
 * front's DNS name, and the replica that does not hold the target passes the review to one that
 * does, at the address it published ({@code $POD_IP:9443} in a pod). Real replicas run in this JVM
 * with the Secrets the operator issued; what the endpoints controller would write for the front is
 * written by a named helper. A move to the other server is then done without a CRD write, and a
 * watch through the apiserver at the converted version stays open across it.
 */
@KubeApiServerTest(dedicated = true) // a second apiserver on its etcd; servers and configs left
class ServiceFrontForwardingIT {
  /** Reads of each target in the spread test, after the first. */
  private static final int READS = 4;

  private static final Pattern ROUTED =
      Pattern.compile("^versio_webhook_reviews_routed_total\\{([^}]*)} ([0-9.eE+]+)$");

  /** A replica of {@code server} running here, as its pod would, with its own address. */
  private record Replica(WebhookServer server, String pod, String host, int port)
      implements AutoCloseable {
    /** The reviews it routed {@code route} (local, from_peer, forwarded, handed_over). */
    double routed(String route) throws IOException, InterruptedException {
      var body =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://" + host + ":" + server.opsPort() + "/metrics"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      double sum = 0;
      for (var line : body.split("\n")) {
        var m = ROUTED.matcher(line);
        if (m.matches() && m.group(1).contains("route=\"" + route + "\"")) {
          sum += Double.parseDouble(m.group(2));
        }
      }
      return sum;
    }

    @Override
    public void close() {
      server.close();
    }
  }

  /**
   * This machine's first IPv4 address outside loopback: the apiserver refuses Endpoints on
   * 127.0.0.0/8, so the replicas listen where a pod's IP would be.
   */
  private static String hostAddress() throws SocketException {
    var interfaces = NetworkInterface.networkInterfaces().toList();
    for (var nic : interfaces) {
      if (!nic.isUp() || nic.isLoopback()) {
        continue;
      }
      for (var address : nic.inetAddresses().toList()) {
        if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
          return address.getHostAddress();
        }
      }
    }
    return null;
  }

  /** The files of the TLS Secret the operator issued for {@code server}, as its pods mount them. */
  private static Path mountTlsSecret(
      KubernetesClient client, String namespace, String server, Path dir) throws IOException {
    var secret = OperatorFixture.awaitServerTlsSecret(client, namespace, server);
    Files.createDirectories(dir);
    for (var entry : secret.getData().entrySet()) {
      Files.write(dir.resolve(entry.getKey()), Base64.getDecoder().decode(entry.getValue()));
    }
    return dir;
  }

  private static Replica startReplica(
      KubernetesClient client, String namespace, String server, String host, Path tls)
      throws InterruptedException {
    int port = LoopbackPorts.free();
    var pod = server + "-0";
    var webhook =
        WebhookServer.start(
            client,
            new WebhookServerOptions(
                server,
                tls,
                host,
                port,
                0,
                Duration.ofMillis(500),
                WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
                2,
                null),
            Clock.systemUTC(),
            ReviewTracing.off(),
            new ServedTargetsPublication(
                new ReplicaIdentity(pod, null, namespace), Duration.ofSeconds(1)),
            new Forwarding(host + ":" + port, tls.resolve("ca.crt"), Forwarding.DEFAULT_TIMEOUT));
    return new Replica(webhook, pod, host, port);
  }

  /**
   * The Endpoints the endpoints controller would write for {@code service} when {@code ready} are
   * its ready pods (no controller nor pod runs here): each replica at its own port, one subset
   * each, as a controller writes pods whose ports differ.
   */
  private static void writeEndpointsAsTheControllerWould(
      KubernetesClient client, String namespace, String service, String host, List<Replica> ready) {
    var endpoints =
        new EndpointsBuilder()
            .withNewMetadata()
            .withName(service)
            .withNamespace(namespace)
            .endMetadata();
    for (var replica : ready) {
      endpoints
          .addNewSubset()
          .addNewAddress()
          .withIp(host)
          .endAddress()
          .addNewPort()
          .withName("conversion")
          .withPort(replica.port())
          .endPort()
          .endSubset();
    }
    client.endpoints().inNamespace(namespace).resource(endpoints.build()).serverSideApply();
  }

  private static GenericKubernetesResource widget(String group, String name, int replicas) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(group + "/v2")
        .withKind("Widget")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("replicas", replicas)))
        .build();
  }

  /**
   * A watch as an informer holds it, on a raw stream: a client library's watch reconnects on its
   * own when the apiserver ends it, and would hide the very end this test looks for.
   */
  private static final class RawWatch implements AutoCloseable {
    private final StringBuffer received = new StringBuffer();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile AsyncBody body;

    RawWatch(KubernetesClient client, String path) {
      var http = client.getHttpClient();
      var request =
          http.newHttpRequestBuilder()
              .uri(
                  client.getMasterUrl().toString().replaceAll("/$", "")
                      + path
                      + "?watch=true&timeoutSeconds=600")
              .forStreaming()
              .timeout(0, TimeUnit.SECONDS)
              .build();
      http.consumeBytes(
              request,
              (buffers, b) -> {
                for (var buffer : buffers) {
                  received.append(StandardCharsets.UTF_8.decode(buffer));
                }
                b.consume();
              })
          .whenComplete(
              (response, failure) -> {
                if (failure != null || response.code() != 200) {
                  ended.complete(null);
                  return;
                }
                body = response.body();
                body.consume();
                body.done().whenComplete((v, e) -> ended.complete(null));
              });
    }

    /** The event line of the object {@code name}, once it came. */
    Optional<String> event(String name) {
      return received
          .toString()
          .lines()
          .filter(l -> l.contains("\"name\":\"" + name + "\""))
          .findFirst();
    }

    /** Whether the apiserver ended the watch (or refused it). */
    boolean ended() {
      return ended.isDone();
    }

    @Override
    public void close() {
      var open = body;
      if (open != null) {
        open.cancel();
      }
    }
  }

  /**
   * Two Service-mode servers behind the front, {@code alpha} and {@code beta}, the operator, and an
   * apiserver on the same etcd that resolves a webhook's Service through its Endpoints; then one
   * replica of each server running here ({@link #startReplicas}).
   */
  private static final class Lab implements AutoCloseable {
    final KubernetesClient client;
    final String namespace;
    final String host;
    final String alpha;
    final String beta;
    private final VersioOperator operator;
    private final ControlPlane.SecondApiServer routing;
    final KubernetesClient viaEndpoints;
    Replica alpha0;
    Replica beta0;

    Lab(KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope, String host)
        throws IOException {
      this.client = client;
      this.namespace = scope.namespace();
      this.host = host;
      // named by the configs: the control plane is shared, other classes' default servers stay
      this.alpha = scope.name("alpha");
      this.beta = scope.name("beta");
      OperatorFixture.installVersioCrds(client);
      operator =
          OperatorFixture.start(
              client,
              OperatorFixture.options().toBuilder().serviceFront(true).build(),
              Clock.systemUTC());
      routing = controlPlane.startSecondApiServer(List.of("--enable-aggregator-routing=true"));
      viaEndpoints = routing.adminClient();
      for (var server : List.of(alpha, beta)) { // one replica each ({@link #startReplicas})
        client.resource(OperatorFixture.serviceModeServer(server, namespace)).create();
        var child = WebhookServerChildren.childName(server);
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    client.apps().deployments().inNamespace(namespace).withName(child).get()
                        != null);
        OperatorFixture.writeDeploymentStatusAsTheControllerWould(client, namespace, child, 1);
      }
    }

    /**
     * Starts alpha-0 and beta-0 with the Secrets the operator issued, each the one ready endpoint
     * of its server's own Service.
     */
    void startReplicas(Path work) throws IOException, InterruptedException {
      alpha0 =
          startReplica(
              client,
              namespace,
              alpha,
              host,
              mountTlsSecret(client, namespace, alpha, work.resolve(alpha)));
      beta0 =
          startReplica(
              client,
              namespace,
              beta,
              host,
              mountTlsSecret(client, namespace, beta, work.resolve(beta)));
      writeEndpointsAsTheControllerWould(
          client, namespace, WebhookServerChildren.childName(alpha), host, List.of(alpha0));
      writeEndpointsAsTheControllerWould(
          client, namespace, WebhookServerChildren.childName(beta), host, List.of(beta0));
    }

    /** The front's ready endpoints, as the endpoints controller would write them. */
    void frontEndpoints(List<Replica> ready) {
      writeEndpointsAsTheControllerWould(
          client, namespace, WebhookServerChildren.FRONT_SERVICE, host, ready);
    }

    @Override
    public void close() {
      for (var replica : new Replica[] {beta0, alpha0}) {
        if (replica != null) {
          replica.close();
        }
      }
      viaEndpoints.close();
      routing.close();
      operator.close();
    }
  }

  /**
   * This machine's address for the Endpoints; without one the test is skipped saying why, or fails
   * in CI, where a skip would pass unseen.
   */
  private static String requireHostAddress() throws SocketException {
    var host = hostAddress();
    var why = "no IPv4 address outside loopback to put in the front's Endpoints";
    if (host == null && System.getenv("CI") != null) {
      throw new AssertionError(why);
    }
    Assumptions.assumeTrue(host != null, why);
    return host;
  }

  @Test
  void theApiserverReachesTheFrontThroughItsServiceAndAReplicaWithoutTheTargetPassesTheReviewOn(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope, @TempDir Path work)
      throws Exception {
    try (var lab = new Lab(client, controlPlane, scope, requireHostAddress())) {
      var namespace = lab.namespace;
      var alpha = lab.alpha;
      var beta = lab.beta;
      var group = scope.apiGroup();
      var crd = OperatorFixture.widgetCrd(group, "widgets", "Widget");
      client.resource(crd).serverSideApply();
      var target = crd.getMetadata().getName();
      Crds.awaitEstablished(client, target);
      var config = scope.name("front");
      client.resource(OperatorFixture.renameConfig(config, target, alpha)).create();

      lab.startReplicas(work);
      var alpha0 = lab.alpha0;
      var beta0 = lab.beta0;
      var applied = awaitConfig(client, config, phase("Applied"));
      assertThat(applied.getStatus().servedBy).isEqualTo(alpha);
      var service = OperatorFixture.conversionOf(client, target).getWebhook().getClientConfig();
      assertThat(service.getService().getName()).isEqualTo(WebhookServerChildren.FRONT_SERVICE);
      long generation = OperatorFixture.crdGeneration(client, target);

      // the front's only ready pod is beta's replica, which does not hold the target: every
      // review the apiserver sends reaches beta-0 and is passed on to alpha-0
      lab.frontEndpoints(List.of(beta0));
      var v2 = lab.viaEndpoints.genericKubernetesResources(OperatorFixture.widgets(group, "v2"));
      var v1 = lab.viaEndpoints.genericKubernetesResources(OperatorFixture.widgets(group, "v1"));
      v2.inNamespace(namespace).resource(widget(group, "before", 3)).create();
      var read =
          await()
              .atMost(Duration.ofSeconds(30))
              .ignoreExceptions()
              .until(() -> v1.inNamespace(namespace).withName("before").get(), r -> r != null);
      assertThat(read.getAdditionalProperties().get("spec")).isEqualTo(Map.of("size", 3));
      assertThat(beta0.routed("forwarded")).as("reviews beta-0 passed on").isPositive();
      assertThat(alpha0.routed("from_peer")).as("reviews alpha-0 took from a peer").isPositive();
      assertThat(beta0.routed("local")).as("reviews beta-0 answered itself").isZero();

      // a watch at v1 through the front, as an informer would hold it, across the move
      try (var watch =
          new RawWatch(
              lab.viaEndpoints, "/apis/" + group + "/v1/namespaces/" + namespace + "/widgets")) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> watch.event("before").isPresent()); // its ADDED event

        // pinned to beta: done once beta-0 reports the target, without a write to the CRD
        OperatorFixture.mergePatch(
            client,
            CRDConversionConfig.class,
            config,
            "{\"spec\":{\"webhookServerRef\":{\"name\":\"" + beta + "\"}}}");
        var moved = awaitConfig(client, config, s -> beta.equals(s.servedBy));
        assertThat(moved.getStatus().phase).isEqualTo("Applied");
        assertThat(OperatorFixture.crdGeneration(client, target))
            .as("the move wrote the CRD")
            .isEqualTo(generation);

        // beta-0, the front's pod, now holds the target and answers the apiserver itself
        double local = beta0.routed("local");
        v2.inNamespace(namespace).resource(widget(group, "after", 5)).create();
        var after =
            await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> watch.event("after"), Optional::isPresent)
                .orElseThrow();
        assertThat(after).contains("\"spec\":{\"size\":5}");
        assertThat(beta0.routed("local")).as("reviews beta-0 answered itself").isGreaterThan(local);
        assertThat(watch.ended()).as("the watch at v1 ended").isFalse();
      }
    }
  }

  /**
   * The apiserver calls a webhook Service through one client per target, each dialling its own
   * connection to a ready endpoint picked at random: every review of a target reaches the same
   * replica, and the targets spread over the front's replicas (what the front's load spreading, and
   * the stall a frozen replica causes, rest on). With 16 targets all on one of two replicas by
   * chance once in 30,000 runs.
   */
  @Test
  void theApiserverSpreadsTheTargetsOverTheFrontsReplicas(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope, @TempDir Path work)
      throws Exception {
    try (var lab = new Lab(client, controlPlane, scope, requireHostAddress())) {
      var namespace = lab.namespace;
      var groups = new ArrayList<String>();
      for (int i = 0; i < 16; i++) { // every one converted by alpha
        var group = "t" + i + "." + scope.apiGroup();
        var crd = OperatorFixture.widgetCrd(group, "widgets", "Widget");
        client.resource(crd).serverSideApply();
        Crds.awaitEstablished(client, crd.getMetadata().getName());
        client
            .resource(
                OperatorFixture.renameConfig(
                    scope.name("spread" + i), crd.getMetadata().getName(), lab.alpha))
            .create();
        groups.add(group);
      }
      lab.startReplicas(work);
      for (int i = 0; i < groups.size(); i++) {
        awaitConfig(client, scope.name("spread" + i), phase("Applied"));
      }
      lab.frontEndpoints(List.of(lab.alpha0, lab.beta0));
      var onAlpha = new ArrayList<String>();
      var onBeta = new ArrayList<String>();
      for (var group : groups) {
        lab.viaEndpoints
            .genericKubernetesResources(OperatorFixture.widgets(group, "v2"))
            .inNamespace(namespace)
            .resource(widget(group, "spread", 2))
            .create();
        var v1 = lab.viaEndpoints.genericKubernetesResources(OperatorFixture.widgets(group, "v1"));
        var read =
            await()
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> v1.inNamespace(namespace).withName("spread").get(), r -> r != null);
        assertThat(read.getAdditionalProperties().get("spec")).isEqualTo(Map.of("size", 2));
        // alpha holds every target: what reaches it from the apiserver it answers itself, what
        // reaches beta it passes on; one connection per target takes all of its reviews to one
        double atAlpha = lab.alpha0.routed("local");
        double atBeta = lab.beta0.routed("forwarded");
        for (int k = 0; k < READS; k++) {
          assertThat(v1.inNamespace(namespace).withName("spread").get()).isNotNull();
        }
        double toAlpha = lab.alpha0.routed("local") - atAlpha;
        double toBeta = lab.beta0.routed("forwarded") - atBeta;
        assertThat(Math.min(toAlpha, toBeta))
            .as("%s: reviews at alpha-0 %s, at beta-0 %s", group, toAlpha, toBeta)
            .isZero();
        assertThat(Math.max(toAlpha, toBeta)).as(group).isGreaterThanOrEqualTo(READS);
        (toAlpha > 0 ? onAlpha : onBeta).add(group);
      }
      assertThat(onAlpha).as("targets whose connection went to alpha-0").isNotEmpty();
      assertThat(onBeta).as("targets whose connection went to beta-0").isNotEmpty();
    }
  }
}
