#!/usr/bin/env bash
# ctest's ptx_fuzzer.inputs: runs the sanitized fuzzer binary once over the
# given files and directories (no mutation), so every PTX file in the tests
# and every saved crash reproducer goes through the parser and the lowering
# under AddressSanitizer and UBSan. Exits 77 (ctest: skipped) when the
# fuzzer has not been built, since it is not part of the default build.
#
# usage: run-inputs.sh FUZZER INPUT...
set -uo pipefail
fuzzer=${1:?usage: run-inputs.sh FUZZER INPUT...}
shift
if [ ! -x "$fuzzer" ]; then
  echo "ptx_fuzzer.inputs: skipped: $fuzzer is not built (ninja ptx_parser_fuzzer; needs clang-22 and libclang-rt-22-dev)"
  exit 77
fi
# A stale binary would test yesterday's parser: say which one runs.
echo "ptx_fuzzer.inputs: $fuzzer (built $(date -r "$fuzzer" '+%F %T'))"
exec "$fuzzer" -runs=0 -timeout=60 "$@"
