package dev.versio.operator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerSpecPolicyTest {
  private static final String OPERATOR_NS = "versio-system";
  private final ServerSpecPolicy strict =
      new ServerSpecPolicy(
          OPERATOR_NS,
          Set.of(),
          List.of("ghcr.io/acme/versio"),
          Set.of(),
          "versio-operator",
          false);

  private static ConversionWebhookServer server() {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName("team-a").build());
    server.setSpec(new ConversionWebhookServerSpec());
    return server;
  }

  @Test
  void aServerThatAsksForNothingSpecialIsRun() {
    assertThat(strict.refusals(server())).isEmpty();
  }

  @Test
  void theOperatorsOwnServiceAccountIsRefusedWhateverTheAllowList() {
    var server = server();
    server.getSpec().serviceAccountName = "versio-operator";

    assertThat(strict.refusals(server))
        .singleElement()
        .asString()
        .contains("spec.serviceAccountName 'versio-operator' is the operator's own ServiceAccount")
        .contains("remove the field");
    assertThatThrownBy(
            () ->
                new ServerSpecPolicy(
                    OPERATOR_NS,
                    Set.of(),
                    List.of("versio"),
                    Set.of("versio-system/versio-operator"),
                    "versio-operator",
                    false))
        .hasMessageContaining("names the operator's own ServiceAccount");
  }

  @Test
  void aServiceAccountTheOperatorDoesNotMakeRunsOnlyWhenTheAdminAllowedIt() {
    var server = server();
    server.getSpec().serviceAccountName = "cluster-reader";

    assertThat(strict.refusals(server))
        .singleElement()
        .asString()
        .contains("'cluster-reader' (versio-system/cluster-reader) is not a ServiceAccount")
        .contains("--webhook-server-service-accounts");
    var allowing =
        new ServerSpecPolicy(
            OPERATOR_NS,
            Set.of(),
            List.of("versio"),
            Set.of("versio-system/cluster-reader"),
            "versio-operator",
            false);
    assertThat(allowing.refusals(server)).isEmpty();
  }

  @Test
  void anImageOutsideTheAllowedRepositoriesIsRefusedAndNoImageRunsTheOperatorsOwn() {
    var server = server();
    server.getSpec().image = new ConversionWebhookServerSpec.Image();
    server.getSpec().image.repository = "evil.example/miner";

    assertThat(strict.refusals(server))
        .singleElement()
        .asString()
        .contains("spec.image.repository 'evil.example/miner' is not an allowed image repository")
        .contains("(ghcr.io/acme/versio)");
    server.getSpec().image.repository = "ghcr.io/acme/versio";
    assertThat(strict.refusals(server)).isEmpty();
    server.getSpec().image.repository = "ghcr.io/acme/versio-evil";
    assertThat(strict.refusals(server)).hasSize(1);

    var prefix =
        new ServerSpecPolicy(
            OPERATOR_NS, Set.of(), List.of("ghcr.io/acme/"), Set.of(), null, false);
    assertThat(prefix.refusals(server)).isEmpty();
    server.getSpec().image.repository = "ghcr.io/acmes/versio";
    assertThat(prefix.refusals(server)).hasSize(1);
  }

  @ParameterizedTest
  @CsvSource({
    "versio:latest, versio",
    "ghcr.io/acme/versio:1.0, ghcr.io/acme/versio",
    "localhost:5000/versio, localhost:5000/versio",
    "localhost:5000/versio:2, localhost:5000/versio",
    "ghcr.io/acme/versio@sha256:0123, ghcr.io/acme/versio",
    "ghcr.io/acme/versio:1.0@sha256:0123, ghcr.io/acme/versio"
  })
  void theDefaultAllowListIsTheRepositoryOfTheOperatorsImage(String image, String repository) {
    assertThat(ServerSpecPolicy.repositoryOf(image)).isEqualTo(repository);
    assertThat(ServerSpecPolicy.strict(OPERATOR_NS, image).imageRepositories())
        .containsExactly(repository);
  }

  @Test
  void childrenLiveOnlyInTheOperatorsNamespaceOrOneTheAdminAllowed() {
    var server = server();
    server.getSpec().namespace = "kube-system";

    assertThat(strict.refusals(server))
        .singleElement()
        .asString()
        .contains("spec.namespace 'kube-system' is not a namespace the operator runs servers in")
        .contains("(versio-system)");
    var teams =
        new ServerSpecPolicy(
            OPERATOR_NS, Set.of("team-b", "team-a"), List.of("versio"), Set.of(), null, false);
    assertThat(teams.childNamespaces()).containsExactly("versio-system", "team-a", "team-b");
    server.getSpec().namespace = "team-b";
    assertThat(teams.refusals(server)).isEmpty();
    var any =
        new ServerSpecPolicy(
            OPERATOR_NS, Set.of(ServerSpecPolicy.ANY), List.of("versio"), Set.of(), null, false);
    assertThat(any.anyNamespace()).isTrue();
    assertThat(any.childNamespaces()).isEmpty();
    server.getSpec().namespace = "kube-system";
    assertThat(any.refusals(server)).isEmpty();
  }

  @Test
  void volumesThatReadSecretsOrTheNodeAreRefusedAndHarmlessOnesRun() {
    var server = server();
    server.getSpec().extraVolumes =
        List.of(
            new VolumeBuilder().withName("scratch").withNewEmptyDir().endEmptyDir().build(),
            new VolumeBuilder()
                .withName("cfg")
                .withNewConfigMap()
                .withName("c")
                .endConfigMap()
                .build(),
            new VolumeBuilder()
                .withName("token")
                .withNewProjected()
                .addNewSource()
                .withNewServiceAccountToken()
                .withAudience("vault")
                .withPath("t")
                .endServiceAccountToken()
                .endSource()
                .endProjected()
                .build());
    assertThat(strict.refusals(server)).isEmpty();

    server.getSpec().extraVolumes =
        List.of(
            new VolumeBuilder()
                .withName("root")
                .withNewHostPath()
                .withPath("/")
                .endHostPath()
                .build(),
            new VolumeBuilder()
                .withName("keys")
                .withNewSecret()
                .withSecretName("versio-operator-admission-tls")
                .endSecret()
                .build(),
            new VolumeBuilder()
                .withName("mixed")
                .withNewProjected()
                .addNewSource()
                .withNewSecret()
                .withName("db-password")
                .endSecret()
                .endSource()
                .endProjected()
                .build());
    assertThat(strict.refusals(server))
        .satisfiesExactly(
            root -> assertThat(root).startsWith("spec.extraVolumes[0] (root) is of type hostPath"),
            keys -> assertThat(keys).startsWith("spec.extraVolumes[1] (keys) is of type secret"),
            mixed ->
                assertThat(mixed)
                    .startsWith("spec.extraVolumes[2] (mixed) projected source is of type secret"));
  }

  @Test
  void anEnvironmentVariableThatReadsASecretIsRefused() {
    var server = server();
    server.getSpec().extraEnv =
        List.of(
            new EnvVarBuilder().withName("LEVEL").withValue("debug").build(),
            new EnvVarBuilder()
                .withName("TOKEN")
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName("cloud-credentials")
                .withKey("token")
                .endSecretKeyRef()
                .endValueFrom()
                .build());

    assertThat(strict.refusals(server))
        .singleElement()
        .asString()
        .startsWith("spec.extraEnv[1] (TOKEN) reads Secret 'cloud-credentials'");
  }

  @Test
  void urlModeIsRefusedUnlessTurnedOnAndThenNothingElseIsCheckedForARunsNothingServer() {
    var server = server();
    server.getSpec().url = "https://10.0.0.1:6443";
    server.getSpec().namespace = "kube-system";
    server.getSpec().serviceAccountName = "versio-operator";

    assertThat(strict.refusals(server))
        .singleElement()
        .asString()
        .startsWith("spec.url is set, but URL mode is off on this operator")
        .contains("--allow-url-mode");
    var development =
        new ServerSpecPolicy(OPERATOR_NS, Set.of(), List.of("versio"), Set.of(), null, true);
    assertThat(development.refusals(server)).isEmpty();
  }

  @Test
  void everyBrokenRuleIsNamedAtOnce() {
    var server = server();
    server.getSpec().namespace = "kube-system";
    server.getSpec().serviceAccountName = "admin";
    server.getSpec().image = new ConversionWebhookServerSpec.Image();
    server.getSpec().image.repository = "x";

    assertThat(strict.refusals(server)).hasSize(3);
  }
}
