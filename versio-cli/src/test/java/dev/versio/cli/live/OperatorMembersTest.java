package dev.versio.cli.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorMembersTest {
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  private static Lease member(String id, int secondsAgo, Map<String, String> annotations) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName("versio-operator-member-" + id)
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(id)
        .withLeaseDurationSeconds(15)
        .withRenewTime(NOW.minusSeconds(secondsAgo).atZone(ZoneOffset.UTC))
        .endSpec()
        .build();
  }

  private static Lease shard(int n, String holder) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName("versio-operator-shard-" + n)
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(holder)
        .endSpec()
        .build();
  }

  @Test
  void countsShardsPerMemberAndCallsTheShardsOfASilentMemberUnowned() {
    var view =
        OperatorMembers.of(
            List.of(
                member(
                    "a",
                    2,
                    Map.of("versio.dev/shard-count", "4", "versio.dev/resync-backlog", "7")),
                member("b", 40, Map.of("versio.dev/shard-count", "4")),
                shard(0, "a"),
                shard(1, "a"),
                shard(2, "b"),
                shard(3, "")),
            NOW);
    assertThat(view.shardCount()).isEqualTo(4);
    assertThat(view.members())
        .extracting(
            OperatorMembers.Member::id,
            OperatorMembers.Member::live,
            OperatorMembers.Member::shards)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", true, 2),
            org.assertj.core.groups.Tuple.tuple("b", false, 1));
    assertThat(view.unowned()).containsExactly(2, 3);
    var text = new StringWriter();
    view.table(new PrintWriter(text, true), "versio-system");
    assertThat(text.toString()).contains("RESYNC BACKLOG", "7", "2 without a live holder: [2, 3]");
    assertThat(view.json().get("members").get(0).get("resyncBacklog").asText()).isEqualTo("7");
  }

  @Test
  void aFencedMemberIsNotLiveEvenIfItRenewedRecently() {
    var view =
        OperatorMembers.of(
            List.of(
                member("a", 1, Map.of("versio.dev/shard-count", "1", "versio.dev/fenced-by", "b")),
                shard(0, "a")),
            NOW);
    assertThat(view.members().getFirst().live()).isFalse();
    assertThat(view.unowned()).containsExactly(0);
  }

  @Test
  void saysWhereItLookedWhenThereIsNoMember() {
    var text = new StringWriter();
    OperatorMembers.of(List.of(), NOW).table(new PrintWriter(text, true), "ops");
    assertThat(text.toString()).contains("no operator member Leases in namespace ops");
  }
}
