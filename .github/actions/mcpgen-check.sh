#!/usr/bin/env bash
# The steps of the mcpgen GitHub Action (action.yml at the repository root), kept in a script so
# they can be run (and tested: tests/publish/test_action.py) outside GitHub.
#
#   mcpgen-check.sh run    lint every manifest (SARIF for code scanning) and report the changes
#                          that break clients since the base ref; always exits 0, the results
#                          are in $GITHUB_OUTPUT: check-exit-code, breaking-exit-code, sarif
#   mcpgen-check.sh gate   exit 1 if either exit code says so (CHECK_RC, BREAKING_RC)
#
# Environment (the action passes its inputs through these):
#   MANIFESTS   manifest paths or globs, separated by spaces or newlines (default tools.yaml)
#   FAIL_ON     lowest severity that fails: error | warning | info | none (default: the
#               project's [tool.mcpgen] configuration, else error)
#   BASE_REF    git ref or sha to compare with (a pull request's base sha); empty: no breaking
#               check (a push); fetched from origin when the clone does not have it
#   OUT_DIR     where the SARIF goes (default .mcpgen)
#   MCPGEN      the command (default mcpgen)
# Exit codes of run's commands: 0 clean, 1 findings, 2 unreadable input or a git/usage error.
set -uo pipefail

MCPGEN="${MCPGEN:-mcpgen}"
OUT_DIR="${OUT_DIR:-.mcpgen}"
MANIFESTS="${MANIFESTS:-tools.yaml}"
FAIL_ON="${FAIL_ON:-}"
BASE_REF="${BASE_REF:-}"
OUTPUT="${GITHUB_OUTPUT:-/dev/null}"
SUMMARY="${GITHUB_STEP_SUMMARY:-/dev/null}"

fail_on=()
if [ -n "$FAIL_ON" ]; then fail_on=(--fail-on "$FAIL_ON"); fi

manifests() {
  local word
  shopt -s nullglob
  for word in $MANIFESTS; do
    # shellcheck disable=SC2206  # globs expand here on purpose
    local hits=($word)
    if [ ${#hits[@]} -eq 0 ]; then printf '%s\n' "$word"; else printf '%s\n' "${hits[@]}"; fi
  done
  shopt -u nullglob
}

run() {
  mkdir -p "$OUT_DIR"
  local files=() line
  while IFS= read -r line; do files+=("$line"); done < <(manifests)
  local sarif="$OUT_DIR/mcpgen-check.sarif"

  echo "::group::mcpgen check ${files[*]}"
  $MCPGEN check --format sarif "${fail_on[@]}" "${files[@]}" > "$sarif"
  local check_rc=$?
  $MCPGEN check --format github "${fail_on[@]}" "${files[@]}"
  echo "::endgroup::"
  echo "mcpgen check: exit $check_rc (SARIF: $sarif)"

  local breaking_rc=0
  if [ -z "$BASE_REF" ]; then
    echo "mcpgen breaking: no base ref (not a pull request), skipped"
  else
    if ! git cat-file -e "$BASE_REF^{commit}" 2>/dev/null; then
      git fetch --no-tags --depth=1 origin "$BASE_REF" >/dev/null 2>&1 || true
    fi
    local f rc
    for f in "${files[@]}"; do
      if ! git cat-file -e "$BASE_REF:./$f" 2>/dev/null; then
        echo "mcpgen breaking: $f is new since $BASE_REF, nothing to compare"
        continue
      fi
      echo "::group::mcpgen breaking $f --against $BASE_REF"
      $MCPGEN breaking "$f" --against "$BASE_REF" --format github "${fail_on[@]}"
      rc=$?
      echo "::endgroup::"
      echo "mcpgen breaking $f: exit $rc"
      if [ "$rc" -gt "$breaking_rc" ]; then breaking_rc=$rc; fi
    done
  fi

  {
    echo "check-exit-code=$check_rc"
    echo "breaking-exit-code=$breaking_rc"
    echo "sarif=$sarif"
  } >> "$OUTPUT"
  {
    echo "### mcpgen"
    echo "- \`mcpgen check\`: exit $check_rc"
    echo "- \`mcpgen breaking\` against \`${BASE_REF:-(none)}\`: exit $breaking_rc"
  } >> "$SUMMARY"
  return 0
}

gate() {
  local check_rc="${CHECK_RC:-0}" breaking_rc="${BREAKING_RC:-0}"
  if [ "$check_rc" != 0 ] || [ "$breaking_rc" != 0 ]; then
    echo "mcpgen: check exited $check_rc, breaking exited $breaking_rc" >&2
    exit 1
  fi
  echo "mcpgen: check and breaking passed"
}

case "${1:-}" in
  run) run ;;
  gate) gate ;;
  *) echo "usage: $0 run|gate" >&2; exit 2 ;;
esac
