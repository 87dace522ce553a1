#!/usr/bin/env bash
# Runs every test of Versio: unit tests (Surefire, *Test) and the integration tests against a real
# etcd + kube-apiserver (Failsafe, *IT). Provisions the control plane first if this machine lacks it
# (one-time, about 5 minutes). Extra arguments go to Maven, e.g.:
#   hack/test.sh -pl versio-testkit -Dit.test=ConversionWebhookIT
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh
status=0
mvn -B -Dstyle.color=never verify "$@" || status=$?
hack/test-summary.sh || true
exit $status
