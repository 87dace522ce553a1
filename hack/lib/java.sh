# Sourced by the project's scripts: picks a JDK 25 and exports JAVA_HOME, or explains what to do.
versio_pick_java() {
  local candidates=("${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64)
  local c
  for c in "${candidates[@]}"; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] || continue
    if "$c/bin/java" -XshowSettings:properties -version 2>&1 | grep -E 'java\.specification\.version = (2[5-9]|[3-9][0-9])$' >/dev/null; then
      export JAVA_HOME=$c
      return 0
    fi
  done
  echo "versio: no JDK 25 found (JAVA_HOME=${JAVA_HOME:-unset})." >&2
  echo "        Install Temurin 25 (our machines have it at /usr/lib/jvm/temurin-25-jdk-amd64) and set JAVA_HOME to it." >&2
  return 1
}
versio_pick_java || exit 2
# Maven's own guava uses sun.misc.Unsafe; .mvn/jvm.config silences that on JDK 25.
export MAVEN_ARGS="${MAVEN_ARGS:-} -B -Dstyle.color=never"
