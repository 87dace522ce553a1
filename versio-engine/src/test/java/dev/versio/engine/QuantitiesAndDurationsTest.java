package dev.versio.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.runtime.Durations;
import dev.versio.engine.runtime.Quantities;
import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantitiesAndDurationsTest {

  @ParameterizedTest(name = "{0} is {1} milli-units")
  @CsvSource({
    "500m,500",
    "2,2000",
    "1Gi,1073741824000",
    "1.5k,1500000",
    "1e3,1000000",
    "0.5m,1",
    "1n,1",
    "-250m,-250",
    "100Mi,104857600000",
    "+1,1000",
    ".5,500"
  })
  void quantitiesParseExactlyAndRoundSubMilliUp(String text, String milli) {
    assertThat(Quantities.parseMilli(text)).isEqualTo(new BigInteger(milli));
  }

  @ParameterizedTest(name = "{0} milli-units format as {1}")
  @CsvSource({
    "250,250m",
    "1000,1",
    "1500,1500m",
    "2000000,2k",
    "1073741824000,1073741824",
    "0,0",
    "-2000,-2",
    "3000000000000,3G"
  })
  void milliUnitsFormatCanonically(String milli, String text) {
    assertThat(Quantities.formatMilli(new BigInteger(milli))).isEqualTo(text);
  }

  @ParameterizedTest(name = "{0} is {1} s")
  @CsvSource({
    "1h30m,5400",
    "90s,90",
    "1.5h,5400",
    "0,0",
    "-30s,-30",
    "2h0m0s,7200",
    "1000ms,1",
    "300000000000ns,300"
  })
  void durationsParseToWholeSeconds(String text, String seconds) {
    assertThat(Durations.parseSeconds(text)).isEqualTo(new BigInteger(seconds));
  }

  @ParameterizedTest(name = "{0} s formats as {1}")
  @CsvSource({
    "300,5m0s",
    "30,30s",
    "0,0s",
    "5400,1h30m0s",
    "86400,24h0m0s",
    "-30,-30s",
    "3601,1h0m1s"
  })
  void secondsFormatLikeGo(String seconds, String text) {
    assertThat(Durations.formatSeconds(new BigInteger(seconds))).isEqualTo(text);
  }
}
