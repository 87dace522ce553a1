# Sourced by the long benchmark scripts (from the project root): builds the benchmark harness, then
# leaves its classpath in versio-bench/target/classpath.txt (and each module's own in
# <module>/target/classpath.txt). It packages within one reactor, with no install, so the classpath
# points at the modules' own target/ jars. The build's output goes to versio-bench/target/$1; on a
# failure its end is printed and the script exits 2.
harness_log=versio-bench/target/${1:?hack/lib/bench-harness.sh needs the name of its build log}
mkdir -p versio-bench/target
echo "building the harness..." >&2
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-bench -am package \
  dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime \
  >"$harness_log" 2>&1 || { tail -n 30 "$harness_log" >&2; exit 2; }
