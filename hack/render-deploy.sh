#!/usr/bin/env bash
# Writes deploy/versio.yaml: the chart's default rendering (release versio, namespace
# versio-system) without the CRDs, which stay in deploy/crds. For users without Helm:
#   kubectl create namespace versio-system
#   kubectl apply --server-side -f deploy/crds -f deploy/versio.yaml
# hack/check-chart.sh fails when this file is out of date.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
HELM=$(hack/lib/helm.sh)
{
  echo "# Rendered from charts/versio by hack/render-deploy.sh: do not edit; change the chart."
  "$HELM" template versio charts/versio --namespace versio-system --set crds.install=false
} >deploy/versio.yaml.partial
mv deploy/versio.yaml.partial deploy/versio.yaml
echo "wrote deploy/versio.yaml ($(grep -c '^kind:' deploy/versio.yaml) objects)"
