# Sourced by the long benchmark scripts (from the project root) after they built the harness with
# `dependency:build-classpath -Dmdep.outputFile=target/classpath.txt`: sets `cp` to a copy of the
# harness's classes and of Versio's own jars, so that a build while the run goes on (minutes, with
# JVMs started along the way) cannot change the classes under it. The copy goes when the script
# exits.
snapshot=$(mktemp -d "${TMPDIR:-/tmp}/versio-bench-classpath.XXXXXX")
trap 'rm -rf "$snapshot"' EXIT
cp -r versio-bench/target/classes "$snapshot/bench-classes"
cp="$snapshot/bench-classes"
IFS=: read -r -a entries < versio-bench/target/classpath.txt || true  # no newline at its end
for entry in "${entries[@]}"; do
  case "$entry" in
    "$root"/*) cp "$entry" "$snapshot/" && cp="$cp:$snapshot/$(basename "$entry")" ;;
    *) cp="$cp:$entry" ;;
  esac
done
