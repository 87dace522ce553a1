# Runs Versio's image root filesystem as a container would, without a container engine, next to a
# local Versio (`bin/versio dev`): used by hack/image.sh (to record the image's AOT cache on a real
# webhook-server start) and by hack/image-check.sh (to check the image). Source it; it defines:
#
#   IMAGE_ROOTFS, IMAGE_USER ("uid:gid"), IMAGE_ENTRYPOINT (array), IMAGE_ENV (array of NAME=VALUE)
#                                 what in_image runs; set them first
#   in_image PATH... -- ARGS      runs the entrypoint with ARGS in IMAGE_ROOTFS (unshare + chroot),
#                                 each PATH of this machine bind-mounted read-only at the same place
#   dev_up DIR                    starts bin/versio dev (control plane, operator, webhook server,
#                                 story field-rename) with its work folder in DIR; sets DEV_PID and
#                                 DEV_RUN (its run folder: kubeconfig, webhook-server-tls)
#   replica_up DIR LOG [ENV...]   starts the image's `versio webhook-server` as a replica of server
#                                 default with the dev run's kubeconfig and TLS folder (copied into
#                                 DIR, readable by IMAGE_USER), extra ENV for the process, and waits
#                                 for /readyz 200; sets REPLICA_PID (the java process, PID 1 of its
#                                 namespace), REPLICA_UNSHARE_PID, CONVERSION_PORT, OPS_PORT,
#                                 REPLICA_READY_SECONDS
#   convert_cache OUT             sends one v2 Cache to the replica for v1 and writes the review to
#                                 OUT; fails unless it is a Success (CA: the dev run's server default)
#   replica_down                  SIGTERM to the replica, as a Pod is stopped; fails unless it exits 0
#   image_replica_cleanup         kills what is left (call it from an EXIT trap)
#
# Functions return non-zero with a message on stderr; callers decide how to fail.
# Needs: root, jq, curl, pgrep (procps), bin/versio and its control plane.

IMAGE_ROOTFS=
IMAGE_USER=
IMAGE_ENTRYPOINT=()
IMAGE_ENV=()
DEV_PID=
DEV_RUN=
REPLICA_PID=
REPLICA_UNSHARE_PID=
CONVERSION_PORT=
OPS_PORT=
REPLICA_READY_SECONDS=

in_image() {
  local mounts=()
  while [ "$1" != -- ]; do mounts+=("$1"); shift; done
  shift
  local script='set -e; r=$1; shift; n=$1; shift; i=0
while [ $i -lt $n ]; do if [ -d "$1" ]; then mkdir -p "$r$1"; else : >"$r$1"; fi; mount --bind "$1" "$r$1"; mount -o remount,bind,ro "$r$1"; shift; i=$((i+1)); done
exec env -i "$@"'
  # the environment of the process is only what the image config and the caller set
  unshare --mount --pid --fork --kill-child=SIGKILL --mount-proc="$IMAGE_ROOTFS/proc" \
    sh -c "$script" sh "$IMAGE_ROOTFS" "${#mounts[@]}" "${mounts[@]}" HOME=/home/versio \
    "${IMAGE_ENV[@]}" "$(command -v chroot)" --userspec="$IMAGE_USER" "$IMAGE_ROOTFS" \
    "${IMAGE_ENTRYPOINT[@]}" "$@"
}

dev_up() {
  local dir=$1 _
  mkdir -p "$dir/dev"
  # no AOT cache for its children: this run is thrown away, and recording one slows its stop
  bin/versio dev --no-aot-cache --work-dir "$dir/dev" --timeout 3m >"$dir/dev.log" 2>&1 &
  DEV_PID=$!
  for _ in $(seq 1 240); do
    grep -q '^\[ *[0-9]*s\] ready:' "$dir/dev.log" && break
    kill -0 "$DEV_PID" 2>/dev/null || { echo "versio dev exited (log: $dir/dev.log)" >&2; return 1; }
    sleep 1
  done
  grep -q '^\[ *[0-9]*s\] ready:' "$dir/dev.log" ||
    { echo "versio dev was not ready within 4 minutes (log: $dir/dev.log)" >&2; return 1; }
  DEV_RUN=$(ls -d "$dir"/dev/cp-* | head -n 1)
  [ -f "$DEV_RUN/kubeconfig" ] && [ -d "$DEV_RUN/webhook-server-tls" ] ||
    { echo "no kubeconfig or TLS folder in $DEV_RUN" >&2; return 1; }
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
    shuf -i 20000-60000 -n 1
}

replica_up() {
  local dir=$1 log=$2 _ started
  shift 2
  CONVERSION_PORT=$(free_port)
  OPS_PORT=$(free_port)
  # what a pod gets: the kubeconfig and the TLS Secret mounted readable by the pod's user
  # (fsGroup); the run folder's own copies are root's alone
  local mounted=$dir/mounted
  rm -rf "$mounted" && mkdir -p "$mounted"
  cp "$DEV_RUN/kubeconfig" "$mounted/kubeconfig"
  cp -R "$DEV_RUN/webhook-server-tls" "$mounted/tls"
  chown -R "$IMAGE_USER" "$mounted"
  local saved=("${IMAGE_ENV[@]}")
  IMAGE_ENV+=(KUBECONFIG="$mounted/kubeconfig" POD_NAME=image-replica POD_NAMESPACE=versio-system "$@")
  started=$(date +%s%N)
  in_image /etc/hosts /etc/resolv.conf "$mounted" -- webhook-server --server-name default \
    --tls-cert-dir "$mounted/tls" --bind-address 127.0.0.1 --conversion-port "$CONVERSION_PORT" \
    --ops-port "$OPS_PORT" >"$log" 2>&1 &
  REPLICA_UNSHARE_PID=$!
  IMAGE_ENV=("${saved[@]}")
  for _ in $(seq 1 50); do
    REPLICA_PID=$(pgrep -u "${IMAGE_USER%%:*}" -f -- "--conversion-port $CONVERSION_PORT" || true)
    [ -n "$REPLICA_PID" ] && break
    sleep 0.1
  done
  [ -n "$REPLICA_PID" ] || { echo "the image's webhook server did not start (log: $log)" >&2; return 1; }
  for _ in $(seq 1 600); do
    if curl -fsS --max-time 5 "http://127.0.0.1:$OPS_PORT/readyz" >/dev/null 2>&1; then
      REPLICA_READY_SECONDS=$(awk -v a="$started" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b - a) / 1e9}')
      return 0
    fi
    kill -0 "$REPLICA_UNSHARE_PID" 2>/dev/null ||
      { echo "the image's webhook server exited (log: $log)" >&2; return 1; }
    sleep 0.1
  done
  echo "the image's webhook server was not ready within 60 s (log: $log)" >&2
  return 1
}

CACHE_REVIEW='{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{
  "uid":"image-replica-1","desiredAPIVersion":"example.com/v1","objects":[{
  "apiVersion":"example.com/v2","kind":"Cache","metadata":{"name":"small","namespace":"default"},
  "spec":{"replicas":3,"memoryMiB":512,"engine":"redis"}}]}}'

# Sends the review of convert_cache N times over one kept-alive connection (after convert_cache
# succeeded once, which fetched the CA); fails unless every answer is a Success.
convert_cache_repeatedly() {
  local count=$1 out=$2 url urls=()
  url="https://127.0.0.1:$CONVERSION_PORT/convert/caches.example.com"
  for _ in $(seq 1 "$count"); do urls+=("$url"); done
  curl -fsS --max-time 60 --cacert "$DEV_RUN/server-default-ca.crt" \
    -H 'Content-Type: application/json' --data "$CACHE_REVIEW" "${urls[@]}" >"$out" || return 1
  [ "$(grep -o '"status":"Success"' "$out" | wc -l)" -eq "$count" ] ||
    { echo "not every one of $count reviews answered Success (answers: $out)" >&2; return 1; }
}

convert_cache() {
  local out=$1 _
  local review=$CACHE_REVIEW
  local ca=$DEV_RUN/server-default-ca.crt kubectl
  # the CA the apiserver trusts for server default (spec.caBundle), to verify the image's TLS
  if [ ! -s "$ca" ]; then
    kubectl=$(hack/lib/helm.sh --kubectl)
    "$kubectl" --kubeconfig "$DEV_RUN/kubeconfig" get conversionwebhookservers default \
      -o jsonpath='{.spec.caBundle}' | base64 -d >"$ca"
  fi
  grep -q 'BEGIN CERTIFICATE' "$ca" || { rm -f "$ca"; echo "server default has no spec.caBundle" >&2; return 1; }
  for _ in $(seq 1 60); do
    if curl -fsS --max-time 5 --cacert "$ca" -H 'Content-Type: application/json' \
        --data "$review" "https://127.0.0.1:$CONVERSION_PORT/convert/caches.example.com" \
        >"$out" 2>"$out.err" && [ "$(jq -r '.response.result.status' "$out")" = Success ]; then
      return 0
    fi
    sleep 0.5
  done
  echo "no Success review from the image's webhook server within 30 s: $(cat "$out" "$out.err" 2>/dev/null)" >&2
  return 1
}

replica_down() {
  local code=0
  kill -TERM "$REPLICA_PID"
  wait "$REPLICA_UNSHARE_PID" || code=$?
  REPLICA_PID=
  REPLICA_UNSHARE_PID=
  [ "$code" -eq 0 ] || { echo "the image's webhook server exited with $code on SIGTERM" >&2; return 1; }
}

image_replica_cleanup() {
  [ -n "$REPLICA_UNSHARE_PID" ] && kill -KILL "$REPLICA_UNSHARE_PID" 2>/dev/null &&
    wait "$REPLICA_UNSHARE_PID" 2>/dev/null || true
  [ -n "$DEV_PID" ] && kill -TERM "$DEV_PID" 2>/dev/null && wait "$DEV_PID" 2>/dev/null || true
  DEV_PID=
  REPLICA_UNSHARE_PID=
}
