package dev.versio.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.http.InFlightLimits.Admission.Admitted;
import dev.versio.api.http.InFlightLimits.Admission.Refused;
import dev.versio.api.http.InFlightLimits.Refusal;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InFlightLimitsTest {
  private static InFlightLimits.Slot admitted(InFlightLimits limits, String client) {
    return ((Admitted) limits.admit(client)).slot();
  }

  @Test
  void aClientBeyondItsShareIsRefusedWhileOthersStillGetSlots() {
    var limits = new InFlightLimits(4, 2, 1_000);
    admitted(limits, "a");
    admitted(limits, "a");
    assertThat(limits.admit("a")).isEqualTo(new Refused(Refusal.CLIENT));
    admitted(limits, "b");
    admitted(limits, "c");
    assertThat(limits.admit("d")).isEqualTo(new Refused(Refusal.TOTAL));
    assertThat(limits.inFlight()).isEqualTo(4);
  }

  @Test
  void bytesBeyondTheBudgetAreRefusedAndReleasingGivesEverythingBackOnce() {
    var limits = new InFlightLimits(4, 4, 1_000);
    var first = admitted(limits, "a");
    assertThat(first.charge(600)).isTrue();
    var second = admitted(limits, "a");
    assertThat(second.charge(500)).as("over the budget: nothing counted").isFalse();
    assertThat(limits.bytesInFlight()).isEqualTo(600);
    assertThat(second.charge(400)).isTrue();

    first.release();
    first.release();
    assertThat(limits.bytesInFlight()).isEqualTo(400);
    assertThat(limits.inFlight()).isEqualTo(1);
    second.release();
    assertThat(limits.bytesInFlight()).isZero();
    assertThat(limits.inFlight()).isZero();
    assertThat(limits.admit("a")).isInstanceOf(Admitted.class);
  }

  @Test
  void aClientHoldsAtMostItsShareOfTheBytesAndARetainedSlotIsGivenBackByItsLastHolder() {
    var limits = new InFlightLimits(4, 2, 1_000); // half the slots: half the bytes
    var a = admitted(limits, "a");
    assertThat(a.charge(400)).isTrue();
    assertThat(a.charge(200)).as("over a's 500 bytes").isFalse();
    var b = admitted(limits, "b");
    assertThat(b.charge(500)).isTrue();

    assertThat(a.retain()).isTrue(); // a worker still converts a's body
    a.release(); // the request is answered
    assertThat(limits.bytesInFlight()).isEqualTo(900);
    assertThat(limits.inFlight()).isEqualTo(2);
    a.release(); // the worker is done
    assertThat(limits.bytesInFlight()).isEqualTo(500);
    assertThat(limits.inFlight()).isEqualTo(1);
    assertThat(a.retain()).as("released for good").isFalse();
  }

  @Test
  void concurrentAdmissionsAndReleasesNeverExceedALimitAndEndAtZero() throws Exception {
    var limits = new InFlightLimits(8, 3, 10_000);
    var pool = Executors.newFixedThreadPool(8);
    var start = new CountDownLatch(1);
    var futures = new ArrayList<java.util.concurrent.Future<Integer>>();
    for (int t = 0; t < 8; t++) {
      var client = "c" + (t % 3);
      futures.add(
          pool.submit(
              () -> {
                start.await();
                int exceeded = 0;
                for (int i = 0; i < 20_000; i++) {
                  if (limits.admit(client) instanceof Admitted(var slot)) {
                    if (limits.inFlight() > 8 || !slot.charge(100) && limits.bytesInFlight() < 0) {
                      exceeded++;
                    }
                    slot.release();
                  }
                }
                return exceeded;
              }));
    }
    start.countDown();
    for (var f : futures) {
      assertThat(f.get(60, TimeUnit.SECONDS)).isZero();
    }
    pool.shutdown();
    assertThat(limits.inFlight()).isZero();
    assertThat(limits.bytesInFlight()).isZero();
    assertThat(limits.admit("c0")).isInstanceOf(Admitted.class);
  }
}
