#!/usr/bin/env bash
# The fleet scale run (a load harness, not a test; CI runs the 20 x 20 envelope as FleetRunIT): N
# three-version CRDs covering all 29 strategies, their configs, Versio's operator and two
# webhook-server processes, M objects per CRD created at v1, then timed lists and gets at every
# version, each read checked against the engine. A control plane of its own. Examples:
#   hack/scale.sh                                  # 100 CRDs x 100 objects
#   hack/scale.sh --crds 300 --objects 20
#   hack/scale.sh --crds 100 --objects 100 --previous docs/bench/fleet-100x100-run1.json
# Writes the result JSON (also when the run failed) to docs/bench/fleet-<N>x<M>-<time>.json and the
# output next to it (.txt), unless --result-json FILE is given; then checks it (any failed request,
# a run without requests, or with --previous a figure 1.5x worse, fails it). --help lists options.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh >/dev/null
crds=100 objects=100 out=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --crds) crds=${args[$((i + 1))]} ;;
    --objects) objects=${args[$((i + 1))]} ;;
    --result-json) out=${args[$((i + 1))]} ;;
  esac
done
if [ -z "$out" ]; then
  out="docs/bench/fleet-${crds}x${objects}-$(date +%Y%m%d-%H%M%S).json"
  set -- "$@" --result-json "$out"
fi
mkdir -p "$(dirname "$out")"
. hack/lib/bench-classpath.sh
status=0
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
"$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx2g -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener \
  -cp "$cp" dev.versio.bench.fleet.FleetScale "$@" 2>&1 | tee "$raw" || status=$?
# the output kept next to the result, without this machine's temporary paths
grep -v -E '^\s+(kubectl --kubeconfig|logs:)|logs kept in' "$raw" > "${out%.json}.txt" || true
exit "$status"
