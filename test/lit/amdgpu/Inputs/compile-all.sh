#!/usr/bin/env bash
# Compiles every conformance kernel for one AMDGPU target. Kernels of the
# families the AMDGPU target does not lower yet (the special registers it
# cannot read yet) must fail with cuhip's error; every other kernel must
# produce a code object.
#   compile-all.sh CUHIP CASES_DIR TARGET OUT_DIR
set -u
cuhip=$1; cases=$2; target=$3; out=$4
mkdir -p "$out"
fail=0; built=0; refused=0
for ptx in "$cases"/*/*.ptx; do
  name=$(basename "$(dirname "$ptx")")-$(basename "$ptx" .ptx)
  case "$name" in
    sreg-special-registers) expect=refuse ;; # %smid, %nsmid, %envreg
    sreg-clock-wait) # %clock64: gfx11's cycle counter has 20 bits
      case "$target" in gfx11*) expect=refuse ;; *) expect=build ;; esac ;;
    *) expect=build ;;
  esac
  if "$cuhip" ptx "$ptx" --arch "$target" -o "$out/$name.hsaco" 2>"$out/$name.err"; then
    if [ "$expect" = refuse ]; then echo "UNEXPECTED SUCCESS $name"; fail=1; fi
    built=$((built + 1))
  else
    if [ "$expect" = build ]; then echo "FAILED $name:"; cat "$out/$name.err"; fail=1; fi
    if ! grep -q "error:" "$out/$name.err"; then echo "NO ERROR MESSAGE $name"; fail=1; fi
    refused=$((refused + 1))
  fi
done
echo "$target: $built code objects, $refused refused with an error"
exit $fail
