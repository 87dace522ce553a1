package dev.versio.operator.fanout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** When each of {@code n} fanned-out keys is enqueued: key {@code i} after {@code i / qps} s. */
public final class FanoutSchedule {
  private FanoutSchedule() {}

  public static List<Duration> delays(int n, double qps) {
    var delays = new ArrayList<Duration>(n);
    for (int i = 0; i < n; i++) {
      delays.add(qps <= 0 ? Duration.ZERO : Duration.ofNanos(Math.round(i * 1e9 / qps)));
    }
    return delays;
  }

  /** The wait of the last key: {@code (n - 1) / qps}. */
  public static Duration spread(int n, double qps) {
    return n <= 1 || qps <= 0 ? Duration.ZERO : Duration.ofNanos(Math.round((n - 1) * 1e9 / qps));
  }
}
