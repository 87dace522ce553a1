package dev.versio.operator.server.children;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapFromMemoryLimitTest {

  private static ResourceRequirements limit(String memory) {
    return new ResourceRequirementsBuilder()
        .withLimits(Map.of("memory", new Quantity(memory)))
        .build();
  }

  private static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  /** 55 % of the limit, but never less than 192 MiB left outside the heap. */
  private static long expectedMiB(long limitMiB) {
    return Math.min(limitMiB * 55 / 100, limitMiB - 192);
  }

  @Test
  void aMemoryLimitSetsTheHeapCeilingAsItsShare() {
    var env = HeapFromMemoryLimit.environment(limit("512Mi"), null);

    assertThat(env).containsExactly(env("JDK_JAVA_OPTIONS", "-Xmx" + expectedMiB(512) + "m"));
  }

  @Test
  void limitsInOtherUnitsAreConvertedToBytesFirst() {
    assertThat(HeapFromMemoryLimit.environment(limit("1Gi"), List.of()))
        .containsExactly(env("JDK_JAVA_OPTIONS", "-Xmx" + expectedMiB(1024) + "m"));
    // 500M = 500,000,000 bytes = 476.8 MiB
    assertThat(HeapFromMemoryLimit.environment(limit("500M"), List.of()))
        .containsExactly(
            env(
                "JDK_JAVA_OPTIONS",
                "-Xmx" + (500_000_000L * HeapFromMemoryLimit.PERCENT / 100 / 1048576) + "m"));
  }

  @Test
  void smallLimitsKeepTheMeasuredNonHeapRoomOutsideTheHeap() {
    assertThat(HeapFromMemoryLimit.heapMiB(java.math.BigDecimal.valueOf(512L << 20)))
        .as("512 MiB: 55 %% is the smaller")
        .isEqualTo(281);
    assertThat(HeapFromMemoryLimit.heapMiB(java.math.BigDecimal.valueOf(384L << 20)))
        .as("384 MiB: 55 %% would leave 173 MiB, so the limit minus 192 MiB")
        .isEqualTo(192);
    assertThat(HeapFromMemoryLimit.heapMiB(java.math.BigDecimal.valueOf(2048L << 20)))
        .isEqualTo(1126);
    assertThat(HeapFromMemoryLimit.heapMiB(java.math.BigDecimal.valueOf(128L << 20)))
        .as("below the reserve the JVM still gets a heap it can start with")
        .isEqualTo(32);
  }

  @Test
  void withoutAMemoryLimitTheJvmDefaultStays() {
    var user = List.of(env("TZ", "UTC"));

    assertThat(HeapFromMemoryLimit.environment(null, user)).isEqualTo(user);
    assertThat(
            HeapFromMemoryLimit.environment(
                new ResourceRequirementsBuilder()
                    .withRequests(Map.of("memory", new Quantity("256Mi")))
                    .build(),
                user))
        .isEqualTo(user);
  }

  @Test
  void aHeapFlagOfTheUsersWinsInEitherVariable() {
    for (var user :
        List.of(
            env("JDK_JAVA_OPTIONS", "-Xmx300m"),
            env("JAVA_TOOL_OPTIONS", "-XX:+UseZGC -XX:MaxRAMPercentage=70"),
            env("JDK_JAVA_OPTIONS", "-XX:MaxHeapSize=1g"))) {
      assertThat(HeapFromMemoryLimit.environment(limit("512Mi"), List.of(user)))
          .as("%s=%s", user.getName(), user.getValue())
          .containsExactly(user);
    }
  }

  @Test
  void theUsersOtherJvmOptionsAreKeptAfterTheHeapCeiling() {
    var env =
        HeapFromMemoryLimit.environment(
            limit("512Mi"), List.of(env("TZ", "UTC"), env("JDK_JAVA_OPTIONS", "-XX:+UseSerialGC")));

    assertThat(env)
        .containsExactly(
            env("TZ", "UTC"),
            env("JDK_JAVA_OPTIONS", "-Xmx" + expectedMiB(512) + "m -XX:+UseSerialGC"));
  }

  @Test
  void optionsTakenFromAConfigMapAreLeftAlone() {
    var fromConfigMap =
        new EnvVarBuilder()
            .withName("JDK_JAVA_OPTIONS")
            .withNewValueFrom()
            .withNewConfigMapKeyRef("opts", "jvm", false)
            .endValueFrom()
            .build();

    assertThat(HeapFromMemoryLimit.environment(limit("512Mi"), List.of(fromConfigMap)))
        .containsExactly(fromConfigMap);
  }
}
