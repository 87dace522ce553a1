package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator re-stores a target's objects after its storage version was promoted, then prunes
 * {@code status.storedVersions}, on a real apiserver. Proof that every object really is stored at
 * the new version: the old version is then removed from the CRD (which the apiserver refuses while
 * {@code storedVersions} lists it) and every object still reads, with the converted field.
 */
@KubeApiServerTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StorageMigrationIT {
  private static final String SERVER = "storage-migration";

  private KubernetesClient client;
  private WebhookServer webhook;
  private VersioOperator operator;

  @BeforeAll
  void start(KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir)
      throws Exception {
    this.client = client;
    OperatorFixture.installVersioCrds(client);
    // before the webhook server: it reads XRDs only if their API is there when it starts
    CrossplaneStandIn.installXrdApi(client);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), SERVER, certDir);
    var url = "https://127.0.0.1:" + webhook.conversionPort();
    client.resource(OperatorFixture.urlServer(SERVER, url, caBundle)).serverSideApply();
  }

  @AfterEach
  void stopOperator() {
    if (operator != null) {
      operator.close();
      operator = null;
    }
  }

  @AfterAll
  void stop() {
    if (webhook != null) {
      webhook.close();
    }
  }

  @Test
  void anAutomaticConfigReStoresEveryObjectAtThePromotedVersionAndPrunesStoredVersions(
      KubeTestScope scope) {
    var target = promotedWidgets(scope, 23);
    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    var name = scope.name("auto");
    client.resource(config(name, target, "Automatic", 1000, 5)).create();

    var done = awaitConfig(client, name, s -> phaseOf(s.storageMigration).equals("Succeeded"));

    var migration = done.getStatus().storageMigration;
    assertThat(migration.handled).isEqualTo(23);
    assertThat(migration.rewritten + migration.writtenMeanwhile).isEqualTo(23);
    assertThat(migration.failed).isZero();
    assertThat(migration.storedVersionsBefore).containsExactly("v1", "v2");
    assertThat(migration.finishedAt).isNotNull();
    var condition =
        Conditions.find(done.getStatus().conditions, Conditions.STORAGE_MIGRATED).orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("True");
    assertThat(condition.getMessage()).contains("lists only v2");
    assertThat(storedVersions(target)).containsExactly("v2");
    assertThat(reasonsOfEvents(name)).contains("StorageMigrationStarted", "StorageMigrated");

    // a new annotation value runs it again at once (nothing to prune now, every object re-stored)
    OperatorFixture.mergePatch(
        client,
        CRDConversionConfig.class,
        name,
        "{\"metadata\":{\"annotations\":{\""
            + StorageMigrationSpec.REQUEST_ANNOTATION
            + "\":\"again\"}}}");
    var again =
        awaitConfig(
                client,
                name,
                s ->
                    s.storageMigration != null
                        && "again".equals(s.storageMigration.request)
                        && "Succeeded".equals(s.storageMigration.phase))
            .getStatus()
            .storageMigration;
    assertThat(again.handled).isEqualTo(23);
    assertThat(again.message).contains("already lists only v2");
    assertEveryObjectIsStoredAtV2(scope, target, 23);
  }

  private List<String> reasonsOfEvents(String config) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> config.equals(e.getInvolvedObject().getName()))
        .map(e -> e.getReason())
        .toList();
  }

  @Test
  void aMigrationInterruptedByARestartContinuesFromItsLastPageInsteadOfStartingOver(
      KubeTestScope scope) {
    int objects = 40;
    var target = promotedWidgets(scope, objects);
    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    var name = scope.name("resume");
    // Manual: nothing happens until the annotation asks; 5 writes/s, so the run takes ~8 s
    client.resource(config(name, target, "Manual", 5, 5)).create();
    awaitConfig(
        client,
        name,
        s ->
            "Applied".equals(s.phase)
                && Conditions.find(s.conditions, Conditions.STORAGE_MIGRATED)
                    .map(c -> "MigrationNeeded".equals(c.getReason()))
                    .orElse(false));
    OperatorFixture.mergePatch(
        client,
        CRDConversionConfig.class,
        name,
        "{\"metadata\":{\"annotations\":{\""
            + StorageMigrationSpec.REQUEST_ANNOTATION
            + "\":\"run-1\"}}}");
    var midway =
        awaitConfig(
                client,
                name,
                s ->
                    s.storageMigration != null
                        && "Running".equals(s.storageMigration.phase)
                        && s.storageMigration.handled >= 10)
            .getStatus()
            .storageMigration;
    operator.close();
    operator = null;
    var atStop = client.resources(CRDConversionConfig.class).withName(name).get().getStatus();
    assertThat(atStop.storageMigration.phase).isEqualTo("Running");
    assertThat(atStop.storageMigration.continueToken).isNotBlank();
    assertThat(atStop.storageMigration.handled).isLessThan(objects);
    assertThat(storedVersions(target)).containsExactly("v1", "v2");

    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    var done = awaitConfig(client, name, s -> phaseOf(s.storageMigration).equals("Succeeded"));

    var migration = done.getStatus().storageMigration;
    assertThat(migration.resumed)
        .as("continued by the new operator (again after a pause, should one come)")
        .isPositive();
    assertThat(migration.startedAt).as("the same run").isEqualTo(midway.startedAt);
    assertThat(migration.request).isEqualTo("run-1");
    assertThat(migration.handled)
        .as("every object counted once: the run went on from its last recorded page")
        .isEqualTo(objects);
    assertThat(storedVersions(target)).containsExactly("v2");
    assertThat(reasonsOfEvents(name)).contains("StorageMigrationContinued", "StorageMigrated");
    assertEveryObjectIsStoredAtV2(scope, target, objects);
  }

  @Test
  void aCancelledRunStopsWhereItIsAndLeavesStoredVersionsAlone(KubeTestScope scope) {
    int objects = 20;
    var target = promotedWidgets(scope, objects);
    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    var name = scope.name("cancel");
    // 2 writes/s, progress every 5: the cancel, asked for after the first page, has 7 s to land
    client.resource(config(name, target, "Manual", 2, 5)).create();
    awaitConfig(client, name, s -> "Applied".equals(s.phase));
    request(name, "run-1");
    awaitConfig(
        client,
        name,
        s ->
            s.storageMigration != null
                && "Running".equals(s.storageMigration.phase)
                && s.storageMigration.handled >= 1);

    request(name, StorageMigrationSpec.CANCEL);
    var cancelled = awaitConfig(client, name, s -> phaseOf(s.storageMigration).equals("Cancelled"));

    var migration = cancelled.getStatus().storageMigration;
    assertThat(migration.handled).as("stopped where it was").isLessThan(objects);
    assertThat(migration.finishedAt).isNotNull();
    assertThat(storedVersions(target))
        .as("not every object was re-stored: nothing pruned")
        .containsExactly("v1", "v2");
    var condition =
        Conditions.find(cancelled.getStatus().conditions, Conditions.STORAGE_MIGRATED)
            .orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("False");
    assertThat(condition.getReason()).isEqualTo("Cancelled");
    assertThat(reasonsOfEvents(name)).contains("StorageMigrationCancelled");
  }

  @Test
  void anXrdConfigReStoresTheCompositesAndTheClaimsOnceBothGeneratedCrdsCarryItsConversion(
      KubeTestScope scope) throws Exception {
    var group = scope.apiGroup();
    var xrdName = "xwidgets." + group;
    var claimsCrd = "widgetclaims." + group;
    int composites = 6;
    int claims = 7;
    promotedXwidgets(scope, composites, claims);

    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    var name = scope.name("xrd");
    client.resource(xrdConfig(name, xrdName)).create();

    awaitConfig(client, XRDConversionConfig.class, name, s -> "Applied".equals(s.phase));
    // the XRD converts, and Crossplane has copied its conversion onto the composite's CRD but not
    // yet onto the claim's: re-storing now would relabel v1 claims as v2 instead of converting them
    CrossplaneStandIn.propagateConversion(client, xrdName);
    var waiting =
        awaitConfig(
            client,
            XRDConversionConfig.class,
            name,
            s ->
                Conditions.find(s.conditions, Conditions.STORAGE_MIGRATED)
                    .map(
                        c ->
                            c.getMessage()
                                .contains(
                                    "crd/"
                                        + claimsCrd
                                        + " does not carry the XRD's conversion yet"))
                    .orElse(false));
    assertThat(waiting.getStatus().storageMigration).as("nothing started").isNull();

    CrossplaneStandIn.propagateConversion(client, xrdName, claimsCrd);
    var done =
        awaitConfig(
            client,
            XRDConversionConfig.class,
            name,
            s -> phaseOf(s.storageMigration).equals("Succeeded"));

    var migration = done.getStatus().storageMigration;
    assertThat(migration.handled).isEqualTo(composites + claims);
    assertThat(migration.failed).isZero();
    assertThat(migration.message)
        .contains("of crd/" + xrdName + " pruned from [v1, v2] to [v2]")
        .contains("of crd/" + claimsCrd + " pruned from [v1, v2] to [v2]");
    assertThat(storedVersions(xrdName)).containsExactly("v2");
    assertThat(storedVersions(claimsCrd)).containsExactly("v2");
    // v1 no longer served by the XRD and stored by neither CRD: the config says it can go
    var unserved = Widgets.xrd(group, "v2");
    ((ObjectNode) unserved.path("spec").path("versions").get(0)).put("served", false);
    client
        .resource(Serialization.unmarshal(unserved.toString(), GenericKubernetesResource.class))
        .serverSideApply();
    var retirable =
        awaitConfig(
            client,
            XRDConversionConfig.class,
            name,
            s ->
                Conditions.find(s.conditions, Conditions.RETIREMENT_READY)
                    .map(c -> "True".equals(c.getStatus()))
                    .orElse(false));
    assertThat(
            Conditions.find(retirable.getStatus().conditions, Conditions.RETIREMENT_READY)
                .orElseThrow()
                .getMessage())
        .contains("Can be removed now: v1");
    // every object is stored at v2: v1 can go from both CRDs, and each object reads, converted
    for (var crd : List.of(xrdName, claimsCrd)) {
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(crd)
          .edit(
              c -> {
                c.getSpec().getVersions().removeIf(v -> v.getName().equals("v1"));
                return c;
              });
    }
    for (int i = 0; i < composites; i++) {
      assertThat(
              client
                  .genericKubernetesResources(xwidgets(group, "v2"))
                  .withName("x" + i)
                  .get()
                  .getAdditionalProperties()
                  .get("spec"))
          .isEqualTo(Map.of("replicas", i));
    }
    var claimsAtV2 =
        client.genericKubernetesResources(widgetClaims(group, "v2")).inNamespace(scope.namespace());
    for (int i = 0; i < claims; i++) {
      assertThat(claimsAtV2.withName("c" + i).get().getAdditionalProperties().get("spec"))
          .isEqualTo(Map.of("replicas", 100 + i));
    }
  }

  @Test
  void anXrdRunStoppedWhileReStoringTheClaimsContinuesWithTheClaimsNotFromTheComposites(
      KubeTestScope scope) throws Exception {
    var group = scope.apiGroup();
    var xrdName = "xwidgets." + group;
    var claimsCrd = "widgetclaims." + group;
    int composites = 5;
    int claims = 40; // 8 pages of claims at 1 s each: the stop lands well before the last
    promotedXwidgets(scope, composites, claims);
    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    var name = scope.name("xrd-resume");
    var config = xrdConfig(name, xrdName);
    config.getSpec().storageMigration.rate = 5; // 5 writes/s, progress every 5: about 9 s in all
    client.resource(config).create();
    awaitConfig(client, XRDConversionConfig.class, name, s -> "Applied".equals(s.phase));
    CrossplaneStandIn.propagateConversion(client, xrdName);
    CrossplaneStandIn.propagateConversion(client, xrdName, claimsCrd);
    // stopped once the composites and a page of claims are recorded
    awaitConfig(
        client,
        XRDConversionConfig.class,
        name,
        s ->
            s.storageMigration != null
                && claimsCrd.equals(s.storageMigration.crd)
                && s.storageMigration.continueToken != null
                && s.storageMigration.handled >= composites + 5);
    operator.close();
    operator = null;
    var atStop =
        client
            .resources(XRDConversionConfig.class)
            .withName(name)
            .get()
            .getStatus()
            .storageMigration;
    assertThat(atStop.phase).isEqualTo("Running");
    assertThat(atStop.handled).isLessThan(composites + claims);

    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    var done =
        awaitConfig(
                client,
                XRDConversionConfig.class,
                name,
                s -> phaseOf(s.storageMigration).equals("Succeeded"))
            .getStatus()
            .storageMigration;

    assertThat(done.resumed)
        .as("continued by the new operator (again after a pause, should one come)")
        .isPositive();
    assertThat(done.handled)
        .as("every object counted once: the composites were not listed again")
        .isEqualTo(composites + claims);
    assertThat(storedVersions(xrdName)).containsExactly("v2");
    assertThat(storedVersions(claimsCrd)).containsExactly("v2");
  }

  /**
   * The Widget XRD with claims, {@code composites} composites and {@code claims} claims written
   * while v1 was its referenceable (storage) version, then v2 promoted: both generated CRDs list v1
   * and v2 in {@code storedVersions}, and the XRD is Established.
   */
  private void promotedXwidgets(KubeTestScope scope, int composites, int claims) {
    var group = scope.apiGroup();
    CrossplaneStandIn.applyWithGeneratedCrds(client, Widgets.xrd(group, "v1"));
    for (int i = 0; i < composites; i++) {
      client
          .genericKubernetesResources(xwidgets(group, "v1"))
          .resource(widget(group, "XWidget", "x" + i, i))
          .create();
    }
    var claimsAtV1 =
        client.genericKubernetesResources(widgetClaims(group, "v1")).inNamespace(scope.namespace());
    for (int i = 0; i < claims; i++) {
      claimsAtV1.resource(widget(group, "WidgetClaim", "c" + i, 100 + i)).create();
    }
    CrossplaneStandIn.applyWithGeneratedCrds(client, Widgets.xrd(group, "v2"));
    CrossplaneStandIn.reportEstablished(client, "xwidgets." + group);
    assertThat(storedVersions("xwidgets." + group)).containsExactly("v1", "v2");
    assertThat(storedVersions("widgetclaims." + group)).containsExactly("v1", "v2");
  }

  private static GenericKubernetesResource widget(
      String group, String kind, String name, int size) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(group + "/v1")
        .withKind(kind)
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("size", size)))
        .build();
  }

  private static ResourceDefinitionContext xwidgets(String group, String version) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind("XWidget")
        .withPlural("xwidgets")
        .withNamespaced(false)
        .build();
  }

  private static ResourceDefinitionContext widgetClaims(String group, String version) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind("WidgetClaim")
        .withPlural("widgetclaims")
        .withNamespaced(true)
        .build();
  }

  /** The rename of {@link #config} for the XRD {@code xrd}, migrating by itself. */
  private static XRDConversionConfig xrdConfig(String name, String xrd) {
    var config = Widgets.xrdRenameConfig(name, xrd, SERVER);
    var migration = new StorageMigrationSpec();
    migration.policy = "Automatic";
    migration.rate = 1000;
    migration.pageSize = 5;
    config.getSpec().storageMigration = migration;
    return config;
  }

  private void request(String config, String value) {
    OperatorFixture.mergePatch(
        client,
        CRDConversionConfig.class,
        config,
        "{\"metadata\":{\"annotations\":{\""
            + StorageMigrationSpec.REQUEST_ANNOTATION
            + "\":\""
            + value
            + "\"}}}");
  }

  /**
   * A Widget CRD whose objects were created while v1 was the storage version, then v2 promoted:
   * {@code storedVersions} lists both.
   */
  private String promotedWidgets(KubeTestScope scope, int objects) {
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    crd.getSpec().getVersions().forEach(v -> v.setStorage(v.getName().equals("v1")));
    client.resource(crd).create();
    var name = crd.getMetadata().getName();
    Crds.awaitEstablished(client, name);
    var v1 = client.genericKubernetesResources(widgets(scope, "v1")).inNamespace(scope.namespace());
    for (int i = 0; i < objects; i++) {
      v1.resource(
              new GenericKubernetesResourceBuilder()
                  .withApiVersion(scope.apiGroup() + "/v1")
                  .withKind("Widget")
                  .withNewMetadata()
                  .withName("w" + i)
                  .endMetadata()
                  .withAdditionalProperties(Map.of("spec", Map.of("size", i)))
                  .build())
          .create();
    }
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(name)
        .edit(
            c -> {
              c.getSpec().getVersions().forEach(v -> v.setStorage(v.getName().equals("v2")));
              return c;
            });
    assertThat(storedVersions(name)).containsExactly("v1", "v2");
    return name;
  }

  /**
   * Removes v1 from the CRD (refused while {@code storedVersions} lists it) and reads every object
   * at v2: one still stored at v1 could not be read any more.
   */
  private void assertEveryObjectIsStoredAtV2(KubeTestScope scope, String target, int objects) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(target)
        .edit(
            c -> {
              c.getSpec().getVersions().removeIf(v -> v.getName().equals("v1"));
              return c;
            });
    var v2 = client.genericKubernetesResources(widgets(scope, "v2")).inNamespace(scope.namespace());
    assertThat(v2.list().getItems()).hasSize(objects);
    for (int i = 0; i < objects; i++) {
      assertThat(v2.withName("w" + i).get().getAdditionalProperties().get("spec"))
          .as("w%d, converted by the rename once and stored at v2", i)
          .isEqualTo(Map.of("replicas", i));
    }
  }

  private List<String> storedVersions(String crd) {
    return client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(crd)
        .get()
        .getStatus()
        .getStoredVersions();
  }

  private static String phaseOf(dev.versio.api.config.StorageMigrationStatus migration) {
    return migration == null || migration.phase == null ? "" : migration.phase;
  }

  private static CRDConversionConfig config(
      String name, String target, String policy, int rate, int pageSize) {
    var config = OperatorFixture.renameConfig(name, target, SERVER);
    var migration = new StorageMigrationSpec();
    migration.policy = policy;
    migration.rate = rate;
    migration.pageSize = pageSize;
    config.getSpec().storageMigration = migration;
    return config;
  }

  private static ResourceDefinitionContext widgets(KubeTestScope scope, String version) {
    return OperatorFixture.widgets(scope.apiGroup(), version);
  }
}
