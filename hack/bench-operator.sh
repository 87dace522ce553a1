#!/usr/bin/env bash
# The operator scale run (a load harness, not a test; never part of hack/test.sh): N two-version
# CRDs x 1 CRDConversionConfig each against the real test control plane, the operator with its
# default options in its own JVM, one default webhook server in URL mode. Prints one summary block
# (medians, min, max) and writes the whole output to docs/bench/ (or --out FILE). Examples:
#   hack/bench-operator.sh 300 --runs 3             # the nightly envelope, three fresh control planes
#   hack/bench-operator.sh 1000 --runs 3
#   hack/bench-operator.sh 300 --runs 3 --cold      # configs created while the operator is down
#   hack/bench-operator.sh 1000 --runs 3 --pool-change   # then a second server joins the pool
#   hack/bench-operator.sh 1000 --runs 3 --pool-change --front   # ... both behind one shared front
# Options: --runs R, --threads T (concurrent creates, 4), --operator-xmx SIZE (512m),
#          --operator-jvm-args "ARGS", --operator-jfr (profile of the operator JVM),
#          --timeout-seconds S (max(180, N/2)), --cold, --pool-change, --front, --out FILE.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
[ $# -ge 1 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
hack/control-plane.sh >/dev/null
n=$1
out=""
for ((i = 2; i <= $#; i++)); do [ "${!i}" = "--out" ] && { j=$((i + 1)); out=${!j}; }; done
mode=running
case " $* " in *" --cold "*) mode=cold ;; esac
if [ -z "$out" ]; then
  out="docs/bench/operator-scale-n$n-$mode-$(date +%Y%m%d-%H%M%S).txt"
  set -- "$@" --out "$out"
fi
. hack/lib/bench-harness.sh bench-operator-build.log
. hack/lib/classpath-snapshot.sh
"$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx2g -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener -Dbench.commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  -cp "$cp" dev.versio.bench.operator.OperatorScale "$@"
