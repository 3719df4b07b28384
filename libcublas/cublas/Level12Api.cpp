//===- Level12Api.cpp - axpy, scal, dot, nrm2, amax and gemv --------------===//
//
// The level-1/2 routines LLM code uses, in f32 and f64 and in the Ex forms
// (f16/bf16 vectors computed in f32; complex ones go to Level1Api.cpp's
// typed routines), each also in _64 and in the legacy (cublas.h) form.
// Results follow the pointer mode: host results are there when the call
// returns.
//
//===----------------------------------------------------------------------===//
#include "BlasCall.h"
#include "Handle.h"

#include "ApiCommon.h"

#include "Gemm.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>

using namespace cuhip;
using namespace cuhip::cublas;
using blas::DType;
using blas::VectorDesc;
using blas::VectorOp;

namespace {

/// The vector routines' types: the engine's real and complex floats.
bool toDType(cudaDataType T, DType &Out) {
  return blas::dtypeOf(T, Out) && Out != DType::I8 && Out != DType::I32;
}

cublasStatus_t runVector(const char *Name, cublasHandle_t Handle,
                         VectorDesc V) {
  if (!isLive(Handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  bool NeedsAlpha = V.Kind == VectorOp::Axpy || V.Kind == VectorOp::Scal;
  if ((NeedsAlpha && !V.Alpha) || (!NeedsAlpha && !V.Result)) {
    CUHIP_DEBUG("%s: null alpha or result: CUBLAS_STATUS_INVALID_VALUE",
                Name);
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  const char *Why = nullptr;
  if (!blas::vectorSupported(V, &Why)) {
    CUHIP_WARN("%s: not supported: %s", Name, Why);
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  if (V.Kind == VectorOp::Axpy && V.N <= 0)
    return CUBLAS_STATUS_SUCCESS;
  V.ScalarsOnDevice = Handle->PointerMode == CUBLAS_POINTER_MODE_DEVICE;
  if (apiLogOn())
    apiLog("%s(handle=%p, n=%lld, incx=%lld, incy=%lld)", Name,
           static_cast<void *>(Handle), static_cast<long long>(V.N),
           static_cast<long long>(V.IncX), static_cast<long long>(V.IncY));
  int S = blas::vectorOp(V, Handle->Stream);
  if (S != rt::cudaSuccess)
    CUHIP_WARN("%s failed: %s", Name, rt::statusDescription(S));
  return fromRuntime(S);
}

VectorDesc typed(VectorOp K, DType T, int64_t N) {
  VectorDesc V;
  V.Kind = K;
  V.N = N;
  V.XType = V.YType = V.ScalarType = V.ExecType = T;
  return V;
}

} // namespace

#define AXPY(NAME, INT, T, DT)                                                 \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n,               \
                                   const T *alpha, const T *x, INT incx,       \
                                   T *y, INT incy) {                           \
    VectorDesc V = typed(VectorOp::Axpy, DT, n);                               \
    V.Alpha = alpha;                                                           \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    V.Y = y;                                                                   \
    V.IncY = incy;                                                             \
    return runVector(#NAME, handle, V);                                        \
  }
AXPY(cublasSaxpy_v2, int, float, DType::F32)
AXPY(cublasSaxpy_v2_64, int64_t, float, DType::F32)
AXPY(cublasDaxpy_v2, int, double, DType::F64)
AXPY(cublasDaxpy_v2_64, int64_t, double, DType::F64)
#undef AXPY

#define SCAL(NAME, INT, T, DT)                                                 \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n,               \
                                   const T *alpha, T *x, INT incx) {           \
    VectorDesc V = typed(VectorOp::Scal, DT, n);                               \
    V.Alpha = alpha;                                                           \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    return runVector(#NAME, handle, V);                                        \
  }
SCAL(cublasSscal_v2, int, float, DType::F32)
SCAL(cublasSscal_v2_64, int64_t, float, DType::F32)
SCAL(cublasDscal_v2, int, double, DType::F64)
SCAL(cublasDscal_v2_64, int64_t, double, DType::F64)
#undef SCAL

#define DOT(NAME, INT, T, DT)                                                  \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, const T *x,   \
                                   INT incx, const T *y, INT incy,             \
                                   T *result) {                                \
    VectorDesc V = typed(VectorOp::Dot, DT, n);                                \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    V.Y = const_cast<T *>(y);                                                  \
    V.IncY = incy;                                                             \
    V.Result = result;                                                         \
    return runVector(#NAME, handle, V);                                        \
  }
DOT(cublasSdot_v2, int, float, DType::F32)
DOT(cublasSdot_v2_64, int64_t, float, DType::F32)
DOT(cublasDdot_v2, int, double, DType::F64)
DOT(cublasDdot_v2_64, int64_t, double, DType::F64)
#undef DOT

#define NRM2(NAME, INT, T, DT)                                                 \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, const T *x,   \
                                   INT incx, T *result) {                      \
    VectorDesc V = typed(VectorOp::Nrm2, DT, n);                               \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    V.Result = result;                                                         \
    return runVector(#NAME, handle, V);                                        \
  }
NRM2(cublasSnrm2_v2, int, float, DType::F32)
NRM2(cublasSnrm2_v2_64, int64_t, float, DType::F32)
NRM2(cublasDnrm2_v2, int, double, DType::F64)
NRM2(cublasDnrm2_v2_64, int64_t, double, DType::F64)
#undef NRM2

#define AMAX(NAME, INT, T, DT, RESULT, IS64)                                   \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, const T *x,   \
                                   INT incx, RESULT *result) {                 \
    VectorDesc V = typed(VectorOp::Amax, DT, n);                               \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    V.Result = result;                                                         \
    V.ResultIs64 = IS64;                                                       \
    return runVector(#NAME, handle, V);                                        \
  }
AMAX(cublasIsamax_v2, int, float, DType::F32, int, false)
AMAX(cublasIsamax_v2_64, int64_t, float, DType::F32, int64_t, true)
AMAX(cublasIdamax_v2, int, double, DType::F64, int, false)
AMAX(cublasIdamax_v2_64, int64_t, double, DType::F64, int64_t, true)
#undef AMAX

// --- the Ex forms -------------------------------------------------------------

namespace {

cublasStatus_t exTypes(const char *Name, VectorDesc &V, cudaDataType X,
                       cudaDataType Y, cudaDataType Scalar,
                       cudaDataType Exec) {
  if (!toDType(X, V.XType) || !toDType(Y, V.YType) ||
      !toDType(Scalar, V.ScalarType) || !toDType(Exec, V.ExecType)) {
    CUHIP_DEBUG("%s: a data type names no type: CUBLAS_STATUS_INVALID_VALUE",
                Name);
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace

#define AXPY_EX(NAME, INT)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, const void *alpha, cudaDataType alphaType, \
      const void *x, cudaDataType xType, INT incx, void *y, cudaDataType yType, \
      INT incy, cudaDataType executiontype) {                                  \
    if (isComplexType(xType))                                                  \
      return typedAxpyEx(#NAME, handle, n, alpha, alphaType, x, xType, incx,   \
                         y, yType, incy, executiontype);                       \
    VectorDesc V;                                                              \
    V.Kind = VectorOp::Axpy;                                                   \
    V.N = n;                                                                   \
    if (cublasStatus_t S =                                                     \
            exTypes(#NAME, V, xType, yType, alphaType, executiontype))         \
      return S;                                                                \
    V.Alpha = alpha;                                                           \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    V.Y = y;                                                                   \
    V.IncY = incy;                                                             \
    return runVector(#NAME, handle, V);                                        \
  }
AXPY_EX(cublasAxpyEx, int)
AXPY_EX(cublasAxpyEx_64, int64_t)
#undef AXPY_EX

#define SCAL_EX(NAME, INT)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, const void *alpha, cudaDataType alphaType, \
      void *x, cudaDataType xType, INT incx, cudaDataType executionType) {     \
    if (isComplexType(xType))                                                  \
      return typedScalEx(#NAME, handle, n, alpha, alphaType, x, xType, incx,   \
                         executionType);                                       \
    VectorDesc V;                                                              \
    V.Kind = VectorOp::Scal;                                                   \
    V.N = n;                                                                   \
    if (cublasStatus_t S =                                                     \
            exTypes(#NAME, V, xType, xType, alphaType, executionType))         \
      return S;                                                                \
    V.Alpha = alpha;                                                           \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    return runVector(#NAME, handle, V);                                        \
  }
SCAL_EX(cublasScalEx, int)
SCAL_EX(cublasScalEx_64, int64_t)
#undef SCAL_EX

#define DOT_EX(NAME, INT)                                                      \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, const void *x, cudaDataType xType,         \
      INT incx, const void *y, cudaDataType yType, INT incy, void *result,     \
      cudaDataType resultType, cudaDataType executionType) {                   \
    if (isComplexType(xType))                                                  \
      return typedDotEx(#NAME, handle, n, x, xType, incx, y, yType, incy,      \
                        result, resultType, executionType, false);             \
    VectorDesc V;                                                              \
    V.Kind = VectorOp::Dot;                                                    \
    V.N = n;                                                                   \
    if (cublasStatus_t S =                                                     \
            exTypes(#NAME, V, xType, yType, resultType, executionType))        \
      return S;                                                                \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    V.Y = const_cast<void *>(y);                                               \
    V.IncY = incy;                                                             \
    V.Result = result;                                                         \
    return runVector(#NAME, handle, V);                                        \
  }
DOT_EX(cublasDotEx, int)
DOT_EX(cublasDotEx_64, int64_t)
#undef DOT_EX

#define NRM2_EX(NAME, INT)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, const void *x, cudaDataType xType,         \
      INT incx, void *result, cudaDataType resultType,                         \
      cudaDataType executionType) {                                            \
    if (isComplexType(xType))                                                  \
      return typedNrm2Ex(#NAME, handle, n, x, xType, incx, result, resultType, \
                         executionType, false);                                \
    VectorDesc V;                                                              \
    V.Kind = VectorOp::Nrm2;                                                   \
    V.N = n;                                                                   \
    if (cublasStatus_t S =                                                     \
            exTypes(#NAME, V, xType, xType, resultType, executionType))        \
      return S;                                                                \
    V.X = x;                                                                   \
    V.IncX = incx;                                                             \
    V.Result = result;                                                         \
    return runVector(#NAME, handle, V);                                        \
  }
NRM2_EX(cublasNrm2Ex, int)
NRM2_EX(cublasNrm2Ex_64, int64_t)
#undef NRM2_EX

// --- gemv -----------------------------------------------------------------------

#define GEMV(NAME, INT, ELT, DT)                                                 \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, INT m, INT n,            \
      const ELT *alpha, const ELT *A, INT lda, const ELT *x, INT incx,               \
      const ELT *beta, ELT *y, INT incy) {                                         \
    if (!isLive(handle))                                                       \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if ((trans != CUBLAS_OP_N && trans != CUBLAS_OP_T &&                       \
         trans != CUBLAS_OP_C) ||                                              \
        m < 0 || n < 0 || lda < std::max<INT>(1, m) || incx == 0 ||            \
        incy == 0 || !alpha || !beta) {                                        \
      CUHIP_DEBUG(#NAME ": invalid transpose, size, lda, increment or "        \
                        "scalar: CUBLAS_STATUS_INVALID_VALUE");                \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    }                                                                          \
    if (m == 0 || n == 0)                                                      \
      return CUBLAS_STATUS_SUCCESS;                                            \
    blas::GemvDesc G;                                                          \
    G.Trans = trans == CUBLAS_OP_N ? blas::Op::N : blas::Op::T;                \
    G.M = m;                                                                   \
    G.N = n;                                                                   \
    G.Type = DT;                                                               \
    G.A = A;                                                                   \
    G.Lda = lda;                                                               \
    G.X = x;                                                                   \
    G.IncX = incx;                                                             \
    G.Y = y;                                                                   \
    G.IncY = incy;                                                             \
    G.Alpha = alpha;                                                           \
    G.Beta = beta;                                                             \
    G.ScalarsOnDevice = handle->PointerMode == CUBLAS_POINTER_MODE_DEVICE;     \
    if (apiLogOn())                                                            \
      apiLog(#NAME "(handle=%p, trans=%d, m=%lld, n=%lld, lda=%lld)",          \
             static_cast<void *>(handle), trans, static_cast<long long>(m),    \
             static_cast<long long>(n), static_cast<long long>(lda));          \
    int S = blas::gemv(G, handle->Stream);                                     \
    if (S != rt::cudaSuccess)                                                  \
      CUHIP_WARN(#NAME " failed: %s", rt::statusDescription(S));               \
    return fromRuntime(S);                                                     \
  }
GEMV(cublasSgemv_v2, int, float, DType::F32)
GEMV(cublasSgemv_v2_64, int64_t, float, DType::F32)
GEMV(cublasDgemv_v2, int, double, DType::F64)
GEMV(cublasDgemv_v2_64, int64_t, double, DType::F64)
#undef GEMV

// --- the legacy forms (cublas.h): the v2 routines on the legacy handle ------

#define LEGACY_AXPY(NAME, V2, T)                                               \
  CUHIP_EXPORT void NAME(int n, T alpha, const T *x, int incx, T *y,           \
                         int incy) {                                           \
    CUHIP_LEGACY_CALL(V2(legacyHandle(), n, &alpha, x, incx, y, incy));        \
  }
LEGACY_AXPY(cublasSaxpy, cublasSaxpy_v2, float)
LEGACY_AXPY(cublasDaxpy, cublasDaxpy_v2, double)
#undef LEGACY_AXPY

#define LEGACY_SCAL(NAME, V2, T)                                               \
  CUHIP_EXPORT void NAME(int n, T alpha, T *x, int incx) {                     \
    CUHIP_LEGACY_CALL(V2(legacyHandle(), n, &alpha, x, incx));                 \
  }
LEGACY_SCAL(cublasSscal, cublasSscal_v2, float)
LEGACY_SCAL(cublasDscal, cublasDscal_v2, double)
#undef LEGACY_SCAL

#define LEGACY_DOT(NAME, V2, T)                                                \
  CUHIP_EXPORT T NAME(int n, const T *x, int incx, const T *y, int incy) {     \
    T Result = 0;                                                              \
    CUHIP_LEGACY_CALL(V2(legacyHandle(), n, x, incx, y, incy, &Result));       \
    return Result;                                                             \
  }
LEGACY_DOT(cublasSdot, cublasSdot_v2, float)
LEGACY_DOT(cublasDdot, cublasDdot_v2, double)
#undef LEGACY_DOT

#define LEGACY_REDUCE(NAME, V2, T, R)                                          \
  CUHIP_EXPORT R NAME(int n, const T *x, int incx) {                           \
    R Result = 0;                                                              \
    CUHIP_LEGACY_CALL(V2(legacyHandle(), n, x, incx, &Result));                \
    return Result;                                                             \
  }
LEGACY_REDUCE(cublasSnrm2, cublasSnrm2_v2, float, float)
LEGACY_REDUCE(cublasDnrm2, cublasDnrm2_v2, double, double)
LEGACY_REDUCE(cublasIsamax, cublasIsamax_v2, float, int)
LEGACY_REDUCE(cublasIdamax, cublasIdamax_v2, double, int)
#undef LEGACY_REDUCE

#define LEGACY_GEMV(NAME, V2, T)                                               \
  CUHIP_EXPORT void NAME(char trans, int m, int n, T alpha, const T *A,        \
                         int lda, const T *x, int incx, T beta, T *y,          \
                         int incy) {                                           \
    CUHIP_LEGACY_CALL(V2(legacyHandle(), legacyOp(trans), m, n, &alpha, A,     \
                         lda, x, incx, &beta, y, incy));                       \
  }
LEGACY_GEMV(cublasSgemv, cublasSgemv_v2, float)
LEGACY_GEMV(cublasDgemv, cublasDgemv_v2, double)
#undef LEGACY_GEMV
