#!/usr/bin/env bash
# Starts a throw-away etcd + kube-apiserver (the same control plane the tests use) in the
# foreground and prints a kubeconfig for kubectl. Stop it with Ctrl-C; nothing is left running.
#   hack/dev-cluster.sh            # state under versio-testkit/target/dev-cluster
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. hack/lib/java.sh
hack/control-plane.sh >/dev/null
log=versio-testkit/target/dev-cluster-build.log
mkdir -p versio-testkit/target
echo "building the test kit..." >&2
mvn -B -Dstyle.color=never -q -DskipTests -Dspotless.check.skip=true -pl versio-testkit -am install \
  >"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 2; }
mvn -B -Dstyle.color=never -q -pl versio-testkit dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime >>"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 2; }
exec "$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow \
  -cp "versio-testkit/target/classes:$(cat versio-testkit/target/classpath.txt)" \
  dev.versio.testkit.ControlPlaneMain versio-testkit/target/dev-cluster
