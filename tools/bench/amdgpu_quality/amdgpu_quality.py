#!/usr/bin/env python3
"""bench_amdgpu_quality: static code quality of cuhip's AMDGPU code objects.

For each sample kernel and each AMDGPU target, compiles nvcc's PTX with
`cuhip ptx --arch <target>` and the hand-written HIP twin of the same kernel
with clang's own HIP compilation (header-free, see twins/twin.h), reads both
code objects' metadata (`llvm-readobj --notes`) and disassembly
(`llvm-objdump -d`), and prints instruction count, SGPRs, VGPRs, AGPRs,
spills, LDS, scratch and theoretical occupancy side by side with the ratio
cuhip/clang. The reference is compiled in the same run with the same LLVM.
Exit status is 0 whether or not the targets are met: this is a measurement,
not a test; it is non-zero only when something could not be compiled.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1201"]

# sample -> (launch block size used by samples/<sample>.cu, for the LDS
# limit on occupancy)
SAMPLES = {"vector_add": 256, "saxpy": 128, "matmul_tiled": 256}

# Per-target limits for theoretical occupancy (waves per SIMD), the same
# quantities LLVM's AMDGPU backend uses (AMDGPUBaseInfo):
#   max_waves  waves a SIMD can hold
#   vgprs      VGPRs per lane available to all waves of a SIMD (gfx90a/gfx942:
#              the unified VGPR+AGPR file)
#   granule    VGPR allocation granule (per wave)
#   sgprs      SGPRs per SIMD, with its granule (None: not a limit, gfx10+)
#   lds        LDS bytes shared by the SIMDs below (gfx9 CU; gfx10+ WGP in
#              the default WGP mode)
#   simds      SIMDs sharing that LDS
LIMITS = {
    "gfx90a": dict(max_waves=8, vgprs=512, granule=8, sgprs=(800, 16),
                   lds=65536, simds=4, wave=64),
    "gfx942": dict(max_waves=8, vgprs=512, granule=8, sgprs=(800, 16),
                   lds=65536, simds=4, wave=64),
    "gfx1030": dict(max_waves=16, vgprs=1024, granule=16, sgprs=None,
                    lds=131072, simds=4, wave=32),
    "gfx1100": dict(max_waves=16, vgprs=1536, granule=24, sgprs=None,
                    lds=131072, simds=4, wave=32),
    "gfx1201": dict(max_waves=16, vgprs=1536, granule=24, sgprs=None,
                    lds=131072, simds=4, wave=32),
}


def align_to(v, a):
    return (v + a - 1) // a * a


def occupancy(target, md, block_size):
    """Theoretical waves per SIMD: the minimum of the VGPR, SGPR and LDS
    limits and the hardware maximum."""
    lim = LIMITS[target]
    waves = lim["max_waves"]
    regs = md["vgpr_count"]
    if target in ("gfx90a", "gfx942"):
        # AGPRs follow the ArchVGPRs, which are aligned to 4, in one file.
        regs = align_to(regs, 4) + md["agpr_count"]
    waves = min(waves, lim["vgprs"] // align_to(max(regs, 1), lim["granule"]))
    if lim["sgprs"]:
        total, gran = lim["sgprs"]
        waves = min(waves, total // align_to(max(md["sgpr_count"], 1), gran))
    lds = md["group_segment_fixed_size"]
    if lds:
        groups = lim["lds"] // lds
        waves_per_group = -(-block_size // lim["wave"])
        waves = min(waves, groups * waves_per_group // lim["simds"])
    return waves


KEYS = ["sgpr_count", "vgpr_count", "agpr_count", "sgpr_spill_count",
        "vgpr_spill_count", "group_segment_fixed_size",
        "private_segment_fixed_size", "wavefront_size"]


def read_metadata(readobj, obj):
    """The kernel-level fields of the code object's kernels, by name."""
    text = subprocess.run([readobj, "--notes", obj], check=True,
                          capture_output=True, text=True).stdout
    kernels, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^  - \.(\w+):\s*(.*)$", line)
        if m:
            cur = {}
            kernels.setdefault("?", []).append(cur)
            cur[m.group(1)] = m.group(2).strip()
            continue
        m = re.match(r"^    \.(\w+):\s*(.*)$", line)
        if m and cur is not None:
            cur[m.group(1)] = m.group(2).strip()
    result = {}
    for k in kernels.get("?", []):
        result[k["name"]] = {key: int(k.get(key, 0)) for key in KEYS}
    return result


def count_instructions(objdump, obj, symbol):
    """Instructions of the kernel's code, without the s_nop/s_code_end
    padding the linker places after the final s_endpgm."""
    text = subprocess.run([objdump, "-d", "--disassemble-symbols=" + symbol,
                           obj], check=True, capture_output=True,
                          text=True).stdout
    insts = []
    for line in text.splitlines():
        m = re.match(r"^\s+([a-z_][a-z0-9_.]*)\b", line)
        if m and "//" in line:
            insts.append(m.group(1))
    while insts and insts[-1] in ("s_nop", "s_code_end"):
        insts.pop()
    return len(insts)


def measure(args, obj):
    md = read_metadata(args.readobj, obj)
    if len(md) != 1:
        raise RuntimeError(f"{obj}: expected one kernel, found {list(md)}")
    name, fields = next(iter(md.items()))
    fields["insts"] = count_instructions(args.objdump, obj, name)
    return fields


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(" ".join(cmd) + "\n" + r.stdout + r.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuhip", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--readobj", required=True)
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--ptx-dir", required=True)
    ap.add_argument("--twins-dir", required=True)
    ap.add_argument("--markdown", action="store_true",
                    help="print the table as Markdown")
    args = ap.parse_args()

    rows, failures = [], 0
    with tempfile.TemporaryDirectory(prefix="amdgpu_quality.") as tmp:
        for sample, block in SAMPLES.items():
            ptx = os.path.join(args.ptx_dir, sample + ".sm_80.ptx")
            twin = os.path.join(args.twins_dir, sample + ".hip")
            for t in TARGETS:
                ours = os.path.join(tmp, f"{sample}.{t}.cuhip.hsaco")
                ref = os.path.join(tmp, f"{sample}.{t}.clang.hsaco")
                try:
                    run([args.cuhip, "ptx", ptx, "--arch", t, "-o", ours])
                    # Code object version 4 as cuhip emits, so both read
                    # blockDim from the dispatch packet.
                    run([args.clang, "-x", "hip", "--offload-arch=" + t,
                         "--cuda-device-only", "--no-gpu-bundle-output",
                         "-nogpuinc", "-nogpulib", "-O3",
                         "-mcode-object-version=4", "-o", ref, twin])
                    a, b = measure(args, ours), measure(args, ref)
                except (RuntimeError, subprocess.CalledProcessError) as e:
                    print(f"error: {sample} {t}: {e}", file=sys.stderr)
                    failures += 1
                    continue
                a["occ"] = occupancy(t, a, block)
                b["occ"] = occupancy(t, b, block)
                rows.append((sample, t, a, b))

    cols = [("insts", "insts"), ("sgpr_count", "SGPR"),
            ("vgpr_count", "VGPR"), ("agpr_count", "AGPR"),
            ("spills", "spills"), ("group_segment_fixed_size", "LDS"),
            ("private_segment_fixed_size", "scratch"), ("occ", "occ")]
    header = ["kernel", "target"] + [h for _, h in cols] + ["insts ratio",
                                                            "verdict"]
    table = []
    met = 0
    for sample, t, a, b in rows:
        for m in (a, b):
            m["spills"] = m["sgpr_spill_count"] + m["vgpr_spill_count"]
        cells = [sample, t]
        for key, _ in cols:
            cells.append(f"{a[key]}/{b[key]}")
        ratio = a["insts"] / b["insts"] if b["insts"] else float("inf")
        cells.append(f"{ratio:.2f}")
        problems = []
        if ratio > 1.15:
            problems.append("insts")
        if a["spills"] and not b["spills"]:
            problems.append("spills")
        if a["occ"] < b["occ"]:
            problems.append("occupancy")
        cells.append("ok" if not problems else "MISSED: " + ",".join(problems))
        met += not problems
        table.append(cells)

    print("cuhip (nvcc PTX) / clang (HIP twin), LLVM 22, -O3; occ = "
          "theoretical waves per SIMD")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in table:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(r[i]) for r in table + [header])
                  for i in range(len(header))]
        for r in [header] + table:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    print(f"targets met (insts <= 1.15x, no new spills, equal occupancy): "
          f"{met}/{len(table)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
