#!/usr/bin/env python3
"""Translates every sample in samples/ with `cuhip translate` and builds the
result with hipcc: an executable per sample, linked against libamdhip64, with
device code for each --arch. A sample that is a directory of .cu files is
translated in one run with --local-headers and its objects are linked
together with relocatable device code; NAME_kernels.cu files (kernels a
driver-API sample loads at run time) become code objects (--genco), whose
per-architecture ELF notes are checked.

A sample that uses a math library (cuBLAS, cuBLASLt) translates to the HIP
library's header (hipblas/hipblas.h, hipblaslt/hipblaslt.h); where that
header is not installed (Debian has neither), the sample is translated and
the translation checked (no name left unmapped), and its compilation is
skipped with the reason printed.

gfx1100: the ROCm 5.2 device libraries Debian ships have no
oclc_isa_version_1100.bc, the one-variable bitcode file that tells ocml and
ockl which ISA they run on. It is generated here (the variable
__oclc_ISA_version = 11000, in the data layout and triple of the installed
isa-version files, assembled by the llvm-as of hipcc's own Clang) into a
directory of symlinks to the installed libraries, which hipcc is given with
--rocm-device-lib-path.

Prints one line per sample and a summary; exits 1 if any sample failed.
"""
import argparse
import glob
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from samples_common import INCLUDE_DIRS, Skipped, build_samples, first_error, run  # noqa: E402

# HIP library headers the translated samples may include, and the package
# that provides each.
LIBRARY_HEADERS = {"hipblas/hipblas.h": "hipBLAS (ROCm's hipblas-dev)",
                   "hipblaslt/hipblaslt.h": "hipBLASLt (ROCm's hipblaslt-dev)"}


def missing_library_headers(translated):
    """The HIP library headers TRANSLATED includes that are not installed."""
    with open(translated) as f:
        included = re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', f.read(), re.M)
    return [h for h in included if h in LIBRARY_HEADERS and not any(
        os.path.exists(os.path.join(d, h)) for d in INCLUDE_DIRS)]


BITCODE_DIRS = ["/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                "/opt/rocm/amdgcn/bitcode", "/opt/rocm/lib/bitcode"]


def hip_clang_bin(hipcc):
    """The bin directory of the Clang that hipcc drives (same LLVM version)."""
    out = run([hipcc, "--version"]).stdout
    m = re.search(r"clang version (\d+)", out)
    if m:
        d = "/usr/lib/llvm-%s/bin" % m.group(1)
        if os.path.exists(os.path.join(d, "llvm-as")):
            return d
    return None


def make_device_lib_dir(work, hipcc, archs):
    """A directory with the installed device libraries plus an isa-version
    file for each arch they lack; None (and why) if that cannot be done."""
    src = next((d for d in BITCODE_DIRS
                if os.path.exists(os.path.join(d, "ocml.bc"))), None)
    if not src:
        return None, "no ROCm device libraries found in " + ", ".join(BITCODE_DIRS)
    missing = [a for a in archs if not os.path.exists(
        os.path.join(src, "oclc_isa_version_%s.bc" % a[3:]))]
    if not missing:
        return src, None
    bindir = hip_clang_bin(hipcc)
    if not bindir:
        return None, "no llvm-as of hipcc's Clang version"
    out = os.path.join(work, "device-libs")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for f in os.listdir(src):
        os.symlink(os.path.join(src, f), os.path.join(out, f))
    # The data layout and triple of an installed isa-version file, so the
    # generated one links into the device code without a mismatch.
    model = run([os.path.join(bindir, "llvm-dis"),
                 os.path.join(src, "oclc_isa_version_90a.bc"), "-o", "-"]).stdout
    header = [l for l in model.splitlines()
              if l.startswith("target datalayout") or l.startswith("target triple")]
    for arch in missing:
        digits = arch[3:]
        m = re.fullmatch(r"(\d+)(\d)([0-9a-f])", digits)
        if not m:
            return None, "cannot read an ISA version from " + arch
        version = int(m.group(1)) * 1000 + int(m.group(2)) * 100 + int(m.group(3), 16)
        ll = os.path.join(out, "isa_%s.ll" % digits)
        with open(ll, "w") as f:
            f.write("\n".join(header) + "\n")
            f.write("@__oclc_ISA_version = linkonce_odr protected "
                    "local_unnamed_addr addrspace(4) constant i32 %d, align 4\n"
                    % version)
        r = run([os.path.join(bindir, "llvm-as"), ll, "-o",
                 os.path.join(out, "oclc_isa_version_%s.bc" % digits)])
        if r.returncode:
            return None, "llvm-as: " + first_error(r.stdout)
    return out, None


class Builder:
    def __init__(self, args, devlib):
        self.a = args
        self.devlib = devlib

    def hipcc(self, extra):
        cmd = [self.a.hipcc] + ["--offload-arch=" + a for a in self.a.arch]
        if self.devlib:
            cmd.append("--rocm-device-lib-path=" + self.devlib)
        return run(cmd + extra)

    def translate(self, extra):
        return run([self.a.cuhip, "translate"] + extra)

    def check_exe(self, exe):
        r = run([self.a.readobj, "--needed-libs", exe])
        if "libamdhip64" not in r.stdout:
            return "not linked against libamdhip64"
        return None

    def check_code_object(self, bundle, name):
        """Each architecture's code object in a --genco bundle is an AMDGPU
        ELF whose notes name that target."""
        for arch in self.a.arch:
            co = "%s.%s.co" % (bundle, arch)
            r = run([self.a.bundler, "--unbundle", "--type=o", "--input=" + bundle,
                     "--targets=hipv4-amdgcn-amd-amdhsa--" + arch, "--output=" + co])
            if r.returncode:
                return "unbundling %s: %s" % (arch, first_error(r.stdout))
            notes = run([self.a.readobj, "--notes", co]).stdout
            if "amdhsa.target:   amdgcn-amd-amdhsa--" + arch not in notes:
                return "the %s code object does not name its target" % arch
            if ".name:" not in notes:
                return "the %s code object has no kernels" % arch
        return None

    def single(self, src):
        name = os.path.basename(src)[:-3]
        out = os.path.join(self.a.work, name)
        os.makedirs(out, exist_ok=True)
        hip = os.path.join(out, name + ".hip")
        r = self.translate([src, "-o", hip])
        if r.returncode:
            return name, "translate: " + first_error(r.stdout)
        missing = missing_library_headers(hip)
        if missing:
            unmapped = [l for l in r.stdout.splitlines() if "[cuhip-unmapped]" in l]
            if unmapped:
                return name, "translate: " + unmapped[0].strip()
            return name, Skipped("translated; not compiled: %s not installed (%s)"
                                 % (", ".join(missing),
                                    ", ".join(LIBRARY_HEADERS[h] for h in missing)))
        if name.endswith("_kernels"):
            co = os.path.join(out, name + ".bundle")
            r = self.hipcc(["--genco", hip, "-o", co])
            if r.returncode:
                return name, "hipcc --genco: " + first_error(r.stdout)
            return name, self.check_code_object(co, name)
        exe = os.path.join(out, name)
        r = self.hipcc([hip, "-o", exe])
        if r.returncode:
            return name, "hipcc: " + first_error(r.stdout)
        return name, self.check_exe(exe)

    def multi(self, d):
        name = os.path.basename(d.rstrip("/"))
        out = os.path.join(self.a.work, name)
        shutil.rmtree(out, ignore_errors=True)
        srcs = sorted(glob.glob(os.path.join(d, "*.cu")))
        r = self.translate(srcs + ["--local-headers", "--o-dir", out, "--", "-I" + d])
        if r.returncode:
            return name, "translate: " + first_error(r.stdout)
        objs = []
        for s in srcs:
            t = os.path.join(out, os.path.basename(s))
            o = t[:-3] + ".o"
            r = self.hipcc(["-fgpu-rdc", "-x", "hip", "-I", out, "-c", t, "-o", o])
            if r.returncode:
                return name, "hipcc %s: %s" % (os.path.basename(s), first_error(r.stdout))
            objs.append(o)
        exe = os.path.join(out, name)
        # The device link runs ld.lld from Clang's program path; Debian's
        # /usr/bin/ld.lld may be an older LLVM than hipcc's Clang, which
        # cannot read its bitcode, so hipcc's own LLVM comes first.
        r = self.hipcc(["-fgpu-rdc"] + (["-B", self.a.clang_bin] if self.a.clang_bin else [])
                       + objs + ["-o", exe])
        if r.returncode:
            return name, "hipcc (link): " + first_error(r.stdout)
        return name, self.check_exe(exe)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuhip", required=True)
    p.add_argument("--samples", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--hipcc", default="hipcc")
    p.add_argument("--arch", action="append", default=[])
    p.add_argument("--readobj", default="llvm-readobj")
    p.add_argument("--bundler", help="clang-offload-bundler (default: hipcc's)")
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--only", action="append", default=[],
                   help="build only these samples (names without .cu)")
    a = p.parse_args()
    a.arch = a.arch or ["gfx90a"]
    a.clang_bin = hip_clang_bin(a.hipcc)
    if not a.bundler:
        a.bundler = os.path.join(a.clang_bin or "/usr/bin", "clang-offload-bundler")
    os.makedirs(a.work, exist_ok=True)
    devlib, why = make_device_lib_dir(a.work, a.hipcc, a.arch)
    if why:
        print("cannot set up the device libraries: " + why)
        return 1
    if devlib and devlib.startswith(a.work):
        print("device libraries: %s (generated isa-version files added)" % devlib)
    b = Builder(a, devlib if devlib and devlib.startswith(a.work) else None)
    return build_samples(a.samples, a.only, a.j, b.single, b.multi,
                         "samples translated, compiled for %s and linked" % ", ".join(a.arch))


if __name__ == "__main__":
    sys.exit(main())
