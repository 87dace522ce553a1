#!/usr/bin/env bash
# Prints the Surefire and Failsafe totals of the last build from the XML reports of every module.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
total_pass=0 total_fail=0 total_skip=0
for kind in surefire failsafe; do
  tests=0 failures=0 errors=0 skipped=0
  while IFS= read -r file; do
    line=$(grep -m1 -o '<testsuite [^>]*>' "$file") || continue
    get() { sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p" <<<"$line"; }
    tests=$((tests + $(get tests))); failures=$((failures + $(get failures)))
    errors=$((errors + $(get errors))); skipped=$((skipped + $(get skipped)))
  done < <(find "$root" -path "*/target/$kind-reports/TEST-*.xml" -not -path '*/node_modules/*' 2>/dev/null)
  printf '%-9s tests: %d, failures: %d, errors: %d, skipped: %d\n' "${kind^}" "$tests" "$failures" "$errors" "$skipped"
  total_fail=$((total_fail + failures + errors)); total_skip=$((total_skip + skipped))
  total_pass=$((total_pass + tests - failures - errors - skipped))
done
echo "Tests: $total_pass passed, $total_fail failed, $total_skip skipped"
# where the time went: the slowest test classes of both kinds (the CI run's budget is watched here)
echo "Slowest test classes (seconds):"
find "$root" -path '*/target/*-reports/TEST-*.xml' -not -path '*/node_modules/*' 2>/dev/null |
  while IFS= read -r file; do
    line=$(grep -m1 -o '<testsuite [^>]*>' "$file") || continue
    time=$(sed -n 's/.* time="\([0-9.]*\)".*/\1/p' <<<"$line")
    name=$(sed -n 's/.* name="\([^"]*\)".*/\1/p' <<<"$line")
    printf '%8.1f  %s\n' "${time:-0}" "${name##*.}"
  done | sort -rn | head -15
