#!/usr/bin/env bash
# Memory of a real `versio webhook-server` process by the number of targets it serves (a load
# harness, not a test; never part of hack/test.sh): RSS against heap, and the native memory
# tracking summary by category, right after it is ready with no target and with each target count,
# both for the replica that grew to N and for a fresh one that loaded N at its start. Each run has a
# fresh test control plane and the operator (default options) in the harness's JVM. Prints the
# readings of every run and a summary (medians, min-max) and writes the whole output to
# docs/bench/server-memory-<yyyymmdd-hhmmss>.txt (or --out FILE). Examples:
#   hack/bench-server-memory.sh                                  # 100 and 1,000 targets, 3 runs
#   hack/bench-server-memory.sh --targets 100,1000 --runs 3 --runs-largest 2
#   hack/bench-server-memory.sh --targets 1000 --runs 2 --jvm-args "-XX:+UseSerialGC"
#   hack/bench-server-memory.sh --targets 100 --runs 4 --aot yes   # replicas with a server-trained AOT cache
#   hack/bench-server-memory.sh --targets 1000 --runs 2 --load-rate 1000   # RSS under 1,000 reviews/s
# Options: --targets N,N (100,1000), --runs R (3), --runs-largest R (runs that also measure the
#          largest N; all), --xmx SIZE (512m), --jvm-args "ARGS" (more flags for the replica JVM),
#          --reviews-per-target K (3), --min-reviews K (300), --objects K (2), --concurrency C (16),
#          --threads T (concurrent creates, 4), --settle-seconds S (2), --aot yes|no (no; yes: the
#          first replica of run 1 records an AOT cache, left out of the summary, and every later
#          replica starts with it), --load-rate R (0: none; else after each measurement with
#          targets, R reviews/s in an open loop while the replica's RSS is sampled), --load-seconds S
#          (30), --load-in-flight K (32: the replica's HTTP/2 stream limit), --out FILE.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
case " $* " in *" -h "* | *" --help "*) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;; esac
hack/control-plane.sh >&2
out=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -n "$out" ] || out="docs/bench/server-memory-$(date +%Y%m%d-%H%M%S).txt"
mkdir -p "$(dirname "$out")"
# versio-cli/target/classpath.txt (the same goal, run in that module) is the replica's classpath
. hack/lib/bench-harness.sh server-memory-build.log
# a run takes many minutes and starts JVMs along the way: give it a copy of Versio's own jars, so
# that a build meanwhile cannot change the classes under it
snapshot=$(mktemp -d "${TMPDIR:-/tmp}/versio-server-memory-classpath.XXXXXX")
trap 'rm -rf "$snapshot"' EXIT
cp -r versio-bench/target/classes "$snapshot/bench-classes"
# prints the classpath of the entries in file $1 (after the entries in $2), Versio's jars copied
entries() {
  local list=$2 entry
  IFS=: read -r -a items < "$1" || true  # no newline at its end
  for entry in "${items[@]}"; do
    case "$entry" in
      "$root"/*)
        [ -e "$snapshot/$(basename "$entry")" ] || cp "$entry" "$snapshot/"
        list="$list${list:+:}$snapshot/$(basename "$entry")" ;;
      *) list="$list${list:+:}$entry" ;;
    esac
  done
  printf '%s' "$list"
}
cp="$(entries versio-bench/target/classpath.txt "$snapshot/bench-classes")"
# the replica: the CLI's jar first, then its runtime classpath (what the download's lib/ holds)
cp versio-cli/target/versio-cli.jar "$snapshot/versio-cli.jar"
server_cp="$(entries versio-cli/target/classpath.txt "$snapshot/versio-cli.jar")"
echo "writing $out" >&2
"$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx1g -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener \
  -Dbench.commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  -Dbench.server.classpath="$server_cp" \
  -cp "$cp" dev.versio.bench.memory.ServerMemory "${args[@]}" | tee "$out"
