package dev.versio.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.tls.SelfSignedCa;
import dev.versio.operator.tls.TlsMaterial;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.stories.CrossplaneStandIn;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Versio's admission webhook behind a real kube-apiserver: every rule is seen as a client sees it,
 * one write refused (with the message the client gets) and one accepted. The class has a control
 * plane of its own: a ValidatingWebhookConfiguration with {@code failurePolicy: Fail} would
 * otherwise reach into other test classes.
 */
@KubeApiServerTest(dedicated = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdmissionIT {
  private static final String CONFIG_WEBHOOK = "vcrdconversionconfig.versio.dev";
  private static final String XRD_CONFIG_WEBHOOK = "vxrdconversionconfig.versio.dev";
  private static final String SERVER_WEBHOOK = "vconversionwebhookserver.versio.dev";

  private KubernetesClient client;
  private Apiserver apiserver;
  private OperatorOptions options;
  private AdmissionServer server;

  @BeforeAll
  void startAdmission(KubernetesClient client, KubeTestScope scope) throws IOException {
    this.client = client;
    this.apiserver = new Apiserver(client);
    Crds.applyVersioCrds(client);
    options = urlModeOptions(scope.namespace(), "admission", OperatorOptions::withAdmission);
    server = AdmissionServer.start(client, options, Clock.systemUTC());
    var probe = serverObject("probe");
    ((ObjectNode) probe.path("spec")).putArray("extraArgs").add("--ops-port=1");
    awaitRefused(probe, "--ops-port");
  }

  @AfterAll
  void stopAdmission() {
    if (server != null) {
      server.close();
    }
    if (options != null) {
      deleteWebhookConfiguration(options.admission().webhookConfiguration());
    }
  }

  // ---------------------------------------------------------------- start-up and transport

  @Test
  void startUpKeepsTheTlsSecretAndRegistersAllThreeWebhooksTrustingItsCa() {
    assertThat(server.serving()).isTrue();
    var secret =
        client
            .secrets()
            .inNamespace(options.namespace())
            .withName(options.admission().tlsSecret())
            .get();
    assertThat(secret.getData()).containsKeys("ca.crt", "tls.crt", "tls.key");
    var vwc =
        client
            .admissionRegistration()
            .v1()
            .validatingWebhookConfigurations()
            .withName(options.admission().webhookConfiguration())
            .get();
    assertThat(vwc.getWebhooks())
        .extracting(w -> w.getName())
        .containsExactly(CONFIG_WEBHOOK, XRD_CONFIG_WEBHOOK, SERVER_WEBHOOK);
    assertThat(vwc.getWebhooks())
        .allSatisfy(
            w -> {
              assertThat(w.getClientConfig().getCaBundle())
                  .isEqualTo(secret.getData().get("ca.crt"));
              assertThat(w.getClientConfig().getUrl())
                  .startsWith("https://127.0.0.1:" + server.port() + "/validate/");
              assertThat(w.getFailurePolicy()).isEqualTo("Fail");
            });
    assertThat(vwc.getMetadata().getManagedFields())
        .anySatisfy(f -> assertThat(f.getManager()).isEqualTo("versio-operator"));
  }

  @Test
  void theEndpointSpeaksHttpsWithTheSecretsCertificateAndRefusesMalformedBodies() throws Exception {
    try (var http = trustingTheSecretsCa(options)) {
      var uri = URI.create("https://127.0.0.1:" + server.port() + "/validate/crdconversionconfig");

      var malformed =
          http.send(
              HttpRequest.newBuilder(uri)
                  .POST(HttpRequest.BodyPublishers.ofString("{oops"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      var get =
          http.send(
              HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());

      assertThat(malformed.statusCode()).isEqualTo(400);
      assertThat(malformed.body()).startsWith("the request body is not JSON");
      assertThat(get.statusCode()).isEqualTo(405);
    }
  }

  @Test
  void aListenerNotYetRegisteredAnswers503UntilRegisteredSoHalfFilledCachesAnswerNothing(
      KubeTestScope scope) throws Exception {
    // what the operator does while its caches fill: listening, not registered
    var starting = urlModeOptions(scope.namespace(), "starting", OperatorOptions::withAdmission);
    try (var cache = new dev.versio.operator.cluster.ClusterCache(client, false);
        var listening = AdmissionServer.listen(client, starting, Clock.systemUTC(), cache);
        var http = trustingTheSecretsCa(starting)) {
      var uri =
          URI.create("https://127.0.0.1:" + listening.port() + "/validate/crdconversionconfig");
      var malformed =
          HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString("{oops")).build();

      var before = http.send(malformed, HttpResponse.BodyHandlers.ofString());
      assertThat(listening.serving()).isFalse();
      listening.register();
      var after = http.send(malformed, HttpResponse.BodyHandlers.ofString());

      assertThat(before.statusCode()).isEqualTo(503);
      assertThat(before.body()).contains("caches are not filled yet");
      assertThat(after.statusCode()).as("registered: the review is read").isEqualTo(400);
      assertThat(listening.serving()).isTrue();
    } finally {
      deleteWebhookConfiguration(starting.admission().webhookConfiguration());
    }
  }

  /** An HTTPS client that trusts the CA in the admission TLS Secret of {@code options}. */
  private HttpClient trustingTheSecretsCa(OperatorOptions options) throws Exception {
    var secret =
        client
            .secrets()
            .inNamespace(options.namespace())
            .withName(options.admission().tlsSecret())
            .get();
    var tls = TlsMaterial.fromSecretData(secret.getData());
    var store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    var ca =
        CertificateFactory.getInstance("X.509")
            .generateCertificate(
                new ByteArrayInputStream(tls.caBundlePem().getBytes(StandardCharsets.US_ASCII)));
    store.setCertificateEntry("ca", ca);
    var tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    var context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(context).build();
  }

  // ---------------------------------------------------------------- config rules

  @Test
  void aDisabledConfigKindIsRejectedWhileTheEnabledOneIsAccepted(KubeTestScope scope) {
    var xrdOff =
        urlModeOptions(
            scope.namespace(), "xrd-off", (o, a) -> o.withSupport(true, false).withAdmission(a));
    var probe = xrdConfig("probe-xrd-off", "probe.example.org");
    var second = AdmissionServer.start(client, xrdOff, Clock.systemUTC());
    try {
      awaitRefused(probe, "XRD conversion support is disabled");

      var rejected = apiserver.apply(xrdConfig(scope.name("xr"), scope.name("x") + ".example.org"));
      var accepted = apiserver.apply(crdConfig(scope.name("cr"), "things." + scope.apiGroup()));

      assertDenied(
          rejected,
          XRD_CONFIG_WEBHOOK,
          "XRDConversionConfig/"
              + scope.name("xr")
              + ": XRD conversion support is disabled on this installation"
              + " (--enable-xrd-support=false); enable it before creating XRDConversionConfig"
              + " objects");
      assertThat(accepted.ok()).as(accepted.toString()).isTrue();
    } finally {
      retire(second, xrdOff, probe);
    }
  }

  @Test
  void aStructurallyBrokenConfigIsRejectedWithTheEngineDiagnostics(KubeTestScope scope) {
    var broken = crdConfig(scope.name("broken"), "things." + scope.apiGroup());
    ((ObjectNode) broken.path("spec")).put("unmappedFieldPolicy", "Warn");
    ((ObjectNode) broken.path("spec").path("spokes").get(0)).put("version", "v2");

    var rejected = apiserver.apply(broken);
    var accepted = apiserver.apply(crdConfig(scope.name("fine"), "others." + scope.apiGroup()));

    assertDenied(
        rejected,
        CONFIG_WEBHOOK,
        "CRDConversionConfig/" + scope.name("broken") + ": spec is invalid: 2 error(s): ");
    assertThat(rejected.message()).contains("UNMAPPED_REASON_REQUIRED").contains("SPOKE_IS_HUB");
    assertThat(accepted.ok()).as(accepted.toString()).isTrue();
  }

  @Test
  void aTargetIsKeyedAcrossBothConfigKinds(KubeTestScope scope) {
    var target = "gadgets." + scope.apiGroup();
    var first = apiserver.apply(crdConfig(scope.name("first"), target));

    var clash = apiserver.apply(xrdConfig(scope.name("second"), target));
    var self = apiserver.apply(crdConfig(scope.name("first"), target));

    assertThat(first.ok()).as(first.toString()).isTrue();
    assertDenied(
        clash,
        XRD_CONFIG_WEBHOOK,
        "XRDConversionConfig/"
            + scope.name("second")
            + ": spec.targetXRD.name '"
            + target
            + "' is already targeted by CRDConversionConfig/"
            + scope.name("first")
            + "; registry keys are the bare target name shared by CRDConversionConfig and"
            + " XRDConversionConfig objects");
    assertThat(self.ok()).as("re-applying the config itself: %s", self).isTrue();
  }

  @Test
  void aConfigCannotBeMovedToAnotherTarget(KubeTestScope scope) {
    var name = scope.name("mover");
    var first = apiserver.apply(crdConfig(name, "one." + scope.apiGroup()));

    var moved = apiserver.apply(crdConfig(name, "two." + scope.apiGroup()));
    var same = apiserver.apply(crdConfig(name, "one." + scope.apiGroup()));

    assertThat(first.ok()).as(first.toString()).isTrue();
    assertDenied(
        moved,
        CONFIG_WEBHOOK,
        "CRDConversionConfig/"
            + name
            + ": spec.targetCRD.name cannot change (from 'one."
            + scope.apiGroup()
            + "' to 'two."
            + scope.apiGroup()
            + "')");
    assertThat(same.ok()).as(same.toString()).isTrue();
  }

  @Test
  void aMissingServerAndAMissingTargetAreWarningsOnly(KubeTestScope scope) {
    var target = "widgets." + scope.apiGroup();
    var config = crdConfig(scope.name("warned"), target);
    ((ObjectNode) config.path("spec"))
        .putObject("webhookServerRef")
        .put("name", scope.name("nowhere"));

    var reply = apiserver.apply(config);

    assertThat(reply.ok()).as(reply.toString()).isTrue();
    assertThat(reply.warnings())
        .containsExactly(
            "CRDConversionConfig/"
                + scope.name("warned")
                + ": spec.webhookServerRef names ConversionWebhookServer '"
                + scope.name("nowhere")
                + "', which does not exist; the config will report Invalid until it does (create"
                + " the server or fix the reference)",
            "CRDConversionConfig/"
                + scope.name("warned")
                + ": CRD '"
                + target
                + "' does not exist, so live validation against its schema was skipped; the"
                + " config waits until it exists (check it offline first: versio analyze -c FILE"
                + " --crd DEFINITION.yaml)");
  }

  @Test
  void aConfigIsCompiledAgainstTheLiveCrd(KubeTestScope scope) throws IOException {
    var group = scope.apiGroup();
    var crd = (ObjectNode) FakeCluster.example("field-rename/crd.yaml");
    var target = "caches." + group;
    ((ObjectNode) crd.path("metadata")).put("name", target);
    ((ObjectNode) crd.path("spec")).put("group", group);
    installCrd(crd);
    var typo =
        retarget(FakeCluster.example("mistakes/typo-in-path.yaml"), scope.name("typo"), target);
    var good =
        retarget(FakeCluster.example("field-rename/config.yaml"), scope.name("good"), target);

    var rejected = apiserver.apply(typo);
    var accepted = apiserver.apply(good);

    assertDenied(
        rejected,
        CONFIG_WEBHOOK,
        "CRDConversionConfig/"
            + scope.name("typo")
            + ": configuration is invalid against the live CRD schema of "
            + target
            + ": 2 error(s): ERROR PATH_NOT_FOUND spoke v1 rules[0]");
    assertThat(accepted.ok()).as(accepted.toString()).isTrue();
    assertThat(accepted.warnings()).isEmpty();
  }

  @Test
  void aWhenGatedRuleThatDropsFieldsOnTheObjectsItSkipsIsDeniedUntilAcknowledged(
      KubeTestScope scope) {
    var group = scope.apiGroup();
    var crd = (ObjectNode) FakeCluster.example("kitchen-sink/crd.yaml");
    // a kind of its own: other tests of this class put their gadgets in the same group
    var target = "whengadgets." + group;
    ((ObjectNode) crd.path("metadata")).put("name", target);
    ((ObjectNode) crd.path("spec")).put("group", group);
    ((ObjectNode) crd.path("spec"))
        .putObject("names")
        .put("kind", "WhenGadget")
        .put("listKind", "WhenGadgetList")
        .put("plural", "whengadgets")
        .put("singular", "whengadget");
    installCrd(crd);
    var acknowledged =
        retarget(FakeCluster.example("kitchen-sink/config.yaml"), scope.name("ack"), target);
    var unacknowledged = acknowledged.deepCopy();
    ((ObjectNode) unacknowledged.path("metadata")).put("name", scope.name("unack"));
    for (var spoke : unacknowledged.path("spec").path("spokes")) {
      for (var rule : spoke.path("rules")) {
        if (rule.has("when")) {
          ((ObjectNode) rule).remove(java.util.List.of("acknowledgeLossy", "reason"));
        }
      }
    }

    var rejected = apiserver.apply(unacknowledged);

    assertThat(rejected.code()).as(rejected.toString()).isEqualTo(403);
    assertThat(rejected.message())
        .contains("LOSSY_NOT_ACKNOWLEDGED")
        .contains("on objects where spec.plan is not \"enterprise\" the rule does not run");
    var accepted = apiserver.apply(acknowledged);
    assertThat(accepted.ok()).as(accepted.toString()).isTrue();
  }

  @Test
  void anXrdConfigIsCompiledAgainstTheLiveXrdOnceCrossplanesApiExists(KubeTestScope scope)
      throws IOException {
    var group = scope.apiGroup();
    var xrd = (ObjectNode) FakeCluster.example("crossplane-xr/xrd.yaml");
    var target = "postgresinstances." + group;
    ((ObjectNode) xrd.path("metadata")).put("name", target);
    ((ObjectNode) xrd.path("spec")).put("group", group);
    var good = retarget(FakeCluster.example("crossplane-xr/config.yaml"), scope.name("pg"), target);
    var broken = good.deepCopy();
    ((ObjectNode) broken.path("spec")).put("hubVersion", "v9");

    var beforeApi = apiserver.apply(good);
    CrossplaneStandIn.installXrdApi(client);
    client
        .resource(Serialization.unmarshal(xrd.toString(), GenericKubernetesResource.class))
        .serverSideApply();
    var rejected = apiserver.apply(broken);
    var accepted = apiserver.apply(good);

    assertThat(beforeApi.ok()).as(beforeApi.toString()).isTrue();
    assertThat(beforeApi.warnings())
        .singleElement()
        .asString()
        .contains(
            "XRD '"
                + target
                + "' does not exist, so live validation against its schema was skipped");
    assertDenied(
        rejected,
        XRD_CONFIG_WEBHOOK,
        "XRDConversionConfig/"
            + scope.name("pg")
            + ": configuration is invalid against the live XRD schema of "
            + target
            + ": ");
    assertThat(rejected.message()).contains("HUB_NOT_FOUND");
    assertThat(accepted.ok()).as(accepted.toString()).isTrue();
  }

  @Test
  void deletingAConfigIsAlwaysAllowed(KubeTestScope scope) {
    var created = apiserver.apply(crdConfig(scope.name("gone"), "gone." + scope.apiGroup()));

    var deleted = apiserver.delete("CRDConversionConfig", scope.name("gone"));

    assertThat(created.ok()).as(created.toString()).isTrue();
    assertThat(deleted.ok()).as(deleted.toString()).isTrue();
  }

  // ---------------------------------------------------------------- server rules

  @Test
  void extraArgsMayNotSetAManagedFlag(KubeTestScope scope) {
    var rejected = serverObject(scope.name("args"));
    ((ObjectNode) rejected.path("spec")).putArray("extraArgs").add("-bind-address").add("0.0.0.0");
    var accepted = serverObject(scope.name("args"));
    ((ObjectNode) accepted.path("spec")).putArray("extraArgs").add("--max-body-bytes=2048");

    var refused = apiserver.apply(rejected);
    var fine = apiserver.apply(accepted);

    try {
      assertDenied(
          refused,
          SERVER_WEBHOOK,
          "ConversionWebhookServer/"
              + scope.name("args")
              + ": spec.extraArgs[0] '-bind-address' sets --bind-address, which the operator"
              + " manages");
      assertThat(fine.ok()).as(fine.toString()).isTrue();
    } finally {
      forceDelete(scope.name("args"));
    }
  }

  @Test
  void onlyOneServerMayBeDefault(KubeTestScope scope) {
    var first = apiserver.apply(defaultServerObject(scope.name("def-a")));
    try {
      var second = apiserver.apply(defaultServerObject(scope.name("def-b")));
      var again = apiserver.apply(defaultServerObject(scope.name("def-a")));

      assertThat(first.ok()).as(first.toString()).isTrue();
      assertDenied(
          second,
          SERVER_WEBHOOK,
          "ConversionWebhookServer/"
              + scope.name("def-b")
              + ": spec.default is true, but ConversionWebhookServer/"
              + scope.name("def-a")
              + " is already the default; only one server may be default at a time");
      assertThat(again.ok()).as("updating the default itself: %s", again).isTrue();
    } finally {
      forceDelete(scope.name("def-a"));
      forceDelete(scope.name("def-b"));
    }
  }

  @Test
  void aShardingPoolMustIncludeTheDefaultServer(KubeTestScope scope) {
    var main = scope.name("main");
    var extra = scope.name("extra");
    var pooledExtra = serverObject(extra);
    ((ObjectNode) pooledExtra.path("spec")).putObject("sharding");
    var pooledMain = defaultServerObject(main);
    ((ObjectNode) pooledMain.path("spec")).putObject("sharding");
    try {
      assertThat(apiserver.apply(defaultServerObject(main)).ok()).isTrue();

      var outOfOrder = apiserver.apply(pooledExtra);
      var defaultFirst = apiserver.apply(pooledMain);
      var thenOthers = apiserver.apply(pooledExtra);

      assertDenied(
          outOfOrder,
          SERVER_WEBHOOK,
          "ConversionWebhookServer/"
              + extra
              + ": spec.sharding would make the sharding pool ("
              + extra
              + ") exist while the default server ConversionWebhookServer/"
              + main
              + " is not a member; while a pool exists the default must be in it: enable sharding"
              + " on "
              + main
              + " first");
      assertThat(defaultFirst.ok()).as(defaultFirst.toString()).isTrue();
      assertThat(thenOthers.ok()).as(thenOthers.toString()).isTrue();
    } finally {
      forceDelete(extra);
      forceDelete(main);
    }
  }

  @Test
  void urlModeNeedsACaBundleAndAWeightMustBePositive(KubeTestScope scope) {
    var name = scope.name("url");
    var noCa = serverObject(name);
    ((ObjectNode) noCa.path("spec")).put("url", "https://127.0.0.1:1");
    var zeroWeight = serverObject(name);
    ((ObjectNode) zeroWeight.path("spec")).putObject("sharding").put("weight", 0);
    var good = serverObject(name);
    ((ObjectNode) good.path("spec"))
        .put("url", "https://127.0.0.1:1")
        .put(
            "caBundle",
            Base64.getEncoder()
                .encodeToString(
                    SelfSignedCa.issue(
                            "it", List.of("127.0.0.1"), Instant.now(), Duration.ofDays(1))
                        .caBundlePem()
                        .getBytes(StandardCharsets.US_ASCII)));
    try {
      var missingCa = apiserver.apply(noCa);
      var badWeight = apiserver.apply(zeroWeight);
      var accepted = apiserver.apply(good);

      assertDenied(
          missingCa,
          SERVER_WEBHOOK,
          "ConversionWebhookServer/"
              + name
              + ": spec.url is set but spec.caBundle is empty; URL mode needs the CA");
      assertDenied(
          badWeight,
          SERVER_WEBHOOK,
          "ConversionWebhookServer/" + name + ": spec.sharding.weight must be a positive number");
      assertThat(accepted.ok()).as(accepted.toString()).isTrue();
    } finally {
      forceDelete(name);
    }
  }

  @Test
  void aServerStillServingConfigsIsKeptUnlessForceDeleted(KubeTestScope scope) {
    var name = scope.name("busy");
    assertThat(apiserver.apply(serverObject(name)).ok()).isTrue();
    for (var config : List.of("b-pinned", "a-pinned")) {
      var c = crdConfig(scope.name(config), scope.name(config) + "." + scope.apiGroup());
      ((ObjectNode) c.path("spec")).putObject("webhookServerRef").put("name", name);
      assertThat(apiserver.apply(c).ok()).isTrue();
    }

    var refused = apiserver.delete("ConversionWebhookServer", name);
    client
        .resources(ConversionWebhookServer.class)
        .withName(name)
        .edit(
            s -> {
              s.getMetadata()
                  .setAnnotations(Map.of(ServerValidator.FORCE_DELETE_ANNOTATION, "true"));
              return s;
            });
    var forced = apiserver.delete("ConversionWebhookServer", name);

    assertDenied(
        refused,
        SERVER_WEBHOOK,
        "ConversionWebhookServer/"
            + name
            + ": cannot be deleted while 2 config(s) are served by it: CRDConversionConfig/"
            + scope.name("a-pinned")
            + ", CRDConversionConfig/"
            + scope.name("b-pinned")
            + "; move them first");
    assertThat(refused.message())
        .endsWith(
            "kubectl annotate conversionwebhookserver "
                + name
                + " versio.dev/allow-force-delete=true");
    assertThat(forced.ok()).as(forced.toString()).isTrue();
    assertThat(forced.warnings()).singleElement().asString().contains("allow-force-delete=true");
  }

  @Test
  void deletingTheDefaultServerSaysItIsTheDefault(KubeTestScope scope) {
    var name = scope.name("fallback");
    assertThat(apiserver.apply(defaultServerObject(name)).ok()).isTrue();
    assertThat(
            apiserver.apply(crdConfig(scope.name("unpinned"), "unpinned." + scope.apiGroup())).ok())
        .isTrue();
    try {
      var refused = apiserver.delete("ConversionWebhookServer", name);

      assertDenied(
          refused,
          SERVER_WEBHOOK,
          "ConversionWebhookServer/" + name + ": cannot be deleted while ");
      assertThat(refused.message())
          .contains("(it is the DEFAULT server: every config without spec.webhookServerRef falls")
          .contains("mark another server default");
    } finally {
      forceDelete(name);
    }
  }

  @Test
  void aCheckThatCannotListTheClusterRejects(ControlPlane controlPlane, KubeTestScope scope) {
    var user = scope.name("limited");
    // may keep its Secret and webhook configuration and list servers, but not XRD configs
    client
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(user)
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("secrets")
                .withVerbs("get", "create", "update")
                .endRule()
                .addNewRule()
                .withApiGroups("admissionregistration.k8s.io")
                .withResources("validatingwebhookconfigurations")
                .withVerbs("get", "create", "update", "patch")
                .endRule()
                .addNewRule()
                .withApiGroups("versio.dev")
                .withResources("conversionwebhookservers", "crdconversionconfigs")
                .withVerbs("get", "list")
                .endRule()
                .build())
        .serverSideApply();
    client
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(user)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", user)
                .addNewSubject()
                .withKind("User")
                .withName(user)
                .withApiGroup("rbac.authorization.k8s.io")
                .endSubject()
                .build())
        .serverSideApply();
    var limitedOptions =
        urlModeOptions(scope.namespace(), "limited", OperatorOptions::withAdmission);
    var probe = crdConfig("probe-limited", "probe.example.com");
    try (var limited = controlPlane.clientAs(user)) {
      var second = AdmissionServer.start(limited, limitedOptions, Clock.systemUTC());
      try {
        awaitRefused(probe, "the admission check could not be made");

        var rejected = apiserver.apply(crdConfig(scope.name("blind"), "blind." + scope.apiGroup()));
        var accepted = apiserver.apply(serverObject(scope.name("plain")));

        assertDenied(
            rejected,
            CONFIG_WEBHOOK,
            "CRDConversionConfig/"
                + scope.name("blind")
                + ": the admission check could not be made: cannot list XRDConversionConfigs: ");
        assertThat(rejected.message()).contains("the request is refused (fail closed)");
        assertThat(accepted.ok()).as(accepted.toString()).isTrue();
      } finally {
        retire(second, limitedOptions, probe);
        forceDelete(scope.name("plain"));
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  /** Options for an admission server in URL mode on a free loopback port. */
  private static OperatorOptions urlModeOptions(
      String namespace,
      String name,
      BiFunction<OperatorOptions, OperatorOptions.Admission, OperatorOptions> with) {
    int port = LoopbackPorts.free();
    var admission =
        new OperatorOptions.Admission(
            port,
            URI.create("https://127.0.0.1:" + port),
            null,
            443,
            "versio-" + name + "-tls",
            "versio-" + name + "-" + namespace);
    return with.apply(
        OperatorOptions.defaults(namespace).toBuilder()
            .allowUrlMode(true)
            .targetGroups(java.util.List.of("*"))
            .build(),
        admission);
  }

  /**
   * Waits until a dry-run write of {@code probe} is refused with {@code fragment}: the apiserver
   * picks up a new webhook configuration through a watch, a moment after it is written.
   */
  private void awaitRefused(JsonNode probe, String fragment) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              var reply = apiserver.apply(probe, true);
              return reply.code() == 403 && reply.message().contains(fragment);
            });
  }

  /**
   * Removes a second admission server cleanly: its configuration first, then (once the apiserver no
   * longer calls it, so no write meets a closed port under failurePolicy Fail) the server.
   */
  private void retire(AdmissionServer second, OperatorOptions secondOptions, JsonNode probe) {
    try {
      deleteWebhookConfiguration(secondOptions.admission().webhookConfiguration());
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> apiserver.apply(probe, true).ok());
    } finally {
      second.close();
    }
  }

  private void deleteWebhookConfiguration(String name) {
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name).delete();
  }

  /** Deletes a server whatever still resolves to it (the annotation update is metadata-only). */
  private void forceDelete(String name) {
    var servers = client.resources(ConversionWebhookServer.class);
    if (servers.withName(name).get() == null) {
      return;
    }
    servers
        .withName(name)
        .edit(
            s -> {
              s.getMetadata()
                  .setAnnotations(Map.of(ServerValidator.FORCE_DELETE_ANNOTATION, "true"));
              return s;
            });
    servers.withName(name).delete();
  }

  private void installCrd(ObjectNode crd) {
    var parsed = Serialization.unmarshal(crd.toString(), CustomResourceDefinition.class);
    client.resource(parsed).forceConflicts().fieldManager("versio-it").serverSideApply();
    Crds.awaitEstablished(client, parsed.getMetadata().getName());
  }

  private static ObjectNode retarget(JsonNode config, String name, String target) {
    var copy = (ObjectNode) config.deepCopy();
    ((ObjectNode) copy.path("metadata")).removeAll().put("name", name);
    var spec = (ObjectNode) copy.path("spec");
    var field = spec.has("targetXRD") ? "targetXRD" : "targetCRD";
    spec.putObject(field).put("name", target);
    return copy;
  }

  private static ObjectNode crdConfig(String name, String target) {
    return config("CRDConversionConfig", "targetCRD", name, target);
  }

  private static ObjectNode xrdConfig(String name, String target) {
    return config("XRDConversionConfig", "targetXRD", name, target);
  }

  private static ObjectNode config(String kind, String targetField, String name, String target) {
    var node = FakeCluster.YAML.createObjectNode();
    node.put("apiVersion", "versio.dev/v1alpha1").put("kind", kind);
    node.putObject("metadata").put("name", name);
    var spec = node.putObject("spec");
    spec.putObject(targetField).put("name", target);
    spec.put("hubVersion", "v2");
    spec.putArray("spokes").addObject().put("version", "v1").putArray("rules");
    return node;
  }

  private static ObjectNode serverObject(String name) {
    var node = FakeCluster.YAML.createObjectNode();
    node.put("apiVersion", "versio.dev/v1alpha1").put("kind", "ConversionWebhookServer");
    node.putObject("metadata").put("name", name);
    node.putObject("spec");
    return node;
  }

  private static ObjectNode defaultServerObject(String name) {
    var node = serverObject(name);
    ((ObjectNode) node.path("spec")).put("default", true);
    return node;
  }

  private static void assertDenied(Apiserver.Reply reply, String webhook, String messageStart) {
    assertThat(reply.code()).as(reply.toString()).isEqualTo(403);
    assertThat(reply.message())
        .startsWith("admission webhook \"" + webhook + "\" denied the request: " + messageStart);
  }
}
