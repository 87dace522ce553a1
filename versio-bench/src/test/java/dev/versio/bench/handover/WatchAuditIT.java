package dev.versio.bench.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.fleet.Widgets;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * The negative control of the move harness's watch audit: it must see what a write to a CRD's
 * {@code spec} costs the cluster (every watch on the resource ends, the generation moves) and see
 * nothing for a metadata-only write — so its zero in {@link MovesUnderLoadIT} means no watch ended,
 * not that the audit is blind.
 */
@KubeApiServerTest
class WatchAuditIT {
  private static final String NAMESPACE = "audit";

  @Test
  void theAuditCountsTheWatchesASpecWriteEndsAndNoneForAMetadataOnlyWrite(ControlPlane controlPlane)
      throws Exception {
    try (var client = controlPlane.adminClient()) {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .serverSideApply();
      for (var plural : MoveFixture.PLURALS) {
        var crd = Widgets.crd(MoveFixture.GROUP, plural, MoveFixture.kind(plural));
        client.resource(crd).serverSideApply();
        Crds.awaitEstablished(client, crd.getMetadata().getName());
      }
      var written = MoveFixture.target(MoveFixture.PLURALS.getFirst());
      var crds = client.apiextensions().v1().customResourceDefinitions().withName(written);
      try (var audit = WatchAudit.start(client, NAMESPACE)) {
        int watches = 2 * MoveFixture.PLURALS.size();
        awaitAtLeast(audit::openWatches, watches, "watches open");

        crds.patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"example.com/touched\":\"yes\"}}}");
        // an observation window, not a wait for logic: the apiserver ends the watches of a
        // resource about a second after a spec write, so nothing by three seconds is nothing
        Thread.sleep(3_000);
        assertThat(audit.endedSoFar()).as("watches ended by a metadata-only write").isZero();

        crds.patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"names\":{\"shortNames\":[\"audited\"]}}}");
        awaitAtLeast(audit::endedSoFar, 2, "watches ended by a spec write");
        var result = audit.finish();
        var first = MoveFixture.PLURALS.getFirst();
        result
            .endedWatches()
            .forEach(
                (watch, ended) -> {
                  if (watch.startsWith(first + "@")) {
                    assertThat(ended).as("ends of the written CRD's watch %s", watch).isPositive();
                  } else {
                    assertThat(ended).as("ends of %s, whose CRD was not written", watch).isZero();
                  }
                });
        assertThat(result.writtenTargets()).containsExactly(written);
      }
    }
  }

  /** Polls the audit (it follows the apiserver's streams) until {@code value} reaches {@code n}. */
  private static void awaitAtLeast(IntSupplier value, int n, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (value.getAsInt() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + ": " + value.getAsInt() + " of " + n + " within 30 s");
      }
      Thread.sleep(50); // polling what the apiserver streams
    }
  }
}
