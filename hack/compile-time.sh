#!/usr/bin/env bash
# Wall-clock time of `versio analyze` (JVM start, parse, compile with counterexample search, report)
# over the deep-schema inputs in docs/bench/deep-compile, N runs each, with the median and range.
#   hack/compile-time.sh [N] [ROOT]     ROOT: a checkout whose CLI is built (default: this one)
set -Eeuo pipefail
runs=${1:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
root=${2:-$here}
. "$here/hack/lib/java.sh"
inputs=$here/docs/bench/deep-compile
measure() {
  local label=$1 config=$2 crd=$3 times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
      -cp "$root/versio-cli/target/versio-cli.jar:$root/versio-cli/target/lib/*" \
      dev.versio.cli.VersioCommand analyze -c "$config" --crd "$crd" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
  done
  local sorted
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  printf '%-34s median %5d ms  range %d-%d ms  runs: %s\n' "$label" \
    "$(echo "$sorted" | sed -n "$(((runs + 1) / 2))p")" "$(echo "$sorted" | head -1)" \
    "$(echo "$sorted" | tail -1)" "${times[*]}"
}
measure "empty config (baseline)" "$inputs/empty.yaml" "$inputs/crd.yaml"
measure "CEL inside 2 ForEach levels" "$inputs/cel-in-foreach.yaml" "$inputs/crd.yaml"
measure "gateway-route story (3 levels)" "$here/examples/gateway-route/config.yaml" \
  "$here/examples/gateway-route/crd.yaml"
