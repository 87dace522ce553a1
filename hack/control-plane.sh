#!/usr/bin/env bash
# Provisions the real control plane used by Versio's tests and by local development:
# Debian's etcd-server and a kube-apiserver built from Debian bookworm's `kubernetes`
# source package. The binaries are cached outside the repository; a second run is a
# no-op that prints where they are.
#
# Usage: hack/control-plane.sh [--print-dir] [--force]
#   --print-dir   print only the folder holding etcd and kube-apiserver (after provisioning)
#   --force       rebuild kube-apiserver even when a cached binary exists
#
# Environment:
#   VERSIO_CACHE_DIR   cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/versio)
set -Eeuo pipefail

K8S_VERSION=1.20.2
CACHE_ROOT=${VERSIO_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/versio}
ASSETS_DIR=$CACHE_ROOT/k8s-$K8S_VERSION/bin
BUILD_DIR=$CACHE_ROOT/build
APT_PACKAGES=(etcd-server golang-go rsync jq dpkg-dev golang-github-modern-go-reflect2-dev make)
REFLECT2_SRC=/usr/share/gocode/src/github.com/modern-go/reflect2
SRC_LIST=/etc/apt/sources.list.d/versio-deb-src.sources

print_dir=false
force=false
for arg in "$@"; do
  case $arg in
    --print-dir) print_dir=true ;;
    --force) force=true ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "control-plane.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

START=$SECONDS
log() { if $print_dir; then printf '[%4ds] %s\n' $((SECONDS - START)) "$*" >&2; else printf '[%4ds] %s\n' $((SECONDS - START)) "$*"; fi; }
die() { printf '[%4ds] ERROR: %s\n' $((SECONDS - START)) "$1" >&2; shift; for hint in "$@"; do printf '         %s\n' "$hint" >&2; done; exit 1; }
trap 'die "provisioning failed at line $LINENO (command: $BASH_COMMAND)" "Re-run hack/control-plane.sh; it resumes where it stopped. Logs of the build are in $BUILD_DIR."' ERR

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "this step needs root: $*" "Run hack/control-plane.sh as root or install sudo."; fi
}

apiserver_ok() { [ -x "$ASSETS_DIR/kube-apiserver" ] && "$ASSETS_DIR/kube-apiserver" --version 2>/dev/null | grep "v$K8S_VERSION" >/dev/null; }
etcd_ok() { [ -x "$ASSETS_DIR/etcd" ] && "$ASSETS_DIR/etcd" --version >/dev/null 2>&1; }

apt_lists_present() { compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; }

apt_install() {
  local missing=()
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! apt_lists_present; then
    log "apt lists were never updated: running apt-get update"
    as_root apt-get update -qq || die "apt-get update failed" "Check that the Debian package registry is reachable, then re-run."
  fi
  log "installing Debian packages: ${missing[*]}"
  # Keep package scripts from starting services (etcd-server would start a system etcd on :2379).
  local policy=/usr/sbin/policy-rc.d placed=false
  if [ ! -e $policy ]; then printf '#!/bin/sh\nexit 101\n' | as_root tee $policy >/dev/null; as_root chmod +x $policy; placed=true; fi
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$CACHE_ROOT/apt-install.log" 2>&1; then
    $placed && as_root rm -f $policy
    tail -n 20 "$CACHE_ROOT/apt-install.log" >&2
    die "apt-get install failed (full log: $CACHE_ROOT/apt-install.log)" "Run 'apt-get update' and re-run this script."
  fi
  $placed && as_root rm -f $policy
  return 0
}

# deb-src entries mirroring the machine's own bookworm 'deb' entry (no registry host is written here).
enable_deb_src() {
  if [ -f $SRC_LIST ] || grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then return 0; fi
  log "enabling deb-src for bookworm"
  local uri
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  if [ -z "$uri" ]; then
    uri=$(awk '$1=="deb" && $3 ~ /^bookworm$/ {for(i=2;i<=NF;i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
  fi
  [ -n "$uri" ] || die "no Debian bookworm 'deb' entry found in /etc/apt" "Add a deb-src line for bookworm main to /etc/apt/sources.list and re-run."
  printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$uri" | as_root tee $SRC_LIST >/dev/null
  as_root apt-get update -qq || die "apt-get update failed after enabling deb-src" "Remove $SRC_LIST if it is wrong, then re-run."
}

build_apiserver() {
  mkdir -p "$BUILD_DIR"
  cd "$BUILD_DIR"
  local tree
  tree=$(find . -maxdepth 1 -type d -name 'kubernetes-*' | sed -n 1p)
  if [ -z "$tree" ]; then
    enable_deb_src
    log "downloading the kubernetes source package (apt-get source)"
    apt-get source -qq kubernetes >source.log 2>&1 || { tail -n 20 source.log >&2; die "apt-get source kubernetes failed (log: $BUILD_DIR/source.log)" "Check the deb-src entry in $SRC_LIST and that dpkg-dev is installed."; }
    tree=$(find . -maxdepth 1 -type d -name 'kubernetes-*' | sed -n 1p)
  fi
  [ -n "$tree" ] || die "apt-get source did not unpack a kubernetes-* folder in $BUILD_DIR"
  tree=$(cd "$tree" && pwd)
  grep -q "gitVersion.*v$K8S_VERSION\|KUBE_GIT_VERSION.*$K8S_VERSION" "$tree"/debian/rules "$tree"/.version 2>/dev/null \
    || grep -rqs "$K8S_VERSION" "$tree/debian/changelog" \
    || die "the source package in $tree is not Kubernetes $K8S_VERSION" "Delete $BUILD_DIR and re-run; bookworm ships 1.20.5+really1.20.2."

  log "replacing vendored reflect2 with Debian's 1.0.2 (1.0.1 crashes under Go >= 1.18)"
  [ -d "$REFLECT2_SRC" ] || die "$REFLECT2_SRC is missing" "Install golang-github-modern-go-reflect2-dev."
  local vend=$tree/vendor/github.com/modern-go/reflect2
  rm -f "$vend"/*.go "$vend"/*.s
  cp "$REFLECT2_SRC"/*.go "$vend"/
  compgen -G "$REFLECT2_SRC/*.s" >/dev/null && cp "$REFLECT2_SRC"/*.s "$vend"/
  rm -f "$vend"/*_test.go

  local gopath=$BUILD_DIR/gopath
  mkdir -p "$gopath/src/k8s.io"
  ln -sfn "$tree" "$gopath/src/k8s.io/kubernetes"
  log "building kube-apiserver $K8S_VERSION with $(go version | awk '{print $3}') (about 4 minutes on 2 cores from a cold cache; log: $BUILD_DIR/build.log)"
  (
    cd "$gopath/src/k8s.io/kubernetes"
    export GOPATH=$gopath GO111MODULE=off GOFLAGS= KUBE_GIT_VERSION=v$K8S_VERSION KUBE_GIT_TREE_STATE=clean
    make WHAT=cmd/kube-apiserver
  ) >build.log 2>&1 &
  local pid=$! t0=$SECONDS
  while kill -0 $pid 2>/dev/null; do
    sleep 15
    kill -0 $pid 2>/dev/null && log "  still building ($((SECONDS - t0))s)"
  done
  wait $pid || { tail -n 30 build.log >&2; die "make WHAT=cmd/kube-apiserver failed (log: $BUILD_DIR/build.log)" "Fix the cause shown above, then re-run; the Go build cache makes the next try faster."; }
  local bin
  bin=$(find "$tree/_output" -type f -name kube-apiserver -perm -u+x | sed -n 1p)
  [ -n "$bin" ] || die "the build finished but no kube-apiserver binary is under $tree/_output"
  mkdir -p "$ASSETS_DIR"
  cp "$bin" "$ASSETS_DIR/kube-apiserver.tmp" && mv "$ASSETS_DIR/kube-apiserver.tmp" "$ASSETS_DIR/kube-apiserver"
  cd /
  rm -rf "$BUILD_DIR"
}

mkdir -p "$CACHE_ROOT"

if ! $force && apiserver_ok && etcd_ok; then
  log "control plane already provisioned (no-op)"
else
  apt_install etcd-server
  mkdir -p "$ASSETS_DIR"
  ln -sfn "$(command -v etcd || echo /usr/bin/etcd)" "$ASSETS_DIR/etcd"
  etcd_ok || die "etcd does not run from $ASSETS_DIR/etcd" "Reinstall etcd-server: apt-get install --reinstall etcd-server"
  if $force || ! apiserver_ok; then
    apt_install "${APT_PACKAGES[@]}"
    build_apiserver
    apiserver_ok || die "the built kube-apiserver does not report v$K8S_VERSION" "Run with --force to rebuild."
  fi
fi

if $print_dir; then
  echo "$ASSETS_DIR"
else
  log "kube-apiserver: $ASSETS_DIR/kube-apiserver ($("$ASSETS_DIR/kube-apiserver" --version))"
  log "etcd:           $ASSETS_DIR/etcd ($("$ASSETS_DIR/etcd" --version | sed -n 1p))"
  log "tests find these through VERSIO_ASSETS or KUBEBUILDER_ASSETS, and by default in $ASSETS_DIR"
fi
