//===- HostJob.h - Engine work as host functions on a stream --------------===//
//
// On the CPU backend the engine's operations run as host functions on the
// caller's stream (Runtime::streamAddHostFunc), so they keep the stream's
// order with kernels and copies. Not installed: the engine's own files
// include it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Runtime.h"

#include <cstring>
#include <memory>

namespace cuhip::blas {

/// Enqueues Fn(Job) on Stream. JobT has a `bool OneShot` that Fn reads to
/// decide whether to delete the job after running it. A stream being
/// captured keeps the job in the graph, which may launch it any number of
/// times and does not say when it is destroyed: such jobs live for the rest
/// of the process (OneShot false).
template <typename JobT>
int enqueueHostJob(std::unique_ptr<JobT> Job, void (*Fn)(void *),
                   void *Stream) {
  rt::CaptureStatus Capturing = rt::CaptureStatus::None;
  if (rt::capture::anyActive() &&
      rt::streamIsCapturing(Stream, &Capturing) == rt::cudaSuccess &&
      Capturing != rt::CaptureStatus::None)
    Job->OneShot = false;
  bool OneShot = Job->OneShot;
  JobT *Raw = Job.release();
  int S = rt::Runtime::get().streamAddHostFunc(Stream, Fn, Raw);
  // A failed enqueue never ran the job; a one-shot job that ran freed itself.
  if (S != rt::cudaSuccess && OneShot)
    delete Raw;
  return S;
}

/// gemm and gemv on a stream: Forward (rocBLAS) on the HIP backend; on the
/// CPU a host job running Run over its own copy of Desc and, when they are in
/// host memory, of alpha and beta (ScalarBytes each), which the program may
/// overwrite once the call returns. JobT has Desc, AlphaValue, BetaValue and
/// OneShot.
template <typename JobT, typename DescT>
int runAlphaBetaJob(const DescT &Desc, void *Stream, unsigned ScalarBytes,
                    int (*Forward)(const DescT &, void *),
                    void (*Run)(void *)) {
  rt::Runtime &R = rt::Runtime::get();
  if (R.onHipBackend()) {
    void *HipStream;
    if (int S = R.nativeStream(Stream, &HipStream))
      return S;
    return Forward(Desc, HipStream);
  }
  auto Job = std::make_unique<JobT>();
  Job->Desc = Desc;
  if (!Desc.ScalarsOnDevice) {
    std::memcpy(Job->AlphaValue, Desc.Alpha, ScalarBytes);
    std::memcpy(Job->BetaValue, Desc.Beta, ScalarBytes);
    Job->Desc.Alpha = Job->AlphaValue;
    Job->Desc.Beta = Job->BetaValue;
  }
  return enqueueHostJob(std::move(Job), Run, Stream);
}

} // namespace cuhip::blas
