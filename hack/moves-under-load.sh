#!/usr/bin/env bash
# Moves conversion targets between two webhook servers (two replica processes each) under sustained
# reads and writes, on a control plane of its own, and fails if any request failed or returned a
# wrong value, or any move was not verified. Arguments go to the harness, e.g.:
#   hack/moves-under-load.sh                                      # 10 min at 200 req/s (docs/ha.md)
#   hack/moves-under-load.sh --duration 0s --rate 110 --dwell 3s  # one cycle, as in CI
#   hack/moves-under-load.sh --duration 0s --no-handover-gate     # negative control: gate bypassed
#   hack/moves-under-load.sh --duration 0s --drain 0s             # negative control: no drain
#   hack/moves-under-load.sh --duration 0s --per-server-endpoints # no shared front: moves write CRDs
#   hack/moves-under-load.sh forwarding-latency [REVIEWS [ROUNDS [WARM-UP [JVM-FLAGS...]]]] # the hop alone
#                                  # (replicas with the chart's flags unless JVM-FLAGS are given)
#   hack/moves-under-load.sh replica-capacity [SECONDS [ROUNDS [CONNECTIONS [RATES [COMPARISON]]]]]
#                                  # one replica's reviews/s at p99 <= 5 ms: event-loops (1 vs 1 per core) or c1-only
# Every replica sits behind one shared front (operator --front-url, replicas --forward-reviews)
# unless --per-server-endpoints is given.
# Flags: --duration D (0s = one cycle) --rate R --drain D --no-handover-gate --per-server-endpoints --replicas N
#        --per-type N --warm-up D --dwell D --pause D --renew-every D (0s: none)
#        --steps N (only the first N steps of the cycle; CI's per-server run takes 8) --out FILE.json
set -Eeuo pipefail
main=dev.versio.bench.handover.MovesUnderLoad
if [[ "${1:-}" == forwarding-latency ]]; then
  main=dev.versio.bench.handover.ForwardingLatency
  shift
elif [[ "${1:-}" == replica-capacity ]]; then
  main=dev.versio.bench.handover.ReplicaCapacity
  shift
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh >&2
. hack/lib/bench-harness.sh moves-build.log
. hack/lib/classpath-snapshot.sh
"$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
  -Xmx1g -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener \
  -cp "$cp" "$main" "$@"
