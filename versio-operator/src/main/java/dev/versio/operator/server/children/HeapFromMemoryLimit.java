package dev.versio.operator.server.children;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The JVM heap ceiling of a webhook-server replica, set from its container's memory limit: {@code
 * JDK_JAVA_OPTIONS=-Xmx<limit × PERCENT>m}. The JVM's own default (a quarter of the limit) leaves
 * most of a small limit unused, and nothing in between would stop a heap that grows to the limit
 * from being OOM-killed. The share is measured (docs/capacity.md, "Heap from the memory limit"):
 * what a replica needs beside the heap (GC structures, code cache, class metadata, threads) must
 * fit in the rest.
 *
 * <p>Left alone when there is no memory limit, or when the user's {@code extraEnv} already sets a
 * heap flag in {@code JDK_JAVA_OPTIONS} or {@code JAVA_TOOL_OPTIONS} (or sets either from a
 * ConfigMap or Secret, which cannot be read here). A {@code JDK_JAVA_OPTIONS} of the user's without
 * a heap flag keeps its options, after Versio's {@code -Xmx}.
 */
public final class HeapFromMemoryLimit {
  /** Share of the memory limit given to the heap. */
  public static final int PERCENT = 55;

  static final String ENV = "JDK_JAVA_OPTIONS";
  private static final List<String> OPTION_VARIABLES = List.of(ENV, "JAVA_TOOL_OPTIONS");
  private static final Pattern HEAP_FLAG =
      Pattern.compile("(^|\\s)(-Xmx|-XX:MaxHeapSize=|-XX:MaxRAMPercentage=|-XX:MaxRAM=)");
  private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);

  private HeapFromMemoryLimit() {}

  /**
   * The container's environment after Versio's own variables: {@code extraEnv}, with the heap
   * option added or merged when it applies.
   */
  public static List<EnvVar> environment(ResourceRequirements resources, List<EnvVar> extraEnv) {
    var env = new ArrayList<EnvVar>(extraEnv == null ? List.of() : extraEnv);
    var limit = memoryLimit(resources);
    if (limit == null || userSetsHeap(env)) {
      return env;
    }
    var heapMiB =
        limit
            .multiply(BigDecimal.valueOf(PERCENT))
            .divide(BigDecimal.valueOf(100).multiply(MIB), 0, RoundingMode.DOWN)
            .max(BigDecimal.valueOf(16)); // the JVM refuses less
    var option = "-Xmx" + heapMiB.toPlainString() + "m";
    for (int i = 0; i < env.size(); i++) {
      var variable = env.get(i);
      if (ENV.equals(variable.getName())) {
        var theirs = variable.getValue() == null ? "" : variable.getValue().strip();
        env.set(i, variable(theirs.isEmpty() ? option : option + " " + theirs));
        return env;
      }
    }
    env.add(variable(option));
    return env;
  }

  /** The memory limit in bytes, or null. */
  private static BigDecimal memoryLimit(ResourceRequirements resources) {
    if (resources == null || resources.getLimits() == null) {
      return null;
    }
    Quantity memory = resources.getLimits().get("memory");
    return memory == null ? null : Quantity.getAmountInBytes(memory);
  }

  private static boolean userSetsHeap(List<EnvVar> env) {
    for (var variable : env) {
      if (!OPTION_VARIABLES.contains(variable.getName())) {
        continue;
      }
      if (variable.getValueFrom() != null) {
        return true; // not readable here: theirs wins
      }
      if (variable.getValue() != null && HEAP_FLAG.matcher(variable.getValue()).find()) {
        return true;
      }
    }
    return false;
  }

  private static EnvVar variable(String value) {
    return new EnvVarBuilder().withName(ENV).withValue(value).build();
  }
}
