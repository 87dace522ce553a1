# Sourced by the benchmark scripts (from the project root, after hack/lib/java.sh): builds the
# benchmarks and their modules, and sets `cp` to the benchmarks' classpath. A failed build prints
# the end of its log and exits 2.
bench_log=versio-bench/target/bench-build.log
mkdir -p versio-bench/target
echo "building the benchmarks..." >&2
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-bench -am install >"$bench_log" 2>&1 \
  || { tail -n 30 "$bench_log" >&2; exit 2; }
mvn -B -Dstyle.color=never -q -pl versio-bench dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >>"$bench_log" 2>&1 \
  || { tail -n 30 "$bench_log" >&2; exit 2; }
cp="versio-bench/target/classes:$(cat versio-bench/target/classpath.txt)"
