//===- HostJob.h - Library work as host functions on a stream -------------===//
//
// Libraries over the runtime core (cuBLAS's engine on the CPU backend,
// cuFFT) run their operations as host functions on the caller's stream
// (Runtime::streamAddHostFunc), so they keep the stream's order with
// kernels and copies, and are recorded when the stream is being captured.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Runtime.h"

#include <memory>

namespace cuhip::rt {

/// Enqueues Fn(Job) on Stream. JobT has a `bool OneShot` that Fn reads to
/// decide whether to delete the job after running it. A stream being
/// captured keeps the job in the graph, which may launch it any number of
/// times and does not say when it is destroyed: such jobs live for the rest
/// of the process (OneShot false).
template <typename JobT>
int enqueueHostJob(std::unique_ptr<JobT> Job, void (*Fn)(void *),
                   void *Stream) {
  CaptureStatus Capturing = CaptureStatus::None;
  if (capture::anyActive() &&
      streamIsCapturing(Stream, &Capturing) == cudaSuccess &&
      Capturing != CaptureStatus::None)
    Job->OneShot = false;
  bool OneShot = Job->OneShot;
  JobT *Raw = Job.release();
  int S = Runtime::get().streamAddHostFunc(Stream, Fn, Raw);
  // A failed enqueue never ran the job; a one-shot job that ran freed itself.
  if (S != cudaSuccess && OneShot)
    delete Raw;
  return S;
}

} // namespace cuhip::rt
