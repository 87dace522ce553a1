package dev.versio.engine.suggest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class FieldNameTest {
  @Test
  void camelSnakeKebabAndAcronymsSplitIntoTheSameWords() {
    assertThat(FieldName.of("maxSurge").stem()).containsExactly("max", "surge");
    assertThat(FieldName.of("max_surge").stem()).containsExactly("max", "surge");
    assertThat(FieldName.of("max-surge").stem()).containsExactly("max", "surge");
    assertThat(FieldName.of("MaxSurge").stem()).containsExactly("max", "surge");
    assertThat(FieldName.of("endpointURL").stem()).containsExactly("endpoint", "url");
    assertThat(FieldName.of("HTTPServerName").stem()).containsExactly("http", "server", "name");
    assertThat(FieldName.of("ipv4Address").stem()).containsExactly("ipv4", "address");
  }

  @Test
  void aTrailingUnitIsKeptApartFromTheWordsItMeasures() {
    assertThat(FieldName.of("timeoutMs"))
        .satisfies(
            n -> {
              assertThat(n.stem()).containsExactly("timeout");
              assertThat(n.unit()).contains(Unit.MILLISECONDS);
            });
    assertThat(FieldName.of("storageGiB").unit()).contains(Unit.GIBIBYTES);
    assertThat(FieldName.of("storageGiB").stem()).containsExactly("storage");
    assertThat(FieldName.of("memoryMB").unit()).contains(Unit.MEGABYTES);
    assertThat(FieldName.of("cpu_percent").unit()).contains(Unit.PERCENT);
  }

  @Test
  void aNameThatIsOnlyAUnitOrUsesMinForMinimumHasNoUnit() {
    assertThat(FieldName.of("seconds").unit()).isEqualTo(Optional.empty());
    assertThat(FieldName.of("replicasMin").unit()).isEqualTo(Optional.empty());
  }

  @Test
  void theKeyIgnoresCaseAndSeparators() {
    assertThat(FieldName.of("max_surge").key()).isEqualTo(FieldName.of("MaxSurge").key());
  }

  @Test
  void theFactorFromTheHubUnitToTheSpokeUnitMakesHubEqualSpokeTimesFactor() {
    assertThat(Unit.MILLISECONDS.factorTo(Unit.SECONDS))
        .hasValueSatisfying(f -> assertThat(f).isEqualByComparingTo("1000"));
    assertThat(Unit.SECONDS.factorTo(Unit.MILLISECONDS))
        .hasValueSatisfying(f -> assertThat(f).isEqualByComparingTo("0.001"));
    assertThat(Unit.PERCENT.factorTo(Unit.RATIO))
        .hasValueSatisfying(f -> assertThat(f).isEqualByComparingTo("100"));
    assertThat(Unit.MINUTES.factorTo(Unit.HOURS))
        .hasValueSatisfying(f -> assertThat(f).isEqualByComparingTo("60"));
    assertThat(Unit.HOURS.factorTo(Unit.MINUTES)).isEmpty();
    assertThat(Unit.SECONDS.factorTo(Unit.BYTES)).isEmpty();
  }
}
