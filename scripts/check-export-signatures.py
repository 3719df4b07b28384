#!/usr/bin/env python3
"""Checks that every function libcudart, libcuda.so.1, libcublas and
libcublasLt define has the type the CUDA toolkit's headers declare for it.

The drop-in libraries are built from cuhip's own declarations of the CUDA
types, never from the toolkit's headers, so nothing in the build itself would
notice a parameter that CUDA 13 added or changed. This script asks Clang for
both sides: the function declarations of cuda_runtime_api.h, cuda.h,
cublas_api.h and cublasLt.h (twice: also with CUDA_API_PER_THREAD_DEFAULT_STREAM, which declares the
`_ptsz`/`_ptds` forms), and the function definitions of every source of
libcudart.so.13, libcuda.so.1, libcublas.so.13 and libcublasLt.so.13,
compiled with the flags of
compile_commands.json. Every function both sides name must have the same
type, spelled the same way once `struct`/`enum`/`union` tags are dropped;
test/unit/cudart/AbiTest.cpp and test/unit/cuda/AbiTest.cpp check that the
types of those names have the toolkit's layout. The one accepted difference
is a not-supported stub (`RuntimeUnsupported.cpp`, `DriverUnsupported.cpp`,
`LtUnsupported.cpp`)
declared without parameters: it reads none of its arguments and returns the
not-supported error, which the C calling convention makes safe for any
argument list.

Usage: check-export-signatures.py --build-dir BUILD [--cuda-include DIR]
       [--clang CLANG++] [--jobs N]
Exits 1 with `file:line: error:` lines for every mismatch.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

STUB_FILES = ("RuntimeUnsupported.cpp", "DriverUnsupported.cpp",
              "LtUnsupported.cpp")
# Fewer compared functions than this means the script lost its inputs (a
# renamed directory, a changed compile_commands.json) rather than that the
# libraries agree.
MIN_COMPARED = 800


def ast_objects(text):
    """The concatenated JSON objects `-ast-dump=json -ast-dump-filter` prints."""
    dec = json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        obj, i = dec.raw_decode(text, i)
        yield obj


def has_body(decl):
    return any(c.get("kind") == "CompoundStmt" for c in decl.get("inner", []))


def function_types(clang, args, definitions_only):
    """name -> (type, line) for the functions whose names contain 'cu'."""
    cmd = [clang, "-fsyntax-only", "-Wno-everything", "-Xclang",
           "-ast-dump=json", "-Xclang", "-ast-dump-filter=cu"] + args
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), out.stderr[:4000]))
    found = {}
    for obj in ast_objects(out.stdout):
        if obj.get("kind") != "FunctionDecl" or obj.get("isImplicit"):
            continue
        if definitions_only and not has_body(obj):
            continue
        loc = obj.get("loc", {})
        # A definition a macro expands to has its line at the expansion.
        line = loc.get("line") or loc.get("expansionLoc", {}).get("line", 0)
        found.setdefault(obj["name"], (obj["type"]["qualType"], line))
    return found


def normalize(t):
    return re.sub(r"\b(struct|enum|union) ", "", t)


# The library source directories, and for those built once per CUDA major
# version the definition that selects the CUDA 13 build (the toolkit here
# is CUDA 13).
LIBRARY_DIRS = (
    ("/libcuda_shim/", None),
    ("/runtime/cudart/", "CUHIP_CUDART_MAJOR=13"),
    ("/libcublas/cublas/", "CUHIP_CUBLAS_MAJOR=13"),
    ("/libcublas/cublasLt/", "CUHIP_CUBLASLT_MAJOR=13"),
)
# The toolkit headers whose declarations are compared.
HEADERS = ("cuda_runtime_api.h", "cuda.h", "cublas_api.h", "cublasLt.h")
# At least this many cuBLAS functions must be compared, for the same reason
# as MIN_COMPARED.
MIN_CUBLAS = 90
MIN_CUBLASLT = 30


def library_sources(build_dir):
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        commands = json.load(f)
    for c in commands:
        path = c["file"]
        for directory, version_define in LIBRARY_DIRS:
            if directory in path:
                break
        else:
            continue
        if version_define and version_define not in c.get("command", ""):
            continue
        argv = shlex.split(c["command"]) if "command" in c else c["arguments"]
        flags = [a for a in argv if a.startswith(("-I", "-D", "-std="))]
        yield path, flags


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include")
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    opts = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        tu = os.path.join(tmp, "headers.cpp")
        with open(tu, "w") as f:
            f.write("".join("#include <%s>\n" % h for h in HEADERS))
        base = ["-x", "c++", "-std=c++17", "-I" + opts.cuda_include, tu]
        with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
            header_jobs = [
                pool.submit(function_types, opts.clang, base, False),
                pool.submit(function_types, opts.clang,
                            ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"] + base,
                            False)]
            sources = sorted(library_sources(opts.build_dir))
            source_jobs = [(path, pool.submit(function_types, opts.clang,
                                              flags + [path], True))
                           for path, flags in sources]
            declared = {}
            for job in header_jobs:
                for name, (typ, _) in job.result().items():
                    declared.setdefault(name, typ)
            defined = {}
            for path, job in source_jobs:
                for name, (typ, line) in job.result().items():
                    defined.setdefault(name, (typ, path, line))

    compared = 0
    compared_cublas = 0
    compared_cublaslt = 0
    mismatches = 0
    for name in sorted(defined):
        if name not in declared:
            continue
        typ, path, line = defined[name]
        compared += 1
        if name.startswith("cublas") and not name.startswith("cublasLt"):
            compared_cublas += 1
        if name.startswith("cublasLt"):
            compared_cublaslt += 1
        if normalize(typ) == normalize(declared[name]):
            continue
        if typ.endswith(" ()") and os.path.basename(path) in STUB_FILES:
            continue
        mismatches += 1
        print("%s:%d: error: %s is defined as '%s'; the CUDA headers declare "
              "'%s'" % (path, line, name, typ, declared[name]))
    print("check-export-signatures: %d library sources, %d functions compared "
          "with the CUDA headers (%d of cuBLAS, %d of cuBLASLt), %d mismatches"
          % (len(sources), compared, compared_cublas, compared_cublaslt,
             mismatches))
    if compared < MIN_COMPARED:
        print("check-export-signatures: error: only %d functions compared "
              "(expected at least %d); are the sources and compile_commands.json "
              "where this script looks?" % (compared, MIN_COMPARED))
        return 1
    if compared_cublas < MIN_CUBLAS:
        print("check-export-signatures: error: only %d cuBLAS functions "
              "compared (expected at least %d)" % (compared_cublas, MIN_CUBLAS))
        return 1
    if compared_cublaslt < MIN_CUBLASLT:
        print("check-export-signatures: error: only %d cuBLASLt functions "
              "compared (expected at least %d)"
              % (compared_cublaslt, MIN_CUBLASLT))
        return 1
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
