#!/usr/bin/env python3
"""Builds test/cmake_project (or, --mode package, test/cmake_package), an unmodified CUDA CMake project, with cuhip's
toolchain file, and checks the result:

  --mode amd  the program links libamdhip64 and its .hip_fatbin section holds
              a code object for every AMD target CMAKE_CUDA_ARCHITECTURES
              maps to (clang-offload-bundler --list);
  --mode cpu  the program runs through `cuhip run` and prints PASS.

--toolchain picks the toolchain file (the build tree's, or an installed
copy); --expect-targets lists the AMD targets that must be present.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


def must(cmd, what, **kw):
    r = run(cmd, **kw)
    if r.returncode:
        sys.stdout.write(r.stdout)
        sys.exit("FAIL: %s (exit status %d)" % (what, r.returncode))
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["amd", "cpu", "package"], required=True)
    ap.add_argument("--toolchain", help="the toolchain file (amd, cpu)")
    ap.add_argument("--package-dir", help="cuhip_DIR (package)")
    ap.add_argument("--cuhip", required=True, help="the cuhip executable")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--archs", default="90,89",
                    help="CMAKE_CUDA_ARCHITECTURES for the project, "
                         "comma-separated")
    ap.add_argument("--expect-targets", default="gfx942,gfx1100")
    ap.add_argument("--source", default=HERE)
    ap.add_argument("--work", help="build directory (default: a temporary one)")
    a = ap.parse_args()

    work = a.work or tempfile.mkdtemp(prefix="cuhip-cmake-project-")
    shutil.rmtree(work, ignore_errors=True)
    if a.mode == "package":
        must([a.cmake, "-S", a.source, "-B", work, "-G", "Ninja",
              "-Dcuhip_DIR=" + a.package_dir], "configure")
        must([a.cmake, "--build", work, "-v"], "build")
        out = must(["ctest", "--test-dir", work, "--output-on-failure", "-V"],
                   "ctest of the package user")
        sys.stdout.write(out)
        if "PASS" not in out:
            sys.exit("FAIL: device_query did not pass")
        print("ok: find_package(cuhip) gives working targets")
        return
    out = must([a.cmake, "-S", a.source, "-B", work, "-G", "Ninja",
                "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_TOOLCHAIN_FILE=" + a.toolchain,
                "-DCUHIP_BACKEND=" + a.mode,
                "-DCMAKE_CUDA_ARCHITECTURES=" + a.archs.replace(",", ";")], "configure")
    sys.stdout.write(out)
    # CMake must have identified cuhip nvcc as nvcc, with cuhip's toolkit
    # directory for the mode as the toolkit root.
    cache = open(os.path.join(work, "CMakeCache.txt")).read()
    facade = "lib/cuhip/cuda-" + a.mode
    info = [f for f in os.listdir(os.path.join(work, "CMakeFiles"))
            if f[0].isdigit()]
    compiler = open(os.path.join(work, "CMakeFiles", info[0],
                                 "CMakeCUDACompiler.cmake")).read()
    for want in ('CMAKE_CUDA_COMPILER_ID "NVIDIA"',
                 facade + '/bin/nvcc")',
                 'CMAKE_CUDA_COMPILER_TOOLKIT_ROOT "',
                 'CMAKE_CUDA_HOST_IMPLICIT_LINK_DIRECTORIES "'):
        if want not in compiler:
            sys.exit("FAIL: CMakeCUDACompiler.cmake lacks %r" % want)
    for var in ("CMAKE_CUDA_COMPILER_TOOLKIT_ROOT",
                "CMAKE_CUDA_HOST_IMPLICIT_LINK_DIRECTORIES"):
        line = [l for l in compiler.splitlines() if "set(%s " % var in l]
        if not line or facade not in line[0]:
            sys.exit("FAIL: %s is not cuhip's toolkit directory: %s"
                     % (var, line[0] if line else "unset"))
    # FindCUDAToolkit's targets point into the mode's toolkit directory:
    # the runtime and driver always, cuBLAS/cuBLASLt where that mode has them
    # (AMD: hipBLAS linker scripts; CPU: cuhip's own libraries once built).
    cuhip_root = os.path.dirname(os.path.dirname(os.path.abspath(a.cuhip)))
    wanted = ["cudart", "cuda_driver"]
    if a.mode == "amd" or os.path.exists(
            os.path.join(cuhip_root, "lib", "libcublas.so.13")):
        wanted += ["cublas", "cublasLt"]
    for lib in wanted:
        line = [l for l in cache.splitlines()
                if l.startswith("CUDA_%s_LIBRARY:FILEPATH=" % lib)]
        if not line or facade + "/lib64/" not in line[0]:
            sys.exit("FAIL: CUDA::%s is not cuhip's (%s)"
                     % (lib, line[0] if line else "not in the cache"))
    must([a.cmake, "--build", work, "-v"], "build")
    prog = os.path.join(work, "mlp_demo")

    if a.mode == "cpu":
        r = run([a.cuhip, "run", "--", prog])
        sys.stdout.write(r.stdout)
        if r.returncode or "PASS" not in r.stdout:
            sys.exit("FAIL: mlp_demo through cuhip run (exit status %d)"
                     % r.returncode)
        print("ok: the CPU-mode program passes through cuhip run")
        return

    needed = must([os.path.join(a.llvm_bin, "llvm-readelf"), "-d", prog],
                  "readelf")
    if "libamdhip64" not in needed:
        sys.stdout.write(needed)
        sys.exit("FAIL: mlp_demo does not link libamdhip64")
    fatbin = os.path.join(work, "mlp_demo.hip_fatbin")
    must([os.path.join(a.llvm_bin, "llvm-objcopy"),
          "--dump-section", ".hip_fatbin=" + fatbin, prog, os.devnull],
         "extract .hip_fatbin")
    bundler = shutil.which("clang-offload-bundler",
                           path=a.llvm_bin + os.pathsep + os.environ["PATH"])
    listed = must([bundler, "--list", "--type=o", "--input=" + fatbin],
                  "clang-offload-bundler --list")
    print(listed)
    missing = [t for t in a.expect_targets.split(",")
               if not any(l.endswith("--" + t) or l.endswith("-" + t)
                          for l in listed.split())]
    if missing:
        sys.exit("FAIL: no code object for " + ", ".join(missing))
    print("ok: mlp_demo links libamdhip64 and carries code objects for "
          + a.expect_targets)


if __name__ == "__main__":
    main()
