package dev.versio.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class JmhRunsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode run(double rename, double delete, boolean gc) throws Exception {
    var allocation =
        gc ? ", \"secondaryMetrics\": {\"gc.alloc.rate.norm\": {\"score\": 632.0}}" : "";
    return JSON.readTree(
        """
        [
          {"benchmark": "dev.versio.bench.engine.ConvertPerStrategyBenchmark.hubToSpoke",
           "params": {"strategy": "FieldRename"},
           "primaryMetric": {"score": %s, "scoreUnit": "ns/op"}%s},
          {"benchmark": "dev.versio.bench.engine.ConvertPerStrategyBenchmark.hubToSpoke",
           "params": {"strategy": "Delete"},
           "primaryMetric": {"score": %s, "scoreUnit": "ns/op"}}
        ]
        """
            .formatted(rename, allocation, delete));
  }

  @Test
  void eachBenchmarkAndParameterSetGetsTheMedianOfItsRunsWithTheirRange() throws Exception {
    var rows =
        JmhRuns.byKey(
            JmhRuns.fold(List.of(run(300, 200, true), run(420, 180, true), run(310, 260, true))));

    var rename = rows.get("ConvertPerStrategyBenchmark.hubToSpoke strategy=FieldRename");
    assertThat(rename.median()).isEqualTo(310);
    assertThat(rename.min()).isEqualTo(300);
    assertThat(rename.max()).isEqualTo(420);
    assertThat(rename.unit()).isEqualTo("ns/op");
    assertThat(rename.medianAllocation()).isEqualTo(632);
    assertThat(rows.get("ConvertPerStrategyBenchmark.hubToSpoke strategy=Delete").median())
        .isEqualTo(200);
  }

  @Test
  void anEvenNumberOfRunsTakesTheMeanOfTheMiddleTwoAndNoGcProfileShowsNoAllocation()
      throws Exception {
    var rows = JmhRuns.byKey(JmhRuns.fold(List.of(run(300, 200, false), run(400, 100, false))));

    var rename = rows.get("ConvertPerStrategyBenchmark.hubToSpoke strategy=FieldRename");
    assertThat(rename.median()).isEqualTo(350);
    assertThat(rename.medianAllocation()).isNaN();
  }

  @Test
  void aFileThatIsNotAJmhResultIsRejectedSayingWhatWasExpected() throws Exception {
    assertThatThrownBy(() -> JmhRuns.fold(List.of(JSON.readTree("{\"runs\": []}"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-rf json");
    assertThatThrownBy(() -> JmhRuns.fold(List.of(JSON.readTree("[{\"score\": 1}]"))))
        .hasMessageContaining("no benchmark or primaryMetric");
  }
}
