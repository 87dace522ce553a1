#!/usr/bin/env bash
# How `versio test` scales with the size of its input (a benchmark, not a test; never part of
# hack/test.sh). Generates samples of the field-rename story at 1, 5 and 20 MB — one object with a
# long status.conditions list, and a kind: List of many small objects — as JSON and as YAML, runs
# `bin/versio test` on each R times (default 3) through the launcher a user runs, and prints the
# median, min and max wall time per input, and MB/s. The whole output goes to docs/bench/ (or
# --out FILE). Example:
#   hack/bench-cli-inputs.sh --runs 3
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=3
out="docs/bench/cli-inputs-$(date +%Y%m%d-%H%M%S).txt"
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
story=examples/field-rename
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin/versio --version >/dev/null # builds the CLI once, outside the timings

# one Cache whose status.conditions has n entries (about 40 bytes each)
one_json() {
  awk -v n="$1" 'BEGIN {
    printf "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Cache\",\"metadata\":{\"name\":\"big\",\"namespace\":\"default\"},"
    printf "\"spec\":{\"size\":3,\"memoryMiB\":512,\"engine\":\"redis\"},\"status\":{\"phase\":\"Ready\",\"conditions\":["
    for (i = 0; i < n; i++) printf "%s{\"type\":\"Cond%d\",\"status\":\"True\"}", (i ? "," : ""), i
    print "]}}" }'
}
one_yaml() {
  awk -v n="$1" 'BEGIN {
    print "apiVersion: example.com/v1\nkind: Cache\nmetadata: {name: big, namespace: default}"
    print "spec: {size: 3, memoryMiB: 512, engine: redis}\nstatus:\n  phase: Ready\n  conditions:"
    for (i = 0; i < n; i++) printf "  - {type: Cond%d, status: \"True\"}\n", i }'
}
# a kind: List of n small Caches (about 260 bytes each)
list_json() {
  awk -v n="$1" 'BEGIN {
    printf "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
    for (i = 0; i < n; i++) printf "%s{\"apiVersion\":\"example.com/v1\",\"kind\":\"Cache\",\"metadata\":{\"name\":\"c%d\",\"namespace\":\"default\",\"labels\":{\"team\":\"web\"}},\"spec\":{\"size\":%d,\"memoryMiB\":512,\"engine\":\"redis\"},\"status\":{\"phase\":\"Ready\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}", (i ? "," : ""), i, i % 10
    print "]}" }'
}
list_yaml() {
  awk -v n="$1" 'BEGIN {
    print "apiVersion: v1\nkind: List\nitems:"
    for (i = 0; i < n; i++) printf "- apiVersion: example.com/v1\n  kind: Cache\n  metadata: {name: c%d, namespace: default, labels: {team: web}}\n  spec: {size: %d, memoryMiB: 512, engine: redis}\n  status:\n    phase: Ready\n    conditions: [{type: Ready, status: \"True\"}]\n", i, i % 10 }'
}

{
  echo "# hack/bench-cli-inputs.sh --runs $runs"
  echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr)"
  echo "# each row: bin/versio test -c $story/config.yaml --crd $story/crd.yaml -s FILE -q -o json"
  printf '%-22s %9s %9s %9s %9s %8s  %s\n' input bytes median_s min_s max_s MB/s result
  for shape in one list; do
    for mb in 1 5 20; do
      for format in json yaml; do
        if [ $shape = one ]; then n=$((mb * 26000)); else n=$((mb * 3900)); fi
        file=$work/$shape-${mb}mb.$format
        ${shape}_$format "$n" >"$file"
        bytes=$(stat -c %s "$file")
        times=()
        result=""
        for ((r = 0; r < runs; r++)); do
          start=$(date +%s%N)
          code=0
          bin/versio test -c $story/config.yaml --crd $story/crd.yaml -s "$file" -q -o json \
            >"$work/report.json" 2>"$work/err.txt" || code=$?
          end=$(date +%s%N)
          times+=($(((end - start) / 1000000)))
          result="exit $code, $(grep -o '"paths" : [0-9]*' "$work/report.json" | head -1 | tr -d ' "')"
        done
        sorted=($(printf '%s\n' "${times[@]}" | sort -n))
        median=${sorted[$((runs / 2))]}
        awk -v name="$shape-${mb}mb.$format" -v bytes="$bytes" -v med="$median" \
          -v min="${sorted[0]}" -v max="${sorted[$((runs - 1))]}" -v result="$result" \
          'BEGIN { printf "%-22s %9d %9.2f %9.2f %9.2f %8.1f  %s\n", name, bytes, med / 1000,
                   min / 1000, max / 1000, bytes / 1000 / med, result }'
      done
    done
  done
} | tee "$out"
echo "written to $out" >&2
