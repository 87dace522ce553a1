package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FailClosed revert that the apiserver refuses is reported as {@code RevertFailed}, the target
 * keeps its webhook, and the revert is retried until it succeeds — here the operator runs as a user
 * that may read CRDs but not patch them, until that permission is granted.
 */
@KubeApiServerTest(dedicated = true)
class RevertFailedIT {
  private static final String USER = "versio-operator-it";

  @Test
  void aRefusedRevertIsReportedAsRevertFailedAndRetriedUntilItSucceeds(
      KubernetesClient admin, ControlPlane controlPlane, @TempDir Path certDir) throws Exception {
    OperatorFixture.installVersioCrds(admin);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    var crd = OperatorFixture.widgetCrd("revert.example.test", "widgets", "Widget");
    admin.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(admin, target);
    var config = OperatorFixture.renameConfig("widgets", target, "revert");
    config.getSpec().driftPolicy = "FailClosed";
    grant(admin, "versio-operator-it-reads", readsAndStatus());

    try (var webhook =
        OperatorFixture.startWebhookServer(controlPlane.adminClient(), "revert", certDir)) {
      admin
          .resource(
              OperatorFixture.urlServer(
                  "revert", "https://127.0.0.1:" + webhook.conversionPort(), caBundle))
          .serverSideApply();
      // applied by an operator that may patch CRDs
      try (var operator =
          OperatorFixture.start(admin, OperatorFixture.options(), Clock.systemUTC())) {
        admin.resource(config).create();
        awaitConfig(admin, "widgets", phase("Applied"));
      }
      try (var restricted = controlPlane.clientAs(USER);
          var operator =
              VersioOperator.start(restricted, OperatorFixture.options(), Clock.systemUTC())) {
        // drift: v2 gains a field no rule covers
        admin
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName(target)
            .patch(
                PatchContext.of(PatchType.JSON),
                // the hub gains a field no rule covers, and v1 is no longer served (FailClosed
                // reverts only a target serving one version)
                "[{\"op\":\"add\",\"path\":\"/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/color\",\"value\":{\"type\":\"string\"}},"
                    + "{\"op\":\"replace\",\"path\":\"/spec/versions/0/served\",\"value\":false}]");

        var failed = awaitConfig(admin, "widgets", s -> appliedReason(s, "RevertFailed"));
        assertThat(failed.getStatus().phase).isEqualTo("Failed");
        assertThat(strategy(admin, target)).isEqualTo("Webhook");

        grant(
            admin,
            "versio-operator-it-patch-crds",
            List.of(
                new PolicyRuleBuilder()
                    .withApiGroups("apiextensions.k8s.io")
                    .withResources("customresourcedefinitions")
                    .withVerbs("patch")
                    .build()));

        var reverted = awaitConfig(admin, "widgets", s -> appliedReason(s, "Reverted"));
        assertThat(reverted.getStatus().phase).isEqualTo("Failed");
        assertThat(strategy(admin, target)).isEqualTo("None");
      }
    }
  }

  private static boolean appliedReason(ConversionConfigStatus status, String reason) {
    return Conditions.find(status.conditions, Conditions.APPLIED)
        .map(c -> reason.equals(c.getReason()))
        .orElse(false);
  }

  private static String strategy(KubernetesClient admin, String crd) {
    return OperatorFixture.conversionOf(admin, crd).getStrategy();
  }

  /** What the operator reads and writes, except patching CRDs. */
  private static List<PolicyRule> readsAndStatus() {
    return List.of(
        new PolicyRuleBuilder()
            .withApiGroups("versio.dev")
            .withResources("*")
            .withVerbs("get", "list", "watch", "patch", "update")
            .build(),
        new PolicyRuleBuilder()
            .withApiGroups("apiextensions.k8s.io")
            .withResources("customresourcedefinitions")
            .withVerbs("get", "list", "watch")
            .build(),
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("secrets", "services")
            .withVerbs("get", "list", "watch")
            .build(),
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("events")
            .withVerbs("create")
            .build(),
        new PolicyRuleBuilder()
            .withApiGroups("apps")
            .withResources("deployments")
            .withVerbs("get", "list", "watch")
            .build(),
        new PolicyRuleBuilder()
            .withApiGroups("coordination.k8s.io")
            .withResources("leases")
            .withVerbs("get", "list", "watch", "create", "update", "delete")
            .build());
  }

  private static void grant(KubernetesClient admin, String name, List<PolicyRule> rules) {
    admin
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withRules(rules)
                .build())
        .serverSideApply();
    admin
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", name)
                .addNewSubject()
                .withKind("User")
                .withName(USER)
                .withApiGroup("rbac.authorization.k8s.io")
                .endSubject()
                .build())
        .serverSideApply();
  }
}
