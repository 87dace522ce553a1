package dev.versio.cli.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.cli.CliContractIT;
import dev.versio.cli.VersioCommand;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.stories.CrossplaneStandIn;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code versio status} against a real apiserver, with a move of a target in progress. */
@KubeApiServerTest
class StatusCommandIT {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  /** Writes a config's status as the operator would while it holds a move to {@code to}. */
  private static void statusOfAHeldMove(KubernetesClient client, String config, String to) {
    var live =
        client.resources(dev.versio.api.config.CRDConversionConfig.class).withName(config).get();
    var status = new ConversionConfigStatus();
    status.phase = "Stale";
    status.assignedWebhookServer = to;
    status.conditions.add(
        new ConditionBuilder()
            .withType("HandoverReady")
            .withStatus("False")
            .withReason("Waiting")
            .withMessage("move of the target to " + to + ": waiting")
            .withLastTransitionTime("2026-12-01T00:00:00Z")
            .build());
    live.setStatus(status);
    client.resource(live).updateStatus();
  }

  @Test
  void eachTargetShowsItsPhaseItsServerTheServerTheCrdNamesWhoServesItAndTheMove(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope) throws Exception {
    Crds.applyVersioCrds(client);
    var from = scope.name("from");
    var to = scope.name("to");
    var fromUrl = "https://127.0.0.1:40001";
    client.resource(Widgets.urlServer(from, fromUrl, "Cg==")).serverSideApply();
    client.resource(Widgets.urlServer(to, "https://127.0.0.1:40002", "Cg==")).serverSideApply();
    var crd = Widgets.crd(scope.apiGroup(), "widgets", "Widget");
    crd.getSpec().getVersions().stream()
        .filter(v -> v.getName().equals("v1"))
        .forEach(v -> v.setDeprecated(true)); // on its way out: the next step is to stop serving it
    crd.getSpec()
        .setConversion(
            new io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversionBuilder()
                .withStrategy("Webhook")
                .withNewWebhook()
                .withConversionReviewVersions("v1")
                .withNewClientConfig()
                .withUrl(fromUrl + "/convert/widgets." + scope.apiGroup())
                .withCaBundle("Cg==")
                .endClientConfig()
                .endWebhook()
                .build());
    client.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    var config = scope.name("moving");
    client.resource(Widgets.renameConfig(config, target, to)).create();
    statusOfAHeldMove(client, config, to);
    var reviewedAt = java.time.Instant.now().minusSeconds(120).truncatedTo(ChronoUnit.SECONDS);
    var since = reviewedAt.minusSeconds(86_400);
    client
        .leases()
        .inNamespace(scope.namespace())
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName("versio-served-" + to + "-0")
                .withLabels(
                    Map.of(
                        ServedTargetsCodec.SERVER_LABEL,
                        to,
                        ServedTargetsCodec.REPLICA_LABEL,
                        to + "-0"))
                .withAnnotations(ServedTargetsCodec.encode(List.of(target)).getFirst())
                // the replica saw a review at v1 two minutes ago, and has been recording for a day
                .addToAnnotations(
                    dev.versio.api.served.VersionsSeenCodec.annotations(
                        Map.of(target, Map.of("v1", reviewedAt.getEpochSecond())), since))
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity(to + "-0")
                .withLeaseDurationSeconds(90)
                .withRenewTime(ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS))
                .endSpec()
                .build())
        .create();
    var kubeconfig = controlPlane.kubeconfig().toString();

    assertThat(run("status", "--kubeconfig", kubeconfig, "-o", "json")).as("%s", err).isZero();
    var report = new ObjectMapper().readTree(out.toString());
    CliContractIT.assertDocumented(
        "status", report, CliContractIT.documentedFields().get("status"));
    var row =
        report
            .path("targets")
            .valueStream()
            .filter(t -> t.path("target").asText().equals(target))
            .findFirst()
            .orElseThrow();
    assertThat(row.path("config").asText()).isEqualTo("crd/" + config);
    assertThat(row.path("assignedServer").asText()).isEqualTo(to);
    assertThat(row.path("namedServer").asText()).isEqualTo(from);
    assertThat(row.path("moving").asBoolean()).isTrue();
    assertThat(row.path("servedBy").get(0).asText()).isEqualTo(to + "/" + to + "-0");
    assertThat(row.path("handover").path("reason").asText()).isEqualTo("Waiting");
    assertThat(row.path("versions").valueStream().map(v -> v.path("name").asText()))
        .containsExactlyInAnyOrder("v1", "v2");
    assertThat(row.path("nextStep").path("step").asText()).isEqualTo("StopServing");
    assertThat(row.path("nextStep").path("version").asText()).isEqualTo("v1");
    assertThat(row.path("nextStep").path("message").asText())
        .contains("a review touched v1 at " + reviewedAt)
        .contains("a client still reads or writes it");
    assertThat(row.path("reviewsSeenSince").asText()).isEqualTo(since.toString());
    assertThat(
            row.path("versions")
                .valueStream()
                .filter(v -> v.path("name").asText().equals("v1"))
                .findFirst()
                .orElseThrow()
                .path("lastReviewedAt")
                .asText())
        .isEqualTo(reviewedAt.toString());

    out.getBuffer().setLength(0);
    assertThat(run("status", "--kubeconfig", kubeconfig)).isZero();
    assertThat(out.toString()).contains("moving: " + from + " -> " + to + " (Waiting)");
    assertThat(out.toString()).contains("next version step: v1 is deprecated");
    assertThat(out.toString().lines().filter(l -> l.length() > 100)).isEmpty();
  }

  @Test
  void anXrdTargetShowsItsVersionsWithWhatItsGeneratedCrdsStoreAndTheStepToReStoreBoth(
      KubernetesClient client, ControlPlane controlPlane, KubeTestScope scope) throws Exception {
    Crds.applyVersioCrds(client);
    CrossplaneStandIn.installXrdApi(client);
    var group = scope.apiGroup();
    var xrdName = "xwidgets." + group;
    // the CRDs Crossplane generated while v1 was referenceable, then from the XRD promoting v2
    for (var referenceable : List.of("v1", "v2")) {
      CrossplaneStandIn.applyWithGeneratedCrds(client, Widgets.xrd(group, referenceable));
    }
    var config = scope.name("xrd");
    client.resource(Widgets.xrdRenameConfig(config, xrdName, null)).create();

    assertThat(run("status", "--kubeconfig", controlPlane.kubeconfig().toString(), "-o", "json"))
        .as("%s", err)
        .isZero();
    var row =
        new ObjectMapper()
            .readTree(out.toString())
            .path("targets")
            .valueStream()
            .filter(t -> t.path("target").asText().equals(xrdName))
            .findFirst()
            .orElseThrow();

    assertThat(row.path("config").asText()).isEqualTo("xrd/" + config);
    assertThat(
            row.path("versions")
                .valueStream()
                .map(
                    v ->
                        v.path("name").asText()
                            + ":"
                            + v.path("storage").asBoolean()
                            + ":"
                            + v.path("stored").asBoolean()))
        .as("v2 referenceable, v1 still stored by the generated CRDs")
        .containsExactly("v1:false:true", "v2:true:true");
    assertThat(row.path("nextStep").path("step").asText()).isEqualTo("Restore");
    assertThat(row.path("nextStep").path("message").asText())
        .contains(
            "versio migrate-storage --crd-name "
                + xrdName
                + " and versio migrate-storage --crd-name widgetclaims."
                + group);
  }
}
