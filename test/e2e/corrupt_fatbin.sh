#!/usr/bin/env bash
# Damages the fatbin inside a copy of a sample program in two ways and runs
# each copy through `cuhip run`: the program must get a CUDA error from its
# launch (and print it), never crash with a signal.
#   corrupt_fatbin.sh CUHIP SAMPLE WORKDIR
set -u
cuhip=$1; sample=$2; work=$3
mkdir -p "$work"
fail=0
corrupt() { # $1 = name, $2 = python expression editing bytearray b
  local out="$work/$(basename "$sample").$1"
  python3 - "$sample" "$out" "$2" <<'PY'
import sys
src, dst, edit = sys.argv[1], sys.argv[2], sys.argv[3]
b = bytearray(open(src, 'rb').read())
u16 = lambda o: int.from_bytes(b[o:o+2], "little")
u32 = lambda o: int.from_bytes(b[o:o+4], "little")
u64 = lambda o: int.from_bytes(b[o:o+8], "little")
def ptx_entries(c):
    """Offsets of the PTX entry headers of the container at c."""
    e, end = c + u16(c + 6), c + u16(c + 6) + u64(c + 8)
    while e + 16 <= end and u32(e + 4):
        if u16(e) == 1:
            yield e
        e += u32(e + 4) + u64(e + 8)
magic = (0xBA55ED50).to_bytes(4, 'little')
found = [i for i in range(len(b) - 3) if b[i:i+4] == magic]
assert found, "no fatbin container in the program"
# Damage every container: the program must not find an intact one.
for c in found:
    for e in list(ptx_entries(c)):
        exec(edit)
open(dst, 'wb').write(b)
PY
  chmod +x "$out"
  "$cuhip" run -- "$out" >"$out.stdout" 2>"$out.stderr"
  local rc=$?
  if [ $rc -ge 128 ]; then
    echo "FAILED: $1: the program died with signal $((rc - 128))"; fail=1
  elif [ $rc -eq 0 ]; then
    echo "FAILED: $1: the program succeeded although its fatbin is damaged"; fail=1
  elif ! grep -q "cudaErrorInvalidKernelImage" "$out.stderr"; then
    echo "FAILED: $1: no cudaErrorInvalidKernelImage reported"; fail=1
  else
    echo "ok: $1 (exit $rc)"
  fi
  sed 's/^/    /' "$out.stderr"
}
# The container's magic number.
corrupt bad-magic 'b[c:c+4] = b"\x00\x11\x22\x33"'
# The PTX entry's compressed payload: keep the zstd frame magic, garble the rest.
corrupt bad-payload 'p = e + u32(e + 4); b[p+4:p+40] = bytes(36)'
# A PTX entry whose payload size runs past the container.
corrupt bad-entry-size 'b[e+8:e+16] = (1 << 40).to_bytes(8, "little")'
exit $fail
