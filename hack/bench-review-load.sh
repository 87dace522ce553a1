#!/usr/bin/env bash
# Re-measures the loopback load tables of docs/capacity.md with the open-loop generator
# (dev.versio.bench.webhook.ReviewLoad): every row `runs` times (default 3), each run in a fresh
# JVM, raw output appended to the given file, then one table of medians with their spread.
#   hack/bench-review-load.sh docs/bench/review-load.txt        # all rows, 3 runs each
#   RUNS=5 hack/bench-review-load.sh /tmp/load.txt
#   ROWS="100 20 10 8 2 32;50 20 100 0 2 32" hack/bench-review-load.sh /tmp/rows.txt   # some rows only
# Rows: rate seconds objects padKiB http concurrency.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:?usage: hack/bench-review-load.sh <raw-output-file>}
runs=${RUNS:-3}
. hack/lib/java.sh
. hack/lib/bench-classpath.sh
java=("$JAVA_HOME/bin/java" -Xmx1g --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED
  -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener -Dversio.examples=examples)
rows=(
  "500 20 1 0 2 32"
  "500 20 1 0 1.1 32"
  "200 20 10 0 2 32"
  "50 20 100 0 2 32"
  "100 20 10 8 2 32"
  "1000 10 1 0 2 64"
  "1500 10 1 0 2 64"
  "2000 10 1 0 2 64"
  "3000 10 1 0 2 64"
)
if [ -n "${ROWS:-}" ]; then
  IFS=';' read -r -a rows <<<"$ROWS"
fi
{
  echo "# hack/bench-review-load.sh, $runs run(s) per row, $(date -u +%F)"
  echo "# $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); client and server share them"
} >"$out"
for row in "${rows[@]}"; do
  for run in $(seq "$runs"); do
    echo "== ReviewLoad $row (run $run of $runs)" | tee -a "$out" >&2
    # shellcheck disable=SC2086
    "${java[@]}" -cp "$cp" dev.versio.bench.webhook.ReviewLoad $row 2>/dev/null | tee -a "$out" | grep -E '^(scheduled|latency)' >&2 || true
  done
done
"${java[@]}" -cp "$cp" dev.versio.bench.webhook.ReviewLoadSummary "$out"
