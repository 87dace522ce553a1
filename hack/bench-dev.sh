#!/usr/bin/env bash
# Time to ready of `versio dev` (the README's main command) from the download of hack/dist.sh,
# unpacked into a temporary folder, with the children's AOT caches (--aot-cache, the default) and
# without (--no-aot-cache). The first run with caches records them (it is reported apart: its
# children train, and its stop writes the caches); then the two variants take turns run by run, so
# a machine shared with other work slows them alike. Each run: `versio dev` until ready, its own
# account of the start-up (phases, and the webhook server's log), then SIGTERM and the time to exit.
# Prints the median (min-max) of each variant and writes everything to docs/bench/ (or --out FILE).
#
# Usage: hack/bench-dev.sh [RUNS] [--out FILE]   (default 5 runs of each variant)
# Needs: dist/versio-*-linux-x64.tar.gz (hack/dist.sh) and the control plane (hack/control-plane.sh).
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=5
out=""
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    *) runs=$1; shift ;;
  esac
done
archive=$(ls dist/versio-*-linux-x64.tar.gz 2>/dev/null | head -n 1)
[ -n "$archive" ] || { echo "no dist/versio-*-linux-x64.tar.gz: run hack/dist.sh first" >&2; exit 2; }
assets=${KUBEBUILDER_ASSETS:-${VERSIO_CACHE_DIR:-$HOME/.cache/versio}/k8s-1.20.2/bin}
[ -x "$assets/kube-apiserver" ] || { echo "no kube-apiserver in $assets: run hack/control-plane.sh" >&2; exit 2; }
[ -n "$out" ] || out=docs/bench/dev-startup-$(date +%Y%m%d-%H%M%S).txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$archive" -C "$work"
home=$(ls -d "$work"/versio-*/ | head -n 1)
cache=$work/cache # the children's AOT caches of this measurement only
results=$work/results
: >"$results"
{
  echo "# hack/bench-dev.sh $runs ($(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
  echo "# $(nproc) cores; archive $(basename "$archive"); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"

# one run of versio dev: prints "<variant> <ready s> <stop s>" into $results and its lines into $out
run() {
  local variant=$1 flag=$2 log=$work/dev.log start ready stop pid
  rm -rf "$work/dev"
  start=$(date +%s.%N)
  VERSIO_CACHE_DIR=$cache KUBEBUILDER_ASSETS=$assets "$home/bin/versio" dev $flag --no-provision \
    --work-dir "$work/dev" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    grep -q '] ready: ' "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "versio dev exited before ready" >&2; exit 1; }
    sleep 0.2
  done
  grep -q '] ready: ' "$log" || { cat "$log" >&2; echo "versio dev not ready in 60 s" >&2; exit 1; }
  ready=$(sed -n 's/^  start-up \([0-9.]*\) s:.*/\1/p' "$log")
  stop=$(date +%s.%N)
  kill -TERM "$pid"
  wait "$pid" || true
  stop=$(awk -v a="$stop" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  printf '%s %s %.1f\n' "$variant" "$ready" "$stop" >>"$results"
  {
    echo "== $variant: ready after $ready s, stopped $(printf '%.1f' "$stop") s after SIGTERM (load $(cut -d' ' -f1 /proc/loadavg))"
    grep -E '^  start-up|started \(pid|AOT cache kept' "$log" | sed 's/^ */    /'
  } | tee -a "$out"
}

run recording ""
for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then
    run cached ""
    run none --no-aot-cache
  else
    run none --no-aot-cache
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
  echo "ready, without (--no-aot-cache):          $(summary none 2)"
  echo "ready, the recording run:                 $(summary recording 2)"
  echo "stop after SIGTERM, with caches / without / recording: $(summary cached 3) / $(summary none 3) / $(summary recording 3)"
} | tee -a "$out"
