#!/usr/bin/env bash
# Builds the download for machines without a JDK or Maven: dist/versio-<version>-linux-x64.tar.gz
# holds a Java runtime cut to the modules Versio uses (jlink), the CLI's jars, the `versio`
# launcher, an AOT cache for a fast start, the example stories and hack/control-plane.sh (which
# `versio dev` runs when the etcd and kube-apiserver binaries are missing).
#
# Usage: hack/dist.sh [--no-build] [--no-aot] [MAVEN_ARGS...]
#   --no-build   use the jars already in versio-cli/target (e.g. right after hack/test.sh)
#   --no-aot     leave out the AOT cache: 9 MiB less to download, a slower start (docs/capacity.md)
#   other arguments go to Maven, e.g. `hack/dist.sh -o` to build offline
# Needs: JDK 25 (hack/lib/java.sh finds it) and Maven. Check the result with hack/dist-check.sh.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=true
aot=true
maven_args=()
for arg in "$@"; do
  case $arg in
    --no-build) build=false ;;
    --no-aot) aot=false ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) maven_args+=("$arg") ;;
  esac
done
. hack/lib/java.sh
start=$SECONDS
log() { printf '[%3ds] %s\n' $((SECONDS - start)) "$*"; }
die() { printf 'dist.sh: %s\n' "$*" >&2; exit 1; }

target=versio-cli/target
if $build; then
  log "building the CLI and its runtime classpath (mvn package -pl versio-cli -am -DskipTests)"
  mkdir -p "$target"
  if ! mvn -B -q -Dstyle.color=never -DskipTests -Dspotless.check.skip=true -pl versio-cli -am \
      "${maven_args[@]}" package >"$target/dist-build.log" 2>&1; then
    grep -E '^\[ERROR\]' "$target/dist-build.log" | sed -n '1,20p' >&2
    die "the build failed (full log: $target/dist-build.log)"
  fi
fi
[ -f "$target/versio-cli.jar" ] && [ -d "$target/lib" ] ||
  die "no $target/versio-cli.jar and $target/lib: run without --no-build"
version=$(sed -n 's/^version=//p' "$target/classes/dev/versio/cli/version.properties")
[ -n "$version" ] || die "no version in $target/classes/dev/versio/cli/version.properties"

name=versio-$version-linux-x64
stage=$root/dist/stage/$name
rm -rf "$root/dist/stage" && mkdir -p "$stage/bin" "$stage/lib" "$stage/hack"

log "copying the jars"
cp "$target/versio-cli.jar" "$stage/lib/"
cp "$target"/lib/*.jar "$stage/lib/"
# the classpath in a fixed order: the CLI first, as in bin/versio, then the rest by name
{ echo versio-cli.jar; (cd "$target/lib" && ls -1 -- *.jar | LC_ALL=C sort); } >"$stage/lib/classpath"

# Modules: what jdeps finds in the jars. Reflection and service loading are invisible to jdeps;
# hack/dist-check.sh runs validate, test and `versio dev` (operator, webhook server, TLS) on the
# result, which is what proves the list complete.
fallback_modules=java.base,java.compiler,java.desktop,java.naming,java.net.http,java.sql,jdk.httpserver,jdk.jfr,jdk.management,jdk.unsupported
log "finding the JDK modules the jars use (jdeps)"
if modules=$("$JAVA_HOME/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25 -q \
    --class-path "$stage/lib/*" "$stage"/lib/*.jar 2>"$root/dist/jdeps.log") && [ -n "$modules" ]; then
  rm -f "$root/dist/jdeps.log"
else
  echo "dist.sh: jdeps failed (see dist/jdeps.log); using the module list measured when this script was written" >&2
  modules=$fallback_modules
fi
log "modules: $modules"

# zip-0: the image's classes stay uncompressed inside the runtime and the tar.gz compresses them
# instead: the download is 7.5 MiB smaller than with zip-6 and start-up decompresses nothing
log "linking the Java runtime (jlink)"
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress=zip-0 --generate-cds-archive --output "$stage/runtime" >"$root/dist/jlink.log" 2>&1 ||
  { cat "$root/dist/jlink.log" >&2; die "jlink failed"; }
rm -f "$root/dist/jlink.log"

cp hack/dist/versio "$stage/bin/versio"
# the CycloneDX SBOM of every jar in lib/ (versio-cli's build writes it from the same runtime scope)
[ -f "$target/versio-sbom.cdx.json" ] ||
  die "no $target/versio-sbom.cdx.json (the CycloneDX plugin of versio-cli's package phase): run without --no-build"
cp "$target/versio-sbom.cdx.json" "$stage/sbom.cdx.json"
# kubectl runs any kubectl-<name> on PATH as `kubectl <name>`: `kubectl versio status` etc.
ln -s versio "$stage/bin/kubectl-versio"
cp hack/control-plane.sh "$stage/hack/"
cp -R examples "$stage/examples"
sed "s/@VERSION@/$version/g" hack/dist/README.txt >"$stage/README.txt"
chmod 755 "$stage/bin/versio" "$stage/hack/control-plane.sh"

if $aot; then
  # One training run through the launcher itself, so flags and classpath are exactly those of
  # later runs: `versio test` on the kitchen-sink story parses, compiles and converts with most
  # strategies. The cache is valid for this runtime and these jars, wherever they are unpacked.
  log "recording the AOT cache (training run: versio test on examples/kitchen-sink)"
  story=examples/kitchen-sink
  if ! (cd "$stage" && JDK_JAVA_OPTIONS="-XX:AOTCacheOutput=$stage/lib/versio.aot" bin/versio test \
      -c $story/config.yaml --crd $story/crd.yaml -s $story/samples) >"$root/dist/aot.log" 2>&1 ||
      [ ! -f "$stage/lib/versio.aot" ]; then
    tail -n 20 "$root/dist/aot.log" >&2
    die "the AOT training run failed (log: dist/aot.log); --no-aot builds without the cache"
  fi
  rm -f "$root/dist/aot.log"
fi

log "packing"
archive=$root/dist/$name.tar.gz
rm -f "$root"/dist/versio-*-linux-x64.tar.gz
tar -C "$root/dist/stage" --sort=name --owner=0 --group=0 --numeric-owner -czf "$archive" "$name"
# provenance: the archive, from this commit by this command, and the digest of every jar and of the
# Java runtime's release file (which names the JDK it was linked from)
. hack/lib/provenance.sh
provenance_statement "$root/dist/$name.provenance.json" "$archive" "urn:versio:hack/dist.sh" \
  "hack/dist.sh${*:+ $*}" "$stage"/lib/*.jar "$stage/runtime/release"
rm -rf "$root/dist/stage"
size=$(stat -c %s "$archive" | awk '{printf "%.1f", $1 / 1048576}')
unpacked=$(tar -tvzf "$archive" | awk '{s += $3} END {printf "%.1f", s / 1048576}')
log "done: dist/$name.tar.gz ($size MiB; $unpacked MiB unpacked)"
cp "$target/versio-sbom.cdx.json" "$root/dist/$name.sbom.cdx.json"
log "SBOM: dist/$name.sbom.cdx.json (CycloneDX, every jar; also sbom.cdx.json in the archive)"
log "provenance: dist/$name.provenance.json (in-toto statement, SLSA provenance v1; unsigned)"

# A krew plugin manifest for the archive (krew installs kubectl plugins: `kubectl krew install
# --manifest=dist/versio.krew.yaml --archive=dist/$name.tar.gz` here, or from the release URL once
# the archive is published there: VERSIO_RELEASE_URL, the folder the release's files are in)
sha256=$(sha256sum "$archive" | cut -d' ' -f1)
release=${VERSIO_RELEASE_URL:-https://releases.example.invalid/versio/v$version}
sed -e "s|@VERSION@|$version|g" -e "s|@NAME@|$name|g" -e "s|@SHA256@|$sha256|g" \
  -e "s|@URI@|$release/$name.tar.gz|g" hack/dist/versio.krew.yaml >"$root/dist/versio.krew.yaml"
log "krew manifest: dist/versio.krew.yaml (sha256 $sha256)"
