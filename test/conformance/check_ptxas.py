#!/usr/bin/env python3
"""Assembles every conformance case's PTX with NVIDIA's ptxas for the case's
own .target, so that every case is PTX that a GPU would accept and its
expected values can be checked on one (ptx_conformance_driver). Cases ptxas
cannot take are reported, not failed: .target sm_1x (no longer assembled,
though the driver still loads it) and a .version newer than this ptxas.

    check_ptxas.py PTXAS CASES_DIR
"""
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ptxas, root = sys.argv[1], sys.argv[2]
    cases = sorted(os.path.join(d, f) for d, _, fs in os.walk(root)
                   for f in fs if f.endswith(".ptx"))
    failed, skipped = [], []
    for path in cases:
        rel = os.path.relpath(path, root)
        with open(path) as f:
            text = f.read()
        m = re.search(r"^\s*\.target\s+(sm_\w+)", text, re.M)
        if not m:
            failed.append(rel)
            print("FAIL: %s: no .target line" % rel)
            continue
        target = m.group(1).rstrip(",")
        if re.fullmatch(r"sm_1\d?", target):
            skipped.append(rel)
            print("SKIP: %s: .target %s (ptxas assembles sm_75 and later)"
                  % (rel, target))
            continue
        r = subprocess.run([ptxas, "-arch=" + target, path, "-o", os.devnull],
                           capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        if r.returncode == 0 and "error" not in out:
            print("PASS: %s" % rel)
        elif "Unsupported .version" in out:
            skipped.append(rel)
            print("SKIP: %s: %s" % (rel, out.splitlines()[0]))
        else:
            failed.append(rel)
            print("FAIL: %s\n%s" % (rel, out))
    print("%d cases: %d accepted, %d rejected, %d not assembled"
          % (len(cases), len(cases) - len(failed) - len(skipped), len(failed),
             len(skipped)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
