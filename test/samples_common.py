"""What the scripts that build every sample in samples/ share
(nvcc/check_samples_amd.py, translate/check_samples_hipcc.py): running a
tool, the line of its output that says what went wrong, collecting the
samples, building them on a thread pool and the summary.
"""
import concurrent.futures
import glob
import os
import subprocess

INCLUDE_DIRS = ["/usr/include", "/opt/rocm/include"]


class Skipped(str):
    """The reason a sample was translated but not built."""


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace", **kw)


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no output)"


def build_samples(samples, only, jobs, single, multi, done):
    """Builds each sample in SAMPLES (those named in ONLY, if any) on JOBS
    threads: SINGLE(path) for a .cu file, MULTI(path) for a directory of
    them; each returns (name, None or an error or a Skipped). Prints a line per
    sample and a summary ("N of M " + DONE); returns the exit status."""
    work = []
    for e in sorted(os.listdir(samples)):
        path = os.path.join(samples, e)
        stem = e[:-3] if e.endswith(".cu") else e
        if only and stem not in only:
            continue
        if os.path.isdir(path) and glob.glob(os.path.join(path, "*.cu")):
            work.append((multi, path))
        elif e.endswith(".cu"):
            work.append((single, path))
    failed = []
    skipped = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for name, err in pool.map(lambda j: j[0](j[1]), work):
            if isinstance(err, Skipped):
                print("%-28s skipped: %s" % (name, err), flush=True)
                skipped.append(name)
                continue
            print("%-28s %s" % (name, "ok" if not err else "FAIL: " + err), flush=True)
            if err:
                failed.append(name)
    print("%d of %d %s" % (len(work) - len(failed) - len(skipped), len(work), done))
    if skipped:
        print("translated only (HIP library headers missing): " + " ".join(skipped))
    if failed:
        print("failed: " + " ".join(failed))
    return 1 if failed else 0
