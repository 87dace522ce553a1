#!/usr/bin/env bash
# The storage migration run (a load harness, not a test; never part of hack/test.sh): N objects of
# one two-version CRD written at v1, v2 promoted to storage, then the operator (defaults, its own
# JVM) re-stores every object at v2 and prunes status.storedVersions, at the rate the
# CRDConversionConfig names; one webhook server in URL mode converts. One control plane, a fresh
# CRD per run; prints a table of the runs and medians (min, max) per rate, and writes the whole
# output to docs/bench/ (or --out FILE). Examples:
#   hack/bench-storage-migration.sh 2000 --rates 50,500 --runs 3   # the reference run
#   hack/bench-storage-migration.sh 200 --rates 500 --runs 1       # a quick smoke
#   hack/bench-storage-migration.sh 2000 --rates 500 --page-size 100
#   hack/bench-storage-migration.sh 2000 --trigger annotation      # versio.dev/migrate-storage
# Options: --rates R1,R2 (50,500), --runs R (3 per rate), --page-size P (500), --threads T
#          (concurrent creates, 4), --trigger automatic|annotation (automatic), --operator-xmx SIZE
#          (512m), --timeout-seconds S (max(180, 3N/slowest rate + 60)), --out FILE.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
case " $* " in *" -h "* | *" --help "*) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;; esac
hack/control-plane.sh >/dev/null
n=2000
[ $# -ge 1 ] && [ "${1#--}" = "$1" ] && n=$1
out=""
for ((i = 1; i <= $#; i++)); do [ "${!i}" = "--out" ] && { j=$((i + 1)); out=${!j}; }; done
if [ -z "$out" ]; then
  out="docs/bench/storage-migration-n$n-$(date +%Y%m%d-%H%M%S).txt"
  set -- "$@" --out "$out"
fi
. hack/lib/bench-harness.sh bench-storage-migration-build.log
. hack/lib/classpath-snapshot.sh
"$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx2g -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener -Dbench.commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  -cp "$cp" dev.versio.bench.operator.StorageMigrationRun "$@"
