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
 * JDK_JAVA_OPTIONS=-Xmx<min(limit × PERCENT, limit − RESERVE)>m}. The JVM's own default (a quarter
 * of the limit) leaves most of a small limit unused. The figures are measured (docs/capacity.md,
 * "Heap from the memory limit"): beside the heap a replica needs 150–200 MiB that hardly grows with
 * targets (class metadata, code cache, GC structures, threads, mapped files), so the reserve keeps
 * that room at small limits, where a plain share would leave too little.
 *
 * <p>Left alone when there is no memory limit, or when the user's {@code extraEnv} already sets a
 * heap flag in {@code JDK_JAVA_OPTIONS} or {@code JAVA_TOOL_OPTIONS} (or sets either from a
 * ConfigMap or Secret, which cannot be read here). A {@code JDK_JAVA_OPTIONS} of the user's without
 * a heap flag keeps its options, after Versio's {@code -Xmx}.
 */
public final class HeapFromMemoryLimit {
  /** Share of the memory limit given to the heap. */
  public static final int PERCENT = 55;

  /** What is always left outside the heap, in MiB (the measured non-heap and JIT spikes). */
  public static final int RESERVE_MIB = 192;

  /** Below this the JVM refuses to start or thrashes; the warning in admission says so first. */
  static final int MINIMUM_MIB = 32;

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
    var option = "-Xmx" + heapMiB(limit) + "m";
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

  /** The heap ceiling in MiB for a memory limit of {@code limitBytes}. */
  public static long heapMiB(BigDecimal limitBytes) {
    var share =
        limitBytes
            .multiply(BigDecimal.valueOf(PERCENT))
            .divide(BigDecimal.valueOf(100).multiply(MIB), 0, RoundingMode.DOWN)
            .longValue();
    var rest = limitBytes.divide(MIB, 0, RoundingMode.DOWN).longValue() - RESERVE_MIB;
    return Math.max(MINIMUM_MIB, Math.min(share, rest));
  }

  /** The memory limit in bytes, or null. */
  public static BigDecimal memoryLimit(ResourceRequirements resources) {
    if (resources == null || resources.getLimits() == null) {
      return null;
    }
    Quantity memory = resources.getLimits().get("memory");
    return memory == null ? null : Quantity.getAmountInBytes(memory);
  }

  /** Whether {@code env} (a server's {@code extraEnv}) sets the heap itself. */
  public static boolean userSetsHeap(List<EnvVar> env) {
    if (env == null) {
      return false;
    }
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
