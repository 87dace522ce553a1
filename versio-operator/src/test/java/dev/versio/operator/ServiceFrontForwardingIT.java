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
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
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
@KubeApiServerTest
class ServiceFrontForwardingIT {
  private static final Pattern ROUTED =
      Pattern.compile("^versio_webhook_reviews_routed_total\\{([^}]*)} ([0-9.eE+]+)$");

  /** A replica of {@code server} running here, as its pod would, with its own address. */
  private record Replica(WebhookServer server, String pod, int port) implements AutoCloseable {
    /** The reviews it routed {@code route} (local, from_peer, forwarded, handed_over). */
    double routed(String route) throws IOException, InterruptedException {
      var body =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.opsPort() + "/metrics"))
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
    var secret =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    client
                        .secrets()
                        .inNamespace(namespace)
                        .withName(WebhookServerChildren.childName(server) + "-tls")
                        .get(),
                s -> s != null && s.getData() != null && s.getData().containsKey("ca.crt"));
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
                "0.0.0.0",
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
    return new Replica(webhook, pod, port);
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

  @Test
  void theApiserverReachesTheFrontThroughItsServiceAndAReplicaWithoutTheTargetPassesTheReviewOn(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope, @TempDir Path work)
      throws Exception {
    var host = hostAddress();
    Assumptions.assumeTrue(
        host != null, "no IPv4 address outside loopback to put in the front's Endpoints");
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var alpha = scope.name("alpha");
    var beta = scope.name("beta");
    var options = OperatorFixture.options().toBuilder().serviceFront(true).build();
    try (var operator = OperatorFixture.start(client, options, Clock.systemUTC());
        // an apiserver that resolves a webhook's Service through its Endpoints, on the same etcd
        var routing =
            controlPlane.startSecondApiServer(List.of("--enable-aggregator-routing=true"));
        var viaEndpoints = routing.adminClient()) {
      // named by the config: the control plane is shared, other classes' default servers stay
      client.resource(OperatorFixture.serviceModeServer(alpha, namespace)).create();
      client.resource(OperatorFixture.serviceModeServer(beta, namespace)).create();
      for (var server : List.of(alpha, beta)) { // one replica each, running below
        var child = WebhookServerChildren.childName(server);
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    client.apps().deployments().inNamespace(namespace).withName(child).get()
                        != null);
        OperatorFixture.writeDeploymentStatusAsTheControllerWould(client, namespace, child, 1);
      }

      var group = scope.apiGroup();
      var crd = OperatorFixture.widgetCrd(group, "widgets", "Widget");
      client.resource(crd).serverSideApply();
      var target = crd.getMetadata().getName();
      Crds.awaitEstablished(client, target);
      var config = scope.name("front");
      client.resource(OperatorFixture.renameConfig(config, target, alpha)).create();

      try (var alpha0 =
              startReplica(
                  client,
                  namespace,
                  alpha,
                  host,
                  mountTlsSecret(client, namespace, alpha, work.resolve(alpha)));
          var beta0 =
              startReplica(
                  client,
                  namespace,
                  beta,
                  host,
                  mountTlsSecret(client, namespace, beta, work.resolve(beta)))) {
        writeEndpointsAsTheControllerWould(
            client, namespace, WebhookServerChildren.childName(alpha), host, List.of(alpha0));
        writeEndpointsAsTheControllerWould(
            client, namespace, WebhookServerChildren.childName(beta), host, List.of(beta0));
        var applied = awaitConfig(client, config, phase("Applied"));
        assertThat(applied.getStatus().servedBy).isEqualTo(alpha);
        var service = OperatorFixture.conversionOf(client, target).getWebhook().getClientConfig();
        assertThat(service.getService().getName()).isEqualTo(WebhookServerChildren.FRONT_SERVICE);
        long generation = OperatorFixture.crdGeneration(client, target);

        // the front's only ready pod is beta's replica, which does not hold the target: every
        // review the apiserver sends reaches beta-0 and is passed on to alpha-0
        writeEndpointsAsTheControllerWould(
            client, namespace, WebhookServerChildren.FRONT_SERVICE, host, List.of(beta0));
        var v2 = viaEndpoints.genericKubernetesResources(OperatorFixture.widgets(group, "v2"));
        var v1 = viaEndpoints.genericKubernetesResources(OperatorFixture.widgets(group, "v1"));
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
        var events = new CopyOnWriteArrayList<GenericKubernetesResource>();
        var closed = new AtomicReference<String>();
        try (var watch =
            v1.inNamespace(namespace)
                .watch(
                    new Watcher<>() {
                      @Override
                      public void eventReceived(Action action, GenericKubernetesResource r) {
                        if (action == Action.ADDED) {
                          events.add(r);
                        }
                      }

                      @Override
                      public void onClose(WatcherException cause) {
                        closed.set(cause == null ? "closed" : cause.getMessage());
                      }
                    })) {
          await().atMost(Duration.ofSeconds(20)).until(() -> !events.isEmpty()); // "before"

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
                  .until(
                      () ->
                          events.stream()
                              .filter(e -> e.getMetadata().getName().equals("after"))
                              .findFirst(),
                      e -> e.isPresent())
                  .orElseThrow();
          assertThat(after.getAdditionalProperties().get("spec")).isEqualTo(Map.of("size", 5));
          assertThat(beta0.routed("local"))
              .as("reviews beta-0 answered itself")
              .isGreaterThan(local);
          assertThat(closed.get()).as("the watch at v1 ended").isNull();
        }
      }
    }
  }

  /**
   * The apiserver calls a webhook Service through one client per target, each dialling its own
   * connection to a ready endpoint picked at random: the targets spread over the front's replicas
   * (what the front's load spreading, and the stall a frozen replica causes, rest on). With 16
   * targets all on one of two replicas by chance once in 30,000 runs.
   */
  @Test
  void theApiserverSpreadsTheTargetsOverTheFrontsReplicas(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope, @TempDir Path work)
      throws Exception {
    var host = hostAddress();
    Assumptions.assumeTrue(
        host != null, "no IPv4 address outside loopback to put in the front's Endpoints");
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var alpha = scope.name("alpha");
    var beta = scope.name("beta");
    var options = OperatorFixture.options().toBuilder().serviceFront(true).build();
    try (var operator = OperatorFixture.start(client, options, Clock.systemUTC());
        var routing =
            controlPlane.startSecondApiServer(List.of("--enable-aggregator-routing=true"));
        var viaEndpoints = routing.adminClient()) {
      for (var server : List.of(alpha, beta)) {
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
      var groups = new ArrayList<String>();
      for (int i = 0; i < 16; i++) { // every one converted by alpha
        var group = "t" + i + "." + scope.apiGroup();
        var crd = OperatorFixture.widgetCrd(group, "widgets", "Widget");
        client.resource(crd).serverSideApply();
        Crds.awaitEstablished(client, crd.getMetadata().getName());
        client
            .resource(
                OperatorFixture.renameConfig(
                    scope.name("spread" + i), crd.getMetadata().getName(), alpha))
            .create();
        groups.add(group);
      }
      try (var alpha0 =
              startReplica(
                  client,
                  namespace,
                  alpha,
                  host,
                  mountTlsSecret(client, namespace, alpha, work.resolve(alpha)));
          var beta0 =
              startReplica(
                  client,
                  namespace,
                  beta,
                  host,
                  mountTlsSecret(client, namespace, beta, work.resolve(beta)))) {
        writeEndpointsAsTheControllerWould(
            client, namespace, WebhookServerChildren.childName(alpha), host, List.of(alpha0));
        writeEndpointsAsTheControllerWould(
            client, namespace, WebhookServerChildren.childName(beta), host, List.of(beta0));
        for (int i = 0; i < groups.size(); i++) {
          awaitConfig(client, scope.name("spread" + i), phase("Applied"));
        }
        writeEndpointsAsTheControllerWould(
            client, namespace, WebhookServerChildren.FRONT_SERVICE, host, List.of(alpha0, beta0));
        for (var group : groups) {
          viaEndpoints
              .genericKubernetesResources(OperatorFixture.widgets(group, "v2"))
              .inNamespace(namespace)
              .resource(widget(group, "spread", 2))
              .create();
          var v1 = viaEndpoints.genericKubernetesResources(OperatorFixture.widgets(group, "v1"));
          var read =
              await()
                  .atMost(Duration.ofSeconds(30))
                  .ignoreExceptions()
                  .until(() -> v1.inNamespace(namespace).withName("spread").get(), r -> r != null);
          assertThat(read.getAdditionalProperties().get("spec")).isEqualTo(Map.of("size", 2));
        }
        // alpha holds every target: what reached it from the apiserver it answered itself, what
        // reached beta it passed on
        assertThat(alpha0.routed("local")).as("reviews the apiserver sent to alpha-0").isPositive();
        assertThat(beta0.routed("forwarded"))
            .as("reviews the apiserver sent to beta-0")
            .isPositive();
      }
    }
  }
}
