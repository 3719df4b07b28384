#!/usr/bin/env python3
"""Compiles CUDA sources with nvcc -ptx in every build mode users pick and
checks that cuhip's PTX frontend parses and lowers each result.

nvcc's output differs by mode in ways that matter to the frontend: the
target architecture selects instruction forms, --use_fast_math turns float
operations into .approx/.ftz forms, -G emits unoptimized code with device
function calls and DWARF sections, -lineinfo adds .file/.loc lines. A mode
passes for a file when `cuhip ptx FILE --emit gpu-ir` and the host target's
whole pipeline (`--arch host --emit obj`) exit 0. Any failure
fails the test, and every failure is printed with its diagnostics, so the
log says exactly which instruction forms are missing in which mode.

A mode whose architecture this nvcc cannot target (CUDA 13 dropped sm_50)
is reported as skipped and replaced by the oldest architecture the toolkit
does have, which plays the same role: the oldest PTX target users can build
for. A source that needs a newer architecture than a mode's (--min-arch,
e.g. for __reduce_add_sync, sm_80 and up) is not compiled in that mode and
shows as n/a. A known gap (--known-gap FILE:MODE=OPCODE) is a pair that
must fail with "unsupported PTX instruction 'OPCODE'" and nothing else: it
shows as gap, and it fails the test once it lowers, so the entry goes when
the instruction is implemented. Exits 77 (ctest: skipped) when there is no
nvcc at all.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

# (name, nvcc flags); the names appear in the output and the PTX file names.
MODES = [
    ("sm_50", ["-arch=sm_50"]),
    ("sm_80", ["-arch=sm_80"]),
    ("sm_90", ["-arch=sm_90"]),
    ("fast-math", ["-arch=sm_80", "--use_fast_math"]),
    ("debug", ["-arch=sm_80", "-G"]),
    ("lineinfo", ["-arch=sm_80", "-lineinfo"]),
]


def supported_archs(nvcc):
    """The sm_NN numbers nvcc can compile for, oldest first."""
    out = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True)
    archs = sorted({int(m) for m in re.findall(r"compute_(\d+)", out.stdout)})
    return archs


def resolve_modes(nvcc):
    """Returns (modes to run, notes about modes that were replaced)."""
    archs = supported_archs(nvcc)
    modes, notes = [], []
    for name, flags in MODES:
        arch = mode_arch(flags)
        if not archs or arch in archs:
            modes.append((name, flags))
            continue
        oldest = archs[0]
        stand_in = [f if not f.startswith("-arch=") else "-arch=sm_%d" % oldest for f in flags]
        notes.append("mode %s skipped: this nvcc cannot target sm_%d (it knows sm_%s); "
                     "checking sm_%d, the oldest it has, in its place"
                     % (name, arch, ", sm_".join(map(str, archs)), oldest))
        modes.append(("%s-as-sm_%d" % (name, oldest), stand_in))
    return modes, notes


def mode_arch(flags):
    return next(int(f[len("-arch=sm_"):]) for f in flags if f.startswith("-arch=sm_"))


def check(nvcc, cuhip, out_dir, min_arch, source, mode):
    name, flags = mode
    if mode_arch(flags) < min_arch.get(os.path.basename(source), 0):
        return (source, name, "n/a", None)
    base = os.path.splitext(os.path.basename(source))[0]
    ptx = os.path.join(out_dir, name, base + ".ptx")
    os.makedirs(os.path.dirname(ptx), exist_ok=True)
    cmd = [nvcc, "-ptx"] + flags + ["-o", ptx, source]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return (source, name, "nvcc failed: " + " ".join(cmd), r.stderr)
    # The target-neutral IR, and machine code for the host (the CPU
    # backend's whole pipeline: work-group functions, O3, x86 codegen).
    for cmd in ([cuhip, "ptx", ptx, "--emit", "gpu-ir", "-o", os.devnull],
                [cuhip, "ptx", ptx, "--arch", "host", "--emit", "obj",
                 "-o", os.devnull]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return (source, name, " ".join(cmd) + " exited %d" % r.returncode,
                    r.stderr)
    return (source, name, None, None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--cuhip", required=True)
    ap.add_argument("--out", required=True, help="directory for the generated PTX")
    ap.add_argument("--min-arch", action="append", default=[], metavar="FILE=NN",
                    help="FILE (a source's base name) needs sm_NN or newer")
    ap.add_argument("--known-gap", action="append", default=[],
                    metavar="FILE:MODE=OPCODE",
                    help="FILE in MODE fails only on the unsupported OPCODE")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()

    if not args.nvcc or not os.path.isfile(args.nvcc):
        print("ptx_modes: skipped: no nvcc (set CUHIP_CUDA_PATH to a CUDA toolkit)")
        return 77
    modes, notes = resolve_modes(args.nvcc)
    for n in notes:
        print("ptx_modes: note: " + n)

    min_arch = {}
    for entry in args.min_arch:
        name, _, arch = entry.partition("=")
        min_arch[name] = int(arch)

    jobs = [(s, m) for s in args.sources for m in modes]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(
            lambda j: check(args.nvcc, args.cuhip, args.out, min_arch, *j), jobs))
    skipped = [r for r in results if r[2] == "n/a"]
    results = [r for r in results if r[2] != "n/a"]
    gaps = {}
    for entry in args.known_gap:
        key, _, opcode = entry.partition("=")
        name, _, mode = key.partition(":")
        gaps[(name, mode)] = opcode

    def is_gap(r):
        opcode = gaps.get((os.path.basename(r[0]), r[1]))
        if opcode is None or r[2] is None or not r[3]:
            return False
        errors = [l for l in r[3].splitlines() if ": error: " in l]
        return bool(errors) and all(
            "unsupported PTX instruction '%s" % opcode in l for l in errors)
    known = [r for r in results if is_gap(r)]
    results = [r for r in results if not is_gap(r)]
    # A listed gap that lowers now is stale: say so, and fail.
    stale = [r for r in results if r[2] is None and
             (os.path.basename(r[0]), r[1]) in gaps]

    names = [m[0] for m in modes]
    width = max(len(os.path.basename(s)) for s in args.sources)
    print("\n%-*s  %s" % (width, "file", "  ".join(names)))
    by_key = {(r[0], r[1]): r for r in results + skipped + known}
    known_keys = {(r[0], r[1]) for r in known}

    def cell(r):
        if (r[0], r[1]) in known_keys:
            return "gap"
        return "ok" if r[2] is None else "n/a" if r[2] == "n/a" else "FAIL"
    for s in args.sources:
        cells = ["%-*s" % (len(n), cell(by_key[(s, n)])) for n in names]
        print("%-*s  %s" % (width, os.path.basename(s), "  ".join(cells)))

    failures = [r for r in results if r[2] is not None]
    for source, mode, what, stderr in failures:
        print("\nFAIL %s [%s]: %s" % (os.path.basename(source), mode, what))
        lines = stderr.rstrip().splitlines()
        for line in lines[:40]:
            print("  " + line)
        if len(lines) > 40:
            print("  ... %d more lines" % (len(lines) - 40))
    for source, mode, _, _ in known:
        print("\ngap %s [%s]: unsupported %s, as listed" %
              (os.path.basename(source), mode,
               gaps[(os.path.basename(source), mode)]))
    for source, mode, _, _ in stale:
        print("\nSTALE %s [%s]: lowers now; remove its --known-gap entry" %
              (os.path.basename(source), mode))
    print("\nptx_modes: %d of %d file/mode pairs lowered; %d failed; %d known gap(s); "
          "%d n/a (the source needs a newer architecture)%s"
          % (len(results) - len(failures), len(results), len(failures), len(known),
             len(skipped),
             "; %d mode(s) replaced, see the notes" % len(notes) if notes else ""))
    return 1 if failures or stale else 0


if __name__ == "__main__":
    sys.exit(main())
