//===- Handle.h - What libcublas's entry points share ---------------------===//
//
// The handle's state, its validation, the translation of the runtime's and
// engine's answers into cublasStatus_t, and cuBLAS's own API logging
// (cublasLoggerConfigure / cublasSetLoggerCallback), which is the program's
// to ask for and separate from cuhip's CUHIP_LOG.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CublasTypes.h"

#include "cuhip/runtime/Runtime.h"

#define CUHIP_EXPORT extern "C" __attribute__((visibility("default")))

struct cublasContext {
  cudaStream_t Stream = nullptr;
  cublasPointerMode_t PointerMode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t MathMode = CUBLAS_DEFAULT_MATH;
  cublasAtomicsMode_t AtomicsMode = CUBLAS_ATOMICS_NOT_ALLOWED;
  void *Workspace = nullptr;
  size_t WorkspaceBytes = 0;
  int SmCountTarget = 0;
};

namespace cuhip::cublas {

/// Is H a handle cublasCreate_v2 returned and cublasDestroy_v2 did not
/// destroy?
bool isLive(cublasHandle_t H);
void addHandle(cublasHandle_t H);
bool removeHandle(cublasHandle_t H);

/// A cudaError_t-style status of the runtime or engine as cuBLAS says it.
cublasStatus_t fromRuntime(int S);

/// cuBLAS's API log: one line per call when the program turned it on.
bool apiLogOn();
void apiLog(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace cuhip::cublas
