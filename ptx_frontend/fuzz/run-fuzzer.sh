#!/usr/bin/env bash
# Benchmark mode for the PTX frontend fuzzer: builds ptx_parser_fuzzer if
# needed, fuzzes the parser and the lowering for MINUTES minutes starting
# from the seed corpus (make-seed-corpus.sh) and the corpus of earlier runs,
# and prints how long it ran without a crash and how many inputs it tried.
# On a crash it prints the reproducer, the command that minimizes it and
# where to save it (ptx_frontend/fuzz/crashes/, which ctest replays).
#
# usage: run-fuzzer.sh MINUTES [LIBFUZZER-OPTION...]
# environment: CUHIP_BUILD_DIR  the cuhip build directory (default: build)
#              CUHIP_FUZZ_DIR   corpus, artifacts and logs
#                               (default: $CUHIP_BUILD_DIR/ptx_frontend/fuzz/run)
set -euo pipefail

minutes=${1:?usage: run-fuzzer.sh MINUTES [LIBFUZZER-OPTION...]}
shift
case $minutes in
  '' | *[!0-9]*) echo "run-fuzzer: MINUTES must be a whole number" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${CUHIP_BUILD_DIR:-$repo/build}
work=${CUHIP_FUZZ_DIR:-$build/ptx_frontend/fuzz/run}
fuzzer=$build/bin/ptx_parser_fuzzer

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
if ! cmake --build "$build" --target ptx_parser_fuzzer; then
  echo "run-fuzzer: building ptx_parser_fuzzer failed; it needs clang++-22 and" \
       "libclang-rt-22-dev (scripts/bootstrap) and -DCUHIP_PTX_FUZZER=ON" >&2
  exit 1
fi

mkdir -p "$work/corpus" "$work/artifacts"
"$here/make-seed-corpus.sh" "$work/seeds"
log=$work/fuzz-$(date +%Y%m%d-%H%M%S).log
echo "run-fuzzer: fuzzing for $minutes minute(s); libFuzzer's output goes to $log"

start=$(date +%s)
set +e
# New inputs go to the first corpus directory; the seeds stay as generated.
"$fuzzer" -max_total_time=$((minutes * 60)) -print_final_stats=1 \
  -dict="$here/ptx.dict" -timeout=25 -rss_limit_mb=4096 -max_len=65536 \
  -artifact_prefix="$work/artifacts/" "$@" \
  "$work/corpus" "$work/seeds" >"$log" 2>&1
rc=$?
set -e
elapsed=$(($(date +%s) - start))

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
execs=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
# The last status line ("#N DONE cov: C ft: F corp: K/SIZE ...") has the
# coverage reached and the corpus size.
status=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$status")
corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$status")

if [ $rc -eq 0 ]; then
  echo "run-fuzzer: ran ${elapsed} s crash-free: ${execs:-?} executions" \
       "(${rate:-?}/s), coverage ${cov:-?} edges, corpus ${corp:-?} (inputs/bytes)"
  exit 0
fi
artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
echo "run-fuzzer: FAILED after ${elapsed} s and ${execs:-?} executions (exit $rc)"
grep -m1 -E '^==[0-9]+==ERROR|runtime error|ParserFuzzer:|ERROR: libFuzzer' "$log" || true
if [ -n "$artifact" ]; then
  echo "run-fuzzer: reproducer: $artifact"
  echo "run-fuzzer: minimize:   $fuzzer -minimize_crash=1 -runs=100000 -exact_artifact_path=$work/min.ptx $artifact"
  echo "run-fuzzer: replay:     $fuzzer $artifact"
  echo "run-fuzzer: then keep it as $here/crashes/<name>.ptx (ctest replays that directory)"
fi
echo "run-fuzzer: full log: $log"
exit 1
