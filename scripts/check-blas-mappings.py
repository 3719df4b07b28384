#!/usr/bin/env python3
"""Checks that the translator's cuBLAS/cuBLASLt rows agree with cuhip's
drop-in libraries.

Reads the functions libcublas.so.13 and libcublasLt.so.13 export (their
dynamic symbols, through nm) and checks, for each one the drop-in
implements, that translator/mappings/cublas.tsv or cublasLt.tsv has a
function row for it: `supported` with its hipBLAS/hipBLASLt name, or
`unsupported` with a note saying why HIP has no counterpart. Entry points
the drop-in exports only as stubs that answer CUBLAS_STATUS_NOT_SUPPORTED
(libcublas/cublasLt/LtUnsupported.cpp) need no row.

The exports are also kept, with whether each is implemented or a stub, in
libcublas/drop-in-exports.tsv, which scripts/gen-translator-tables.py reads
for the "cuhip drop-in" column of docs/translate-coverage.md without
needing a build; this check fails when that file no longer matches the
built libraries (refresh it with --update, then regenerate the page).

Usage: check-blas-mappings.py --lib-dir build/lib [--update]
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARIES = [("libcublas.so.13", "cublas"), ("libcublasLt.so.13", "cublasLt")]
STUB_SOURCES = [os.path.join("libcublas", "cublasLt", "LtUnsupported.cpp"),
                os.path.join("libcublas", "cublas", "Unsupported.cpp")]
EXPORTS_FILE = os.path.join("libcublas", "drop-in-exports.tsv")


def exported_functions(path, nm):
    r = subprocess.run([nm, "-D", "--defined-only", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        raise SystemExit("%s: cannot read its dynamic symbols: %s" % (path, r.stdout.strip()))
    names = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "W", "i"):
            names.add(parts[2].split("@")[0])
    return names


def stub_names(root):
    names = set()
    for rel in STUB_SOURCES:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        # The stub files' macros (CUHIP_LT_UNSUPPORTED, UNDOCUMENTED) and
        # their written-out stubs (an exported function in such a file).
        names |= set(re.findall(r"^(?:CUHIP_LT_UNSUPPORTED|UNDOCUMENTED)\((\w+)",
                                text, re.M))
        names |= set(re.findall(r"^CUHIP_EXPORT \w+ (\w+)\(", text, re.M))
    return names


def read_rows(root, family):
    rows = {}
    with open(os.path.join(root, "translator", "mappings", family + ".tsv"),
              encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if cells[0] == "cuda":
                continue
            rows[cells[0]] = cells
    return rows


def exports_text(found):
    lines = ["# The functions cuhip's libcublas/libcublasLt export, and whether each",
             "# is implemented or a stub answering CUBLAS_STATUS_NOT_SUPPORTED.",
             "# Written by scripts/check-blas-mappings.py --update from the built",
             "# libraries; read by scripts/gen-translator-tables.py.",
             "function\tlibrary\tdrop-in"]
    for name, lib, kind in sorted(found):
        lines.append("%s\t%s\t%s" % (name, lib, kind))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib-dir", required=True, help="where libcublas.so.13 is (build/lib)")
    ap.add_argument("--root", default=ROOT)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--update", action="store_true",
                    help="rewrite %s from the built libraries" % EXPORTS_FILE)
    a = ap.parse_args()
    stubs = stub_names(a.root)
    found = []
    problems = []
    counts = {}
    for lib, family in LIBRARIES:
        path = os.path.join(a.lib_dir, lib)
        if not os.path.exists(path):
            print("error: %s not found: build it first (ninja %s13)"
                  % (path, family), file=sys.stderr)
            return 1
        rows = read_rows(a.root, family)
        c = counts.setdefault(lib, {"supported": 0, "unsupported": 0, "stub": 0})
        for name in sorted(exported_functions(path, a.nm)):
            kind = "stub" if name in stubs else "implemented"
            found.append((name, lib, kind))
            if kind == "stub":
                c["stub"] += 1
                continue
            row = rows.get(name)
            if row is None or row[2] != "function":
                problems.append(
                    "%s exports %s, which translator/mappings/%s.tsv has no function "
                    "row for: add one (its HIP name, or status unsupported with the "
                    "reason as the note)" % (lib, name, family))
            elif row[3] == "unsupported" and row[6] in ("", "-"):
                problems.append(
                    "translator/mappings/%s.tsv: %s is unsupported without a note: "
                    "say why HIP has no counterpart" % (family, name))
            else:
                c[row[3]] += 1
    text = exports_text(found)
    exports_path = os.path.join(a.root, EXPORTS_FILE)
    if a.update:
        with open(exports_path, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s" % exports_path)
    else:
        current = open(exports_path, encoding="utf-8").read() if os.path.exists(exports_path) else ""
        if current != text:
            problems.append(
                "%s does not match the built libraries: run scripts/check-blas-mappings.py "
                "--lib-dir %s --update, then scripts/gen-translator-tables.py --docs "
                "docs/translate-coverage.md" % (EXPORTS_FILE, a.lib_dir))
    for lib, c in counts.items():
        print("%s: %d functions mapped to HIP, %d with no HIP counterpart (unsupported "
              "rows), %d stubs" % (lib, c["supported"], c["unsupported"], c["stub"]))
    for p in problems:
        print("error: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
