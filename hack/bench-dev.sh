#!/usr/bin/env bash
# Time to ready of `versio dev` (the README's main command) from the download of hack/dist.sh,
# unpacked into a temporary folder, with the children's AOT caches (--aot-cache, the default) and
# without (--no-aot-cache). The first run with caches records them (it is reported apart: its
# children train, and its stop writes the caches); then the variants take turns run by run, so a
# machine shared with other work slows them alike. Each run: `versio dev` until ready, its own
# account of the start-up (phases, and the webhook server's log), then SIGTERM and the time to exit.
# "ready" is measured here, from the launcher's exec to the ready line in its output (polled every
# 50 ms); versio dev's own figure is printed with each run.
# With --baseline ARCHIVE (the download of an earlier commit) the variants are this download and
# that one, both with their children's AOT caches (each records its own first); --no-aot-cache is
# then left out.
# Prints the median (min-max) of each variant and writes everything to docs/bench/ (or --out FILE).
#
# Usage: hack/bench-dev.sh [RUNS] [--out FILE] [--baseline ARCHIVE]   (default 5 runs of each)
# Needs: dist/versio-*-linux-x64.tar.gz (hack/dist.sh) and the control plane (hack/control-plane.sh).
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=5
out=""
baseline=""
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --baseline) baseline=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    *) runs=$1; shift ;;
  esac
done
[ -z "$baseline" ] || [ -f "$baseline" ] || { echo "no baseline archive $baseline" >&2; exit 2; }
archive=$(ls dist/versio-*-linux-x64.tar.gz 2>/dev/null | head -n 1)
[ -n "$archive" ] || { echo "no dist/versio-*-linux-x64.tar.gz: run hack/dist.sh first" >&2; exit 2; }
assets=${KUBEBUILDER_ASSETS:-${VERSIO_CACHE_DIR:-$HOME/.cache/versio}/k8s-1.20.2/bin}
[ -x "$assets/kube-apiserver" ] || { echo "no kube-apiserver in $assets: run hack/control-plane.sh" >&2; exit 2; }
[ -n "$out" ] || out=docs/bench/dev-startup-$(date +%Y%m%d-%H%M%S).txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/this" "$work/baseline"
tar -xzf "$archive" -C "$work/this"
home=$(ls -d "$work"/this/versio-*/ | head -n 1)
if [ -n "$baseline" ]; then
  tar -xzf "$baseline" -C "$work/baseline"
  baseline_home=$(ls -d "$work"/baseline/versio-*/ | head -n 1)
fi
results=$work/results
: >"$results"
{
  echo "# hack/bench-dev.sh $runs ($(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- 2>/dev/null || echo ' with uncommitted changes'))"
  echo "# $(nproc) cores; archive $(basename "$archive")${baseline:+, baseline $(basename "$(dirname "$baseline")")/$(basename "$baseline")}; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"

# one run of versio dev: prints "<variant> <ready s> <stop s>" into $results and its lines into $out
# (the variant "baseline" runs the baseline's download; each download has its own AOT caches)
run() {
  local variant=$1 flag=$2 log=$work/dev.log start ready own stop pid bin=$home/bin/versio
  local cache=$work/this/cache
  if [ "$variant" = baseline ] || [ "$variant" = baseline-recording ]; then
    bin=$baseline_home/bin/versio
    cache=$work/baseline/cache
  fi
  rm -rf "$work/dev"
  start=$(date +%s.%N)
  VERSIO_CACHE_DIR=$cache KUBEBUILDER_ASSETS=$assets "$bin" dev $flag --no-provision \
    --work-dir "$work/dev" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 1200); do
    grep -q '] ready: ' "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "versio dev exited before ready" >&2; exit 1; }
    sleep 0.05
  done
  grep -q '] ready: ' "$log" || { cat "$log" >&2; echo "versio dev not ready in 60 s" >&2; exit 1; }
  ready=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  own=$(sed -n 's/^  start-up \([0-9.]*\) s:.*/\1/p' "$log")
  stop=$(date +%s.%N)
  kill -TERM "$pid"
  wait "$pid" || true
  stop=$(awk -v a="$stop" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  printf '%s %s %.1f\n' "$variant" "$ready" "$stop" >>"$results"
  {
    echo "== $variant: ready after $ready s (its own figure: $own s), stopped $(printf '%.1f' "$stop") s after SIGTERM (load $(cut -d' ' -f1 /proc/loadavg))"
    # the run's temporary folder as <tmp>: the output is committed, this machine's paths are not
    grep -E '^  start-up|started \(pid|AOT cache kept' "$log" | sed -e 's/^ */    /' -e "s|$work|<tmp>|g"
  } | tee -a "$out"
}

run recording ""
if [ -n "$baseline" ]; then
  run baseline-recording ""
  second=(baseline "")
else
  second=(none --no-aot-cache)
fi
for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then
    run cached ""
    run "${second[@]}"
  else
    run "${second[@]}"
    run cached ""
  fi
done

summary() {
  local variant=$1 column=$2
  awk -v v="$variant" -v c="$column" '$1 == v { print $c }' "$results" | sort -n |
    awk '{ a[NR] = $1 } END { if (NR == 0) exit; m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
      printf "%.1f s (%.1f-%.1f, %d runs)", m, a[1], a[NR], NR }'
}
{
  echo
  echo "ready, with the children's AOT caches:    $(summary cached 2)"
  if [ -n "$baseline" ]; then
    echo "ready, the baseline with its caches:       $(summary baseline 2)"
    echo "ready, the recording runs (this/baseline): $(summary recording 2) / $(summary baseline-recording 2)"
    echo "stop after SIGTERM, this / baseline:       $(summary cached 3) / $(summary baseline 3)"
  else
    echo "ready, without (--no-aot-cache):          $(summary none 2)"
    echo "ready, the recording run:                 $(summary recording 2)"
    echo "stop after SIGTERM, with caches / without / recording: $(summary cached 3) / $(summary none 3) / $(summary recording 3)"
  fi
} | tee -a "$out"
