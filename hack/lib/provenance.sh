#!/usr/bin/env bash
# Writes an in-toto Statement (v1) with a SLSA provenance (v1) predicate for one built file: what
# was built (its name and sha256), from which commit, by which command, and the digest of every
# input given. Sourced by hack/dist.sh and hack/image.sh; hack/dist-check.sh and
# hack/image-check.sh check the subject against the file. The statement is not signed here: the
# release signs it with cosign (docs/install.md, "Releasing").
#
# Usage: provenance_statement OUT SUBJECT_FILE BUILD_TYPE COMMAND [INPUT_FILE...]
#        (PROVENANCE_SUBJECT_NAME names the subject instead of the file's name: an image's manifest
#        blob is its digest, named by the image reference)

# the JSON string of $1 (backslash, quote and control characters escaped)
json_string() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/\\t}
  printf '"%s"' "$s"
}

provenance_statement() {
  local out=$1 subject=$2 build_type=$3 command=$4
  shift 4
  local commit dirty=false started
  commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  git diff --quiet HEAD 2>/dev/null || dirty=true
  started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  {
    printf '{\n  "_type": "https://in-toto.io/Statement/v1",\n'
    printf '  "subject": [{"name": %s, "digest": {"sha256": "%s"}}],\n' \
      "$(json_string "${PROVENANCE_SUBJECT_NAME:-$(basename "$subject")}")" "$(sha256sum "$subject" | cut -d' ' -f1)"
    printf '  "predicateType": "https://slsa.dev/provenance/v1",\n'
    printf '  "predicate": {\n    "buildDefinition": {\n'
    printf '      "buildType": %s,\n' "$(json_string "$build_type")"
    printf '      "externalParameters": {"command": %s, "commit": "%s", "uncommittedChanges": %s},\n' \
      "$(json_string "$command")" "$commit" "$dirty"
    printf '      "resolvedDependencies": [\n        {"uri": "git+commit", "digest": {"gitCommit": "%s"}}' "$commit"
    local input
    for input in "$@"; do
      printf ',\n        {"name": %s, "digest": {"sha256": "%s"}}' \
        "$(json_string "$(basename "$input")")" "$(sha256sum "$input" | cut -d' ' -f1)"
    done
    printf '\n      ]\n    },\n'
    printf '    "runDetails": {"builder": {"id": %s}, "metadata": {"finishedOn": "%s"}}\n' \
      "$(json_string "${VERSIO_BUILDER_ID:-local}")" "$started"
    printf '  }\n}\n'
  } >"$out"
}
