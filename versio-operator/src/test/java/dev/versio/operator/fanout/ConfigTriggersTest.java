package dev.versio.operator.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ConfigTriggersTest {
  /** A scheduler that only records what it is asked to run later; the test runs it. */
  static final class RecordingScheduler extends AbstractExecutorService
      implements ScheduledExecutorService {
    record Scheduled(Duration delay, Runnable task, AtomicBoolean cancelled)
        implements ScheduledFuture<Void> {
      @Override
      public long getDelay(TimeUnit unit) {
        return unit.convert(delay);
      }

      @Override
      public int compareTo(Delayed other) {
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
      }

      @Override
      public boolean cancel(boolean mayInterruptIfRunning) {
        return cancelled.compareAndSet(false, true);
      }

      @Override
      public boolean isCancelled() {
        return cancelled.get();
      }

      @Override
      public boolean isDone() {
        return false;
      }

      @Override
      public Void get() {
        throw new UnsupportedOperationException();
      }

      @Override
      public Void get(long timeout, TimeUnit unit) {
        throw new UnsupportedOperationException();
      }
    }

    final List<Scheduled> scheduled = new ArrayList<>();

    /** How many of the next schedule calls are rejected, as a scheduler shutting down does. */
    int rejections;

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      if (rejections > 0) {
        rejections--;
        throw new java.util.concurrent.RejectedExecutionException("shutting down");
      }
      var entry =
          new Scheduled(Duration.of(delay, unit.toChronoUnit()), command, new AtomicBoolean());
      scheduled.add(entry);
      return entry;
    }

    List<Duration> delays() {
      return scheduled.stream().map(Scheduled::delay).toList();
    }

    /** Runs every recorded task not cancelled in the order of its delay, as time passing would. */
    void elapse() {
      scheduled.stream()
          .filter(s -> !s.isCancelled())
          .sorted(Comparator.comparing(Scheduled::delay))
          .forEach(s -> s.task().run());
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(
        Runnable command, long initialDelay, long period, TimeUnit unit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
        Runnable command, long initialDelay, long delay, TimeUnit unit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void execute(Runnable command) {
      throw new UnsupportedOperationException("triggers only schedule");
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }

  private final RecordingScheduler scheduler = new RecordingScheduler();
  private final List<String> triggered = new ArrayList<>();

  private ConfigTriggers<HasMetadata> triggers(double qps) {
    return new ConfigTriggers<>(scheduler, qps, triggered::add);
  }

  @Test
  void nowTriggersEveryNameOnceInFirstSeenOrderWithoutScheduling() {
    triggers(50).now(List.of("b", "a", "b", "c", "a"));

    assertThat(triggered).containsExactly("b", "a", "c");
    assertThat(scheduler.scheduled).isEmpty();
  }

  @Test
  void pacedTriggersTheFirstNameAtOnceAndSchedulesTheIthAfterIOverQps() {
    triggers(50).paced(List.of("a", "b", "a", "c", "d", "b", "e"));

    assertThat(triggered).containsExactly("a");
    assertThat(scheduler.delays())
        .containsExactly(
            Duration.ofMillis(20),
            Duration.ofMillis(40),
            Duration.ofMillis(60),
            Duration.ofMillis(80));
  }

  @Test
  void pacedNamesReachTheSinkDeDuplicatedInOrderOnceTheirTimeComes() {
    triggers(50).paced(List.of("a", "b", "a", "c", "d", "b", "e"));

    scheduler.elapse();

    assertThat(triggered).containsExactly("a", "b", "c", "d", "e");
  }

  @Test
  void twoHundredPacedNamesAtFiftyPerSecondSpreadOverThreePointNineEightSeconds() {
    var names = IntStream.range(0, 200).mapToObj(i -> "c-" + i).toList();
    var triggers = triggers(50);

    triggers.paced(names);

    assertThat(scheduler.delays()).hasSize(199).isSorted();
    assertThat(scheduler.delays().getLast()).isEqualTo(Duration.ofMillis(3980));
    assertThat(triggers.spread(200)).isEqualTo(Duration.ofMillis(3980));
    scheduler.elapse();
    assertThat(triggered).isEqualTo(names);
  }

  @Test
  void aRateOfZeroTriggersEveryPacedNameAtOnce() {
    triggers(0).paced(List.of("a", "b", "a", "c"));

    assertThat(triggered).containsExactly("a", "b", "c");
    assertThat(scheduler.scheduled).isEmpty();
  }

  @Test
  void nothingToTriggerSchedulesNothing() {
    triggers(50).paced(List.of());
    triggers(50).now(List.of());

    assertThat(triggered).isEmpty();
    assertThat(scheduler.scheduled).isEmpty();
  }

  @Test
  void theSpreadOfDuplicatesIsCountedOnUniqueNames() {
    triggers(10).paced(List.of("a", "a", "a", "b"));

    assertThat(scheduler.delays()).containsExactly(Duration.ofMillis(100));
  }

  @Test
  void aConfigWaitingOnAGateIsLookedAtAgainThroughTheLaneAfterTheRequeueDelay() {
    var lane = new ArrayList<String>();
    var triggers = triggers(50);
    triggers.pacedThrough(lane::add);

    triggers.later("waiting", Duration.ofSeconds(2));

    assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(2));
    assertThat(lane).isEmpty();
    scheduler.elapse();
    assertThat(lane).containsExactly("waiting");
    assertThat(triggered).as("never straight to the controller").isEmpty();
    assertThat(triggers.pendingRechecks()).isZero();
  }

  @Test
  void aNewerRecheckOfTheSameConfigReplacesThePendingOne() {
    var lane = new ArrayList<String>();
    var triggers = triggers(50);
    triggers.pacedThrough(lane::add);

    triggers.later("a", Duration.ofSeconds(2));
    triggers.later("b", Duration.ofSeconds(2));
    triggers.later("a", Duration.ofSeconds(2));

    assertThat(triggers.pendingRechecks()).isEqualTo(2);
    scheduler.elapse();
    assertThat(lane).containsExactlyInAnyOrder("a", "b");
    assertThat(triggers.pendingRechecks()).isZero();
  }

  @Test
  void aSecondPacedFanOutSkipsNamesTheFirstHasNotHandedOverYet() {
    var triggers = triggers(50);

    triggers.paced(List.of("a", "b", "c"));
    triggers.paced(List.of("c", "b", "d"));

    assertThat(triggered).as("the first of each fan-out at once").containsExactly("a", "d");
    scheduler.elapse();
    assertThat(triggered).containsExactly("a", "d", "b", "c");
  }

  @Test
  void aNameHandedOverByAnEarlierFanOutIsPacedAgainByTheNextOne() {
    var triggers = triggers(50);
    triggers.paced(List.of("a", "b"));
    scheduler.elapse();

    triggers.paced(List.of("b"));

    assertThat(triggered).containsExactly("a", "b", "b");
  }

  @Test
  void unpacedNamesGoThroughTheLaneAtOnceWithoutScheduling() {
    var lane = new ArrayList<String>();
    var triggers = triggers(50);
    triggers.pacedThrough(lane::add);

    triggers.unpaced(List.of("a", "b", "a", "c"));

    assertThat(lane).containsExactly("a", "b", "c");
    assertThat(triggered).as("never straight to the controller").isEmpty();
    assertThat(scheduler.scheduled).isEmpty();
  }

  @Test
  void aBurstOfCoalescedTriggersReconcilesEachNameOnceAfterTheWindow() {
    var triggers = triggers(50);

    triggers.coalesced(List.of("server-a", "server-b"), Duration.ofSeconds(1));
    triggers.coalesced(List.of("server-a"), Duration.ofSeconds(1));
    triggers.coalesced(List.of("server-b", "server-a"), Duration.ofSeconds(1));

    assertThat(triggered).isEmpty();
    assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
    scheduler.elapse();
    assertThat(triggered).containsExactly("server-a", "server-b");
  }

  @Test
  void aCoalescedTriggerAfterTheLastOneRanSchedulesTheNext() {
    var triggers = triggers(50);
    triggers.coalesced(List.of("server-a"), Duration.ofSeconds(1));
    scheduler.elapse();
    scheduler.scheduled.clear();

    triggers.coalesced(List.of("server-a"), Duration.ofSeconds(1));

    assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1));
    scheduler.elapse();
    assertThat(triggered).containsExactly("server-a", "server-a");
  }

  @Test
  void aPacedNameTheSchedulerRejectedIsNotSkippedByTheNextFanOut() {
    var triggers = triggers(50);
    scheduler.rejections = 1;

    assertThatThrownBy(() -> triggers.paced(List.of("a", "b", "c")))
        .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    triggers.paced(List.of("b", "c"));
    scheduler.elapse();

    assertThat(triggered)
        .as("b was never scheduled, c never reached")
        .containsExactly("a", "b", "c");
  }

  @Test
  void aCoalescedNameTheSchedulerRejectedIsScheduledByTheNextCall() {
    var triggers = triggers(50);
    scheduler.rejections = 1;

    assertThatThrownBy(() -> triggers.coalesced(List.of("server-a"), Duration.ofSeconds(1)))
        .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    triggers.coalesced(List.of("server-a"), Duration.ofSeconds(1));
    scheduler.elapse();

    assertThat(triggered).containsExactly("server-a");
  }

  @Test
  void pacedNamesALaneFailureLeftUnhandedAreTakenByTheNextFanOut() {
    var lane = new ArrayList<String>();
    var failures = new int[] {1};
    var triggers = triggers(50);
    triggers.pacedThrough(
        name -> {
          if (failures[0]-- > 0) {
            throw new IllegalStateException("lane closed");
          }
          lane.add(name);
        });

    assertThatThrownBy(() -> triggers.paced(List.of("a", "b", "c")))
        .isInstanceOf(IllegalStateException.class);
    triggers.paced(List.of("a", "b", "c"));
    scheduler.elapse();

    assertThat(lane).containsExactly("a", "b", "c");
  }
}
