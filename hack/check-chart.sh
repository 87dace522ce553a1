#!/usr/bin/env bash
# Checks the Helm chart charts/versio with real tools:
#   1. helm lint, with the defaults and with every optional part on;
#   2. helm template for several value sets (defaults; everything on; the minimum; Kubernetes 1.20);
#   3. values.schema.json refuses bad values, each with the message a user would see;
#   4. deploy/versio.yaml (plain manifests for users without Helm) is what the chart renders;
#   5. every rendered manifest of every value set (rendered for that apiserver's version, as
#      `helm install` would) is applied with server-side dry run to a real kube-apiserver (the test
#      control plane, 1.20), after Versio's CRDs are installed there for real. Skipped: the Prometheus Operator's kinds (ServiceMonitor, PodMonitor, PrometheusRule),
#      whose CRDs that apiserver does not have.
#
# Usage: hack/check-chart.sh [--no-apiserver]     (--no-apiserver skips step 5)
# Needs: Helm and kubectl (hack/lib/helm.sh fetches them), the control plane of
# hack/control-plane.sh and JDK 25 for the test kit that starts it.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
apiserver=true
for arg in "$@"; do
  case $arg in
    --no-apiserver) apiserver=false ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check-chart.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
start=$SECONDS
log() { printf '[%3ds] %s\n' $((SECONDS - start)) "$*"; }
fail() { printf 'check-chart.sh: FAILED: %s\n' "$1" >&2; shift; for f in "$@"; do [ -f "$f" ] && tail -n 40 "$f" | sed 's/^/    /' >&2; done; exit 1; }
HELM=$(hack/lib/helm.sh)
KUBECTL=$(hack/lib/helm.sh --kubectl)
chart=charts/versio
tmp=$(mktemp -d "${TMPDIR:-/tmp}/versio-check-chart.XXXXXX")
cluster_pid=
cleanup() {
  if [ -n "$cluster_pid" ]; then
    exec 9>&- || true
    kill -TERM "$cluster_pid" 2>/dev/null || true
    wait "$cluster_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# name | helm arguments
value_sets=(
  "defaults|"
  "everything-on|--set metrics.serviceMonitor.enabled=true --set metrics.prometheusRule.enabled=true --set metrics.dashboards.enabled=true --set networkPolicy.enabled=true --set networkPolicy.webhookFrom[0].ipBlock.cidr=10.0.0.10/32 --set serviceFront=true --set defaultServer.autoscaling.enabled=true --set webhookServerNamespaces={team-a} --set webhookServerImageRepositories={ghcr.io/acme/} --set webhookServerServiceAccounts={team-a/reader} --set targetGroups={*.example.com} --set allowUrlMode=true --set operator.replicas=3"
  "minimum|--set crds.install=false --set admission.enabled=false --set defaultServer.enabled=false --set operator.replicas=1 --set operator.xrdSupport=false --set configAuthorRole.enabled=false --set serviceFront=false"
  "kubernetes-1.20|--kube-version 1.20.2"
)

log "helm lint"
"$HELM" lint "$chart" --namespace versio-system >"$tmp/lint.txt" 2>&1 || fail "helm lint (defaults)" "$tmp/lint.txt"
# shellcheck disable=SC2086
"$HELM" lint "$chart" --namespace versio-system ${value_sets[1]#*|} >"$tmp/lint.txt" 2>&1 ||
  fail "helm lint (everything on)" "$tmp/lint.txt"

for set in "${value_sets[@]}"; do
  name=${set%%|*}
  # shellcheck disable=SC2086
  "$HELM" template versio "$chart" --namespace versio-system ${set#*|} >"$tmp/$name.yaml" 2>"$tmp/$name.err" ||
    fail "helm template ($name)" "$tmp/$name.err"
  kinds=$(grep -c '^kind:' "$tmp/$name.yaml")
  log "helm template $name: $kinds objects"
done
# behind the shared front the replicas forward to each other: a policy that admits only the
# control plane must also admit them (everything-on), and the operator runs with the front unless
# it is turned off (minimum)
grep -A30 '^  name: versio-operator-webhook-servers$' "$tmp/everything-on.yaml" | grep -q 'versio.dev/front: "true"' ||
  fail "with serviceFront and networkPolicy.webhookFrom the webhook servers' policy must admit the replicas behind the front"
grep -q -- '--service-front' "$tmp/defaults.yaml" || fail "by default the operator must run with --service-front"
! grep -q -- '--service-front' "$tmp/minimum.yaml" || fail "with serviceFront=false the operator must run without --service-front"
grep -q '^apiVersion: policy/v1beta1' "$tmp/kubernetes-1.20.yaml" ||
  fail "on Kubernetes 1.20 the operator's PodDisruptionBudget must be policy/v1beta1"
grep -q '^apiVersion: policy/v1$' "$tmp/defaults.yaml" ||
  fail "on current Kubernetes the operator's PodDisruptionBudget must be policy/v1"

log "values.schema.json refuses bad values"
# helm arguments | a fragment of the message
rejections=(
  "--set operator.replicas=0|at '/operator/replicas': minimum: got 0, want 1"
  "--set operator.logLevel=LOUD|at '/operator/logLevel': value must be one of"
  "--set operator.resyncInterval=5min|at '/operator/resyncInterval'"
  "--set operator.heapPercent=95|at '/operator/heapPercent'"
  "--set imagee.tag=1.0|additional properties 'imagee' not allowed"
  "--set operator.crdSupport=false --set operator.xrdSupport=false|at '/operator': 'not' failed"
  "--set defaultServer.name=Bad_Name|at '/defaultServer/name'"
  "--set defaultServer.pdb.minAvailable=half|at '/defaultServer/pdb/minAvailable'"
  "--set webhookServerNamespaces={Team_A}|at '/webhookServerNamespaces/0'"
  "--set webhookServerServiceAccounts={reader}|at '/webhookServerServiceAccounts/0'"
  "--set targetGroups={ex*ample.com}|at '/targetGroups/0'"
)
for rejection in "${rejections[@]}"; do
  args=${rejection%%|*}
  expected=${rejection#*|}
  # shellcheck disable=SC2086
  if "$HELM" template versio "$chart" $args >"$tmp/rejected.yaml" 2>"$tmp/rejected.err"; then
    fail "the schema accepted $args"
  fi
  grep -qF -- "$expected" "$tmp/rejected.err" ||
    fail "for $args the message does not say \"$expected\"" "$tmp/rejected.err"
done
log "  ${#rejections[@]} bad value sets refused with their messages"

log "deploy/versio.yaml is the chart's rendering"
{ echo "# Rendered from charts/versio by hack/render-deploy.sh: do not edit; change the chart."; "$HELM" template versio "$chart" --namespace versio-system --set crds.install=false; } >"$tmp/deploy.yaml"
if ! diff -u deploy/versio.yaml "$tmp/deploy.yaml" >"$tmp/deploy.diff"; then
  fail "deploy/versio.yaml is out of date: hack/render-deploy.sh writes it" "$tmp/deploy.diff"
fi

$apiserver || { log "done (no apiserver)"; exit 0; }

log "starting the test control plane (hack/dev-cluster.sh)"
mkfifo "$tmp/stdin"
hack/dev-cluster.sh <"$tmp/stdin" >"$tmp/cluster.out" 2>"$tmp/cluster.err" &
cluster_pid=$!
exec 9>"$tmp/stdin"
for _ in $(seq 1 300); do
  grep -q '^READY ' "$tmp/cluster.out" && break
  kill -0 "$cluster_pid" 2>/dev/null || fail "the control plane did not start" "$tmp/cluster.err"
  sleep 1
done
grep -q '^READY ' "$tmp/cluster.out" || fail "the control plane was not ready within 5 minutes" "$tmp/cluster.err"
export KUBECONFIG
KUBECONFIG=$(awk '/^READY /{print $3}' "$tmp/cluster.out")
k() { "$KUBECTL" --request-timeout=60s "$@"; }
k apply --server-side --field-manager=helm -f deploy/crds >"$tmp/crds.out" 2>&1 || fail "installing Versio's CRDs" "$tmp/crds.out"
k wait --for condition=established --timeout=60s crd --all >/dev/null
k create namespace versio-system >/dev/null
k create namespace team-a >/dev/null
server_version=$(k version -o json 2>/dev/null | sed -n 's/.*"gitVersion": *"v\([^"]*\)".*/\1/p' | tail -n 1)
[ -n "$server_version" ] || fail "cannot read the apiserver's version"
log "apiserver $server_version; Versio's CRDs installed"

skipped_kinds='^(ServiceMonitor|PodMonitor|PrometheusRule)$'
for set in "${value_sets[@]}"; do
  name=${set%%|*}
  # rendered as \`helm install\` would against this apiserver: its version picks the API versions
  # shellcheck disable=SC2086
  "$HELM" template versio "$chart" --namespace versio-system ${set#*|} --kube-version "$server_version" \
    >"$tmp/$name.yaml" 2>"$tmp/$name.err" || fail "helm template ($name, $server_version)" "$tmp/$name.err"
  # one file per object, so each failure names its object
  mkdir -p "$tmp/objects-$name"
  awk -v dir="$tmp/objects-$name" '
    /^---/ { n++; next }
    { file = sprintf("%s/%03d.yaml", dir, n); print > file }' "$tmp/$name.yaml"
  files=()
  skipped=()
  for object in "$tmp/objects-$name"/*.yaml; do
    kind=$(sed -n 's/^kind: *//p' "$object" | head -n 1)
    [ -n "$kind" ] || continue
    obj=$(sed -n 's/^  name: *//p' "$object" | head -n 1)
    if [[ $kind =~ $skipped_kinds ]]; then
      skipped+=("$kind/$obj")
      continue
    fi
    files+=(-f "$object")
  done
  # one kubectl for the whole set (a kubectl per object spent most of this check starting kubectl);
  # it tries every object and names each one the apiserver refuses
  k apply --server-side --dry-run=server --field-manager=helm "${files[@]}" >"$tmp/apply.out" 2>&1 ||
    fail "server-side dry run of the objects of $name: the apiserver refused some (see below)" "$tmp/apply.out"
  applied=$(grep -c 'serverside-applied\|(server dry run)' "$tmp/apply.out" || true)
  [ "$applied" -eq $((${#files[@]} / 2)) ] ||
    fail "server-side dry run of $name: $applied of $((${#files[@]} / 2)) objects reported applied" "$tmp/apply.out"
  log "dry run $name: $applied objects accepted by the apiserver${skipped:+; skipped (no CRD on this apiserver): ${skipped[*]}}"
done
log "chart checks passed"
