package dev.versio.bench.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReviewLoadSummaryTest {
  private static String result(int rate, double p99, String errors) {
    return "RESULT {\"objects\":1,\"padKiB\":0,\"http\":\"2\",\"rate\":"
        + rate
        + ",\"seconds\":10,\"maxInFlight\":64,\"scheduled\":"
        + rate * 10
        + ",\"answeredPerSecond\":"
        + rate
        + ",\"errors\":"
        + errors
        + ",\"latencyMs\":{\"p50\":0.5,\"p99\":"
        + p99
        + ",\"p99.9\":9.0,\"max\":20.0}}";
  }

  @Test
  void aRowShowsTheMedianOfItsRunsWithTheirSpread() throws IOException {
    var table =
        ReviewLoadSummary.table(
            List.of(
                "== ReviewLoad 1000 10 1 0 2 64 (run 1 of 3)",
                result(1000, 4.0, "{}"),
                result(1000, 12.0, "{}"),
                result(1000, 5.0, "{}")));

    assertThat(table)
        .contains("| 1 object | 2 | 1000/s | 64 | 3 | 1000 (1000–1000) | 0.50 ms (0.50–0.50) |")
        .contains("| 5.00 ms (4.00–12.00) |")
        .contains("| 0 of 30000 |");
  }

  @Test
  void errorsOfAnyRunAreSummedByCauseAndStandOut() throws IOException {
    var table =
        ReviewLoadSummary.table(
            List.of(
                result(2000, 15.0, "{\"timeout\":30}"),
                result(2000, 18.0, "{\"timeout\":5,\"unfinished\":2}")));

    assertThat(table).contains("| **37 of 40000** {timeout=35, unfinished=2} |");
  }
}
