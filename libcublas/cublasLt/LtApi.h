//===- LtApi.h - Shared bits of the libcublasLt drop-in -------------------===//
#pragma once

#include "LtState.h"
#include "Matmul.h"

#include <cstring>

namespace cuhip::blaslt {

// cublasLtGetVersion's number (CUBLAS_VERSION's form: major*10000 +
// minor*100 + patch) and the CUDA runtime version, for the toolkit whose
// soname this build carries.
#if CUHIP_CUBLASLT_MAJOR == 12
constexpr size_t LtVersion = 120901;
constexpr size_t LtCudartVersion = 12090;
#else
constexpr size_t LtVersion = 130100;
constexpr size_t LtCudartVersion = 13000;
#endif

/// Checks a matmul's descriptors (and, when CheckPointers, its pointers)
/// and resolves them into P. Function names the API entry for messages.
cublasStatus_t resolveMatmul(const char *Function, cublasLtMatmulDesc_t Desc,
                             cublasLtMatrixLayout_t A, cublasLtMatrixLayout_t B,
                             cublasLtMatrixLayout_t C, cublasLtMatrixLayout_t D,
                             MatmulProblem &P);

// --- the HIP backend: hipBLASLt through dlopen (LtHip.cpp) -----------------

/// On the HIP backend, creates the hipBLASLt handle that H forwards to;
/// CUBLAS_STATUS_NOT_SUPPORTED (logged) when hipBLASLt is missing. Nothing
/// on the CPU backend.
cublasStatus_t ltHipCreate(cublasLtContext *H);
void ltHipDestroy(cublasLtContext *H);
/// cublasLtMatmul through hipBLASLt, with the arguments as the program gave
/// them (Desc and the layouts already checked by resolveMatmul).
cublasStatus_t ltHipMatmul(cublasLtContext *H, const MatmulDescState &Desc,
                           const LayoutState *const Layouts[4],
                           const void *Alpha, const void *A, const void *B,
                           const void *Beta, const void *C, void *D,
                           void *Workspace, size_t WorkspaceBytes,
                           cudaStream_t Stream);

/// The forwarding itself, without the runtime: tests call these against a
/// recording stand-in library (CUHIP_HIPBLASLT_LIBRARY) with made-up
/// handles and streams.
namespace hipblaslt {
cublasStatus_t createHandle(void **Out);
void destroyHandle(void *Handle);
cublasStatus_t matmul(void *Handle, const MatmulDescState &Desc,
                      const LayoutState *const Layouts[4], const void *Alpha,
                      const void *A, const void *B, const void *Beta,
                      const void *C, void *D, void *Workspace,
                      size_t WorkspaceBytes, void *HipStream);
/// Forgets the loaded library (tests switch stand-ins).
void reset();
} // namespace hipblaslt

} // namespace cuhip::blaslt
