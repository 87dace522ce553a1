#!/usr/bin/env bash
# Checks the chart's Prometheus alerts with Prometheus's own tool: renders the PrometheusRule of
# charts/versio with Helm (release "versio", namespace versio-system), cuts its spec out into a plain
# rule file, runs `promtool check rules` on it and `promtool test rules` on
# charts/versio/rules/tests/*.yaml, checks that every alert has a test case where it fires and one
# where it does not (exp_alerts: []), and that every query of charts/versio/dashboards/*.json parses.
# Installs Debian's prometheus package (for promtool) when promtool is missing; the service it
# brings is not left running.
#
# Usage: hack/check-alerts.sh            (from anywhere; VERSIO_HELM=/path/to/helm skips the download)
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

fail() { echo "check-alerts.sh: $*" >&2; exit 1; }

if ! command -v promtool >/dev/null; then
  echo "check-alerts.sh: installing promtool (Debian package prometheus)" >&2
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >&2
  # The package may start its service (where no policy-rc.d forbids it); only promtool is wanted.
  if command -v systemctl >/dev/null && systemctl is-active --quiet prometheus 2>/dev/null; then
    systemctl stop prometheus
  elif command -v service >/dev/null && service prometheus status >/dev/null 2>&1; then
    service prometheus stop >/dev/null
  fi
  command -v promtool >/dev/null || fail "the prometheus package installed no promtool"
fi

HELM=$(hack/lib/helm.sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/versio-alerts.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$HELM" template versio charts/versio --namespace versio-system \
  --set metrics.prometheusRule.enabled=true \
  --show-only templates/prometheusrule.yaml >"$work/prometheusrule.yaml" ||
  fail "helm template failed to render templates/prometheusrule.yaml"
grep -q '^kind: PrometheusRule$' "$work/prometheusrule.yaml" ||
  fail "templates/prometheusrule.yaml rendered no PrometheusRule"

# The rule file is everything below the last top-level key, `spec:`, one indent (2 spaces) less.
awk 'found { sub(/^  /, ""); print } /^spec:$/ { found = 1 }' "$work/prometheusrule.yaml" \
  >"$work/versio-alerts.yaml"
grep -q '^groups:' "$work/versio-alerts.yaml" ||
  fail "no groups: under spec: in the rendered PrometheusRule (is spec: still its last key?)"

echo "check-alerts.sh: promtool check rules" >&2
promtool check rules "$work/versio-alerts.yaml" >&2 ||
  fail "promtool check rules failed on the rendered rules (charts/versio/rules/versio-alerts.yaml)"

# The unit tests compare annotations verbatim, so they run against the rules without them
# (check rules above has parsed every annotation template).
awk '
  skip && (/^[[:space:]]*$/ || match($0, /^ */) && RLENGTH > indent) { next }
  { skip = 0 }
  /^ *annotations:/ { match($0, /^ */); indent = RLENGTH; skip = 1; next }
  { print }
' "$work/versio-alerts.yaml" >"$work/rendered-alerts.yaml"

shopt -s nullglob
tests=(charts/versio/rules/tests/*.yaml)
[ ${#tests[@]} -gt 0 ] || fail "no tests in charts/versio/rules/tests/"
cp "${tests[@]}" "$work/"

missing=()
for alert in $(sed -n 's/^ *- alert: *\([A-Za-z0-9_]*\).*/\1/p' "$work/versio-alerts.yaml"); do
  # Each test case is "alertname: X" followed by its exp_alerts line.
  cases=$(cat "${tests[@]}" | awk -v a="$alert" '
    $1 == "alertname:" { name = $2; next }
    name == a && $1 == "exp_alerts:" { print ($2 == "[]" ? "quiet" : "fires"); name = "" }')
  grep -qx fires <<<"$cases" || missing+=("$alert: no case where it fires")
  grep -qx quiet <<<"$cases" || missing+=("$alert: no case where it does not fire (exp_alerts: [])")
done
if [ ${#missing[@]} -gt 0 ]; then
  printf 'check-alerts.sh: %s\n' "${missing[@]}" >&2
  fail "every alert needs a firing and a non-firing case in charts/versio/rules/tests/"
fi

echo "check-alerts.sh: promtool test rules" >&2
(cd "$work" && promtool test rules "${tests[@]##*/}") >&2 ||
  fail "promtool test rules failed (charts/versio/rules/tests/)"

# The dashboards' queries parse: each one becomes a recording rule, Grafana's variables replaced.
dashboards=(charts/versio/dashboards/*.json)
for f in "${dashboards[@]}"; do
  sed -n 's/^ *"expr": "\(.*\)",\{0,1\}$/\1/p' "$f"
done | sed 's/\\"/"/g; s/\\\\/\\/g; s/\$__rate_interval/5m/g; s/\$[A-Za-z_]*/x/g' |
  awk 'BEGIN { print "groups:\n  - name: dashboards\n    rules:" }
       { printf "      - record: dashboard_query_%d\n        expr: |\n          %s\n", NR, $0 }' \
    >"$work/dashboard-queries.yaml"
queries=$(grep -c '^ *- record:' "$work/dashboard-queries.yaml" || true)
[ "$queries" -eq "$(cat "${dashboards[@]}" | grep -c '"expr":')" ] ||
  fail "could not read every \"expr\" of charts/versio/dashboards/*.json (one per line expected)"
echo "check-alerts.sh: promtool check rules on the dashboards' $queries queries" >&2
promtool check rules "$work/dashboard-queries.yaml" >&2 ||
  fail "a query of charts/versio/dashboards/*.json does not parse"

echo "check-alerts.sh: $(grep -c '^ *- alert:' "$work/versio-alerts.yaml") alerts checked and tested," \
  "$queries dashboard queries parsed" >&2
