#!/usr/bin/env bash
# Builds the container image of Versio without a container engine: one image, both long-running
# commands (`versio operator`, `versio webhook-server`; the operator runs its webhook servers from
# its own image). Written as an OCI image layout with Debian's umoci and packed as an OCI archive:
#   dist/versio-<version>-image.oci.tar     (load it with `skopeo copy oci-archive:… docker://…`
#                                            or `podman load -i …`)
# Three layers, most stable first: glibc from Debian's libc6 package (nothing else: no shell, no
# package manager), the Java runtime cut by jlink, then the jars with their AOT cache. Both come
# from the download that hack/dist.sh builds, so the image runs exactly what hack/dist-check.sh
# checked. The image runs as user 65532 (versio), with /tmp writable and the entrypoint calling
# java directly with an argument file: /opt/versio/runtime/bin/java @/opt/versio/java.args <args>.
#
# The AOT cache of the image is recorded on what a Pod of it does, not taken from the download (whose
# cache is recorded on `versio test`, the CLI): a `versio webhook-server` replica started from the
# image's own root filesystem (unshare + chroot, as user 65532) joins the server of a local Versio
# (`bin/versio dev`), compiles its config, converts reviews and stops on SIGTERM. A replica with it
# is ready in about half the time (docs/capacity.md, "Replica start-up").
#
# Usage: hack/image.sh [--no-server-aot] [ARCHIVE]   (default: dist/versio-*-linux-x64.tar.gz)
#   --no-server-aot   keep the download's AOT cache (no local Versio is started; slower replicas)
# Needs: root for apt-get (it installs umoci, jq, curl and procps when missing); bin/versio and the
# control plane of hack/control-plane.sh for the recording; hack/image-check.sh runs the result.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$SECONDS
log() { printf '[%3ds] %s\n' $((SECONDS - start)) "$*"; }
die() { printf 'image.sh: %s\n' "$*" >&2; exit 1; }
server_aot=true
if [ "${1:-}" = --no-server-aot ]; then
  server_aot=false
  shift
fi
archive=${1:-}
if [ -z "$archive" ]; then
  found=(dist/versio-*-linux-x64.tar.gz)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}" ] ||
    die "expected one dist/versio-*-linux-x64.tar.gz (run hack/dist.sh first), found: ${found[*]}"
  archive=${found[0]}
fi
name=$(basename "$archive" .tar.gz)
version=${name#versio-}
version=${version%-linux-x64}

apt_install() {
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
missing=()
for tool in umoci jq curl; do command -v $tool >/dev/null || missing+=("$tool"); done
command -v pgrep >/dev/null || missing+=(procps)
[ ${#missing[@]} -eq 0 ] || { log "installing ${missing[*]} (Debian)"; apt_install "${missing[@]}"; }

. hack/lib/image-replica.sh
work=$root/dist/image-build
rm -rf "$work" && mkdir -p "$work/debs" "$work/base" "$work/opt"
trap 'image_replica_cleanup; rm -rf "$work"' EXIT

# Layer 1: glibc. The jlinked runtime links against nothing else (ldd: libc, libm, libdl,
# libpthread, librt, ld-linux; zlib is bundled in the JDK). Taken from the Debian release this
# machine runs, as a package file, not from the machine's own /lib.
log "fetching libc6 from Debian"
compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || apt-get update -qq
(cd "$work/debs" && apt-get download -qq libc6 >/dev/null 2>&1) || die "apt-get download libc6 failed"
deb=$(ls "$work"/debs/libc6_*.deb)
dpkg-deb -x "$deb" "$work/base"
libc_version=$(dpkg-deb -f "$deb" Version)
# what a Java process never loads: character-set converters, docs, locales, the helper binaries
rm -rf "$work/base/usr/share" "$work/base/usr/lib/x86_64-linux-gnu/gconv" "$work/base/usr/bin" \
  "$work/base/sbin" "$work/base/usr/sbin" "$work/base/etc/ld.so.conf.d"
mkdir -p "$work/base/etc" "$work/base/tmp" "$work/base/home/versio" "$work/base/proc" "$work/base/dev"
chmod 1777 "$work/base/tmp"
chown 65532:65532 "$work/base/home/versio"
printf 'root:x:0:0:root:/root:/nonexistent\nversio:x:65532:65532:versio:/home/versio:/nonexistent\n' \
  >"$work/base/etc/passwd"
printf 'root:x:0:\nversio:x:65532:\n' >"$work/base/etc/group"
printf 'hosts: files dns\n' >"$work/base/etc/nsswitch.conf"

# Layers 2 and 3: the runtime and the application, from the download
log "unpacking $archive"
tar -xzf "$archive" -C "$work"
dist=$work/$name
[ -x "$dist/runtime/bin/java" ] || die "$archive has no runtime/bin/java"
mkdir -p "$work/opt/runtime" "$work/opt/app"
mv "$dist/runtime" "$work/opt/runtime/runtime"
mv "$dist/lib" "$work/opt/app/lib"
[ -f "$dist/sbom.cdx.json" ] || die "$archive has no sbom.cdx.json (build it with hack/dist.sh)"
mv "$dist/sbom.cdx.json" "$work/opt/app/sbom.cdx.json" # /opt/versio/sbom.cdx.json in the image
# The launcher's JVM flags (hack/dist/versio), as a java argument file: the image needs no shell.
write_java_args() {
  {
    echo "--sun-misc-unsafe-memory-access=allow"
    echo "--enable-native-access=ALL-UNNAMED"
    echo "-XX:+ExitOnOutOfMemoryError"
    echo "-XX:TrimNativeHeapInterval=1000"
    echo "-Xlog:disable"
    echo "-Xlog:all=warning,aot*=off,cds*=off:stderr"
    [ -f "$work/opt/app/lib/versio.aot" ] && echo "-XX:AOTCache=/opt/versio/lib/versio.aot"
    echo "-Dversio.home=/opt/versio"
    printf -- '-cp '
    sed 's|^|/opt/versio/lib/|' "$work/opt/app/lib/classpath" | paste -sd: -
    echo "dev.versio.cli.VersioCommand"
  } >"$work/opt/app/java.args"
}

if $server_aot; then
  # the recording JVM runs without a cache, with exactly the flags and paths of the image
  rm -f "$work/opt/app/lib/versio.aot"
  write_java_args
  train=$work/train
  IMAGE_ROOTFS=$train/rootfs
  IMAGE_USER=65532:65532
  IMAGE_ENTRYPOINT=(/opt/versio/runtime/bin/java @/opt/versio/java.args)
  mkdir -p "$IMAGE_ROOTFS/opt/versio"
  cp -a "$work/base/." "$IMAGE_ROOTFS/"
  cp -a "$work/opt/runtime/runtime" "$IMAGE_ROOTFS/opt/versio/runtime"
  cp -a "$work/opt/app/." "$IMAGE_ROOTFS/opt/versio/"
  chown 65532:65532 "$IMAGE_ROOTFS/opt/versio/lib" # this copy only: the recording writes there
  log "recording the AOT cache on a webhook-server replica: starting bin/versio dev"
  dev_up "$train" || die "versio dev did not come up (--no-server-aot keeps the download's cache)"
  replica_up "$train" "$train/server.log" JDK_JAVA_OPTIONS=-XX:AOTCacheOutput=/opt/versio/lib/versio.aot ||
    { tail -n 30 "$train/server.log" >&2; die "the recording replica did not become ready"; }
  log "recording replica ready after ${REPLICA_READY_SECONDS} s; converting 200 reviews"
  convert_cache "$train/review.json" || { tail -n 30 "$train/server.log" >&2; die "a review failed"; }
  # the other 199 over one kept-alive connection, as the apiserver sends them
  convert_cache_repeatedly 199 "$train/reviews.json" ||
    { tail -n 30 "$train/server.log" >&2; die "a review failed"; }
  curl -fsS --max-time 5 "http://127.0.0.1:$OPS_PORT/metrics" >/dev/null || die "/metrics failed"
  log "stopping the replica (SIGTERM); the JVM writes the cache on its way out"
  replica_down || { tail -n 30 "$train/server.log" >&2; die "the recording replica did not stop cleanly"; }
  image_replica_cleanup
  [ -f "$IMAGE_ROOTFS/opt/versio/lib/versio.aot" ] ||
    { tail -n 30 "$train/server.log" >&2; die "the recording replica wrote no AOT cache"; }
  cp "$IMAGE_ROOTFS/opt/versio/lib/versio.aot" "$work/opt/app/lib/versio.aot"
  chown 0:0 "$work/opt/app/lib/versio.aot"
  chmod 644 "$work/opt/app/lib/versio.aot"
  rm -rf "$train"
  log "AOT cache recorded: $(du -m "$work/opt/app/lib/versio.aot" | cut -f1) MiB"
fi
write_java_args

layout=$work/layout
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
# what this build writes dated to the commit (it would carry the time of the build): the base
# layer, the folders, java.args and a recorded AOT cache; files from the download keep the times
# the archive gives them (an AOT cache checks its jars' times). So the same download, libc6 and
# commit give the same layers and the same image digest.
find "$work/base" "$work/opt" -type d -exec touch -h -d "@$epoch" {} +
find "$work/base" -exec touch -h -d "@$epoch" {} +
touch -d "@$epoch" "$work/opt/app/java.args"
[ -f "$work/opt/app/lib/versio.aot" ] && touch -d "@$epoch" "$work/opt/app/lib/versio.aot"
# the commit the image is built from (with -dirty when the checkout has changes), and where its
# source lives (VERSIO_SOURCE_URL at release; else the checkout's origin, else unknown)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || revision=$revision-dirty
source=${VERSIO_SOURCE_URL:-$(git config --get remote.origin.url 2>/dev/null || true)}
[[ $source =~ ^(https?|ssh|git)://|^git@ ]] || source=unknown # a clone of a local folder names none
log "writing the OCI layout (umoci)"
umoci init --layout "$layout"
umoci new --image "$layout:$version"
umoci insert --image "$layout:$version" --history.created "$created" \
  --history.created_by "Debian libc6 $libc_version, passwd/group with versio (65532), /tmp" \
  "$work/base" /
umoci insert --image "$layout:$version" --history.created "$created" \
  --history.created_by "Java runtime linked by jlink (hack/dist.sh)" \
  "$work/opt/runtime/runtime" /opt/versio/runtime
umoci insert --image "$layout:$version" --history.created "$created" \
  --history.created_by "Versio $version: jars, AOT cache, java.args" \
  "$work/opt/app" /opt/versio
umoci config --image "$layout:$version" --created "$created" --author "Versio" \
  --architecture amd64 --os linux \
  --config.user 65532:65532 --config.workingdir /home/versio \
  --config.env HOME=/home/versio \
  --config.entrypoint /opt/versio/runtime/bin/java --config.entrypoint @/opt/versio/java.args \
  --config.cmd --help \
  --config.exposedports 9443/tcp --config.exposedports 8080/tcp \
  --config.label "org.opencontainers.image.title=versio" \
  --config.label "org.opencontainers.image.version=$version" \
  --config.label "org.opencontainers.image.licenses=Apache-2.0" \
  --config.label "org.opencontainers.image.description=Versio operator and conversion webhook server" \
  --config.label "org.opencontainers.image.created=$created" \
  --config.label "org.opencontainers.image.revision=$revision" \
  --config.label "org.opencontainers.image.source=$source" \
  --config.label "dev.versio.sbom=/opt/versio/sbom.cdx.json" \
  --manifest.annotation "org.opencontainers.image.title=versio" \
  --manifest.annotation "org.opencontainers.image.version=$version" \
  --manifest.annotation "org.opencontainers.image.licenses=Apache-2.0" \
  --manifest.annotation "org.opencontainers.image.created=$created" \
  --manifest.annotation "org.opencontainers.image.revision=$revision" \
  --manifest.annotation "org.opencontainers.image.source=$source" \
  --history.created "$created" --history.created_by "entrypoint java @/opt/versio/java.args, user 65532"
umoci gc --layout "$layout"
# the SBOM also as an artifact that refers to the image (after gc, which would drop it: umoci
# knows no referrers)
. hack/lib/oci-sbom.sh
oci_attach_sbom "$layout" "$work/opt/app/sbom.cdx.json" "$created"

out=$root/dist/versio-$version-image.oci.tar
rm -f "$root"/dist/versio-*-image.oci.tar
tar -C "$layout" --sort=name --owner=0 --group=0 --numeric-owner -cf "$out" .
compressed=$(find "$layout/blobs" -type f -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1048576}')
unpacked=$(du -sk --apparent-size "$work/base" "$work/opt" | awk '{s += $1} END {printf "%.1f", s / 1024}')
cp "$work/opt/app/sbom.cdx.json" "$root/dist/versio-$version-image.sbom.cdx.json"
# provenance of the image manifest (its digest is the image's): from the download and libc6
. hack/lib/provenance.sh
manifest_blob=$layout/blobs/$(jq -r '.manifests[0].digest' "$layout/index.json" | tr : /)
PROVENANCE_SUBJECT_NAME="versio:$version" provenance_statement \
  "$root/dist/versio-$version-image.provenance.json" "$manifest_blob" "urn:versio:hack/image.sh" \
  "hack/image.sh${*:+ $*}" "$archive" "$deb"
log "done: dist/$(basename "$out") ($compressed MiB compressed; $unpacked MiB unpacked); tag $version"
log "SBOM: /opt/versio/sbom.cdx.json in the image, attached to it in the layout (artifactType application/vnd.cyclonedx+json, subject the image), dist/versio-$version-image.sbom.cdx.json next to it"
log "provenance: dist/versio-$version-image.provenance.json (subject versio:$version, the manifest digest; unsigned)"
