#!/usr/bin/env bash
# The long chaos run of the operator (not part of the test run): real operator JVMs with offset
# clocks and a webhook-server JVM on a real etcd + kube-apiserver, configs under churn, crashes
# (SIGKILL), planned stops (SIGTERM), scale-out and scale-in, every write audited. CI runs one round
# with 200 configs and the 23 s crash bound; this runs 1000 configs, where a crash that leaves ~400
# edited configs to the survivors misses 23 s on a 2-core machine (docs/ha.md), and those edits,
# still arriving after the takeover, outrun one reconcile thread, so that live events wait behind
# each other for seconds: the crash bound is set to 90 s and the live-wait bound to 30 s here, to
# record the other figures (per-replica reconciles, writes, heap). Figures:
# versio-operator/target/chaos/operator-*/report.txt.
#   hack/chaos-operator.sh                                  # 3 rounds, 1000 configs
#   hack/chaos-operator.sh -Dchaos.rounds=10 -Dchaos.configs=300 -Dchaos.seed=7
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-operator -am install
exec mvn -B -Dstyle.color=never -pl versio-operator verify \
  -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=OperatorFailoverChaosIT \
  -Dchaos.rounds=3 -Dchaos.configs=1000 -Dchaos.crashBoundSeconds=90 \
  -Dchaos.liveBoundMillis=30000 -Dchaos.plannedBoundMillis=2000 "$@"
