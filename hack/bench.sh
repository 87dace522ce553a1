#!/usr/bin/env bash
# Runs Versio's JMH benchmarks (not part of the test run). Arguments go to JMH, e.g.:
#   hack/bench.sh CompileBenchmark -prof gc          # one benchmark with allocation figures
#   hack/bench.sh -f 1 -wi 3 -i 5                    # everything, 1 fork, 3 warm-ups, 5 iterations
#   hack/bench.sh --retained-heap 200 1000           # live heap per compiled leaf
#   hack/bench.sh --review-memory 2000               # heap one review holds per byte of its body
#   hack/bench.sh --review-load 500 20 1 0 2 32      # webhook load: rate s objects padKiB http max-in-flight [timeoutMs]
#   hack/bench.sh --medians run1.json run2.json run3.json  # JMH runs (-rf json) folded into medians with their range
#   hack/bench.sh --scale-check now.json [before.json] [--threshold 1.5] [--noise-floor-ms 5]
#   hack/bench.sh --overload 1000 64 256m [OBJECTS [JVM-FLAG...]] # a webhook-server process at rate, 3x rate, rate: rate max-in-flight xmx objects-per-review
#   hack/bench.sh --cold-start 1000 50 2             # initial compile of 1000 targets x 50 leaves
#   hack/bench.sh --heap 64m --cold-start 1000 50 2  # the same with a container-sized heap (-Xmx64m)
#   hack/bench.sh --shard-movement 1000 64 256      # rendezvous movement and balance per shard count
#   hack/bench.sh --served-sizes 1000 10000 100000   # served-target Leases and characters per target
#   hack/bench.sh --target-movement 10000 2 8        # targets moved when a server joins a pool of N
set -Eeuo pipefail
# --heap SIZE (first) sets the load, cold-start and retained-heap probes' -Xmx (defaults 1g, 2g, 2g)
heap=
if [ "${1:-}" = "--heap" ]; then
  heap=${2:?--heap needs a size, e.g. --heap 64m}
  shift 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
. hack/lib/bench-classpath.sh
java=("$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED
  -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener)
if [ "${1:-}" = "--review-load" ]; then
  shift
  exec "${java[@]}" "-Xmx${heap:-1g}" -Dversio.examples=examples -cp "$cp" dev.versio.bench.webhook.ReviewLoad "$@"
fi
if [ "${1:-}" = "--overload" ]; then
  shift
  hack/control-plane.sh >/dev/null
  exec "${java[@]}" -Xmx1g -cp "$cp" dev.versio.bench.webhook.OverloadRun "$@"
fi
if [ "${1:-}" = "--scale-check" ]; then
  shift
  exec "${java[@]}" -cp "$cp" dev.versio.bench.regression.ScaleRegressionCheck "$@"
fi
if [ "${1:-}" = "--medians" ]; then
  shift
  exec "${java[@]}" -cp "$cp" dev.versio.bench.jmh.JmhMedians "$@"
fi
if [ "${1:-}" = "--cold-start" ]; then
  shift
  exec "${java[@]}" "-Xmx${heap:-2g}" -cp "$cp" dev.versio.bench.webhook.ColdStartProbe "$@"
fi
if [ "${1:-}" = "--served-sizes" ]; then
  shift
  exec "${java[@]}" -cp "$cp" dev.versio.bench.served.ServedTargetsSizes "$@"
fi
if [ "${1:-}" = "--target-movement" ]; then
  shift
  exec "${java[@]}" -cp "$cp" dev.versio.bench.assign.TargetMovement "$@"
fi
if [ "${1:-}" = "--shard-movement" ]; then
  shift
  exec "${java[@]}" -cp "$cp" dev.versio.bench.coordination.ShardMovement "$@"
fi
if [ "${1:-}" = "--review-memory" ]; then
  shift
  exec "${java[@]}" "-Xmx${heap:-2g}" -Dversio.examples=examples -cp "$cp" dev.versio.bench.webhook.ReviewMemory "$@"
fi
if [ "${1:-}" = "--retained-heap" ]; then
  shift
  exec "${java[@]}" "-Xmx${heap:-2g}" -cp "$cp" dev.versio.bench.engine.RetainedHeapPerLeaf "$@"
fi
exec "${java[@]}" -Dversio.examples=examples -cp "$cp" org.openjdk.jmh.Main "$@"
