#!/usr/bin/env bash
# Runs a command and checks its exit status and that its stdout/stderr match
# the given extended regular expressions. Prints both streams on failure.
#   run_checked.sh [--expect-status N] [--expect-stdout RE]... [--expect-stderr RE]... -- CMD...
set -u
status=0; outs=(); errs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --expect-status) status=$2; shift 2 ;;
    --expect-stdout) outs+=("$2"); shift 2 ;;
    --expect-stderr) errs+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run_checked.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
rc=$?
fail=0
if [ "$rc" != "$status" ]; then echo "FAILED: exit status $rc, expected $status"; fail=1; fi
for re in "${outs[@]}"; do
  grep -Eq -- "$re" "$out" || { echo "FAILED: stdout does not match: $re"; fail=1; }
done
for re in "${errs[@]}"; do
  grep -Eq -- "$re" "$err" || { echo "FAILED: stderr does not match: $re"; fail=1; }
done
echo "--- command: $*"; echo "--- stdout:"; cat "$out"; echo "--- stderr:"; cat "$err"
exit $fail
