//===- Level1Api.cpp - cuBLAS level 1 for S, D, C and Z -------------------===//
//
// copy, swap, scal, axpy, dot/dotu/dotc, nrm2, asum, amax/amin, rot, rotg,
// rotm and rotmg in their _v2, _v2_64 and legacy forms, and the Ex forms
// over the four standard types. The real axpy/scal/dot/nrm2/amax (and the
// Ex forms with 16-bit vectors) are Level12Api.cpp's, which forwards them
// to rocBLAS on the HIP backend. As in cuBLAS, n <= 0 does nothing (a
// reduction gives 0), and only the scalars and results are checked for
// null.
//
//===----------------------------------------------------------------------===//
#include "BlasCall.h"

#include "ApiCommon.h"

#include "cuhip/runtime/Log.h"

#include <array>

using namespace cuhip;
using namespace cuhip::cublas;
namespace host = cuhip::blas::host;
using host::Real;

namespace {
namespace api {

constexpr cublasStatus_t Success = CUBLAS_STATUS_SUCCESS;
constexpr cublasStatus_t TooLarge = CUBLAS_STATUS_NOT_SUPPORTED;

template <typename T>
cublasStatus_t copy(const char *Name, cublasHandle_t H, int64_t N, const T *X,
                    int64_t IncX, T *Y, int64_t IncY) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (N <= 0)
    return Success;
  if (!C.fits({IncX, IncY}))
    return TooLarge;
  return C.run([=] { host::copy(N, X, IncX, Y, IncY); });
}

template <typename T>
cublasStatus_t swap(const char *Name, cublasHandle_t H, int64_t N, T *X,
                    int64_t IncX, T *Y, int64_t IncY) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (N <= 0)
    return Success;
  if (!C.fits({IncX, IncY}))
    return TooLarge;
  return C.run([=] { host::swap(N, X, IncX, Y, IncY); });
}

/// x = alpha x; S is T, or T's real type (csscal, zdscal).
template <typename S, typename T>
cublasStatus_t scal(const char *Name, cublasHandle_t H, int64_t N,
                    const S *Alpha, T *X, int64_t IncX) {
  Call C(Name, H);
  if (cublasStatus_t St = C.start())
    return St;
  if (!Alpha)
    return C.invalid("alpha (null)");
  if (N <= 0 || IncX <= 0)
    return Success;
  if (!C.fits({IncX}))
    return TooLarge;
  Scalar<S> A = C.scalar(Alpha);
  return C.run([=] {
    if constexpr (std::is_same_v<S, T>)
      host::scal(N, A.get(), X, IncX);
    else
      host::scalReal(N, A.get(), X, IncX);
  });
}

template <typename T>
cublasStatus_t axpy(const char *Name, cublasHandle_t H, int64_t N,
                    const T *Alpha, const T *X, int64_t IncX, T *Y,
                    int64_t IncY) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Alpha)
    return C.invalid("alpha (null)");
  if (N <= 0)
    return Success;
  if (!C.fits({IncX, IncY}))
    return TooLarge;
  Scalar<T> A = C.scalar(Alpha);
  return C.run([=] { host::axpy(N, A.get(), X, IncX, Y, IncY); });
}

template <typename T>
cublasStatus_t dot(const char *Name, cublasHandle_t H, int64_t N, const T *X,
                   int64_t IncX, const T *Y, int64_t IncY, T *Result,
                   bool Conj) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Result)
    return C.invalid("result (null)");
  if (!C.fits({IncX, IncY}))
    return TooLarge;
  return C.run([=] { *Result = host::dot(N, X, IncX, Y, IncY, Conj); }, true);
}

/// nrm2 (Asum false) or asum: a real result.
template <typename T>
cublasStatus_t norm(const char *Name, cublasHandle_t H, int64_t N, const T *X,
                    int64_t IncX, Real<T> *Result, bool Asum) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Result)
    return C.invalid("result (null)");
  if (!C.fits({IncX}))
    return TooLarge;
  return C.run(
      [=] { *Result = Asum ? host::asum(N, X, IncX) : host::nrm2(N, X, IncX); },
      true);
}

/// iamax (Max) or iamin; I is int or int64_t (the _64 forms).
template <typename T, typename I>
cublasStatus_t iamax(const char *Name, cublasHandle_t H, int64_t N, const T *X,
                     int64_t IncX, I *Result, bool Max) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Result)
    return C.invalid("result (null)");
  return C.run([=] { *Result = static_cast<I>(host::iamax(N, X, IncX, Max)); },
               true);
}

/// S is T (a complex sine: crot, zrot) or T's real type (srot, csrot).
template <typename T, typename S>
cublasStatus_t rot(const char *Name, cublasHandle_t H, int64_t N, T *X,
                   int64_t IncX, T *Y, int64_t IncY, const Real<T> *Cos,
                   const S *Sin) {
  Call C(Name, H);
  if (cublasStatus_t St = C.start())
    return St;
  if (!Cos || !Sin)
    return C.invalid("c or s (null)");
  if (N <= 0)
    return Success;
  if (!C.fits({IncX, IncY}))
    return TooLarge;
  Scalar<Real<T>> Cv = C.scalar(Cos);
  Scalar<S> Sv = C.scalar(Sin);
  return C.run([=] {
    if constexpr (std::is_same_v<S, T>)
      host::rot(N, X, IncX, Y, IncY, Cv.get(), Sv.get());
    else
      host::rotReal(N, X, IncX, Y, IncY, Cv.get(), Sv.get());
  });
}

template <typename T>
cublasStatus_t rotg(const char *Name, cublasHandle_t H, T *A, T *B,
                    Real<T> *Cos, T *Sin) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!A || !B || !Cos || !Sin)
    return C.invalid("a, b, c or s (null)");
  return C.run([=] { host::rotg(A, B, Cos, Sin); }, true);
}

template <typename T>
cublasStatus_t rotm(const char *Name, cublasHandle_t H, int64_t N, T *X,
                    int64_t IncX, T *Y, int64_t IncY, const T *Param) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Param)
    return C.invalid("param (null)");
  if (N <= 0)
    return Success;
  if (!C.fits({IncX, IncY}))
    return TooLarge;
  // The flag and the four entries: a host array is read now.
  std::array<T, 5> Copy{};
  const T *Device = nullptr;
  if (C.deviceScalars())
    Device = Param;
  else
    std::copy(Param, Param + 5, Copy.begin());
  return C.run(
      [=] { host::rotm(N, X, IncX, Y, IncY, Device ? Device : Copy.data()); });
}

template <typename T>
cublasStatus_t rotmg(const char *Name, cublasHandle_t H, T *D1, T *D2, T *X1,
                     const T *Y1, T *Param) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!D1 || !D2 || !X1 || !Y1 || !Param)
    return C.invalid("d1, d2, x1, y1 or param (null)");
  return C.run([=] { host::rotmg(D1, D2, X1, *Y1, Param); }, true);
}

} // namespace api
} // namespace

// --- copy, swap --------------------------------------------------------------

#define COPY(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, const T *x,   \
                                   INT incx, T *y, INT incy) {                 \
    return api::copy(#NAME, handle, n, E(x), incx, E(y), incy);                \
  }
CUHIP_EACH_SDCZ(COPY, copy, _v2)
#undef COPY

#define COPY_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(int n, const T *x, int incx, T *y, int incy) {        \
    CUHIP_LEGACY_CALL(                                                         \
        api::copy(#NAME, legacyHandle(), n, E(x), incx, E(y), incy));          \
  }
CUHIP_LEGACY_SDCZ(COPY_LEGACY, copy)
#undef COPY_LEGACY

#define SWAP(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, T *x,         \
                                   INT incx, T *y, INT incy) {                 \
    return api::swap(#NAME, handle, n, E(x), incx, E(y), incy);                \
  }
CUHIP_EACH_SDCZ(SWAP, swap, _v2)
#undef SWAP

#define SWAP_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(int n, T *x, int incx, T *y, int incy) {              \
    CUHIP_LEGACY_CALL(                                                         \
        api::swap(#NAME, legacyHandle(), n, E(x), incx, E(y), incy));          \
  }
CUHIP_LEGACY_SDCZ(SWAP_LEGACY, swap)
#undef SWAP_LEGACY

// --- scal, axpy (complex; the real ones are Level12Api.cpp's) ----------------

#define SCAL(NAME, INT, S, T)                                                  \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n,               \
                                   const S *alpha, T *x, INT incx) {           \
    return api::scal(#NAME, handle, n, E(alpha), E(x), incx);                  \
  }
SCAL(cublasCscal_v2, int, cuComplex, cuComplex)
SCAL(cublasCscal_v2_64, int64_t, cuComplex, cuComplex)
SCAL(cublasZscal_v2, int, cuDoubleComplex, cuDoubleComplex)
SCAL(cublasZscal_v2_64, int64_t, cuDoubleComplex, cuDoubleComplex)
SCAL(cublasCsscal_v2, int, float, cuComplex)
SCAL(cublasCsscal_v2_64, int64_t, float, cuComplex)
SCAL(cublasZdscal_v2, int, double, cuDoubleComplex)
SCAL(cublasZdscal_v2_64, int64_t, double, cuDoubleComplex)
#undef SCAL

#define SCAL_LEGACY(NAME, S, T)                                                \
  CUHIP_EXPORT void NAME(int n, S alpha, T *x, int incx) {                     \
    CUHIP_LEGACY_CALL(                                                         \
        api::scal(#NAME, legacyHandle(), n, E(&alpha), E(x), incx));           \
  }
SCAL_LEGACY(cublasCscal, cuComplex, cuComplex)
SCAL_LEGACY(cublasZscal, cuDoubleComplex, cuDoubleComplex)
SCAL_LEGACY(cublasCsscal, float, cuComplex)
SCAL_LEGACY(cublasZdscal, double, cuDoubleComplex)
#undef SCAL_LEGACY

#define AXPY(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n,               \
                                   const T *alpha, const T *x, INT incx, T *y, \
                                   INT incy) {                                 \
    return api::axpy(#NAME, handle, n, E(alpha), E(x), incx, E(y), incy);      \
  }
CUHIP_EACH_CZ(AXPY, axpy, _v2)
#undef AXPY

#define AXPY_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(int n, T alpha, const T *x, int incx, T *y,           \
                         int incy) {                                           \
    CUHIP_LEGACY_CALL(api::axpy(#NAME, legacyHandle(), n, E(&alpha), E(x),     \
                                incx, E(y), incy));                            \
  }
CUHIP_LEGACY_CZ(AXPY_LEGACY, axpy)
#undef AXPY_LEGACY

// --- dot, nrm2, asum ---------------------------------------------------------

#define DOT(NAME, INT, T, CONJ)                                                \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, const T *x,   \
                                   INT incx, const T *y, INT incy,             \
                                   T *result) {                                \
    return api::dot(#NAME, handle, n, E(x), incx, E(y), incy, E(result),       \
                    CONJ);                                                     \
  }
DOT(cublasCdotu_v2, int, cuComplex, false)
DOT(cublasCdotu_v2_64, int64_t, cuComplex, false)
DOT(cublasCdotc_v2, int, cuComplex, true)
DOT(cublasCdotc_v2_64, int64_t, cuComplex, true)
DOT(cublasZdotu_v2, int, cuDoubleComplex, false)
DOT(cublasZdotu_v2_64, int64_t, cuDoubleComplex, false)
DOT(cublasZdotc_v2, int, cuDoubleComplex, true)
DOT(cublasZdotc_v2_64, int64_t, cuDoubleComplex, true)
#undef DOT

#define DOT_LEGACY(NAME, T, CONJ)                                              \
  CUHIP_EXPORT T NAME(int n, const T *x, int incx, const T *y, int incy) {     \
    T Result{};                                                                \
    CUHIP_LEGACY_CALL(api::dot(#NAME, legacyHandle(), n, E(x), incx, E(y),     \
                               incy, E(&Result), CONJ));                       \
    return Result;                                                             \
  }
DOT_LEGACY(cublasCdotu, cuComplex, false)
DOT_LEGACY(cublasCdotc, cuComplex, true)
DOT_LEGACY(cublasZdotu, cuDoubleComplex, false)
DOT_LEGACY(cublasZdotc, cuDoubleComplex, true)
#undef DOT_LEGACY

#define NORM(NAME, INT, T, R, ASUM)                                            \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, const T *x,   \
                                   INT incx, R *result) {                      \
    return api::norm(#NAME, handle, n, E(x), incx, result, ASUM);              \
  }
NORM(cublasScnrm2_v2, int, cuComplex, float, false)
NORM(cublasScnrm2_v2_64, int64_t, cuComplex, float, false)
NORM(cublasDznrm2_v2, int, cuDoubleComplex, double, false)
NORM(cublasDznrm2_v2_64, int64_t, cuDoubleComplex, double, false)
NORM(cublasSasum_v2, int, float, float, true)
NORM(cublasSasum_v2_64, int64_t, float, float, true)
NORM(cublasDasum_v2, int, double, double, true)
NORM(cublasDasum_v2_64, int64_t, double, double, true)
NORM(cublasScasum_v2, int, cuComplex, float, true)
NORM(cublasScasum_v2_64, int64_t, cuComplex, float, true)
NORM(cublasDzasum_v2, int, cuDoubleComplex, double, true)
NORM(cublasDzasum_v2_64, int64_t, cuDoubleComplex, double, true)
#undef NORM

#define NORM_LEGACY(NAME, T, R, ASUM)                                          \
  CUHIP_EXPORT R NAME(int n, const T *x, int incx) {                           \
    R Result = 0;                                                              \
    CUHIP_LEGACY_CALL(                                                         \
        api::norm(#NAME, legacyHandle(), n, E(x), incx, &Result, ASUM));       \
    return Result;                                                             \
  }
NORM_LEGACY(cublasScnrm2, cuComplex, float, false)
NORM_LEGACY(cublasDznrm2, cuDoubleComplex, double, false)
NORM_LEGACY(cublasSasum, float, float, true)
NORM_LEGACY(cublasDasum, double, double, true)
NORM_LEGACY(cublasScasum, cuComplex, float, true)
NORM_LEGACY(cublasDzasum, cuDoubleComplex, double, true)
#undef NORM_LEGACY

// --- amax, amin --------------------------------------------------------------

#define IAMAX(NAME, INT, T, MAX)                                               \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, const T *x,   \
                                   INT incx, INT *result) {                    \
    return api::iamax(#NAME, handle, n, E(x), incx, result, MAX);              \
  }
IAMAX(cublasIcamax_v2, int, cuComplex, true)
IAMAX(cublasIcamax_v2_64, int64_t, cuComplex, true)
IAMAX(cublasIzamax_v2, int, cuDoubleComplex, true)
IAMAX(cublasIzamax_v2_64, int64_t, cuDoubleComplex, true)
IAMAX(cublasIsamin_v2, int, float, false)
IAMAX(cublasIsamin_v2_64, int64_t, float, false)
IAMAX(cublasIdamin_v2, int, double, false)
IAMAX(cublasIdamin_v2_64, int64_t, double, false)
IAMAX(cublasIcamin_v2, int, cuComplex, false)
IAMAX(cublasIcamin_v2_64, int64_t, cuComplex, false)
IAMAX(cublasIzamin_v2, int, cuDoubleComplex, false)
IAMAX(cublasIzamin_v2_64, int64_t, cuDoubleComplex, false)
#undef IAMAX

#define IAMAX_LEGACY(NAME, T, MAX)                                             \
  CUHIP_EXPORT int NAME(int n, const T *x, int incx) {                         \
    int Result = 0;                                                            \
    CUHIP_LEGACY_CALL(                                                         \
        api::iamax(#NAME, legacyHandle(), n, E(x), incx, &Result, MAX));       \
    return Result;                                                             \
  }
IAMAX_LEGACY(cublasIcamax, cuComplex, true)
IAMAX_LEGACY(cublasIzamax, cuDoubleComplex, true)
IAMAX_LEGACY(cublasIsamin, float, false)
IAMAX_LEGACY(cublasIdamin, double, false)
IAMAX_LEGACY(cublasIcamin, cuComplex, false)
IAMAX_LEGACY(cublasIzamin, cuDoubleComplex, false)
#undef IAMAX_LEGACY

// --- rotations ---------------------------------------------------------------

#define ROT(NAME, INT, T, R, S)                                                \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, T *x,         \
                                   INT incx, T *y, INT incy, const R *c,       \
                                   const S *s) {                               \
    return api::rot(#NAME, handle, n, E(x), incx, E(y), incy, c, E(s));        \
  }
#define ROT_ALL(NAME, T, R, S)                                                 \
  ROT(NAME##_v2, int, T, R, S) ROT(NAME##_v2_64, int64_t, T, R, S)
ROT_ALL(cublasSrot, float, float, float)
ROT_ALL(cublasDrot, double, double, double)
ROT_ALL(cublasCrot, cuComplex, float, cuComplex)
ROT_ALL(cublasCsrot, cuComplex, float, float)
ROT_ALL(cublasZrot, cuDoubleComplex, double, cuDoubleComplex)
ROT_ALL(cublasZdrot, cuDoubleComplex, double, double)
#undef ROT_ALL
#undef ROT

#define ROT_LEGACY(NAME, T, R, S)                                              \
  CUHIP_EXPORT void NAME(int n, T *x, int incx, T *y, int incy, R c, S s) {    \
    CUHIP_LEGACY_CALL(api::rot(#NAME, legacyHandle(), n, E(x), incx, E(y),     \
                               incy, &c, E(&s)));                              \
  }
ROT_LEGACY(cublasSrot, float, float, float)
ROT_LEGACY(cublasDrot, double, double, double)
ROT_LEGACY(cublasCrot, cuComplex, float, cuComplex)
ROT_LEGACY(cublasCsrot, cuComplex, float, float)
ROT_LEGACY(cublasZrot, cuDoubleComplex, double, cuDoubleComplex)
ROT_LEGACY(cublasZdrot, cuDoubleComplex, double, double)
#undef ROT_LEGACY

#define ROTG(NAME, T, R)                                                       \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, T *a, T *b, R *c,    \
                                   T *s) {                                     \
    return api::rotg(#NAME, handle, E(a), E(b), c, E(s));                      \
  }
ROTG(cublasSrotg_v2, float, float)
ROTG(cublasDrotg_v2, double, double)
ROTG(cublasCrotg_v2, cuComplex, float)
ROTG(cublasZrotg_v2, cuDoubleComplex, double)
#undef ROTG

#define ROTG_LEGACY_REAL(NAME, T)                                              \
  CUHIP_EXPORT void NAME(T *sa, T *sb, T *sc, T *ss) {                         \
    CUHIP_LEGACY_CALL(api::rotg(#NAME, legacyHandle(), sa, sb, sc, ss));       \
  }
ROTG_LEGACY_REAL(cublasSrotg, float)
ROTG_LEGACY_REAL(cublasDrotg, double)
#undef ROTG_LEGACY_REAL

// The complex legacy forms take b by value.
#define ROTG_LEGACY_COMPLEX(NAME, T, R)                                        \
  CUHIP_EXPORT void NAME(T *ca, T cb, R *sc, T *cs) {                          \
    CUHIP_LEGACY_CALL(                                                         \
        api::rotg(#NAME, legacyHandle(), E(ca), E(&cb), sc, E(cs)));           \
  }
ROTG_LEGACY_COMPLEX(cublasCrotg, cuComplex, float)
ROTG_LEGACY_COMPLEX(cublasZrotg, cuDoubleComplex, double)
#undef ROTG_LEGACY_COMPLEX

#define ROTM(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n, T *x,         \
                                   INT incx, T *y, INT incy, const T *param) { \
    return api::rotm(#NAME, handle, n, x, incx, y, incy, param);               \
  }
CUHIP_EACH_SD(ROTM, rotm, _v2)
#undef ROTM

#define ROTM_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(int n, T *x, int incx, T *y, int incy,                \
                         const T *sparam) {                                    \
    CUHIP_LEGACY_CALL(                                                         \
        api::rotm(#NAME, legacyHandle(), n, x, incx, y, incy, sparam));        \
  }
CUHIP_LEGACY_SD(ROTM_LEGACY, rotm)
#undef ROTM_LEGACY

#define ROTMG(NAME, T)                                                         \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, T *d1, T *d2, T *x1, \
                                   const T *y1, T *param) {                    \
    return api::rotmg(#NAME, handle, d1, d2, x1, y1, param);                   \
  }
ROTMG(cublasSrotmg_v2, float)
ROTMG(cublasDrotmg_v2, double)
#undef ROTMG

#define ROTMG_LEGACY(NAME, T)                                                  \
  CUHIP_EXPORT void NAME(T *sd1, T *sd2, T *sx1, const T *sy1, T *sparam) {    \
    CUHIP_LEGACY_CALL(                                                         \
        api::rotmg(#NAME, legacyHandle(), sd1, sd2, sx1, sy1, sparam));        \
  }
CUHIP_LEGACY_SD(ROTMG_LEGACY, rotmg)
#undef ROTMG_LEGACY

// --- the Ex forms over the standard types ------------------------------------

namespace {

/// The engine type a cudaDataType names among the four standard ones.
enum class Std { F32, F64, C32, C64, Other, Unknown };

Std stdOf(cudaDataType T) {
  switch (T) {
  case CUDA_R_32F:
    return Std::F32;
  case CUDA_R_64F:
    return Std::F64;
  case CUDA_C_32F:
    return Std::C32;
  case CUDA_C_64F:
    return Std::C64;
  default: {
    blas::DType D;
    return blas::dtypeOf(T, D) ? Std::Other : Std::Unknown;
  }
  }
}

template <typename T> constexpr cudaDataType typeOf() {
  if constexpr (std::is_same_v<T, float>)
    return CUDA_R_32F;
  else if constexpr (std::is_same_v<T, double>)
    return CUDA_R_64F;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return CUDA_C_32F;
  else
    return CUDA_C_64F;
}

/// Fn(T{}) for the standard type X names; INVALID_VALUE for a number that
/// names no type, NOT_SUPPORTED for another type.
template <typename F>
cublasStatus_t withType(const char *Name, cudaDataType X, F &&Fn) {
  switch (stdOf(X)) {
  case Std::F32:
    return Fn(float{});
  case Std::F64:
    return Fn(double{});
  case Std::C32:
    return Fn(std::complex<float>{});
  case Std::C64:
    return Fn(std::complex<double>{});
  case Std::Other:
    return notImplemented(Name, "vectors of this type: the Ex forms here do "
                                "f32, f64 and complex f32/f64");
  case Std::Unknown:
    break;
  }
  CUHIP_DEBUG("%s: a data type names no type: CUBLAS_STATUS_INVALID_VALUE",
              Name);
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t typeMismatch(const char *Name) {
  CUHIP_WARN("%s: not supported: this combination of data and execution "
             "types",
             Name);
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

/// Copies or swaps vectors of 2-byte elements (f16, bf16), which need no
/// arithmetic: element by element, BLAS's increments.
cublasStatus_t move16(const char *Name, cublasHandle_t H, int64_t N,
                      const void *X, int64_t IncX, void *Y, int64_t IncY,
                      bool Swap) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (N <= 0)
    return CUBLAS_STATUS_SUCCESS;
  auto *Xs = static_cast<uint16_t *>(const_cast<void *>(X));
  auto *Ys = static_cast<uint16_t *>(Y);
  return C.run([=] {
    auto At = [N](int64_t I, int64_t Inc) {
      return Inc >= 0 ? I * Inc : (I - N + 1) * Inc;
    };
    for (int64_t I = 0; I < N; ++I) {
      uint16_t &A = Xs[At(I, IncX)], &B = Ys[At(I, IncY)];
      if (Swap)
        std::swap(A, B);
      else
        B = A;
    }
  });
}

} // namespace

namespace cuhip::cublas {

bool isComplexType(cudaDataType T) {
  return T == CUDA_C_32F || T == CUDA_C_64F;
}

cublasStatus_t typedAxpyEx(const char *Name, cublasHandle_t H, int64_t N,
                           const void *Alpha, cudaDataType AlphaType,
                           const void *X, cudaDataType XType, int64_t IncX,
                           void *Y, cudaDataType YType, int64_t IncY,
                           cudaDataType Exec) {
  return withType(Name, XType, [&](auto Tag) {
    using T = decltype(Tag);
    if (YType != XType || AlphaType != XType || Exec != XType)
      return typeMismatch(Name);
    return api::axpy(Name, H, N, static_cast<const T *>(Alpha),
                     static_cast<const T *>(X), IncX, static_cast<T *>(Y),
                     IncY);
  });
}

cublasStatus_t typedScalEx(const char *Name, cublasHandle_t H, int64_t N,
                           const void *Alpha, cudaDataType AlphaType, void *X,
                           cudaDataType XType, int64_t IncX,
                           cudaDataType Exec) {
  return withType(Name, XType, [&](auto Tag) {
    using T = decltype(Tag);
    if (Exec != XType)
      return typeMismatch(Name);
    if (AlphaType == XType)
      return api::scal(Name, H, N, static_cast<const T *>(Alpha),
                       static_cast<T *>(X), IncX);
    if (AlphaType == typeOf<Real<T>>())
      return api::scal(Name, H, N, static_cast<const Real<T> *>(Alpha),
                       static_cast<T *>(X), IncX);
    return typeMismatch(Name);
  });
}

cublasStatus_t typedDotEx(const char *Name, cublasHandle_t H, int64_t N,
                          const void *X, cudaDataType XType, int64_t IncX,
                          const void *Y, cudaDataType YType, int64_t IncY,
                          void *Result, cudaDataType ResultType,
                          cudaDataType Exec, bool Conj) {
  return withType(Name, XType, [&](auto Tag) {
    using T = decltype(Tag);
    if (YType != XType || ResultType != XType || Exec != XType)
      return typeMismatch(Name);
    return api::dot(Name, H, N, static_cast<const T *>(X), IncX,
                    static_cast<const T *>(Y), IncY, static_cast<T *>(Result),
                    Conj);
  });
}

cublasStatus_t typedNrm2Ex(const char *Name, cublasHandle_t H, int64_t N,
                           const void *X, cudaDataType XType, int64_t IncX,
                           void *Result, cudaDataType ResultType,
                           cudaDataType Exec, bool Asum) {
  return withType(Name, XType, [&](auto Tag) {
    using T = decltype(Tag);
    if (ResultType != typeOf<Real<T>>() || Exec != typeOf<Real<T>>())
      return typeMismatch(Name);
    return api::norm(Name, H, N, static_cast<const T *>(X), IncX,
                     static_cast<Real<T> *>(Result), Asum);
  });
}

} // namespace cuhip::cublas

#define DOTC_EX(NAME, INT)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, const void *x, cudaDataType xType,         \
      INT incx, const void *y, cudaDataType yType, INT incy, void *result,     \
      cudaDataType resultType, cudaDataType executionType) {                   \
    return typedDotEx(#NAME, handle, n, x, xType, incx, y, yType, incy,        \
                      result, resultType, executionType, true);                \
  }
DOTC_EX(cublasDotcEx, int)
DOTC_EX(cublasDotcEx_64, int64_t)
#undef DOTC_EX

#define ASUM_EX(NAME, INT)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, const void *x, cudaDataType xType,         \
      INT incx, void *result, cudaDataType resultType,                         \
      cudaDataType executiontype) {                                            \
    return typedNrm2Ex(#NAME, handle, n, x, xType, incx, result, resultType,   \
                       executiontype, true);                                   \
  }
ASUM_EX(cublasAsumEx, int)
ASUM_EX(cublasAsumEx_64, int64_t)
#undef ASUM_EX

#define MOVE_EX(NAME, INT, XCONST, OP, SWAP)                                   \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, XCONST void *x, cudaDataType xType,        \
      INT incx, void *y, cudaDataType yType, INT incy) {                       \
    if (yType != xType)                                                        \
      return typeMismatch(#NAME);                                              \
    if (xType == CUDA_R_16F || xType == CUDA_R_16BF)                           \
      return move16(#NAME, handle, n, x, incx, y, incy, SWAP);                 \
    return withType(#NAME, xType, [&](auto Tag) {                              \
      using T = decltype(Tag);                                                 \
      return api::OP(#NAME, handle, n, static_cast<XCONST T *>(x), incx,       \
                     static_cast<T *>(y), incy);                               \
    });                                                                        \
  }
MOVE_EX(cublasCopyEx, int, const, copy, false)
MOVE_EX(cublasCopyEx_64, int64_t, const, copy, false)
MOVE_EX(cublasSwapEx, int, , swap, true)
MOVE_EX(cublasSwapEx_64, int64_t, , swap, true)
#undef MOVE_EX

#define IAMAX_EX(NAME, INT, MAX)                                               \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT n,               \
                                   const void *x, cudaDataType xType,          \
                                   INT incx, INT *result) {                    \
    return withType(#NAME, xType, [&](auto Tag) {                              \
      using T = decltype(Tag);                                                 \
      return api::iamax(#NAME, handle, n, static_cast<const T *>(x), incx,     \
                        result, MAX);                                          \
    });                                                                        \
  }
IAMAX_EX(cublasIamaxEx, int, true)
IAMAX_EX(cublasIamaxEx_64, int64_t, true)
IAMAX_EX(cublasIaminEx, int, false)
IAMAX_EX(cublasIaminEx_64, int64_t, false)
#undef IAMAX_EX

// c and s of RotEx have csType: real (csrot for complex vectors), or the
// vectors' complex type (crot: c's real part is the cosine).
#define ROT_EX(NAME, INT)                                                      \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, void *x, cudaDataType xType, INT incx,     \
      void *y, cudaDataType yType, INT incy, const void *c, const void *s,     \
      cudaDataType csType, cudaDataType executiontype) {                       \
    return withType(#NAME, xType, [&](auto Tag) {                              \
      using T = decltype(Tag);                                                 \
      using R = Real<T>;                                                       \
      if (yType != xType || executiontype != xType)                            \
        return typeMismatch(#NAME);                                            \
      if (csType == typeOf<R>())                                               \
        return api::rot(#NAME, handle, n, static_cast<T *>(x), incx,           \
                        static_cast<T *>(y), incy, static_cast<const R *>(c),  \
                        static_cast<const R *>(s));                            \
      if (csType == xType)                                                     \
        return api::rot(#NAME, handle, n, static_cast<T *>(x), incx,           \
                        static_cast<T *>(y), incy, static_cast<const R *>(c),  \
                        static_cast<const T *>(s));                            \
      return typeMismatch(#NAME);                                              \
    });                                                                        \
  }
ROT_EX(cublasRotEx, int)
ROT_EX(cublasRotEx_64, int64_t)
#undef ROT_EX

CUHIP_EXPORT cublasStatus_t cublasRotgEx(cublasHandle_t handle, void *a,
                                         void *b, cudaDataType abType, void *c,
                                         void *s, cudaDataType csType,
                                         cudaDataType executiontype) {
  return withType("cublasRotgEx", abType, [&](auto Tag) {
    using T = decltype(Tag);
    if (csType != abType || executiontype != abType)
      return typeMismatch("cublasRotgEx");
    return api::rotg("cublasRotgEx", handle, static_cast<T *>(a),
                     static_cast<T *>(b), static_cast<Real<T> *>(c),
                     static_cast<T *>(s));
  });
}

namespace {

/// Fn(T{}) for f32 and f64 only (the modified rotations are real).
template <typename F>
cublasStatus_t withRealType(const char *Name, cudaDataType X, F &&Fn) {
  if (X == CUDA_R_32F)
    return Fn(float{});
  if (X == CUDA_R_64F)
    return Fn(double{});
  return withType(Name, X, [&](auto) { return typeMismatch(Name); });
}

} // namespace

#define ROTM_EX(NAME, INT)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, INT n, void *x, cudaDataType xType, INT incx,     \
      void *y, cudaDataType yType, INT incy, const void *param,                \
      cudaDataType paramType, cudaDataType executiontype) {                    \
    return withRealType(#NAME, xType, [&](auto Tag) {                          \
      using T = decltype(Tag);                                                 \
      if (yType != xType || paramType != xType || executiontype != xType)      \
        return typeMismatch(#NAME);                                            \
      return api::rotm(#NAME, handle, n, static_cast<T *>(x), incx,            \
                       static_cast<T *>(y), incy,                              \
                       static_cast<const T *>(param));                         \
    });                                                                        \
  }
ROTM_EX(cublasRotmEx, int)
ROTM_EX(cublasRotmEx_64, int64_t)
#undef ROTM_EX

CUHIP_EXPORT cublasStatus_t cublasRotmgEx(cublasHandle_t handle, void *d1,
                                          cudaDataType d1Type, void *d2,
                                          cudaDataType d2Type, void *x1,
                                          cudaDataType x1Type, const void *y1,
                                          cudaDataType y1Type, void *param,
                                          cudaDataType paramType,
                                          cudaDataType executiontype) {
  return withRealType("cublasRotmgEx", d1Type, [&](auto Tag) {
    using T = decltype(Tag);
    if (d2Type != d1Type || x1Type != d1Type || y1Type != d1Type ||
        paramType != d1Type || executiontype != d1Type)
      return typeMismatch("cublasRotmgEx");
    return api::rotmg("cublasRotmgEx", handle, static_cast<T *>(d1),
                      static_cast<T *>(d2), static_cast<T *>(x1),
                      static_cast<const T *>(y1), static_cast<T *>(param));
  });
}
