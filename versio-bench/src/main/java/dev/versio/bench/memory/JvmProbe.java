package dev.versio.bench.memory;

import dev.versio.testkit.process.ManagedProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Reads the memory of another JVM from outside: {@code jcmd} (a full collection, the heap after it,
 * the native memory tracking summary, the flags ergonomics chose) and the kernel's view in {@code
 * /proc/<pid>/status}. All sizes in KiB.
 */
final class JvmProbe {
  private static final Pattern HEAP_LINE =
      Pattern.compile("(?:committed|total) (\\d+)K, used (\\d+)K");
  private static final Pattern NMT_TOTAL =
      Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB");
  private static final Pattern NMT_CATEGORY =
      Pattern.compile("^-\\s+(.+?) \\(reserved=(\\d+)KB, committed=(\\d+)KB");
  private static final Pattern FLAG = Pattern.compile("-XX:([+-]?)(\\w+)(?:=(\\S+))?");

  private JvmProbe() {}

  /** What one measurement of a replica found. */
  record Reading(
      long heapUsedKiB,
      long heapCommittedKiB,
      long nmtReservedKiB,
      long nmtCommittedKiB,
      Map<String, Long> nmtCommittedByCategory,
      long rssKiB,
      long peakRssKiB,
      long rssAnonKiB,
      long rssFileKiB,
      int threads) {
    /** NMT's committed total minus the Java heap: everything else the JVM itself accounts for. */
    long nonHeapCommittedKiB() {
      return nmtCommittedKiB - heapCommittedKiB;
    }

    /** The tracking's own cost, which a replica without NMT does not pay. */
    long nmtSelfKiB() {
      return nmtCommittedByCategory.getOrDefault("Native Memory Tracking", 0L);
    }
  }

  /** {@code jcmd <pid> GC.run}: a full collection (System.gc). */
  static void fullGc(long pid) throws IOException, InterruptedException {
    jcmd(pid, "GC.run");
  }

  /** Heap in use and committed (after a full collection when called after {@link #fullGc}). */
  static Reading read(long pid) throws IOException, InterruptedException {
    long used = 0;
    long heapInfoCommitted = 0;
    for (var line : jcmd(pid, "GC.heap_info").lines().toList()) {
      if (line.startsWith(" ") || line.startsWith("Metaspace") || line.contains("class space")) {
        continue; // sub-lines (spaces, regions) and metaspace
      }
      var m = HEAP_LINE.matcher(line);
      if (m.find()) {
        heapInfoCommitted += Long.parseLong(m.group(1));
        used += Long.parseLong(m.group(2));
      }
    }
    long nmtReserved = 0;
    long nmtCommitted = 0;
    var categories = new LinkedHashMap<String, Long>();
    for (var line : jcmd(pid, "VM.native_memory", "summary", "scale=KB").lines().toList()) {
      var total = NMT_TOTAL.matcher(line);
      if (total.find()) {
        nmtReserved = Long.parseLong(total.group(1));
        nmtCommitted = Long.parseLong(total.group(2));
        continue;
      }
      var category = NMT_CATEGORY.matcher(line);
      if (category.find()) {
        categories.put(category.group(1).trim(), Long.parseLong(category.group(3)));
      }
    }
    if (nmtCommitted == 0) {
      throw new IllegalStateException("no native memory tracking summary from " + pid);
    }
    long heapCommitted = categories.getOrDefault("Java Heap", heapInfoCommitted);
    var status = procStatus(pid);
    return new Reading(
        used,
        heapCommitted,
        nmtReserved,
        nmtCommitted,
        categories,
        status.getOrDefault("VmRSS", -1L),
        status.getOrDefault("VmHWM", -1L),
        status.getOrDefault("RssAnon", -1L),
        status.getOrDefault("RssFile", -1L),
        status.getOrDefault("Threads", -1L).intValue());
  }

  /** The -XX flags the JVM runs with (ergonomic choices included), name to value. */
  static Map<String, String> flags(long pid) throws IOException, InterruptedException {
    var out = new LinkedHashMap<String, String>();
    var m = FLAG.matcher(jcmd(pid, "VM.flags"));
    while (m.find()) {
      out.put(m.group(2), m.group(3) != null ? m.group(3) : m.group(1).equals("+") ? "on" : "off");
    }
    return out;
  }

  /** The garbage collector a JVM runs, by its flags. */
  static String collector(Map<String, String> flags) {
    for (var gc : List.of("UseG1GC", "UseSerialGC", "UseParallelGC", "UseZGC", "UseShenandoahGC")) {
      if ("on".equals(flags.get(gc))) {
        return gc.substring(3, gc.length() - 2);
      }
    }
    return "unknown";
  }

  /** {@code /proc/<pid>/status}: the sizes in KiB (VmRSS, VmHWM, RssAnon, ...) and Threads. */
  static Map<String, Long> procStatus(long pid) throws IOException {
    var out = new LinkedHashMap<String, Long>();
    for (var line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      var key = line.substring(0, colon);
      var value = line.substring(colon + 1).trim().split("\\s+")[0];
      if (value.matches("\\d+")) {
        out.put(key, Long.parseLong(value));
      }
    }
    return out;
  }

  private static String jcmd(long pid, String... command) throws IOException, InterruptedException {
    var args = new ArrayList<String>();
    args.add(Path.of(ManagedProcess.currentJava()).resolveSibling("jcmd").toString());
    args.add(Long.toString(pid));
    args.addAll(List.of(command));
    var process = new ProcessBuilder(args).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "jcmd " + pid + " " + String.join(" ", command) + " failed:\n" + output);
    }
    return output;
  }
}
