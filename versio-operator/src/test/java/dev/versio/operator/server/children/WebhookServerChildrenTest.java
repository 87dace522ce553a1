package dev.versio.operator.server.children;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WebhookServerChildrenTest {
  private static final WebhookServerChildren CHILDREN =
      new WebhookServerChildren(ChildApis.NEWEST, "registry.example/versio:1.0");

  private static ConversionWebhookServer server(String name) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName(name).withUid("uid-1").build());
    server.setSpec(new ConversionWebhookServerSpec());
    return server;
  }

  private static io.fabric8.kubernetes.api.model.Container container(Deployment d) {
    return d.getSpec().getTemplate().getSpec().getContainers().getFirst();
  }

  @Test
  void versioFlagsComeFirstAndExtraArgsLast() {
    var s = server("main");
    s.getSpec().extraArgs = List.of("--drain", "60s");
    s.getSpec().cacheSelector =
        new LabelSelectorBuilder()
            .withMatchLabels(Map.of("team", "payments"))
            .withMatchExpressions(
                new LabelSelectorRequirementBuilder()
                    .withKey("tier")
                    .withOperator("In")
                    .withValues("a", "b")
                    .build())
            .build();

    var args = container(CHILDREN.of(s, "ops").deployment()).getArgs();

    assertThat(args)
        .containsExactly(
            "webhook-server",
            "--server-name",
            "main",
            "--tls-cert-dir",
            "/tls",
            "--bind-address",
            "0.0.0.0",
            "--conversion-port",
            "9443",
            "--ops-port",
            "8080",
            "--config-selector",
            "team=payments,tier in (a,b)",
            "--drain",
            "60s");
  }

  @Test
  void aSelectorOperatorKubernetesDoesNotKnowIsRefusedNamingTheField() {
    var s = server("main");
    s.getSpec().cacheSelector =
        new LabelSelectorBuilder()
            .withMatchExpressions(
                new LabelSelectorRequirementBuilder().withKey("k").withOperator("Like").build())
            .build();
    assertThatThrownBy(() -> CHILDREN.of(s, "ops"))
        .hasMessageContaining("spec.cacheSelector: unknown operator 'Like'");
  }

  @Test
  void theReplicaKnowsItsPodFromTheDownwardApiAndGetsTheUsersEnvAfter() {
    var s = server("main");
    s.getSpec().extraEnv = List.of(new EnvVarBuilder().withName("TZ").withValue("UTC").build());

    var env = container(CHILDREN.of(s, "ops").deployment()).getEnv();

    assertThat(env)
        .extracting(e -> e.getName())
        .containsExactly("POD_NAME", "POD_UID", "POD_NAMESPACE", "TZ");
    assertThat(env.get(1).getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.uid");
  }

  @Test
  void aSlowColdStartIsNeverKilledStartupWaitsOnReadinessAndLivenessProbesSomethingElse() {
    var c = container(CHILDREN.of(server("main"), "ops").deployment());

    assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(c.getStartupProbe().getPeriodSeconds() * c.getStartupProbe().getFailureThreshold())
        .as("startup budget in seconds")
        .isEqualTo(300);
    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(c.getReadinessProbe().getHttpGet().getPort()).isEqualTo(new IntOrString("ops"));
  }

  @Test
  void theStartupBudgetIsTheServersWhenItSetsOne() {
    var s = server("main");
    s.getSpec().startupProbe = new ConversionWebhookServerSpec.StartupProbe();
    s.getSpec().startupProbe.failureThreshold = 120;

    var probe = container(CHILDREN.of(s, "ops").deployment()).getStartupProbe();

    assertThat(probe.getPeriodSeconds()).as("default period kept").isEqualTo(5);
    assertThat(probe.getFailureThreshold()).isEqualTo(120);
  }

  @Test
  void aMemoryLimitSetsTheHeapCeilingOfTheReplicas() {
    var s = server("main");
    s.getSpec().resources =
        new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
            .withLimits(
                java.util.Map.of("memory", new io.fabric8.kubernetes.api.model.Quantity("1Gi")))
            .build();

    var env = container(CHILDREN.of(s, "ops").deployment()).getEnv();

    assertThat(env)
        .filteredOn(e -> e.getName().equals("JDK_JAVA_OPTIONS"))
        .singleElement()
        .satisfies(e -> assertThat(e.getValue()).isEqualTo("-Xmx563m"));
  }

  @Test
  void aCertManagerIssuerGetsACertificateForTheServicesNamesIntoTheMountedSecret() {
    var s = server("main");
    s.getSpec().certificate = new ConversionWebhookServerSpec.Certificate();
    s.getSpec().certificate.issuerRef = new ConversionWebhookServerSpec.IssuerRef();
    s.getSpec().certificate.issuerRef.name = "internal-ca";
    s.getSpec().certificate.issuerRef.kind = "Issuer";
    s.getSpec().certificate.duration = "30d";
    s.getSpec().certificate.renewBefore = "5d";

    var children = CHILDREN.of(s, "ops");

    var certificate = children.certificate().orElseThrow();
    assertThat(certificate.getApiVersion()).isEqualTo("cert-manager.io/v1");
    assertThat(certificate.getMetadata().getName()).isEqualTo("main-webhook-server");
    assertThat(certificate.getMetadata().getOwnerReferences()).hasSize(1);
    @SuppressWarnings("unchecked")
    var spec = (java.util.Map<String, Object>) certificate.getAdditionalProperties().get("spec");
    assertThat(spec)
        .containsEntry("secretName", "main-webhook-server-tls")
        .containsEntry("duration", "720h")
        .containsEntry("renewBefore", "120h")
        .containsEntry(
            "issuerRef",
            java.util.Map.of("name", "internal-ca", "kind", "Issuer", "group", "cert-manager.io"));
    @SuppressWarnings("unchecked")
    var dnsNames = (List<String>) spec.get("dnsNames");
    assertThat(dnsNames)
        .contains("main-webhook-server.ops.svc", "main-webhook-server.ops.svc.cluster.local");
    assertThat(children.inApplyOrder().getFirst())
        .as("the Secret the pods mount is asked for first")
        .isSameAs(certificate);
  }

  @Test
  void noCertificateObjectWhenTheOperatorIssuesOrCertManagerIsMissing() {
    assertThat(CHILDREN.of(server("main"), "ops").certificate()).isEmpty();

    var s = server("main");
    s.getSpec().certificate = new ConversionWebhookServerSpec.Certificate();
    s.getSpec().certificate.issuerRef = new ConversionWebhookServerSpec.IssuerRef();
    s.getSpec().certificate.issuerRef.name = "internal-ca";
    var withoutCertManager =
        new WebhookServerChildren(ChildApis.from(Set.of("autoscaling/v2", "policy/v1")), "img");
    assertThat(withoutCertManager.of(s, "ops").certificate()).isEmpty();
  }

  @Test
  void podsMeetThePodSecurityRestrictedProfile() {
    var d = CHILDREN.of(server("main"), "ops").deployment();
    var pod = d.getSpec().getTemplate().getSpec().getSecurityContext();
    var c = container(d).getSecurityContext();

    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(c.getRunAsNonRoot()).isTrue();
    assertThat(c.getAllowPrivilegeEscalation()).isFalse();
    assertThat(c.getReadOnlyRootFilesystem()).isTrue();
    assertThat(c.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(pod.getRunAsUser()).as("the image's user applies").isNull();
  }

  @Test
  void theTlsSecretIsMountedReadOnlyAndTmpIsWritable() {
    var d = CHILDREN.of(server("main"), "ops").deployment();

    assertThat(container(d).getVolumeMounts())
        .extracting(m -> m.getName() + ":" + m.getMountPath() + ":" + m.getReadOnly())
        .containsExactly("tls:/tls:true", "tmp:/tmp:null");
    assertThat(
            d.getSpec().getTemplate().getSpec().getVolumes().getFirst().getSecret().getSecretName())
        .isEqualTo("main-webhook-server-tls");
  }

  @Test
  void podLabelsCannotTakeOverTheSelectorLabels() {
    var s = server("main");
    s.getSpec().podLabels = Map.of("app.kubernetes.io/instance", "other", "team", "payments");

    var d = CHILDREN.of(s, "ops").deployment();

    var labels = d.getSpec().getTemplate().getMetadata().getLabels();
    assertThat(labels)
        .containsEntry("app.kubernetes.io/instance", "main")
        .containsEntry("team", "payments");
    assertThat(d.getSpec().getSelector().getMatchLabels())
        .isEqualTo(WebhookServerChildren.selector("main"));
  }

  @Test
  void replicasDefaultToTwoAndAreLeftToTheAutoscalerWhenOneIsAsked() {
    var plain = CHILDREN.of(server("main"), "ops");
    assertThat(plain.deployment().getSpec().getReplicas()).isEqualTo(2);
    assertThat(plain.autoscaler()).isEmpty();

    var s = server("main");
    s.getSpec().autoscaling = new ConversionWebhookServerSpec.Autoscaling();
    s.getSpec().autoscaling.minReplicas = 3;
    s.getSpec().autoscaling.maxReplicas = 9;
    var scaled =
        new WebhookServerChildren(
                ChildApis.from(Set.of("autoscaling/v2beta2", "policy/v1beta1")), "img")
            .of(s, "ops");

    assertThat(scaled.deployment().getSpec().getReplicas()).isNull();
    var hpa = scaled.autoscaler().orElseThrow();
    assertThat(hpa.getApiVersion())
        .as("1.20 has no autoscaling/v2")
        .isEqualTo("autoscaling/v2beta2");
    @SuppressWarnings("unchecked")
    var spec = (Map<String, Object>) hpa.getAdditionalProperties().get("spec");
    assertThat(spec).containsEntry("minReplicas", 3).containsEntry("maxReplicas", 9);
    assertThat(spec.get("metrics").toString()).contains("averageUtilization=75");
  }

  @Test
  void aDisruptionBudgetExistsOnlyWhenAskedForInTheVersionTheClusterServes() {
    assertThat(CHILDREN.of(server("main"), "ops").disruptionBudget()).isEmpty();

    var s = server("main");
    s.getSpec().podDisruptionBudget = new ConversionWebhookServerSpec.PodDisruptionBudget();
    s.getSpec().podDisruptionBudget.minAvailable = new IntOrString("50%");
    var pdb =
        new WebhookServerChildren(ChildApis.from(Set.of("policy/v1beta1")), "img")
            .of(s, "ops")
            .disruptionBudget()
            .orElseThrow();

    assertThat(pdb.getApiVersion()).isEqualTo("policy/v1beta1");
    assertThat(pdb.getAdditionalProperties().get("spec").toString()).contains("minAvailable=50%");
  }

  @Test
  void everyChildIsOwnedByTheServerSoDeletingItDeletesThem() {
    var all = CHILDREN.of(server("main"), "ops").inApplyOrder();

    assertThat(all).hasSize(6);
    assertThat(all)
        .allSatisfy(
            child -> {
              var owner = child.getMetadata().getOwnerReferences().getFirst();
              assertThat(owner.getKind()).isEqualTo("ConversionWebhookServer");
              assertThat(owner.getUid()).isEqualTo("uid-1");
              assertThat(owner.getController()).isTrue();
            });
  }

  @Test
  void theReplicasMayOnlyTouchLeasesInTheirNamespaceUnderTheirOwnAccount() {
    var children = CHILDREN.of(server("main"), "ops");

    var rule = children.leaseRole().getRules().getFirst();
    assertThat(rule.getResources()).containsExactly("leases");
    assertThat(rule.getVerbs()).containsExactly("get", "create", "update", "delete");
    assertThat(children.leaseRole().getMetadata().getNamespace()).isEqualTo("ops");
    assertThat(children.leaseRoleBinding().getSubjects().getFirst().getName())
        .isEqualTo("main-webhook-server");

    var s = server("main");
    s.getSpec().serviceAccountName = "their-own";
    var own = CHILDREN.of(s, "ops");
    assertThat(own.serviceAccount()).as("the user's account is theirs to manage").isNull();
    assertThat(own.readerBinding().getSubjects().getFirst().getName()).isEqualTo("their-own");
    assertThat(own.deployment().getSpec().getTemplate().getSpec().getServiceAccountName())
        .isEqualTo("their-own");
  }

  @Test
  void aDigestWinsOverATagAndNoImageMeansTheOperatorsOwn() {
    assertThat(container(CHILDREN.of(server("main"), "ops").deployment()).getImage())
        .isEqualTo("registry.example/versio:1.0");
    var s = server("main");
    s.getSpec().image = new ConversionWebhookServerSpec.Image();
    s.getSpec().image.repository = "mirror.example/versio";
    s.getSpec().image.tag = "1.1";
    s.getSpec().image.digest = "sha256:abc";
    assertThat(container(CHILDREN.of(s, "ops").deployment()).getImage())
        .isEqualTo("mirror.example/versio@sha256:abc");
  }

  @Test
  void theServiceSendsItsPortToTheReplicasConversionPort() {
    var s = server("main");
    s.getSpec().service = new ConversionWebhookServerSpec.Service();
    s.getSpec().service.port = 8444;
    s.getSpec().service.annotations = Map.of("a", "b");

    var service = CHILDREN.of(s, "ops").service();

    var port = service.getSpec().getPorts().getFirst();
    assertThat(port.getPort()).isEqualTo(8444);
    assertThat(port.getTargetPort()).isEqualTo(new IntOrString("conversion"));
    assertThat(service.getMetadata().getAnnotations()).containsEntry("a", "b");
    assertThat(service.getSpec().getSelector()).isEqualTo(WebhookServerChildren.selector("main"));
  }

  @Test
  void behindTheFrontASharedServerIsSelectedByTheFrontServiceForwardsAndReadsItsPeersLeases() {
    var front = new WebhookServerChildren(ChildApis.NEWEST, "registry.example/versio:1.0", true);
    var children = front.of(server("main"), "ops");

    var pod = children.deployment().getSpec().getTemplate();
    assertThat(pod.getMetadata().getLabels())
        .containsEntry(WebhookServerChildren.FRONT_LABEL, "true");
    assertThat(children.deployment().getSpec().getSelector().getMatchLabels())
        .as("the Deployment's own selector is unchanged (it cannot change in place)")
        .doesNotContainKey(WebhookServerChildren.FRONT_LABEL);
    assertThat(container(children.deployment()).getArgs()).contains("--forward-reviews");
    assertThat(container(children.deployment()).getEnv())
        .anySatisfy(
            e -> {
              assertThat(e.getName()).isEqualTo("POD_IP");
              assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("status.podIP");
            });
    assertThat(children.leaseRole().getRules().getFirst().getVerbs()).contains("list", "watch");

    var service = children.front().orElseThrow();
    assertThat(service.getMetadata().getName()).isEqualTo(WebhookServerChildren.FRONT_SERVICE);
    assertThat(service.getMetadata().getNamespace()).isEqualTo("ops");
    assertThat(service.getSpec().getSelector())
        .isEqualTo(Map.of(WebhookServerChildren.FRONT_LABEL, "true"));
    assertThat(service.getSpec().getPorts().getFirst().getPort()).isEqualTo(443);
    var owner = service.getMetadata().getOwnerReferences().getFirst();
    assertThat(owner.getController())
        .as("several servers own the front; none of them controls it")
        .isFalse();
    assertThat(ServerCertificate.of("main", "ops", server("main").getSpec(), true).hosts())
        .contains("versio-webhook-front.ops.svc", "main-webhook-server.ops.svc");
  }

  @Test
  void anIsolatedServerACertManagerServerAndAUrlServerKeepTheirOwnEndpoint() {
    var front = new WebhookServerChildren(ChildApis.NEWEST, "registry.example/versio:1.0", true);
    var isolated = server("tenant");
    isolated.getSpec().isolated = true;
    var certManager = server("cm");
    certManager.getSpec().certificate = new ConversionWebhookServerSpec.Certificate();
    certManager.getSpec().certificate.issuerRef = new ConversionWebhookServerSpec.IssuerRef();
    certManager.getSpec().certificate.issuerRef.name = "ca-issuer";
    for (var s : java.util.List.of(isolated, certManager)) {
      var children = front.of(s, "ops");
      assertThat(children.front()).as(s.getMetadata().getName()).isEmpty();
      assertThat(container(children.deployment()).getArgs()).doesNotContain("--forward-reviews");
      assertThat(children.leaseRole().getRules().getFirst().getVerbs())
          .doesNotContain("list", "watch");
    }
    var url = server("dev");
    url.getSpec().url = "https://127.0.0.1:9443";
    assertThat(WebhookServerChildren.behindFront(url, true)).isFalse();
    assertThat(WebhookServerChildren.behindFront(server("main"), false))
        .as("the front is off unless asked for")
        .isFalse();
  }
}
