#!/usr/bin/env bash
# Start-up of the versio command: `versio --version` and `versio validate` on the field-rename
# story, from the checkout (bin/versio) and from the download of hack/dist.sh (unpacked into a
# temporary folder), with and without its AOT cache. The variants take turns run by run, so a
# machine shared with other work slows them alike. Prints the wall-clock median (min-max) and the
# median CPU time (user + system) of each.
#
# Usage: hack/bench-startup.sh [RUNS]     (default 10 runs, after 2 warm-up runs of each)
# Needs: bin/versio built (it builds itself on first use) and dist/versio-*-linux-x64.tar.gz.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${1:-10}
archive=$(ls dist/versio-*-linux-x64.tar.gz 2>/dev/null | head -n 1)
[ -n "$archive" ] || { echo "bench-startup.sh: no dist/versio-*-linux-x64.tar.gz; run hack/dist.sh first" >&2; exit 2; }
name=$(basename "$archive" .tar.gz)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/versio-bench-startup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/aot" "$tmp/noaot"
tar -xzf "$archive" -C "$tmp/aot"
tar -xzf "$archive" -C "$tmp/noaot"
rm "$tmp/noaot/$name/lib/versio.aot"
bin/versio --version >/dev/null # builds the checkout's CLI if needed

story=examples/field-rename
validate=(validate -c $story/config.yaml --crd $story/crd.yaml)
variants=(checkout archive archive-no-aot)
launcher() {
  case $1 in
    checkout) echo bin/versio ;;
    archive) echo "$tmp/aot/$name/bin/versio" ;;
    archive-no-aot) echo "$tmp/noaot/$name/bin/versio" ;;
  esac
}
# one timed run: appends "wall user sys" in seconds to $tmp/<variant>-<command>
measure() {
  local variant=$1 command=$2 exe
  exe=$(launcher "$variant")
  local TIMEFORMAT='%3R %3U %3S'
  if [ "$command" = version ]; then
    { time "$exe" --version >/dev/null 2>&1; } 2>>"$tmp/$variant-$command"
  else
    { time "$exe" "${validate[@]}" >/dev/null 2>&1; } 2>>"$tmp/$variant-$command"
  fi
}

# median, min and max of the numbers on stdin
stats() {
  sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }'
}

echo "versio start-up, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)), $name"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for variant in "${variants[@]}"; do
  for command in version validate; do measure "$variant" "$command"; measure "$variant" "$command"; done
done
rm -f "$tmp"/*-version "$tmp"/*-validate
for ((i = 1; i <= runs; i++)); do
  for variant in "${variants[@]}"; do
    for command in version validate; do measure "$variant" "$command"; done
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-16s %-30s %28s %14s\n' variant command "wall: median (min-max)" "CPU: median"
for command in version validate; do
  for variant in "${variants[@]}"; do
    shown="versio --version"
    [ "$command" = validate ] && shown="versio validate (field-rename)"
    wall=$(awk '{print $1}' "$tmp/$variant-$command" | stats)
    cpu=$(awk '{print $2 + $3}' "$tmp/$variant-$command" | stats)
    printf '%-16s %-30s %12.2f s (%.2f-%.2f) %12.2f s\n' "$variant" "$shown" $wall ${cpu%% *}
  done
done
echo
echo "raw (wall user sys, s; in run order):"
for variant in "${variants[@]}"; do
  for command in version validate; do echo "$variant $command: $(tr '\n' ',' <"$tmp/$variant-$command" | sed 's/,$//; s/,/, /g')"; done
done
