//===- HostJob.h - Engine work as host functions on a stream --------------===//
//
// On the CPU backend the engine's operations run as host functions on the
// caller's stream (cuhip/runtime/HostJob.h). Not installed: the engine's
// own files include it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/HostJob.h"

#include <cstring>
#include <memory>

namespace cuhip::blas {

using rt::enqueueHostJob;

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
