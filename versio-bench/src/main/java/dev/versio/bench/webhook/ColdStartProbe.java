package dev.versio.bench.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfigSpec;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.SpokeSpec;
import dev.versio.engine.json.EngineJson;
import dev.versio.webhook.sync.TargetCompiler;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Cold start of a webhook replica without the network: {@code targets} CRDs of {@code leaves}
 * leaves each, one config per target with one rename, compiled on {@code workers} threads exactly
 * as the initial sync does (TargetCompiler per config). Prints the compile time, the live heap
 * holding all routers (steady) and the peak heap seen during the compile.
 *
 * <p>Usage: {@code ColdStartProbe [targets=1000] [leaves=50] [workers=2]}; run with a fresh JVM.
 */
public final class ColdStartProbe {
  private ColdStartProbe() {}

  public static void main(String[] args) throws Exception {
    int targets = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int leaves = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    int workers = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    var json = EngineJson.newMapper();
    var definitions = new ArrayList<String>();
    var specs = new ArrayList<CRDConversionConfigSpec>();
    for (int t = 0; t < targets; t++) {
      definitions.add(json.writeValueAsString(crd(json, t, leaves)));
      specs.add(spec(json, t));
    }
    new TargetCompiler().compile(specs.getFirst(), definitions.getFirst(), false); // load classes
    gc();
    resetPeaks();
    long before = used();
    var pool = Executors.newFixedThreadPool(workers);
    long started = System.nanoTime();
    var futures = new ArrayList<Future<TargetCompiler.Outcome>>();
    var compiler = new TargetCompiler();
    for (int t = 0; t < targets; t++) {
      int i = t;
      futures.add(pool.submit(() -> compiler.compile(specs.get(i), definitions.get(i), false)));
    }
    List<Object> held = new ArrayList<>();
    for (var f : futures) {
      var outcome = f.get();
      if (!(outcome instanceof TargetCompiler.Outcome.Compiled compiled)) {
        throw new IllegalStateException("a target did not compile: " + outcome);
      }
      held.add(compiled.router());
    }
    long took = System.nanoTime() - started;
    pool.shutdown();
    long peakTotal = peak();
    gc();
    long steadyTotal = used();
    System.out.printf(
        "%d targets x %d leaves on %d workers: initial compile %d ms; heap in use: steady %.1f MiB,"
            + " peak %.1f MiB (%.2f x); the routers hold %.1f MiB%n",
        held.size(),
        leaves,
        workers,
        took / 1_000_000,
        steadyTotal / 1048576.0,
        peakTotal / 1048576.0,
        (double) peakTotal / steadyTotal,
        (steadyTotal - before) / 1048576.0);
  }

  private static ObjectNode crd(ObjectMapper json, int t, int leaves) {
    var crd = json.createObjectNode();
    crd.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "CustomResourceDefinition");
    crd.putObject("metadata").put("name", "things" + t + ".example.com");
    var spec = crd.putObject("spec");
    spec.put("group", "example.com");
    var versions = spec.putArray("versions");
    for (var v : new String[] {"v1", "v2"}) {
      var version = versions.addObject();
      version.put("name", v).put("served", true).put("storage", v.equals("v2"));
      var props =
          version
              .putObject("schema")
              .putObject("openAPIV3Schema")
              .put("type", "object")
              .putObject("properties");
      var specProps = props.putObject("spec").put("type", "object").putObject("properties");
      for (int i = 0; i < leaves; i++) {
        var name = i == 0 ? (v.equals("v2") ? "replicas" : "size") : "f" + i;
        specProps.putObject(name).put("type", i % 3 == 0 ? "integer" : "string");
      }
    }
    return crd;
  }

  private static CRDConversionConfigSpec spec(ObjectMapper json, int t) throws Exception {
    var spec = new CRDConversionConfigSpec();
    spec.targetCRD = new NameRef("things" + t + ".example.com");
    spec.hubVersion = "v2";
    var spoke = new SpokeSpec();
    spoke.version = "v1";
    spoke.rules.add(
        json.readTree(
            "{\"strategy\":\"FieldRename\",\"fieldRename\":{\"hubPath\":\"spec.replicas\",\"spokePath\":\"spec.size\"}}"));
    spec.spokes.add(spoke);
    return spec;
  }

  private static void gc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100); // let the collector finish: a measurement tool, not a test
    }
  }

  private static long used() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void resetPeaks() {
    ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP)
        .forEach(p -> p.resetPeakUsage());
  }

  private static long peak() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP)
        .mapToLong(p -> p.getPeakUsage().getUsed())
        .sum();
  }
}
