#!/usr/bin/env python3
"""Builds every sample with `cuhip nvcc --cuhip-backend=cpu` and runs it.

Each sample is built as a user would build it with nvcc, then run through
`cuhip run`, which must exit 0 with a PASS line. A sample that is a
directory is a multi-file program with relocatable device code: built with
-rdc=true, and in CMake's separable-compilation steps (-dc per file, -dlink,
a link). A sample with a NAME_kernels.cu gets NAME.fatbin from -fatbin, its
argument. With --device-compiler=clang, samples Clang's CUDA mode cannot
build are named in CLANG_UNSUPPORTED, and -rdc must be refused with the
message that says to install the toolkit's nvcc. Exits 77 (skipped) when
what the device compiler needs is not installed.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

# __managed__ variables are a HIP-only attribute in Clang; in its CUDA mode
# they are host variables, and the sample does not compile.
CLANG_UNSUPPORTED = {"managed": "__managed__ variables"}

failures = []


def run(cmd, what, expect_ok=True):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if (proc.returncode == 0) != expect_ok:
        failures.append(what)
        print(f"FAIL: {what}: exit {proc.returncode}\n  $ {' '.join(cmd)}\n"
              + proc.stdout)
    return proc


def check_runs(args, exe, prog_args, what):
    proc = run([args.cuhip, "run", "--", exe] + prog_args, what)
    if proc.returncode == 0:
        if not any(line.strip().endswith("PASS")
                   for line in proc.stdout.splitlines()):
            failures.append(what)
            print(f"FAIL: {what}: no PASS line\n" + proc.stdout)
        else:
            print(f"ok: {what}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuhip", required=True)
    p.add_argument("--samples-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--cuda-path", required=True)
    p.add_argument("--device-compiler", default="nvcc",
                   choices=["nvcc", "clang"])
    p.add_argument("--flags", action="append", default=[],
                   help="NAME=FLAG,...: extra nvcc flags of one sample")
    p.add_argument("samples", nargs="+")
    args = p.parse_args()

    nvcc = os.path.join(args.cuda_path, "bin", "nvcc")
    if args.device_compiler == "nvcc" and not os.access(nvcc, os.X_OK):
        print(f"skipped: no CUDA toolkit nvcc at {nvcc}")
        return 77
    if not os.path.exists(os.path.join(args.cuda_path, "include",
                                       "cuda_runtime.h")):
        print(f"skipped: no CUDA headers under {args.cuda_path}/include")
        return 77

    extra = {}
    for f in args.flags:
        name, _, flags = f.partition("=")
        extra[name] = [x for x in flags.split(",") if x]
    out = os.path.join(args.out, args.device_compiler)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    nvcc_cmd = [args.cuhip, "nvcc", "--cuhip-backend=cpu",
                f"--cuhip-device-compiler={args.device_compiler}"]
    common = ["-O3", "-arch=sm_75"]

    for s in args.samples:
        src = os.path.join(args.samples_dir, s)
        flags = common + extra.get(s, [])
        if args.device_compiler == "clang" and s in CLANG_UNSUPPORTED:
            print(f"not built with clang: {s} ({CLANG_UNSUPPORTED[s]})")
            continue
        if os.path.isdir(src):
            srcs = sorted(glob.glob(os.path.join(src, "*.cu")))
            flags += ["-I" + src]
            exe = os.path.join(out, s)
            if args.device_compiler == "clang":
                proc = run(nvcc_cmd + flags + ["-rdc=true", "-o", exe] + srcs,
                           f"{s}: -rdc=true refused in clang mode",
                           expect_ok=False)
                if proc.returncode != 0 and "install the CUDA toolkit" \
                        not in proc.stdout:
                    failures.append(f"{s}: refusal message")
                    print("FAIL: the -rdc refusal does not say what to do:\n"
                          + proc.stdout)
                continue
            if run(nvcc_cmd + flags + ["-rdc=true", "-o", exe] + srcs,
                   f"{s}: build -rdc=true").returncode == 0:
                check_runs(args, exe, [], f"{s}: -rdc=true")
            objs = []
            ok = True
            for f in srcs:
                obj = os.path.join(out, s + "." +
                                   os.path.basename(f)[:-3] + ".o")
                ok &= run(nvcc_cmd + flags + ["-dc", "-o", obj, f],
                          f"{s}: -dc {os.path.basename(f)}").returncode == 0
                objs.append(obj)
            dlink = os.path.join(out, s + ".dlink.o")
            ok = ok and run(nvcc_cmd + flags + ["-dlink", "-o", dlink] + objs,
                            f"{s}: -dlink").returncode == 0
            exe_sep = os.path.join(out, s + ".separable")
            ok = ok and run(nvcc_cmd + flags + ["-o", exe_sep] + objs + [dlink],
                            f"{s}: link").returncode == 0
            if ok:
                check_runs(args, exe_sep, [], f"{s}: -dc/-dlink/link")
            continue
        prog_args = []
        kernels = src + "_kernels.cu"
        if os.path.exists(kernels):
            fatbin = os.path.join(out, s + ".fatbin")
            if run(nvcc_cmd + ["-fatbin", "-arch=sm_75", "-o", fatbin,
                               kernels], f"{s}: -fatbin").returncode != 0:
                continue
            prog_args = [fatbin]
        exe = os.path.join(out, s)
        if run(nvcc_cmd + flags + ["-o", exe, src + ".cu"],
               f"{s}: build").returncode == 0:
            check_runs(args, exe, prog_args, s)

    if failures:
        print(f"{len(failures)} failed: " + "; ".join(failures))
        return 1
    print("all samples built and passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
