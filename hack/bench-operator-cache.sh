#!/usr/bin/env bash
# What caching every config costs an operator replica (the case for or against a shard-scoped
# cache, docs/ha.md): creates configs on a fresh test control plane up to each count and measures
# the live heap an informer of CRDConversionConfigs holds once synced, three runs per count.
#   hack/bench-operator-cache.sh                 # 1000 and 10000 configs
#   hack/bench-operator-cache.sh 1000 5000 20000
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh >/dev/null
[ $# -ge 1 ] || set -- 1000 10000
log=versio-bench/target/bench-operator-cache-build.log
mkdir -p versio-bench/target
echo "building the harness..." >&2
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-bench -am package \
  dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime \
  >"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 2; }
cp="versio-bench/target/classes:$(cat versio-bench/target/classpath.txt)"
exec "$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx2g -XX:+UseSerialGC -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener \
  -cp "$cp" dev.versio.bench.operator.ConfigCacheHeap "$@"
