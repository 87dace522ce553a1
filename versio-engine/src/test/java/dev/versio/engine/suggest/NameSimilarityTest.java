package dev.versio.engine.suggest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NameSimilarityTest {
  private static double similarity(String a, String b) {
    return NameSimilarity.of(FieldName.of(a), FieldName.of(b));
  }

  @Test
  void theSameWordsInAnyOrderCaseOrSpellingAreFullyAlike() {
    assertThat(similarity("maxReplicas", "replicasMax")).isEqualTo(1.0);
    assertThat(similarity("maxReplicas", "maximumReplica")).isEqualTo(1.0);
    assertThat(similarity("databaseHost", "dbHost")).isEqualTo(1.0);
    assertThat(similarity("imageRepository", "imageRepo")).isEqualTo(1.0);
    assertThat(similarity("maxconnections", "maxConnections")).isEqualTo(1.0);
  }

  @Test
  void namesSharingSomeWordsScoreByTheShare() {
    assertThat(similarity("burstLimit", "burst")).isEqualTo(2.0 / 3);
    assertThat(similarity("cpuLimit", "memoryLimit")).isEqualTo(0.5);
    assertThat(similarity("selectors", "billing")).isZero();
    assertThat(similarity("replicas", "size")).isZero();
  }

  @Test
  void shortWordsAreNotTakenForAbbreviationsOfLongerOnes() {
    assertThat(similarity("logLevel", "loginLevel")).isEqualTo(0.5);
    assertThat(similarity("agePolicy", "agentPolicy")).isEqualTo(0.5);
  }
}
