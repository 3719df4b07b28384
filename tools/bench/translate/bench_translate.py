#!/usr/bin/env python3
"""Throughput of `cuhip translate`: files per second and seconds per file,
one process per file against one process for all files (-j cores, the
shared precompiled header), on the project's samples and on a generated
50-file CUDA project (kernels, runtime calls, a shared project header).
Prints a table, the batch/per-process time ratio and whether a batch meets
the target of under 0.3 s per file. Every output is checked: both ways give
the same bytes, no runtime call is left in CUDA spelling, and translating
the output again changes nothing.

--quick: a 6-file project and three samples, results checked, timings
printed but not judged (the ctest test bench.translate.quick).
"""
import argparse
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TARGET_S_PER_FILE = 0.3

HEADER = """// Shared declarations of the generated project.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                     \\
  do {                                                                       \\
    cudaError_t err_ = (call);                                               \\
    if (err_ != cudaSuccess) {                                               \\
      std::fprintf(stderr, "%s:%d: %s\\n", __FILE__, __LINE__,              \\
                   cudaGetErrorString(err_));                                \\
      std::exit(1);                                                          \\
    }                                                                        \\
  } while (0)

struct DeviceBuffer {
  float *ptr = nullptr;
  size_t n = 0;
  void alloc(size_t count) { n = count; CHECK_CUDA(cudaMalloc(&ptr, n * sizeof(float))); }
  void release() { CHECK_CUDA(cudaFree(ptr)); ptr = nullptr; }
};

inline int blocks_for(int n, int threads) { return (n + threads - 1) / threads; }
"""

SOURCE = """// Generated source {i} of the benchmark project.
#include "common.h"
#include <vector>
#include <cmath>

__global__ void scale_{i}(float *x, float a, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + {i}.0f;
}}

__global__ void reduce_{i}(const float *x, float *out, int n) {{
  __shared__ float part[256];
  int t = threadIdx.x;
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
    s += x[i];
  part[t] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {{
    if (t < w) part[t] += part[t + w];
    __syncthreads();
  }}
  if (t == 0) atomicAdd(out, part[0]);
}}

template <typename T> __global__ void fill_{i}(T *p, T v, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}}

float run_{i}(int n) {{
  std::vector<float> host(n, 1.0f);
  DeviceBuffer x, sum;
  x.alloc(n);
  sum.alloc(1);
  cudaStream_t stream;
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  CHECK_CUDA(cudaMemcpyAsync(x.ptr, host.data(), n * sizeof(float),
                             cudaMemcpyHostToDevice, stream));
  CHECK_CUDA(cudaMemsetAsync(sum.ptr, 0, sizeof(float), stream));
  CHECK_CUDA(cudaEventRecord(start, stream));
  scale_{i}<<<blocks_for(n, 256), 256, 0, stream>>>(x.ptr, 2.0f, n);
  reduce_{i}<<<32, 256, 0, stream>>>(x.ptr, sum.ptr, n);
  fill_{i}<float><<<blocks_for(n, 128), 128, 0, stream>>>(x.ptr, 0.0f, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(stop, stream));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0.0f, result = 0.0f;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  CHECK_CUDA(cudaMemcpy(&result, sum.ptr, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  x.release();
  sum.release();
  return std::isfinite(result) ? result : -1.0f;
}}
"""

# Runtime calls that must not survive translation.
CUDA_CALL = re.compile(r"\bcuda(Malloc|Free|Memcpy|Memset|Stream|Event|GetLastError|"
                       r"DeviceSynchronize|GetErrorString)\w*\s*\(")


def generate(root, n):
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "common.h"), "w") as f:
        f.write(HEADER)
    files = []
    for i in range(n):
        p = os.path.join(root, "unit_%02d.cu" % i)
        with open(p, "w") as f:
            f.write(SOURCE.format(i=i))
        files.append(p)
    return files


def translate(cuhip, args):
    r = subprocess.run([cuhip, "translate"] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit("cuhip translate %s failed (%d):\n%s" % (" ".join(args), r.returncode,
                                                         r.stderr[-2000:]))
    return r


def measure(cuhip, files, extra, work, jobs):
    """Seconds for one process per file and for one batch process."""
    per_dir = os.path.join(work, "per-process")
    batch_dir = os.path.join(work, "batch")
    for d in (per_dir, batch_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    t0 = time.perf_counter()
    for f in files:
        translate(cuhip, [f, "-o", os.path.join(per_dir, os.path.basename(f)),
                          "--no-progress"] + (["--"] + extra if extra else []))
    per = time.perf_counter() - t0
    t0 = time.perf_counter()
    translate(cuhip, files + ["--o-dir", batch_dir, "--no-progress"] +
              (["-j", str(jobs)] if jobs else []) + (["--"] + extra if extra else []))
    batch = time.perf_counter() - t0
    return per, batch, per_dir, batch_dir


def check(cuhip, files, per_dir, batch_dir, extra, work):
    """Both ways agree, no runtime call is left in CUDA spelling, and a
    second translation changes nothing. Returns a list of problems."""
    problems = []
    again = os.path.join(work, "again")
    shutil.rmtree(again, ignore_errors=True)
    outs = []
    for f in files:
        name = os.path.basename(f)
        a, b = os.path.join(per_dir, name), os.path.join(batch_dir, name)
        if not filecmp.cmp(a, b, shallow=False):
            problems.append("%s: per-process and batch outputs differ" % name)
        text = open(b, encoding="utf-8", errors="replace").read()
        m = CUDA_CALL.search(text)
        if m:
            problems.append("%s: '%s' left untranslated" % (name, m.group(0)))
        outs.append(b)
    translate(cuhip, outs + ["--o-dir", again, "--no-progress"] +
              (["--"] + extra if extra else []))
    for f in outs:
        if not filecmp.cmp(f, os.path.join(again, os.path.basename(f)), shallow=False):
            problems.append("%s: translating the output again changes it"
                            % os.path.basename(f))
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cuhip", required=True)
    p.add_argument("--samples", required=True)
    p.add_argument("--files", type=int, default=50)
    p.add_argument("-j", type=int, default=0, help="batch workers (default: cores)")
    p.add_argument("--quick", action="store_true")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="bench-translate-")
    try:
        n = 6 if a.quick else a.files
        proj = os.path.join(work, "project")
        gen = generate(proj, n)
        samples = sorted(glob.glob(os.path.join(a.samples, "*.cu")))
        if a.quick:
            samples = [s for s in samples
                       if os.path.basename(s) in ("saxpy.cu", "softmax.cu", "streams_events.cu")]
        sets = [("samples", samples, []),
                ("generated %d-file project" % n, gen, ["-I" + proj])]
        rows, problems = [], []
        for name, files, extra in sets:
            d = os.path.join(work, re.sub(r"\W+", "-", name))
            per, batch, per_dir, batch_dir = measure(a.cuhip, files, extra, d, a.j)
            problems += check(a.cuhip, files, per_dir, batch_dir, extra, d)
            rows.append((name, len(files), per, batch))
        cores = a.j or os.cpu_count()
        print("cuhip translate throughput (batch: -j %d, shared precompiled header)" % cores)
        print("%-28s %5s  %12s %10s  %12s %10s  %11s"
              % ("input", "files", "per-process", "s/file", "batch", "s/file", "batch/per"))
        met = True
        for name, nf, per, batch in rows:
            print("%-28s %5d  %8.1f f/s %10.3f  %8.1f f/s %10.3f  %11.2f"
                  % (name, nf, nf / per, per / nf, nf / batch, batch / nf, batch / per))
            met &= batch / nf < TARGET_S_PER_FILE
        if not a.quick:
            print("target: under %.1f s per file in a batch: %s"
                  % (TARGET_S_PER_FILE, "met" if met else "NOT met"))
        for prob in problems:
            print("error: " + prob)
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
