#!/usr/bin/env python3
"""Builds every sample in samples/ with `cuhip nvcc` in AMD mode, the way
a Makefile would call nvcc, and checks each result: an executable linked
against libamdhip64 whose .hip_fatbin section holds a code object for every
requested target (clang-offload-bundler --list proves it).

A sample that is a directory of .cu files is built twice: `nvcc -rdc=true`
over all its files, and CMake's separable compilation (`nvcc -dc` per file,
`nvcc -dlink` over the objects, the host compiler linking everything).
NAME_kernels.cu files (kernels a driver-API sample loads at run time; nvcc
-fatbin in CPU mode) are compiled with -c and their objects checked.

A sample that uses a math library (cuBLAS, cuBLASLt) needs the HIP
library's headers (hipblas/hipblas.h, hipblaslt/hipblaslt.h) in AMD mode;
where they are not installed (Debian has neither), the sample is translated
with `cuhip translate` and the translation checked (no name left unmapped),
and its build is skipped with the reason printed.

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

# Extra nvcc flags per sample, as the top-level CMakeLists.txt gives them.
SAMPLE_FLAGS = {"driver_module_ptx": ["-lcuda"],
                "driver_module_fatbin": ["-lcuda"],
                "driver_link": ["-lcuda"],
                "cublas_sgemm": ["-lcublas"],
                "cublas_gemmex_bf16": ["-lcublas"],
                "cublas_batched_attention": ["-lcublas"],
                "cublaslt_bias_gelu": ["-lcublasLt"]}

# CUDA library headers, the HIP header AMD mode builds them against, and the
# package that provides it.
LIBRARY_HEADERS = {"cublas_v2.h": ("hipblas/hipblas.h", "hipBLAS (ROCm's hipblas-dev)"),
                   "cublas_api.h": ("hipblas/hipblas.h", "hipBLAS (ROCm's hipblas-dev)"),
                   "cublasLt.h": ("hipblaslt/hipblaslt.h",
                                  "hipBLASLt (ROCm's hipblaslt-dev)")}


def missing_library_headers(src):
    """(HIP header, package) for each CUDA library header SRC includes whose
    HIP counterpart is not installed."""
    with open(src) as f:
        included = re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', f.read(), re.M)
    missing = []
    for h in included:
        hip = LIBRARY_HEADERS.get(h)
        if hip and hip not in missing and not any(
                os.path.exists(os.path.join(d, hip[0])) for d in INCLUDE_DIRS):
            missing.append(hip)
    return missing


# Samples that sample textures: gfx940-gfx942 (MI300) have no image
# instructions, so HIP refuses texture fetches there; these are built for
# gfx90a in their place.
USES_IMAGES = {"texture_sampling"}


def image_archs(archs):
    out = [("gfx90a" if a in ("gfx940", "gfx941", "gfx942") else a) for a in archs]
    return sorted(set(out), key=out.index)


class Builder:
    def __init__(self, a):
        self.a = a
        self.tool = lambda name: os.path.join(a.llvm_bin, name)

    def nvcc(self, args, archs=None):
        return run([self.a.cuhip, "nvcc",
                    "--amdgpu-arch=" + ",".join(archs or self.a.arch),
                    "-O3"] + args)

    def check_targets(self, binary, archs=None):
        """The first bundle of BINARY's .hip_fatbin names every target."""
        fb = binary + ".hip_fatbin"
        r = run([self.tool("llvm-objcopy"), "--dump-section", ".hip_fatbin=" + fb,
                 binary, binary + ".stripped"])
        if r.returncode:
            return "no .hip_fatbin section: " + first_error(r.stdout)
        r = run([self.tool("clang-offload-bundler"), "--list", "--type=o",
                 "--input=" + fb])
        if r.returncode:
            return "clang-offload-bundler --list: " + first_error(r.stdout)
        listed = r.stdout.split()
        for arch in archs or self.a.arch:
            if "hipv4-amdgcn-amd-amdhsa--" + arch not in listed:
                return "no %s code object (bundle lists %s)" % (arch, " ".join(listed))
        return None

    def check_exe(self, exe, archs=None, kernels=True):
        r = run([self.tool("llvm-readelf"), "-d", exe])
        if "libamdhip64" not in r.stdout:
            return "not linked against libamdhip64"
        if not kernels:
            # A driver-API program: its kernels are loaded at run time.
            r = run([self.tool("llvm-readelf"), "-S", exe])
            if ".hip_fatbin" in r.stdout:
                return "a .hip_fatbin section in a program without kernels"
            return None
        return self.check_targets(exe, archs)

    def single(self, src):
        name = os.path.basename(src)[:-3]
        out = os.path.join(self.a.work, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        if name.endswith("_kernels"):
            obj = os.path.join(out, name + ".o")
            r = self.nvcc(["-c", src, "-o", obj])
            if r.returncode:
                return name, "nvcc -c: " + first_error(r.stdout)
            return name, self.check_targets(obj)
        missing = missing_library_headers(src)
        if missing:
            r = run([self.a.cuhip, "translate", src, "-o",
                     os.path.join(out, name + ".hip")])
            if r.returncode:
                return name, "translate: " + first_error(r.stdout)
            unmapped = [l for l in r.stdout.splitlines() if "[cuhip-unmapped]" in l]
            if unmapped:
                return name, "translate: " + unmapped[0].strip()
            return name, Skipped("translated; not built: %s not installed (%s)"
                                 % (", ".join(h for h, _ in missing),
                                    ", ".join(p for _, p in missing)))
        exe = os.path.join(out, name)
        archs = image_archs(self.a.arch) if name in USES_IMAGES else None
        r = self.nvcc(SAMPLE_FLAGS.get(name, []) + [src, "-o", exe], archs)
        if r.returncode:
            return name, "nvcc: " + first_error(r.stdout)
        kernels = "__global__" in open(src).read()
        err = self.check_exe(exe, archs, kernels)
        if err is None and archs:
            print("%-28s built for %s: %s has no image instructions"
                  % (name, ",".join(archs), ",".join(set(self.a.arch) - set(archs))))
        return name, err

    def multi(self, d):
        name = os.path.basename(d.rstrip("/"))
        out = os.path.join(self.a.work, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        srcs = sorted(glob.glob(os.path.join(d, "*.cu")))
        exe = os.path.join(out, name)
        r = self.nvcc(["-rdc=true", "-I" + d] + srcs + ["-o", exe])
        if r.returncode:
            return name, "nvcc -rdc=true: " + first_error(r.stdout)
        err = self.check_exe(exe)
        if err:
            return name, "nvcc -rdc=true: " + err
        objs = []
        for s in srcs:
            o = os.path.join(out, os.path.basename(s)[:-3] + ".o")
            r = self.nvcc(["-dc", "-I" + d, s, "-o", o])
            if r.returncode:
                return name, "nvcc -dc %s: %s" % (os.path.basename(s), first_error(r.stdout))
            objs.append(o)
        dlink = os.path.join(out, "device_link.o")
        r = self.nvcc(["-dlink"] + objs + ["-o", dlink])
        if r.returncode:
            return name, "nvcc -dlink: " + first_error(r.stdout)
        err = self.check_targets(dlink)
        if err:
            return name, "nvcc -dlink: " + err
        exe2 = os.path.join(out, name + "_separable")
        r = run([self.a.cxx] + objs + [dlink, "-o", exe2, "-L" + self.a.hip_lib,
                                       "-lamdhip64"])
        if r.returncode:
            return name, "host link: " + first_error(r.stdout)
        r = run([self.tool("llvm-readelf"), "-d", exe2])
        if "libamdhip64" not in r.stdout:
            return name, "host link: not linked against libamdhip64"
        return name, None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuhip", required=True)
    p.add_argument("--samples", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--llvm-bin", required=True,
                   help="LLVM's bin directory (llvm-objcopy, clang-offload-bundler)")
    p.add_argument("--cxx", default="c++", help="the host compiler of the separable link")
    p.add_argument("--hip-lib", default="/usr/lib/x86_64-linux-gnu")
    p.add_argument("--arch", action="append", default=[])
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--only", action="append", default=[],
                   help="build only these samples (names without .cu)")
    a = p.parse_args()
    a.arch = a.arch or ["gfx942", "gfx1100"]
    os.makedirs(a.work, exist_ok=True)
    b = Builder(a)
    return build_samples(a.samples, a.only, a.j, b.single, b.multi,
                         "samples built by cuhip nvcc for %s" % ", ".join(a.arch))


if __name__ == "__main__":
    sys.exit(main())
