package dev.versio.bench.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RegressionCheckTest {
  private final RegressionCheck check = new RegressionCheck(1.5, 5);

  static ScaleResult fixture(String name) throws IOException {
    try (InputStream in = RegressionCheckTest.class.getResourceAsStream("/regression/" + name)) {
      return ScaleResult.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
    }
  }

  private RegressionCheck.Report against(String current) throws IOException {
    return check.check(fixture(current), Optional.of(fixture("baseline.json")));
  }

  @Test
  void theSameFiguresPass() throws IOException {
    var report = against("baseline.json");

    assertThat(report.passed()).isTrue();
    assertThat(report.skipped()).isEmpty();
    assertThat(report.rows()).hasSize(9).allMatch(r -> r.status() == RegressionCheck.Status.OK);
  }

  @Test
  void aLatencyAboveTheThresholdFailsWithTheFiguresAndTheRatio() throws IOException {
    var report = against("regressed-p50.json");

    assertThat(report.failures())
        .containsExactly("FAIL: listV1 p50: 90.0 ms -> 190.0 ms (2.11x, threshold 1.50x)");
    assertThat(report.rows())
        .filteredOn(r -> r.status() == RegressionCheck.Status.REGRESSED)
        .singleElement()
        .satisfies(r -> assertThat(r.measurement() + " " + r.figure()).isEqualTo("listV1 p50"));
  }

  @Test
  void aDoubledLatencyWithinTheNoiseFloorIsNotARegression() throws IOException {
    // 2 ms -> 4 ms and 8 ms -> 12 ms: above 1.5x, but at most 5 ms more
    assertThat(against("within-noise.json").passed()).isTrue();
  }

  @Test
  void aThroughputThatFellBelowThePreviousOverTheThresholdFails() throws IOException {
    assertThat(against("slower-create.json").failures())
        .containsExactly(
            "FAIL: create throughput: 300.0/s -> 150.0/s (2.00x slower, threshold 1.50x)");
  }

  @Test
  void anotherEnvelopeOrSchemaVersionIsNotComparedButStillChecked() throws IOException {
    var envelope = against("other-envelope.json");
    var schema = against("schema-v2.json");

    assertThat(envelope.passed()).isTrue();
    assertThat(envelope.rows()).isEmpty();
    assertThat(envelope.skipped()).get().asString().contains("envelope differs", "\"crds\":100");
    assertThat(schema.passed()).isTrue();
    assertThat(schema.skipped()).get().asString().startsWith("schema version 1 → 2");
  }

  @Test
  void anyFailedRequestFailsTheRunEvenWithoutAPreviousOne() throws IOException {
    var report = check.check(fixture("with-errors.json"), Optional.empty());

    assertThat(report.failures()).containsExactly("FAIL: getV2: 3 of 400 requests failed");
    assertThat(report.skipped()).contains("no previous result");
  }

  @Test
  void aRunWithoutRequestsFails() throws IOException {
    assertThat(check.check(fixture("no-requests.json"), Optional.empty()).failures())
        .containsExactly("FAIL: the run made no requests");
  }

  @Test
  void aMeasurementThePreviousRunHadAndThisOneLacksFails() throws IOException {
    assertThat(against("missing-list.json").failures())
        .containsExactly("FAIL: listV1: measured before, missing now");
  }

  @Test
  void aFileThatIsNotAScaleResultIsRefusedWithWhatIsWrong() {
    assertThatThrownBy(() -> ScaleResult.parse("{\"schema\":\"other\"}", "old.json"))
        .hasMessage(
            "old.json is not a scale result: \"schema\" must be \"versio.dev/scale-result\"");
    assertThatThrownBy(
            () ->
                ScaleResult.parse(
                    "{\"schema\":\"versio.dev/scale-result\",\"schemaVersion\":1,\"envelope\":{},"
                        + "\"measurements\":{\"get\":{\"n\":1,\"errors\":2}}}",
                    "r.json"))
        .hasMessageContaining("r.json: measurement \"get\": a measurement needs 0 ≤ errors ≤ n");
    assertThatThrownBy(() -> new RegressionCheck(1.0, 5)).hasMessageContaining("above 1");
  }
}
