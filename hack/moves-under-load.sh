#!/usr/bin/env bash
# Moves conversion targets between two webhook servers (two replica processes each) under sustained
# reads and writes, on a control plane of its own, and fails if any request failed or returned a
# wrong value, or any move was not verified. Arguments go to the harness, e.g.:
#   hack/moves-under-load.sh                                   # 10 min at 200 req/s (docs/ha.md)
#   hack/moves-under-load.sh --duration 0s --rate 110 --dwell 3s   # one cycle, as in CI
#   hack/moves-under-load.sh --duration 0s --no-handover-gate   # negative control: gate bypassed
#   hack/moves-under-load.sh --duration 0s --drain 0s           # negative control: no drain
# Flags: --duration D (0s = one cycle) --rate R --drain D --no-handover-gate --replicas N
#        --per-type N --dwell D --pause D --out FILE.json
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh >&2
log=versio-bench/target/moves-build.log
mkdir -p versio-bench/target
echo "building the harness..." >&2
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-bench -am install >"$log" 2>&1 \
  || { tail -n 30 "$log" >&2; exit 2; }
mvn -B -Dstyle.color=never -q -pl versio-bench dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >>"$log" 2>&1 \
  || { tail -n 30 "$log" >&2; exit 2; }
cp="versio-bench/target/classes:$(cat versio-bench/target/classpath.txt)"
exec "$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx1g -cp "$cp" dev.versio.bench.handover.MovesUnderLoad "$@"
