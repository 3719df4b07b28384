#!/usr/bin/env bash
# Fills OUT_DIR with the seed corpus for ptx_parser_fuzzer: every PTX file in
# the repository's tests (lit and conformance) and, when nvcc is available,
# the PTX nvcc emits for the samples and the end-to-end test programs in the
# modes that change the PTX's shape (release, -G debug with its DWARF
# sections, -lineinfo with .loc lines, --use_fast_math). Real compiler output
# gives the fuzzer the syntax it must handle from the first run on; the
# mutations then explore from there. Safe to run again: files are replaced.
#
# usage: make-seed-corpus.sh OUT_DIR
set -euo pipefail

out=${1:?usage: make-seed-corpus.sh OUT_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"

count=0
copy() { # SRC NAME
  cp "$1" "$out/$2"
  count=$((count + 1))
}

for f in "$repo"/test/lit/ptx/*.ptx; do
  [ -e "$f" ] && copy "$f" "lit-$(basename "$f")"
done
while IFS= read -r -d '' f; do
  rel=${f#"$repo"/test/conformance/cases/}
  copy "$f" "conformance-${rel//\//-}"
done < <(find "$repo/test/conformance/cases" -name '*.ptx' -print0 | sort -z)

nvcc=${CUHIP_NVCC:-}
if [ -z "$nvcc" ]; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc=/usr/local/cuda/bin/nvcc
  else
    nvcc=$(command -v nvcc || true)
  fi
fi
if [ -n "$nvcc" ]; then
  modes=("release:-arch=sm_80" "debug:-arch=sm_80 -G" "lineinfo:-arch=sm_80 -lineinfo"
         "fastmath:-arch=sm_80 --use_fast_math")
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for cu in "$repo"/samples/*.cu "$repo"/test/e2e/programs/*.cu; do
    for m in "${modes[@]}"; do
      name=${m%%:*}
      # shellcheck disable=SC2086 # the mode's flags are separate words
      if "$nvcc" -ptx ${m#*:} -o "$tmp/out.ptx" "$cu" 2>/dev/null; then
        copy "$tmp/out.ptx" "nvcc-$(basename "$cu" .cu)-$name.ptx"
      else
        echo "make-seed-corpus: nvcc failed on $cu ($name); left out" >&2
      fi
    done
  done
else
  echo "make-seed-corpus: no nvcc; the corpus has only the repository's PTX" >&2
fi
echo "make-seed-corpus: $count seed files in $out"
