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
  // cublasSetEnvironmentMode (undocumented; libcusolver sets it): 0 or 1.
  int EnvironmentMode = 0;
  // The emulation settings of CUDA 13's cuBLAS, kept and reported: the CPU
  // backend computes f32 and f64 GEMMs natively whatever they say.
  cublasEmulationStrategy_t EmulationStrategy =
      CUBLAS_EMULATION_STRATEGY_DEFAULT;
  cudaEmulationSpecialValuesSupport SpecialValues =
      CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
  cudaEmulationMantissaControl MantissaControl =
      CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;
  int MaxMantissaBitCount = 0; // 0: the library's default
  int MantissaBitOffset = 0;
  int *MantissaBitCountPointer = nullptr;
};

namespace cuhip::cublas {

/// Is H a handle cublasCreate_v2 returned and cublasDestroy_v2 did not
/// destroy?
bool isLive(cublasHandle_t H);
void addHandle(cublasHandle_t H);
bool removeHandle(cublasHandle_t H);

/// A cudaError_t-style status of the runtime or engine as cuBLAS says it.
cublasStatus_t fromRuntime(int S);

/// The legacy API's (cublas.h) implicit handle, created by cublasInit or
/// by the first legacy call: host scalars, the stream cublasSetKernelStream
/// gave. Null when no device is usable.
cublasHandle_t legacyHandle();
/// Keeps a legacy call's failure for cublasGetError (success changes
/// nothing: the error is the last one that happened).
void legacyRecord(cublasStatus_t S);

/// cuBLAS's API log: one line per call when the program turned it on.
bool apiLogOn();
void apiLog(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace cuhip::cublas
