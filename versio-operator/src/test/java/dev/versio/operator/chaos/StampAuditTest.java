package dev.versio.operator.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.operator.chaos.StampAudit.Fenced;
import dev.versio.operator.chaos.StampAudit.ShardLease;
import dev.versio.operator.chaos.StampAudit.StampedWrite;
import java.util.List;
import org.junit.jupiter.api.Test;

class StampAuditTest {
  private final StampAudit audit = new StampAudit(key -> key.startsWith("a") ? 1 : 2);

  @Test
  void writesOfTheHolderAtItsEpochPass() {
    assertThat(
            audit.violations(
                List.of(
                    new ShardLease(1, 1, "r1", 3, "i1"),
                    new StampedWrite(2, "alpha", "status", "r1/3"),
                    new ShardLease(3, 2, "r2", 1, "i2"),
                    new StampedWrite(4, "beta", "target", "r2/1"))))
        .isEmpty();
  }

  @Test
  void aWriteByTheFormerHolderAfterTheShardMovedIsReported() {
    assertThat(
            audit.violations(
                List.of(
                    new ShardLease(1, 1, "r1", 3, "i1"),
                    new ShardLease(2, 1, "r2", 4, "i2"),
                    new StampedWrite(3, "alpha", "status", "r1/3"))))
        .singleElement()
        .asString()
        .contains("revision 3", "alpha", "r1/3", "held by r2/4");
  }

  @Test
  void aWriteUnderAnOldEpochOfTheSameReplicaIsReported() {
    assertThat(
            audit.violations(
                List.of(
                    new ShardLease(1, 1, "r1", 3, "i1"),
                    new ShardLease(2, 1, "r1", 5, "i1"),
                    new StampedWrite(3, "alpha", "status", "r1/3"))))
        .hasSize(1);
  }

  @Test
  void aWriteOfAFencedIncarnationIsReportedEvenIfItsShardLeaseStillNamesIt() {
    assertThat(
            audit.violations(
                List.of(
                    new ShardLease(1, 1, "r1", 3, "i1"),
                    new Fenced(2, "r1", "i1"),
                    new StampedWrite(3, "alpha", "finalizer", "r1/3"))))
        .singleElement()
        .asString()
        .contains("(fenced)");
  }

  @Test
  void entriesAreReplayedInRevisionOrderNotInArrivalOrder() {
    assertThat(
            audit.violations(
                List.of(
                    new StampedWrite(3, "alpha", "status", "r2/4"),
                    new ShardLease(2, 1, "r2", 4, "i2"),
                    new ShardLease(1, 1, "r1", 3, "i1"))))
        .isEmpty();
  }

  @Test
  void anAuditThatSawNoWriteFails() {
    assertThat(audit.violations(List.of(new ShardLease(1, 1, "r1", 3, "i1"))))
        .singleElement()
        .asString()
        .contains("no stamped write");
  }
}
