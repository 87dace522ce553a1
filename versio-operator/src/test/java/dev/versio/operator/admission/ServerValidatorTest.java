package dev.versio.operator.admission;

import static dev.versio.operator.admission.FakeCluster.crdConfig;
import static dev.versio.operator.admission.FakeCluster.defaultServer;
import static dev.versio.operator.admission.FakeCluster.poolMember;
import static dev.versio.operator.admission.FakeCluster.server;
import static dev.versio.operator.admission.FakeCluster.xrdConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import dev.versio.api.server.ConversionWebhookServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerValidatorTest {
  private static final String CA_BUNDLE =
      Base64.getEncoder()
          .encodeToString(
              "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
                  .getBytes(StandardCharsets.US_ASCII));

  private final ServerValidator validator = FakeCluster.SERVERS;
  private final FakeCluster cluster = new FakeCluster();

  private Verdict write(ConversionWebhookServer server) {
    return validator.validateWrite(server, cluster);
  }

  private Verdict delete(ConversionWebhookServer server) {
    return validator.validateDelete(server, cluster);
  }

  @Test
  void aServerAskingTheOperatorToRunWhatItsAuthorMayNotIsDeniedNamingEachField() {
    var server = FakeCluster.server("team-a");
    server.getSpec().namespace = "kube-system";
    server.getSpec().image = new dev.versio.api.server.ConversionWebhookServerSpec.Image();
    server.getSpec().image.repository = "evil.example/miner";

    var verdict = write(server);

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .startsWith("ConversionWebhookServer/team-a: spec.namespace 'kube-system'")
        .contains("spec.image.repository 'evil.example/miner' is not an allowed image repository");
  }

  @Test
  void aSmallMemoryLimitIsAdmittedWithAWarningThatSaysWhatToGiveIt() {
    var small = FakeCluster.server("main");
    small.getSpec().resources =
        new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
            .withLimits(
                java.util.Map.of("memory", new io.fabric8.kubernetes.api.model.Quantity("256Mi")))
            .build();

    var verdict = write(small);

    assertThat(verdict.allowed()).isTrue();
    assertThat(verdict.warnings())
        .singleElement()
        .asString()
        .contains("spec.resources.limits.memory (256 MiB) leaves the replicas a 64 MiB heap")
        .contains("give it 384Mi or more");

    small
        .getSpec()
        .resources
        .getLimits()
        .put("memory", new io.fabric8.kubernetes.api.model.Quantity("512Mi"));
    assertThat(write(small).warnings()).as("512Mi").isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "--server-name=other",
        "--tls-cert-dir",
        "--bind-address 0.0.0.0",
        "-conversion-port=9443",
        "-ops-port",
        "--config-selector=team=a"
      })
  void extraArgsNamingAManagedFlagInAnyFormAreRejected(String arg) {
    var s = server("s");
    s.getSpec().extraArgs = List.of("--max-body-bytes=100", arg);

    var verdict = write(s);

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .startsWith("ConversionWebhookServer/s: spec.extraArgs[1] '" + arg + "' sets --")
        .contains("which the operator manages")
        .endsWith("remove it and use the matching spec field instead");
  }

  @Test
  void extraArgsThatAreNotManagedFlagsAreAccepted() {
    var s = server("s");
    s.getSpec().extraArgs =
        List.of("--max-body-bytes=100", "--cert-reload-interval", "10s", "server-name", "--ops");

    assertThat(write(s)).isEqualTo(Verdict.allow());
  }

  @Test
  void theManagedFlagListIsTheOneTheDeploymentBuilderSets() {
    assertThat(ManagedFlags.FLAGS)
        .containsExactly(
            "--server-name",
            "--tls-cert-dir",
            "--bind-address",
            "--conversion-port",
            "--ops-port",
            "--config-selector");
    assertThat(ManagedFlags.named("--ops-port=1")).hasValue("--ops-port");
    assertThat(ManagedFlags.named("--ops-portal")).isEmpty();
  }

  @Test
  void urlModeWithoutACaBundleIsRejected() {
    var s = server("s");
    s.getSpec().url = "https://10.0.0.1:9443";

    assertThat(write(s).message())
        .isEqualTo(
            "ConversionWebhookServer/s: spec.url is set but spec.caBundle is empty; URL mode needs"
                + " the CA that signed the server's certificate so the apiserver can verify it: set"
                + " spec.caBundle to the base64 of that CA's PEM");
    s.getSpec().caBundle = "not base64!";
    assertThat(write(s).message()).contains("spec.caBundle is not the base64 of a PEM certificate");
    s.getSpec().caBundle = CA_BUNDLE;
    assertThat(write(s).allowed()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY})
  void aShardingWeightThatIsNotPositiveIsRejected(double weight) {
    var s = poolMember(defaultServer("s"));
    s.getSpec().sharding.weight = weight;

    assertThat(write(s).message())
        .startsWith("ConversionWebhookServer/s: spec.sharding.weight must be a positive number")
        .endsWith("set a value above 0 or remove it for the default of 1");
  }

  @Test
  void aPositiveShardingWeightIsAccepted() {
    var s = poolMember(defaultServer("s"));
    s.getSpec().sharding.weight = 2.5;

    assertThat(write(s).allowed()).isTrue();
  }

  @Test
  void aSecondDefaultServerIsRejectedNamingTheCurrentOne() {
    cluster.with(defaultServer("first"), server("other"));

    var verdict = write(defaultServer("second"));

    assertThat(verdict.message())
        .isEqualTo(
            "ConversionWebhookServer/second: spec.default is true, but"
                + " ConversionWebhookServer/first is already the default; only one server may be"
                + " default at a time: set spec.default: false on ConversionWebhookServer/first"
                + " first, or leave second non-default");
  }

  @Test
  void theCurrentDefaultServerMayBeUpdated() {
    cluster.with(defaultServer("first"));

    assertThat(write(defaultServer("first")).allowed()).isTrue();
  }

  @Test
  void joiningAPoolWhileTheDefaultIsOutsideItIsRejectedWithTheRolloutOrder() {
    cluster.with(defaultServer("main"));

    var verdict = write(poolMember(server("extra")));

    assertThat(verdict.message())
        .isEqualTo(
            "ConversionWebhookServer/extra: spec.sharding would make the sharding pool (extra)"
                + " exist while the default server ConversionWebhookServer/main is not a member;"
                + " while a pool exists the default must be in it: enable sharding on main first"
                + " (spec.sharding: {} — a pool of one moves nothing), then add extra");
  }

  @Test
  void theRolloutEnablesShardingOnTheDefaultFirstThenAddsOthers() {
    cluster.with(defaultServer("main"));
    var main = poolMember(defaultServer("main"));

    assertThat(write(main).allowed()).isTrue();
    cluster.servers.set(0, main);
    assertThat(write(poolMember(server("extra"))).allowed()).isTrue();
  }

  @Test
  void theDefaultLeavingAnExistingPoolIsRejected() {
    cluster.with(poolMember(defaultServer("main")), poolMember(server("extra")));
    var main = poolMember(defaultServer("main"));
    main.getSpec().sharding.enabled = false;

    assertThat(write(main).message())
        .startsWith(
            "ConversionWebhookServer/main: it is the default server but not in the sharding pool"
                + " (extra); while a pool exists the default must be a member: add"
                + " spec.sharding: {} to main");
  }

  @Test
  void becomingTheDefaultOutsideAnExistingPoolIsRejected() {
    cluster.with(poolMember(server("a")), server("b"));

    assertThat(write(defaultServer("b")).message())
        .contains("it is the default server but not in the sharding pool (a)");
  }

  @Test
  void aPoolWithoutAnyDefaultServerIsAccepted() {
    cluster.with(poolMember(server("a")));

    assertThat(write(poolMember(server("b"))).allowed()).isTrue();
  }

  @Test
  void aServerWithoutConfigsMayBeDeleted() {
    cluster.with(defaultServer("main"), server("idle"));
    cluster.crdConfigs.add(crdConfig("c", "c.example.com", null));

    assertThat(delete(server("idle"))).isEqualTo(Verdict.allow());
  }

  @Test
  void aServerThatATargetStillSendsItsConversionsToCannotBeDeletedUntilTheMoveCompletes()
      throws Exception {
    var old = server("old");
    cluster.with(defaultServer("main"), old);
    cluster.crdConfigs.add(crdConfig("c", "c.example.com", "main"));
    cluster.crds.put(
        "c.example.com",
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(
                "{\"spec\": {\"conversion\": {\"strategy\": \"Webhook\", \"webhook\":"
                    + " {\"clientConfig\": {\"service\": {\"name\": \"old-webhook-server\"}}}}}}"));

    var verdict = delete(old);

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.message())
        .contains("1 target(s) still send their conversions to it")
        .contains("c.example.com");
  }

  @Test
  void deletingTheDefaultServerWhileConfigsFallBackToItIsRejectedListingThem() {
    var main = defaultServer("main");
    cluster.with(main, server("other"));
    cluster.crdConfigs.add(crdConfig("b-config", "b.example.com", null));
    cluster.xrdConfigs.add(xrdConfig("a-config", "a.example.org", null));
    cluster.crdConfigs.add(crdConfig("pinned", "p.example.com", "other"));

    var verdict = delete(main);

    assertThat(verdict.message())
        .isEqualTo(
            "ConversionWebhookServer/main: cannot be deleted while 2 config(s) are served by it"
                + " (it is the DEFAULT server: every config without spec.webhookServerRef falls"
                + " back to it when there is no sharding pool): CRDConversionConfig/b-config,"
                + " XRDConversionConfig/a-config; move them first (mark another server default,"
                + " point spec.webhookServerRef elsewhere, or delete the configs), or annotate the"
                + " server to delete it anyway: kubectl annotate conversionwebhookserver main"
                + " versio.dev/allow-force-delete=true");
  }

  @Test
  void deletingAPoolMemberThatStillWinsTargetsSaysToTakeItOutOfThePoolFirst() {
    var main = poolMember(defaultServer("main"));
    var extra = poolMember(server("extra"));
    extra.getSpec().sharding.weight = 1e9; // wins every target
    cluster.with(main, extra);
    cluster.crdConfigs.add(crdConfig("c", "c.example.com", null));

    assertThat(delete(extra).message())
        .contains("while 1 config(s) are served by it: CRDConversionConfig/c")
        .contains(
            "move them first (take it out of the sharding pool (remove spec.sharding) and wait"
                + " until its targets are Applied elsewhere, point spec.webhookServerRef");
  }

  @Test
  void deletingAServerWithManyPinnedConfigsNamesTheFirstTenSorted() {
    var s = server("s");
    cluster.with(s);
    for (int i = 0; i < 13; i++) {
      cluster.crdConfigs.add(crdConfig("c" + (char) ('a' + i), "t" + i + ".example.com", "s"));
    }

    var message = delete(s).message();

    assertThat(message)
        .contains("while 13 config(s) are served by it: CRDConversionConfig/ca,")
        .contains("CRDConversionConfig/cj, and 3 more; move them first")
        .doesNotContain("DEFAULT")
        .doesNotContain("CRDConversionConfig/ck");
  }

  @Test
  void aServerIsGuardedOnlyForTheTargetsTheSharedResolverGivesIt() {
    var a = poolMember(defaultServer("a"));
    var b = poolMember(server("b"));
    cluster.with(a, b);
    var held = new ArrayList<String>();
    for (int i = 0; i < 40; i++) {
      var config = crdConfig("c" + i, "t" + i + ".example.com", null);
      cluster.crdConfigs.add(config);
      if (AssignmentResolver.resolve(
              null, config.getSpec().targetName(), List.of(ServerView.of(a), ServerView.of(b)))
          .isTo("b")) {
        held.add(config.getMetadata().getName());
      }
    }
    assertThat(held).isNotEmpty().hasSizeLessThan(40);

    assertThat(delete(b).message()).contains("while " + held.size() + " config(s)");
  }

  @Test
  void theForceDeleteAnnotationLetsAServerGoWithAWarning() {
    var main = defaultServer("main");
    main.getMetadata().setAnnotations(Map.of("versio.dev/allow-force-delete", "true"));
    cluster.with(main);
    cluster.crdConfigs.add(crdConfig("c", "c.example.com", null));
    cluster.failing.add("*");

    var verdict = delete(main);

    assertThat(verdict.allowed()).isTrue();
    assertThat(verdict.warnings()).singleElement().asString().contains("allow-force-delete=true");
  }

  @Test
  void aForceDeleteAnnotationOtherThanTrueDoesNotCount() {
    var main = defaultServer("main");
    main.getMetadata().setAnnotations(Map.of("versio.dev/allow-force-delete", "yes"));
    cluster.with(main);
    cluster.crdConfigs.add(crdConfig("c", "c.example.com", null));

    assertThat(delete(main).allowed()).isFalse();
  }

  @Test
  void aDeleteWhoseConfigsCannotBeListedFails() {
    cluster.with(defaultServer("main"));
    cluster.failing.add("list CRDConversionConfigs");

    assertThatThrownBy(() -> delete(defaultServer("main")))
        .isInstanceOf(ClusterView.Unavailable.class);
  }
}
