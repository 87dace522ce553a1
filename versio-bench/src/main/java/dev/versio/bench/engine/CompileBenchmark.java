package dev.versio.bench.engine;

import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.rule.ConversionConfig;
import dev.versio.engine.schema.SchemaSource;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Compile of an n-leaf hub/spoke pair with one FieldRename per leaf (reference:
 * BenchmarkCompile_LeafCount).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CompileBenchmark {
  @Param({"10", "100", "1000"})
  public int leaves;

  private ConversionConfig config;
  private SchemaSource target;
  private final Compiler compiler = new Compiler();

  @Setup
  public void setUp() {
    target =
        EngineBenchFixtures.target(
            EngineBenchFixtures.leaves(leaves, "f"), EngineBenchFixtures.leaves(leaves, "g"));
    config = EngineBenchFixtures.renames(leaves);
  }

  @Benchmark
  public CompileResult compile() {
    return compiler.compile(config, target);
  }
}
