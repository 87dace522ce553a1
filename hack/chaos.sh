#!/usr/bin/env bash
# The long chaos run of the coordination library (not part of the test run): replicas as separate
# JVMs on a real etcd + kube-apiserver, crashed (SIGKILL), stopped (SIGTERM), restarted and scaled,
# with clock offsets of up to ±10 s, while every write is audited. Prints the failover, movement and
# safety figures of docs/ha.md and writes them to versio-coordination/target/chaos/*/report.txt.
#   hack/chaos.sh                      # 32 disruptions, 15 s lease, 5 s renew, 10 s deadline
#   hack/chaos.sh -Dchaos.disruptions=60 -Dchaos.keys=300 -Dchaos.seed=42
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-coordination -am install
exec mvn -B -Dstyle.color=never -pl versio-coordination verify \
  -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ShardFailoverChaosIT \
  -Dchaos.disruptions=32 -Dchaos.leaseSeconds=15 -Dchaos.renewMillis=5000 \
  -Dchaos.deadlineMillis=10000 -Dchaos.retryMillis=1000 -Dchaos.keys=100 "$@"
