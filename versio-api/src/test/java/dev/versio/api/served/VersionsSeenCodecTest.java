package dev.versio.api.served;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VersionsSeenCodecTest {
  private static final Instant SINCE = Instant.parse("2026-12-04T10:00:00Z");

  @Test
  void whatAReplicaSawReadsBackPerTargetAndVersion() {
    var annotations =
        VersionsSeenCodec.annotations(
            Map.of(
                "widgets.example.com", Map.of("v1", 1_764_842_400L, "v2", 1_764_842_460L),
                "gizmos.example.com", Map.of("v2", 1_764_842_500L)),
            SINCE);

    assertThat(annotations.get(VersionsSeenCodec.SEEN))
        .isEqualTo(
            "gizmos.example.com=v2:1764842500;widgets.example.com=v1:1764842400,v2:1764842460");
    var seen = VersionsSeenCodec.decode(annotations).orElseThrow();
    assertThat(seen.since()).isEqualTo(SINCE);
    assertThat(seen.byTarget().get("widgets.example.com"))
        .containsEntry("v1", Instant.ofEpochSecond(1_764_842_400L))
        .containsEntry("v2", Instant.ofEpochSecond(1_764_842_460L));
    assertThat(annotations).doesNotContainKey(VersionsSeenCodec.TRUNCATED);
  }

  @Test
  void aReportOverTheSizeLimitLeavesTargetsOutAndSaysSo() {
    var many = new HashMap<String, Map<String, Long>>();
    for (int i = 0; i < 5_000; i++) {
      many.put("target-" + i + ".example.com", Map.of("v1", 1_764_842_400L));
    }

    var annotations = VersionsSeenCodec.annotations(many, SINCE);

    assertThat(annotations.get(VersionsSeenCodec.SEEN).length())
        .isLessThanOrEqualTo(VersionsSeenCodec.MAX_CHARS);
    assertThat(annotations).containsEntry(VersionsSeenCodec.TRUNCATED, "true");
  }

  @Test
  void aLeaseWithoutAReportOrWithGarbageReadsAsNothingOrSkipsTheBadEntries() {
    assertThat(VersionsSeenCodec.decode(Map.of())).isEmpty();
    assertThat(VersionsSeenCodec.decode(Map.of(VersionsSeenCodec.SINCE, "soon"))).isEmpty();
    var seen =
        VersionsSeenCodec.decode(
                Map.of(
                    VersionsSeenCodec.SINCE,
                    "1764842400",
                    VersionsSeenCodec.SEEN,
                    "=v1:1;a.example.com=v1:x,v2:5;b.example.com"))
            .orElseThrow();
    assertThat(seen.byTarget()).containsOnlyKeys("a.example.com");
    assertThat(seen.byTarget().get("a.example.com")).containsOnlyKeys("v2");
  }
}
