#!/usr/bin/env bash
# The control-plane fault runs (also part of the test run): a webhook-server replica and then the
# operator, each on a control plane of its own, through (1) etcd and kube-apiserver stopped for 20 s
# and started again, and (2) their kube-apiserver stopped while a second kube-apiserver on the same
# etcd changes a config. Prints the reviews answered during the outage; fails when a review or a
# readiness probe failed during it, a config changed phase, or a change did not arrive afterwards.
#   hack/outage.sh
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-webhook,versio-operator -am install
mvn -B -Dstyle.color=never -pl versio-webhook verify \
  -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ControlPlaneOutageIT "$@"
exec mvn -B -Dstyle.color=never -pl versio-operator verify \
  -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=OperatorControlPlaneOutageIT "$@"
