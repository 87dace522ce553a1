package dev.versio.api.served;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServedTargetsAggregatorTest {
  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    private Instant now = Instant.parse("2026-12-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private final TestClock clock = new TestClock();
  private final ServedTargetsAggregator aggregator = new ServedTargetsAggregator(clock);

  /** The Leases a replica writes for {@code targets}, renewed at {@code renewTime}. */
  private static List<Lease> leases(
      String server, String pod, List<String> targets, String renewTime, int leaseSeconds) {
    var out = new ArrayList<Lease>();
    var parts = ServedTargetsCodec.encode(targets);
    for (int i = 0; i < parts.size(); i++) {
      out.add(
          new LeaseBuilder()
              .withNewMetadata()
              .withNamespace("versio")
              .withName("versio-served-" + pod + (i == 0 ? "" : "-" + i))
              .withLabels(
                  Map.of(
                      ServedTargetsCodec.SERVER_LABEL,
                      server,
                      ServedTargetsCodec.REPLICA_LABEL,
                      pod))
              .withAnnotations(parts.get(i))
              .endMetadata()
              .withNewSpec()
              .withHolderIdentity(pod)
              .withLeaseDurationSeconds(leaseSeconds)
              .withRenewTime(ZonedDateTime.parse(renewTime))
              .endSpec()
              .build());
    }
    return out;
  }

  private void observe(List<Lease> leases) {
    leases.forEach(aggregator::observe);
  }

  @Test
  void theServedTargetsAreWhatEveryLiveReplicaServes() {
    observe(leases("a", "a-1", List.of("x.io", "y.io", "z.io"), "2026-12-01T00:00:00Z", 90));
    observe(leases("a", "a-2", List.of("y.io", "z.io"), "2026-12-01T00:00:00Z", 90));
    observe(leases("b", "b-1", List.of("w.io"), "2026-12-01T00:00:00Z", 90));

    assertThat(aggregator.view("a"))
        .isEqualTo(new ServedView(List.of("y.io", "z.io"), 2, List.of()));
    assertThat(aggregator.view("b")).isEqualTo(new ServedView(List.of("w.io"), 1, List.of()));
    assertThat(aggregator.view("c")).isEqualTo(ServedView.NONE);
    assertThat(aggregator.servers()).containsExactly("a", "b");
  }

  @Test
  void aReplicaNotSeenRenewingForItsLeaseDurationNoLongerCountsWhateverItsTimestampSays() {
    // the remote clock is far ahead: only when this process sees renewals matters
    observe(leases("a", "a-1", List.of("x.io"), "2030-01-01T00:00:00Z", 90));
    observe(leases("a", "a-2", List.of("x.io", "y.io"), "2030-01-01T00:00:00Z", 90));
    clock.advance(Duration.ofSeconds(60));
    observe(leases("a", "a-2", List.of("x.io", "y.io"), "2030-01-01T00:00:30Z", 90));
    clock.advance(Duration.ofSeconds(31));

    assertThat(aggregator.view("a"))
        .as("a-1 unseen for 91 s, a-2 renewed 31 s ago")
        .isEqualTo(new ServedView(List.of("x.io", "y.io"), 1, List.of()));
    assertThat(aggregator.untilNextExpiry()).isEqualTo(Duration.ofSeconds(59));
  }

  @Test
  void aHeartbeatThatChangesNothingLeavesTheViewEqual() {
    observe(leases("a", "a-1", List.of("x.io"), "2026-12-01T00:00:00Z", 90));
    var before = aggregator.view("a");
    clock.advance(Duration.ofSeconds(30));
    observe(leases("a", "a-1", List.of("x.io"), "2026-12-01T00:00:30Z", 90));

    assertThat(aggregator.view("a")).isEqualTo(before);
  }

  @Test
  void anUnreadableReportIsNamedAndNeverCountsAsServingNothing() {
    observe(leases("a", "a-1", List.of("x.io"), "2026-12-01T00:00:00Z", 90));
    var torn = leases("a", "a-2", List.of("x.io"), "2026-12-01T00:00:00Z", 90).getFirst();
    var annotations = new HashMap<>(torn.getMetadata().getAnnotations());
    annotations.put(ServedTargetsCodec.TARGETS, "garbage");
    torn.getMetadata().setAnnotations(annotations);
    aggregator.observe(torn);

    var view = aggregator.view("a");
    assertThat(view.servedTargets()).containsExactly("x.io");
    assertThat(view.reportingReplicas()).isEqualTo(1);
    assertThat(view.unreadable()).singleElement().asString().startsWith("versio/a-2: ");
  }

  @Test
  void aDeletedLeaseStopsCountingAtOnce() {
    var gone = leases("a", "a-1", List.of("x.io"), "2026-12-01T00:00:00Z", 90);
    observe(gone);
    observe(leases("a", "a-2", List.of("x.io", "y.io"), "2026-12-01T00:00:00Z", 90));
    gone.forEach(aggregator::forget);

    assertThat(aggregator.view("a"))
        .isEqualTo(new ServedView(List.of("x.io", "y.io"), 1, List.of()));
  }

  @Test
  void aReplicaWhoseSetSpansSeveralLeasesIsReadWhole() {
    var many = new ArrayList<String>();
    for (int i = 0; i < 100_000; i++) {
      many.add(String.format("t%06d-%08x.example.com", i, (i * 2654435761L) & 0xffffffffL));
    }
    var parts = leases("a", "a-1", many, "2026-12-01T00:00:00Z", 90);
    assertThat(parts).hasSizeGreaterThan(1);
    observe(parts);

    assertThat(aggregator.view("a").servedTargets()).hasSize(100_000);
  }

  private static List<Lease> addressed(List<Lease> leases, String address) {
    var zero = leases.getFirst();
    var annotations = new java.util.HashMap<>(zero.getMetadata().getAnnotations());
    annotations.put(ServedTargetsCodec.PEER_ADDRESS, address);
    var out = new ArrayList<>(leases);
    out.set(
        0,
        new LeaseBuilder(zero).editMetadata().withAnnotations(annotations).endMetadata().build());
    return out;
  }

  @Test
  void reviewsAreRoutedOnlyToLiveReplicasThatPublishAnAddressAndServeTheTarget() {
    var renewed = "2026-12-01T00:00:00Z";
    observe(
        addressed(leases("alpha", "alpha-0", List.of("a.x", "b.x"), renewed, 90), "10.0.0.1:9443"));
    observe(addressed(leases("beta", "beta-0", List.of("b.x"), renewed, 90), "10.0.0.2:9443"));
    observe(leases("beta", "beta-1", List.of("b.x", "c.x"), renewed, 90)); // an older replica

    var holders = aggregator.holders();
    assertThat(holders.get("a.x"))
        .extracting(ServedTargetsAggregator.Peer::address)
        .containsExactly("10.0.0.1:9443");
    assertThat(holders.get("b.x"))
        .extracting(ServedTargetsAggregator.Peer::replica)
        .containsExactly("versio/alpha-0", "versio/beta-0");
    assertThat(holders).as("a target only an unaddressed replica serves").doesNotContainKey("c.x");
    assertThat(aggregator.liveWithoutPeerAddress(java.util.Set.of("alpha", "beta")))
        .containsExactly("versio/beta-1");

    clock.advance(Duration.ofSeconds(91));
    observe(
        addressed(
            leases("beta", "beta-0", List.of("b.x"), "2026-12-01T00:01:31Z", 90), "10.0.0.2:9443"));
    assertThat(aggregator.holders().get("b.x"))
        .as("alpha-0 stopped renewing: no longer a route")
        .extracting(ServedTargetsAggregator.Peer::replica)
        .containsExactly("versio/beta-0");
    assertThat(aggregator.liveWithoutPeerAddress(java.util.Set.of("alpha", "beta"))).isEmpty();
  }

  private static List<Lease> reporting(
      List<Lease> leases, Map<String, Map<String, Long>> seen, Instant since) {
    var zero = leases.getFirst();
    var annotations = new java.util.HashMap<>(zero.getMetadata().getAnnotations());
    annotations.putAll(VersionsSeenCodec.annotations(seen, since));
    var out = new ArrayList<>(leases);
    out.set(
        0,
        new LeaseBuilder(zero).editMetadata().withAnnotations(annotations).endMetadata().build());
    return out;
  }

  @Test
  void versionUseMergesTheLiveReplicasThatServeTheTargetFromTheLatestStartOn() {
    var renewed = "2026-12-01T00:00:00Z";
    var early = Instant.parse("2026-11-30T00:00:00Z");
    var late = Instant.parse("2026-11-30T12:00:00Z");
    observe(
        reporting(
            leases("a", "a-0", List.of("x.io"), renewed, 90),
            Map.of("x.io", Map.of("v1", 100L, "v2", 500L)),
            late));
    observe(
        reporting(
            leases("a", "a-1", List.of("x.io"), renewed, 90),
            Map.of("x.io", Map.of("v1", 300L)),
            early));
    // serves another target only: its report of x.io (left from before a move) is not counted
    observe(
        reporting(
            leases("b", "b-0", List.of("y.io"), renewed, 90),
            Map.of("x.io", Map.of("v1", 900L)),
            early.minusSeconds(1)));

    assertThat(aggregator.versionUse("x.io"))
        .as("reviews before a-0 started may have gone to a replica that is gone")
        .contains(
            new VersionUse(
                Map.of("v1", Instant.ofEpochSecond(300), "v2", Instant.ofEpochSecond(500)), late));
    assertThat(aggregator.versionUse("z.io")).as("nobody serves it").isEmpty();

    observe(leases("a", "a-2", List.of("x.io"), renewed, 90)); // reports nothing (older release)
    assertThat(aggregator.versionUse("x.io"))
        .as("a serving replica that reports nothing: its reviews are unknown")
        .contains(
            new VersionUse(
                Map.of("v1", Instant.ofEpochSecond(300), "v2", Instant.ofEpochSecond(500)),
                late,
                false));

    clock.advance(Duration.ofSeconds(91));
    observe(
        reporting(
            leases("a", "a-0", List.of("x.io"), "2026-12-01T00:01:31Z", 90),
            Map.of("x.io", Map.of("v1", 100L, "v2", 500L)),
            late));
    assertThat(aggregator.versionUse("x.io"))
        .as("a-1 and a-2 stopped renewing: only a-0 counts")
        .contains(
            new VersionUse(
                Map.of("v1", Instant.ofEpochSecond(100), "v2", Instant.ofEpochSecond(500)), late));
  }

  @Test
  void
      aTargetThatCameToAReplicaLaterIsCoveredOnlyFromThenAndATruncatedReportCoversNothingLeftOut() {
    var renewed = "2026-12-01T00:00:00Z";
    var start = Instant.parse("2026-11-30T00:00:00Z");
    var moved = Instant.parse("2026-11-30T18:00:00Z");
    observe(
        reporting(
            leases("a", "a-0", List.of("x.io", "y.io"), renewed, 90),
            Map.of("x.io", Map.of(VersionsSeenCodec.WATCHING, moved.getEpochSecond(), "v1", 5L)),
            start));

    assertThat(aggregator.versionUse("x.io"))
        .contains(new VersionUse(Map.of("v1", Instant.ofEpochSecond(5)), moved));
    assertThat(aggregator.versionUse("y.io")).contains(new VersionUse(Map.of(), start));

    var truncated =
        reporting(leases("a", "a-0", List.of("x.io", "y.io"), renewed, 90), Map.of(), start);
    var annotations = new java.util.HashMap<>(truncated.getFirst().getMetadata().getAnnotations());
    annotations.put(VersionsSeenCodec.TRUNCATED, "true");
    truncated.getFirst().getMetadata().setAnnotations(annotations);
    observe(truncated);
    assertThat(aggregator.versionUse("y.io"))
        .as("left out of a truncated report")
        .contains(new VersionUse(Map.of(), start, false));
  }
}
