#!/usr/bin/env bash
# Runs every matrix conformance case through emulate-wave.py for a wave32
# and a wave64 target, on the lowered IR before and after -O3.
#   emulate-matrix.sh CUHIP CLANG CASES_DIR OUT_DIR
set -u
cuhip=$1; clang=$2; cases=$3; out=$4
here=$(dirname "$0")
status=0
for ptx in "$cases"/matrix/*.ptx; do
  c=$(basename "$ptx" .ptx)
  # Its lanes read each other's shared-memory stores with no cross-lane
  # operation in between, which needs a wave in lockstep; the emulator's
  # lanes are threads that meet only at cross-lane operations.
  [ "$c" = mma-shared-gather ] && continue
  for a in gfx1100 gfx942; do
    python3 "$here/emulate-wave.py" "$cuhip" "$clang" "$ptx" "${ptx%.ptx}.data" $a "$out/$c-$a" || status=1
    python3 "$here/emulate-wave.py" "$cuhip" "$clang" "$ptx" "${ptx%.ptx}.data" $a --opt "$out/$c-$a-O3" || status=1
  done
done
exit $status
