#!/usr/bin/env bash
# Builds the image twice from the same inputs (the download in dist/, Debian's libc6, the commit's
# time) and requires the same image digest; then once more dated a second later, which must give
# another digest (the check's negative control: it sees a change). Uses --no-server-aot, so the
# image carries the download's AOT cache: a cache recorded on a live replica differs from run to run
# (docs/install.md, "Reproducible builds"). Leaves dist/ as it found it, except the image files,
# which hack/image.sh writes again afterwards in CI. About 25 s.
#
# Usage: hack/image-reproducible.sh [ARCHIVE]
set -Eeuo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$SECONDS
log() { printf '[%3ds] %s\n' $((SECONDS - start)) "$*"; }
fail() { printf 'image-reproducible.sh: FAILED: %s\n' "$1" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/versio-image-repro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)

# the digest of the image hack/image.sh builds with SOURCE_DATE_EPOCH=$1
digest() {
  SOURCE_DATE_EPOCH=$1 hack/image.sh --no-server-aot "${@:2}" >"$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log" >&2; fail "hack/image.sh --no-server-aot failed"; }
  local image
  image=$(ls "$root"/dist/versio-*-image.oci.tar)
  rm -rf "$tmp/layout" && mkdir -p "$tmp/layout"
  tar -xf "$image" -C "$tmp/layout" ./index.json
  local d
  d=$(jq -r '.manifests[0].digest // empty' "$tmp/layout/index.json")
  [ -n "$d" ] || fail "no manifest digest in the image's index.json"
  echo "$d"
}

first=$(digest "$epoch" "$@")
log "first build: $first"
second=$(digest "$epoch" "$@")
log "second build from the same inputs: $second"
[ "$first" = "$second" ] || fail "two builds from the same inputs gave two digests: $first, $second"
later=$(digest $((epoch + 1)) "$@")
log "a build dated a second later: $later"
[ "$later" != "$first" ] || fail "a build with other file times gave the same digest: the comparison sees nothing"
log "reproducible: the same download, libc6 and commit time give the same image ($first)"
