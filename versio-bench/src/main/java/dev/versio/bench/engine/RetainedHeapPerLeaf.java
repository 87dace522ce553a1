package dev.versio.bench.engine;

import dev.versio.engine.compile.CompiledConfig;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures the live heap a compiled plan keeps per leaf: compiles {@code count} configs of {@code
 * leaves} leaves each (one FieldRename per leaf), holds them all, forces full GCs and compares used
 * heap before and after. Allocation rate cannot answer this; only live heap can.
 *
 * <p>Usage: {@code java ... RetainedHeapPerLeaf [count=200] [leaves=1000] [shared]}; with {@code
 * shared}, all plans compile one parsed config, so the paths they share with it are not counted.
 */
public final class RetainedHeapPerLeaf {
  private RetainedHeapPerLeaf() {}

  public static void main(String[] args) throws InterruptedException {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int leaves = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    var shared =
        args.length > 2 && args[2].equals("shared") ? EngineBenchFixtures.renames(leaves) : null;
    var target =
        EngineBenchFixtures.target(
            EngineBenchFixtures.leaves(leaves, "f"), EngineBenchFixtures.leaves(leaves, "g"));
    EngineBenchFixtures.compile(
        EngineBenchFixtures.renames(leaves), target); // warm up class loading
    long before = liveHeap();
    List<CompiledConfig> held = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      // a config of its own per plan, as every target has: the paths the plan keeps are counted
      var config = shared != null ? shared : EngineBenchFixtures.renames(leaves);
      held.add(EngineBenchFixtures.compile(config, target));
    }
    long after = liveHeap();
    long perLeaf = (after - before) / ((long) count * leaves);
    System.out.printf(
        "plans held: %d x %d leaves; live heap grew %.1f MiB; retained bytes per compiled leaf: %d%n",
        held.size(), leaves, (after - before) / 1048576.0, perLeaf);
  }

  /** Heap in use once repeated full collections have settled (a measurement tool, not a test). */
  public static long liveHeap() throws InterruptedException {
    var memory = ManagementFactory.getMemoryMXBean();
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(100); // let the collector finish: this is a measurement tool, not a test
      long used = memory.getHeapMemoryUsage().getUsed();
      if (Math.abs(last - used) < 64 * 1024) {
        return used;
      }
      last = used;
    }
    return last;
  }
}
