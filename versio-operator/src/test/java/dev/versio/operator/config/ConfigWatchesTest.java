package dev.versio.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.gate.CaBundleSource;
import dev.versio.testkit.fleet.Widgets;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigWatchesTest {

  @Test
  void anUpdateThatChangesTheWriteStampIsTheOperatorsOwnWrite() {
    assertThat(ConfigWatches.ownWrite(crd(Map.of()), crd(stamp("op-1/3")))).isTrue();
    assertThat(ConfigWatches.ownWrite(crd(stamp("op-1/3")), crd(stamp("op-2/4")))).isTrue();
  }

  @Test
  void anUpdateThatLeavesTheStampAloneIsSomeoneElsesChangeAndStillReachesTheConfig() {
    assertThat(ConfigWatches.ownWrite(crd(stamp("op-1/3")), crd(stamp("op-1/3")))).isFalse();
    assertThat(ConfigWatches.ownWrite(crd(stamp("op-1/3")), crd(Map.of()))).isFalse();
    assertThat(ConfigWatches.ownWrite(null, crd(stamp("op-1/3")))).as("an add").isFalse();
  }

  private static final String FRONT = "https://front.example.test:8443";
  private static final OperatorOptions BEHIND_FRONT =
      OperatorOptions.defaults("versio-system").toBuilder()
          .allowUrlMode(true)
          .frontUrl(FRONT)
          .build();
  private static final OperatorOptions PER_SERVER =
      OperatorOptions.defaults("versio-system").toBuilder().allowUrlMode(true).build();

  @Test
  void aConfigAppliedAtTheFrontKeepsItsEndpointWhenItMovesInsideThePool() {
    var pool = List.of(pooled("pool-a"), pooled("pool-b"));
    var spec = Widgets.renameConfig("c", "widgets.example.org", null).getSpec();

    assertThat(
            ConfigWatches.keepsEndpoint(
                spec,
                applied(FRONT + "/convert/widgets.example.org"),
                BUNDLE,
                pool,
                BEHIND_FRONT,
                URL_BUNDLES))
        .isTrue();
  }

  @Test
  void aMoveBetweenPerServerEndpointsOrOutOfThePoolRewritesTheTargetSoItIsPaced() {
    var pool = List.of(pooled("pool-a"), pooled("pool-b"));
    var spec = Widgets.renameConfig("c", "widgets.example.org", null).getSpec();
    var onA = applied("https://pool-a.example.test/convert/widgets.example.org");
    var resolvesTo =
        dev.versio.api.assign.AssignmentResolver.resolve(
            null,
            "widgets.example.org",
            pool.stream().map(dev.versio.api.assign.ServerView::of).toList());
    var other = resolvesTo.isTo("pool-a") ? "pool-b" : "pool-a";
    var onOther = applied("https://" + other + ".example.test/convert/widgets.example.org");

    assertThat(ConfigWatches.keepsEndpoint(spec, onOther, BUNDLE, pool, PER_SERVER, URL_BUNDLES))
        .as("per-server endpoints: the move rewrites the CRD")
        .isFalse();
    assertThat(ConfigWatches.keepsEndpoint(spec, onA, BUNDLE, pool, BEHIND_FRONT, URL_BUNDLES))
        .as("applied at a server's own URL, now behind the front: one write to move onto it")
        .isFalse();
    var isolated = pooled("pool-a");
    isolated.getSpec().isolated = true;
    var pinned = Widgets.renameConfig("c", "widgets.example.org", "pool-a").getSpec();
    assertThat(
            ConfigWatches.keepsEndpoint(
                pinned,
                applied(FRONT + "/convert/widgets.example.org"),
                BUNDLE,
                List.of(isolated, pooled("pool-b")),
                BEHIND_FRONT,
                URL_BUNDLES))
        .as("pinned to an isolated server: its own endpoint")
        .isFalse();
  }

  @Test
  void aConfigNeverAppliedOrWithNoServerToGoToIsPaced() {
    var spec = Widgets.renameConfig("c", "widgets.example.org", null).getSpec();

    assertThat(
            ConfigWatches.keepsEndpoint(
                spec, null, BUNDLE, List.of(pooled("pool-a")), BEHIND_FRONT, URL_BUNDLES))
        .isFalse();
    assertThat(
            ConfigWatches.keepsEndpoint(
                spec,
                applied(FRONT + "/convert/widgets.example.org"),
                BUNDLE,
                List.of(),
                BEHIND_FRONT,
                URL_BUNDLES))
        .isFalse();
  }

  @Test
  void aMoveInsideThePoolThatChangesTheCaBundleRewritesTheTargetSoItIsPaced() {
    var spec = Widgets.renameConfig("c", "widgets.example.org", null).getSpec();
    var atFront = applied(FRONT + "/convert/widgets.example.org");
    var rotated = List.of(pooled("pool-a", "TkVX"), pooled("pool-b", "TkVX"));

    assertThat(
            ConfigWatches.keepsEndpoint(spec, atFront, BUNDLE, rotated, BEHIND_FRONT, URL_BUNDLES))
        .as("the server's spec.caBundle changed: the move writes the new bundle")
        .isFalse();
    assertThat(
            ConfigWatches.keepsEndpoint(
                spec, atFront, null, List.of(pooled("pool-a")), BEHIND_FRONT, URL_BUNDLES))
        .as("the target carries no bundle yet")
        .isFalse();
    assertThat(
            ConfigWatches.keepsEndpoint(
                spec,
                atFront,
                BUNDLE,
                List.of(pooled("pool-a")),
                BEHIND_FRONT,
                server -> new CaBundleSource.Result.Missing("no Secret yet")))
        .as("the destination's bundle is not known")
        .isFalse();
  }

  /** The bundle the pooled servers carry and the targets were applied with. */
  private static final String BUNDLE = "Q0E=";

  /** A URL-mode server's bundle is its spec.caBundle. */
  private static final java.util.function.Function<ConversionWebhookServer, CaBundleSource.Result>
      URL_BUNDLES = server -> new CaBundleSource.Result.Found(server.getSpec().caBundle);

  private static ConversionConfigStatus applied(String url) {
    var status = new ConversionConfigStatus();
    status.webhookURL = url;
    return status;
  }

  private static ConversionWebhookServer pooled(String name) {
    return pooled(name, BUNDLE);
  }

  private static ConversionWebhookServer pooled(String name, String caBundle) {
    var server = Widgets.urlServer(name, "https://" + name + ".example.test", caBundle);
    server.getSpec().sharding = new ConversionWebhookServerSpec.Sharding();
    return server;
  }

  private static Map<String, String> stamp(String value) {
    return Map.of("versio.dev/written-by", value);
  }

  private static HasMetadata crd(Map<String, String> annotations) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName("widgets.example.org")
        .withAnnotations(annotations)
        .endMetadata()
        .build();
  }
}
