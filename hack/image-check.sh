#!/usr/bin/env bash
# Runs the image that hack/image.sh built from its own root filesystem, the way a container runtime
# would start it (its entrypoint and user from the image config, no JDK or shell of this machine):
#   1. `versio --version`;
#   2. a webhook server against the test apiserver: `bin/versio dev` brings up a control plane, the
#      operator and the field-rename story; the image's `versio webhook-server` then joins server
#      `default` as a second replica (its TLS folder mounted read-only, as a Secret would be),
#      must start with the image's AOT cache (-XX:AOTMode=on), answer /readyz 200 and convert a
#      v2 Cache to v1 through its HTTPS conversion endpoint; on SIGTERM it must exit 0.
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

. hack/lib/image-replica.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/versio-image-check.XXXXXX")
cleanup() {
  image_replica_cleanup
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
# its OCI annotations (manifest) and labels (config), and the SBOM inside it
manifest=$tmp/layout/blobs/$(jq -r '.manifests[0].digest' "$tmp/layout/index.json" | tr : /)
image_config=$tmp/layout/blobs/$(jq -r '.config.digest' "$manifest" | tr : /)
for key in source revision version created licenses; do
  a=$(jq -r --arg k "org.opencontainers.image.$key" '.annotations[$k] // empty' "$manifest")
  l=$(jq -r --arg k "org.opencontainers.image.$key" '.config.Labels[$k] // empty' "$image_config")
  [ -n "$a" ] && [ "$a" = "$l" ] ||
    fail "annotation org.opencontainers.image.$key is '$a' on the manifest and '$l' in the config"
done
[ "$(jq -r '.annotations["org.opencontainers.image.version"]' "$manifest")" = "$tag" ] ||
  fail "the manifest's org.opencontainers.image.version is not the tag $tag"
jq -e '.bomFormat == "CycloneDX" and (.components | length) > 50' "$rootfs/opt/versio/sbom.cdx.json" >/dev/null ||
  fail "the image has no CycloneDX SBOM of its jars at /opt/versio/sbom.cdx.json"
log "annotations: source, revision, version, created, licenses on manifest and config; SBOM at /opt/versio/sbom.cdx.json ($(jq '.components | length' "$rootfs/opt/versio/sbom.cdx.json") components)"
# the same SBOM attached to the image in the layout: an artifact whose subject is the image
image_digest=$(jq -r '.manifests[0].digest' "$tmp/layout/index.json")
artifact=$(jq -r '[.manifests[] | select(.artifactType == "application/vnd.cyclonedx+json")] | if length == 1 then .[0].digest else empty end' "$tmp/layout/index.json")
[ -n "$artifact" ] || fail "the layout has not exactly one SBOM artifact (artifactType application/vnd.cyclonedx+json)" "$tmp/layout/index.json"
artifact_manifest=$tmp/layout/blobs/$(echo "$artifact" | tr : /)
[ "sha256:$(sha256sum "$artifact_manifest" | cut -d' ' -f1)" = "$artifact" ] || fail "the SBOM artifact's manifest does not match its digest"
jq -e --arg d "$image_digest" '.subject.digest == $d and .artifactType == "application/vnd.cyclonedx+json" and .config.mediaType == "application/vnd.oci.empty.v1+json" and (.layers | length) == 1' \
  "$artifact_manifest" >/dev/null || fail "the SBOM artifact does not refer to the image $image_digest" "$artifact_manifest"
sbom_blob=$tmp/layout/blobs/$(jq -r '.layers[0].digest' "$artifact_manifest" | tr : /)
cmp -s "$sbom_blob" "$rootfs/opt/versio/sbom.cdx.json" || fail "the attached SBOM differs from /opt/versio/sbom.cdx.json in the image"
log "SBOM artifact: $artifact refers to the image ($image_digest) and holds the image's SBOM"
provenance=$(dirname "$image")/versio-$tag-image.provenance.json
if [ -f "$provenance" ]; then
  digest=$(jq -r '.manifests[0].digest' "$tmp/layout/index.json")
  jq -e --arg d "${digest#sha256:}" --arg n "versio:$tag" \
    '.subject[0].digest.sha256 == $d and .subject[0].name == $n and .predicateType == "https://slsa.dev/provenance/v1"' \
    "$provenance" >/dev/null || fail "$(basename "$provenance") is not the provenance of this image ($digest)" "$provenance"
  log "provenance: $(basename "$provenance") names this image's manifest ($digest)"
fi

IMAGE_ROOTFS=$rootfs
IMAGE_USER=$user
IMAGE_ENTRYPOINT=("${entrypoint[@]}")

log "versio --version from the image"
in_image -- --version >"$tmp/version.out" 2>&1 || fail "versio --version failed in the image" "$tmp/version.out"
grep -q "^versio " "$tmp/version.out" || fail "versio --version printed no version" "$tmp/version.out"
sed 's/^/    /' "$tmp/version.out"

log "starting bin/versio dev (control plane, operator, webhook server, story field-rename)"
dev_up "$tmp" || fail "versio dev did not come up" "$tmp/dev.log"
log "versio dev ready (run folder $(basename "$DEV_RUN"))"

log "starting the image's webhook server (replica of server default), its AOT cache required"
# -XX:AOTMode=on: the JVM refuses to start unless it can use the image's AOT cache, so an image
# whose cache does not fit its runtime and jars fails here instead of starting slowly
replica_up "$tmp" "$tmp/server.log" JDK_JAVA_OPTIONS=-XX:AOTMode=on ||
  fail "the image's webhook server did not become ready" "$tmp/server.log"
log "/readyz 200 after ${REPLICA_READY_SECONDS} s (ports $CONVERSION_PORT/$OPS_PORT)"
convert_cache "$tmp/review.json" || fail "no conversion through the image's webhook server" "$tmp/server.log"
size=$(jq -r '.response.convertedObjects[0].spec.size' "$tmp/review.json")
[ "$size" = 3 ] || fail "expected spec.size 3 in the converted object, got: $(cat "$tmp/review.json")" "$tmp/server.log"
log "converted v2 -> v1 through the image's webhook server: spec.replicas 3 -> spec.size 3"
replica_down || fail "the image's webhook server did not stop cleanly" "$tmp/server.log"
log "image check passed"
