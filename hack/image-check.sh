#!/usr/bin/env bash
# Runs the image that hack/image.sh built from its own root filesystem, the way a container runtime
# would start it (its entrypoint and user from the image config, no JDK or shell of this machine):
#   1. `versio --version`;
#   2. a webhook server against the test apiserver: `bin/versio dev` brings up a control plane, the
#      operator and the field-rename story; the image's `versio webhook-server` then joins server
#      `default` as a second replica (its TLS folder mounted read-only, as a Secret would be),
#      must answer /readyz 200 and convert a v2 Cache to v1 through its HTTPS conversion endpoint;
#      on SIGTERM it must exit 0.
# The root filesystem is unpacked with umoci and entered with unshare + chroot (no container
# engine runs here), as user 65532 like the image config says.
#
# Usage: hack/image-check.sh [IMAGE_ARCHIVE]     (default: dist/versio-*-image.oci.tar)
# Needs: root (it installs umoci, jq, curl and procps with apt-get when missing); bin/versio (built on
# first use) and the control plane of hack/control-plane.sh.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$SECONDS
log() { printf '[%3ds] %s\n' $((SECONDS - start)) "$*"; }
fail() { printf 'image-check.sh: FAILED: %s\n' "$1" >&2; shift; for f in "$@"; do [ -f "$f" ] && tail -n 40 "$f" | sed 's/^/    /' >&2; done; exit 1; }
image=${1:-}
if [ -z "$image" ]; then
  found=(dist/versio-*-image.oci.tar)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}" ] ||
    { echo "image-check.sh: expected one dist/versio-*-image.oci.tar (run hack/image.sh), found: ${found[*]}" >&2; exit 2; }
  image=${found[0]}
fi
missing=()
for tool in umoci jq curl; do command -v $tool >/dev/null || missing+=("$tool"); done
command -v pgrep >/dev/null || missing+=(procps)
if [ ${#missing[@]} -gt 0 ]; then
  echo "image-check.sh: installing ${missing[*]} (Debian)" >&2
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/versio-image-check.XXXXXX")
dev_pid=
server_pid=
unshare_pid=
cleanup() {
  [ -n "$unshare_pid" ] && kill -KILL "$unshare_pid" 2>/dev/null && wait "$unshare_pid" 2>/dev/null || true
  [ -n "$dev_pid" ] && kill -TERM "$dev_pid" 2>/dev/null && wait "$dev_pid" 2>/dev/null || true
  [ -n "${KEEP_TMP:-}" ] && echo "kept $tmp" >&2 || rm -rf "$tmp"
}
trap cleanup EXIT

log "unpacking $(basename "$image") (umoci)"
mkdir -p "$tmp/layout"
tar -xf "$image" -C "$tmp/layout"
tag=$(jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"]' "$tmp/layout/index.json")
umoci unpack --image "$tmp/layout:$tag" "$tmp/bundle" >/dev/null
rootfs=$tmp/bundle/rootfs
config=$tmp/bundle/config.json
user=$(jq -r '"\(.process.user.uid):\(.process.user.gid)"' "$config")
[ "$user" != "0:0" ] || fail "the image runs as root"
[ ! -e "$rootfs/bin/sh" ] && [ ! -e "$rootfs/usr/bin/sh" ] || fail "the image has a shell"
# the entrypoint without the default command (the last argument, --help)
mapfile -t entrypoint < <(jq -r '.process.args[:-1][]' "$config")
log "image $tag: user $user, entrypoint ${entrypoint[*]}"

# in_image PATH... -- ARGS: runs the entrypoint with ARGS in the image's root, with each PATH of this
# machine bind-mounted read-only at the same place (/etc/hosts and /etc/resolv.conf, as the kubelet
# mounts them; the kubeconfig and TLS folder)
in_image() {
  local mounts=()
  while [ "$1" != -- ]; do mounts+=("$1"); shift; done
  shift
  local script='set -e; r=$1; shift; n=$1; shift; i=0
while [ $i -lt $n ]; do if [ -d "$1" ]; then mkdir -p "$r$1"; else : >"$r$1"; fi; mount --bind "$1" "$r$1"; mount -o remount,bind,ro "$r$1"; shift; i=$((i+1)); done
exec env -i "$@"'
  # the environment of the process is only what the image config and the check set
  unshare --mount --pid --fork --kill-child=SIGKILL --mount-proc="$rootfs/proc" \
    sh -c "$script" sh "$rootfs" "${#mounts[@]}" "${mounts[@]}" HOME=/home/versio \
    "${IMAGE_ENV[@]}" "$(command -v chroot)" --userspec="$user" "$rootfs" "${entrypoint[@]}" "$@"
}
IMAGE_ENV=()

log "versio --version from the image"
in_image -- --version >"$tmp/version.out" 2>&1 || fail "versio --version failed in the image" "$tmp/version.out"
grep -q "^versio " "$tmp/version.out" || fail "versio --version printed no version" "$tmp/version.out"
sed 's/^/    /' "$tmp/version.out"

log "starting bin/versio dev (control plane, operator, webhook server, story field-rename)"
mkdir -p "$tmp/dev"
bin/versio dev --work-dir "$tmp/dev" --timeout 3m >"$tmp/dev.log" 2>&1 &
dev_pid=$!
for _ in $(seq 1 240); do
  grep -q '^\[ *[0-9]*s\] ready:' "$tmp/dev.log" && break
  kill -0 "$dev_pid" 2>/dev/null || fail "versio dev exited" "$tmp/dev.log"
  sleep 1
done
grep -q '^\[ *[0-9]*s\] ready:' "$tmp/dev.log" || fail "versio dev was not ready within 4 minutes" "$tmp/dev.log"
run=$(ls -d "$tmp"/dev/cp-* | head -n 1)
[ -f "$run/kubeconfig" ] && [ -d "$run/webhook-server-tls" ] || fail "no kubeconfig or TLS folder in $run"
log "versio dev ready (run folder $(basename "$run"))"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
  shuf -i 20000-60000 -n 1; }
conversion_port=$(free_port)
ops_port=$(free_port)
log "starting the image's webhook server (replica of server default, ports $conversion_port/$ops_port)"
# what a pod gets: the kubeconfig and the TLS Secret mounted readable by the pod's user (fsGroup);
# the run folder's own copies are root's alone
mounted=$tmp/mounted
mkdir -p "$mounted"
cp "$run/kubeconfig" "$mounted/kubeconfig"
cp -R "$run/webhook-server-tls" "$mounted/tls"
chown -R "$user" "$mounted"
IMAGE_ENV=(KUBECONFIG="$mounted/kubeconfig" POD_NAME=image-check POD_NAMESPACE=versio-system)
in_image /etc/hosts /etc/resolv.conf "$mounted" -- webhook-server --server-name default --tls-cert-dir "$mounted/tls" \
  --bind-address 127.0.0.1 --conversion-port "$conversion_port" --ops-port "$ops_port" \
  >"$tmp/server.log" 2>&1 &
unshare_pid=$!
# the image's process itself (PID 1 of its namespace), which gets SIGTERM like a container's
for _ in $(seq 1 50); do
  server_pid=$(pgrep -u "${user%%:*}" -f -- "--conversion-port $conversion_port" || true)
  [ -n "$server_pid" ] && break
  sleep 0.1
done
[ -n "$server_pid" ] || fail "the image's webhook server did not start" "$tmp/server.log"
ready=false
for _ in $(seq 1 120); do
  if curl -fsS --max-time 5 "http://127.0.0.1:$ops_port/readyz" >/dev/null 2>&1; then ready=true; break; fi
  kill -0 "$unshare_pid" 2>/dev/null || fail "the image's webhook server exited" "$tmp/server.log"
  sleep 0.5
done
$ready || fail "the image's webhook server was not ready within 60 s" "$tmp/server.log"
log "/readyz 200"
review='{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{
  "uid":"image-check-1","desiredAPIVersion":"example.com/v1","objects":[{
  "apiVersion":"example.com/v2","kind":"Cache","metadata":{"name":"small","namespace":"default"},
  "spec":{"replicas":3,"memoryMiB":512,"engine":"redis"}}]}}'
# the CA the apiserver trusts for server default (spec.caBundle), to verify the image's TLS
KUBECTL=$(hack/lib/helm.sh --kubectl)
"$KUBECTL" --kubeconfig "$run/kubeconfig" get conversionwebhookservers default \
  -o jsonpath='{.spec.caBundle}' | base64 -d >"$tmp/ca.crt"
grep -q 'BEGIN CERTIFICATE' "$tmp/ca.crt" || fail "server default has no spec.caBundle"
converted=false
for _ in $(seq 1 60); do
  if curl -fsS --max-time 5 --cacert "$tmp/ca.crt" -H 'Content-Type: application/json' \
      --data "$review" "https://127.0.0.1:$conversion_port/convert/caches.example.com" \
      >"$tmp/review.json" 2>"$tmp/curl.err" &&
      [ "$(jq -r '.response.result.status' "$tmp/review.json")" = Success ]; then
    converted=true
    break
  fi
  sleep 0.5
done
$converted || fail "no Success review from the image's webhook server within 30 s: $(cat "$tmp/review.json" "$tmp/curl.err" 2>/dev/null)" "$tmp/server.log"
size=$(jq -r '.response.convertedObjects[0].spec.size' "$tmp/review.json")
[ "$size" = 3 ] || fail "expected spec.size 3 in the converted object, got: $(cat "$tmp/review.json")" "$tmp/server.log"
log "converted v2 -> v1 through the image's webhook server: spec.replicas 3 -> spec.size 3"

kill -TERM "$server_pid"
code=0
wait "$unshare_pid" || code=$?
server_pid=
unshare_pid=
[ "$code" -eq 0 ] || fail "the image's webhook server exited with $code on SIGTERM" "$tmp/server.log"
log "image check passed"
