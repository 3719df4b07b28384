//===- XtApi.cpp - cuBLASXt (cublasXt.h) over the level-3 routines --------===//
//
// cuBLASXt splits level-3 products over GPUs and moves host-memory operands
// to them. On the CPU backend the operands are addressable where they are,
// so each cublasXt routine is the cuBLAS one (Level3Calls.h) on an inner
// handle in host pointer mode, waited for before it returns (cublasXt calls
// are blocking). The tiling, pinning, device selection and CPU-share
// settings are kept and reported; they change nothing here. spmm, which
// cuBLAS lacks, unpacks the symmetric matrix into scratch and runs symm.
// On the HIP backend the routines answer CUBLAS_STATUS_NOT_SUPPORTED, as
// the typed level-3 routines do there.
//
//===----------------------------------------------------------------------===//
#include "Level3Calls.h"

#include "cuhip/runtime/Log.h"

#include <vector>

using namespace cuhip;
using namespace cuhip::cublas;
namespace l3 = cuhip::cublas::level3;

// HandleApi.cpp's: each cublasXt context runs on a cuBLAS handle.
extern "C" cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
extern "C" cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);

struct cublasXtContext {
  cublasHandle_t Inner = nullptr;
  int BlockDim = 1024;
  cublasXtPinnedMemMode_t Pinning = CUBLASXT_PINNING_DISABLED;
  std::vector<int> Devices{0};
};

namespace {

bool liveXt(cublasXtHandle_t X) { return X && isLive(X->Inner); }

/// A routine's status once its work is done (cublasXt is synchronous).
cublasStatus_t finish(cublasXtHandle_t X, cublasStatus_t S) {
  if (S != CUBLAS_STATUS_SUCCESS)
    return S;
  return fromRuntime(rt::Runtime::get().streamSynchronize(X->Inner->Stream));
}

/// The inner handle, or null (the routine then answers
/// CUBLAS_STATUS_NOT_INITIALIZED through the checks).
cublasHandle_t inner(cublasXtHandle_t X) {
  return liveXt(X) ? X->Inner : nullptr;
}

/// spmm: C = alpha A B + beta C (or alpha B A) for A symmetric, packed.
template <typename T>
cublasStatus_t spmm(const char *Name, cublasXtHandle_t X, cublasSideMode_t Sd,
                    cublasFillMode_t Fill, int64_t M, int64_t N, const T *Alpha,
                    const T *AP, const T *B, int64_t Ldb, const T *Beta, T *C,
                    int64_t Ldc) {
  if (!liveXt(X))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  Call Cl(Name, X->Inner);
  blas::Uplo U;
  int64_t Na = Sd == CUBLAS_SIDE_LEFT ? M : N;
  if (!toUplo(Fill, U) || M < 0 || N < 0 || (Na > 0 && !AP))
    return Cl.invalid("fill mode, size or AP");
  // The packed triangle unpacked; symm reads only that triangle.
  std::vector<T> Full(std::max<int64_t>(1, Na * Na));
  if (Na > 0 && M > 0 && N > 0)
    blas::host::tpttr(U, Na, AP, Full.data(), Na);
  return finish(X, l3::symm(Name, X->Inner, Sd, Fill, M, N, Alpha, Full.data(),
                            std::max<int64_t>(1, Na), B, Ldb, Beta, C, Ldc,
                            false));
}

} // namespace

// --- the context -------------------------------------------------------------

CUHIP_EXPORT cublasStatus_t cublasXtCreate(cublasXtHandle_t *handle) {
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  auto *X = new cublasXtContext;
  if (cublasStatus_t S = cublasCreate_v2(&X->Inner)) {
    delete X;
    return S;
  }
  *handle = X;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasXtDestroy(cublasXtHandle_t handle) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  cublasStatus_t S = cublasDestroy_v2(handle->Inner);
  delete handle;
  return S;
}

CUHIP_EXPORT cublasStatus_t cublasXtGetNumBoards(int nbDevices, int deviceId[],
                                                 int *nbBoards) {
  if (nbDevices < 0 || !nbBoards || (nbDevices > 0 && !deviceId))
    return CUBLAS_STATUS_INVALID_VALUE;
  // Each device is its own board.
  *nbBoards = nbDevices;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasXtMaxBoards(int *nbGpuBoards) {
  if (!nbGpuBoards)
    return CUBLAS_STATUS_INVALID_VALUE;
  *nbGpuBoards = rt::Runtime::get().deviceCount();
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasXtDeviceSelect(cublasXtHandle_t handle,
                                                 int nbDevices,
                                                 int deviceId[]) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (nbDevices <= 0 || !deviceId)
    return CUBLAS_STATUS_INVALID_VALUE;
  int Count = rt::Runtime::get().deviceCount();
  for (int I = 0; I < nbDevices; ++I)
    if (deviceId[I] < 0 || deviceId[I] >= Count)
      return CUBLAS_STATUS_INVALID_VALUE;
  handle->Devices.assign(deviceId, deviceId + nbDevices);
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasXtSetBlockDim(cublasXtHandle_t handle,
                                                int blockDim) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (blockDim <= 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->BlockDim = blockDim;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasXtGetBlockDim(cublasXtHandle_t handle,
                                                int *blockDim) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!blockDim)
    return CUBLAS_STATUS_INVALID_VALUE;
  *blockDim = handle->BlockDim;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasXtGetPinningMemMode(
    cublasXtHandle_t handle, cublasXtPinnedMemMode_t *mode) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->Pinning;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasXtSetPinningMemMode(
    cublasXtHandle_t handle, cublasXtPinnedMemMode_t mode) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLASXT_PINNING_DISABLED && mode != CUBLASXT_PINNING_ENABLED)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->Pinning = mode;
  return CUBLAS_STATUS_SUCCESS;
}

namespace {

bool validXtOp(cublasXtBlasOp_t Op, cublasXtOpType_t Type) {
  return Op >= CUBLASXT_GEMM && Op < CUBLASXT_ROUTINE_MAX &&
         Type >= CUBLASXT_FLOAT && Type <= CUBLASXT_DOUBLECOMPLEX;
}

} // namespace

// The whole product runs on the host already: a CPU routine or share adds
// nothing, so both are accepted and not used.
CUHIP_EXPORT cublasStatus_t cublasXtSetCpuRoutine(cublasXtHandle_t handle,
                                                  cublasXtBlasOp_t blasOp,
                                                  cublasXtOpType_t type,
                                                  void *blasFunctor) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  return validXtOp(blasOp, type) ? CUBLAS_STATUS_SUCCESS
                                 : CUBLAS_STATUS_INVALID_VALUE;
}

CUHIP_EXPORT cublasStatus_t cublasXtSetCpuRatio(cublasXtHandle_t handle,
                                                cublasXtBlasOp_t blasOp,
                                                cublasXtOpType_t type,
                                                float ratio) {
  if (!liveXt(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  return validXtOp(blasOp, type) && ratio >= 0 && ratio <= 1
             ? CUBLAS_STATUS_SUCCESS
             : CUBLAS_STATUS_INVALID_VALUE;
}

// --- the routines ------------------------------------------------------------

/// FAMILY(NAME, T, R) for cublasXtS/D/C/Z##BASE (R: T's real type).
#define XT_SDCZ(FAMILY, BASE) XT_SD(FAMILY, BASE) XT_CZ(FAMILY, BASE)
#define XT_SD(FAMILY, BASE)                                                    \
  FAMILY(cublasXtS##BASE, float, float)                                        \
  FAMILY(cublasXtD##BASE, double, double)
#define XT_CZ(FAMILY, BASE)                                                    \
  FAMILY(cublasXtC##BASE, cuComplex, float)                                    \
  FAMILY(cublasXtZ##BASE, cuDoubleComplex, double)

#define XT_GEMM(NAME, T, R)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasXtHandle_t handle, cublasOperation_t transa,                       \
      cublasOperation_t transb, size_t m, size_t n, size_t k, const T *alpha,  \
      const T *A, size_t lda, const T *B, size_t ldb, const T *beta, T *C,     \
      size_t ldc) {                                                            \
    return finish(handle,                                                      \
                  l3::gemm(#NAME, inner(handle), transa, transb, m, n, k,      \
                           E(alpha), l3::strided(E(A), 0, E(B), 0, E(C), 0),   \
                           lda, ldb, E(beta), ldc, 1));                        \
  }
XT_SDCZ(XT_GEMM, gemm)
#undef XT_GEMM

#define XT_SYMM(NAME, T, R, HERM)                                              \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,   \
      size_t m, size_t n, const T *alpha, const T *A, size_t lda, const T *B,  \
      size_t ldb, const T *beta, T *C, size_t ldc) {                           \
    return finish(handle,                                                      \
                  l3::symm(#NAME, inner(handle), side, uplo, m, n, E(alpha),   \
                           E(A), lda, E(B), ldb, E(beta), E(C), ldc, HERM));   \
  }
#define XT_SYMM_SYM(NAME, T, R) XT_SYMM(NAME, T, R, false)
#define XT_SYMM_HERM(NAME, T, R) XT_SYMM(NAME, T, R, true)
XT_SDCZ(XT_SYMM_SYM, symm)
XT_CZ(XT_SYMM_HERM, hemm)
#undef XT_SYMM_SYM
#undef XT_SYMM_HERM
#undef XT_SYMM

#define XT_SYRK(NAME, T, S, HERM)                                              \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, \
      size_t n, size_t k, const S *alpha, const T *A, size_t lda,              \
      const S *beta, T *C, size_t ldc) {                                       \
    return finish(handle,                                                      \
                  l3::syrk(#NAME, inner(handle), uplo, trans, n, k, E(alpha),  \
                           E(A), lda, E(beta), E(C), ldc, HERM));              \
  }
#define XT_SYRK_SYM(NAME, T, R) XT_SYRK(NAME, T, T, false)
#define XT_SYRK_HERM(NAME, T, R) XT_SYRK(NAME, T, R, true)
XT_SDCZ(XT_SYRK_SYM, syrk)
XT_CZ(XT_SYRK_HERM, herk)
#undef XT_SYRK_SYM
#undef XT_SYRK_HERM
#undef XT_SYRK

#define XT_SYR2K(NAME, T, S, HERM, KX)                                         \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, \
      size_t n, size_t k, const T *alpha, const T *A, size_t lda, const T *B,  \
      size_t ldb, const S *beta, T *C, size_t ldc) {                           \
    return finish(handle, l3::syr2k(#NAME, inner(handle), uplo, trans, n, k,   \
                                    E(alpha), E(A), lda, E(B), ldb, E(beta),   \
                                    E(C), ldc, HERM, KX));                     \
  }
#define XT_SYR2K_SYM(NAME, T, R) XT_SYR2K(NAME, T, T, false, false)
#define XT_SYR2K_HERM(NAME, T, R) XT_SYR2K(NAME, T, R, true, false)
#define XT_SYRKX_SYM(NAME, T, R) XT_SYR2K(NAME, T, T, false, true)
#define XT_SYRKX_HERM(NAME, T, R) XT_SYR2K(NAME, T, R, true, true)
XT_SDCZ(XT_SYR2K_SYM, syr2k)
XT_CZ(XT_SYR2K_HERM, her2k)
XT_SDCZ(XT_SYRKX_SYM, syrkx)
XT_CZ(XT_SYRKX_HERM, herkx)
#undef XT_SYR2K_SYM
#undef XT_SYR2K_HERM
#undef XT_SYRKX_SYM
#undef XT_SYRKX_HERM
#undef XT_SYR2K

#define XT_TRMM(NAME, T, R)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,   \
      cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n,      \
      const T *alpha, const T *A, size_t lda, const T *B, size_t ldb, T *C,    \
      size_t ldc) {                                                            \
    return finish(handle, l3::triangularMm(#NAME, inner(handle), side, uplo,   \
                                           trans, diag, m, n, E(alpha), E(A),  \
                                           lda, E(B), ldb, E(C), ldc, false)); \
  }
XT_SDCZ(XT_TRMM, trmm)
#undef XT_TRMM

#define XT_TRSM(NAME, T, R)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,   \
      cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n,      \
      const T *alpha, const T *A, size_t lda, T *B, size_t ldb) {              \
    return finish(handle, l3::triangularMm(#NAME, inner(handle), side, uplo,   \
                                           trans, diag, m, n, E(alpha), E(A),  \
                                           lda, E(B), ldb, E(B), ldb, true));  \
  }
XT_SDCZ(XT_TRSM, trsm)
#undef XT_TRSM

#define XT_SPMM(NAME, T, R)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,   \
      size_t m, size_t n, const T *alpha, const T *AP, const T *B, size_t ldb, \
      const T *beta, T *C, size_t ldc) {                                       \
    return spmm(#NAME, handle, side, uplo, m, n, E(alpha), E(AP), E(B), ldb,   \
                E(beta), E(C), ldc);                                           \
  }
XT_SDCZ(XT_SPMM, spmm)
#undef XT_SPMM

#undef XT_SDCZ
#undef XT_SD
#undef XT_CZ
