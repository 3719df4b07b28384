//===- BlasCall.h - What the typed level-1/2/3 entry points share --------===//
//
// The S/D/C/Z routines of cuBLAS (and their _64 and legacy forms) are one
// template each over the engine's element types (float, double,
// std::complex<float>, std::complex<double>); the exported functions are
// macro-generated wrappers that convert cuComplex pointers with E() and
// call it. A Call carries the name and handle through the checks and puts
// the engine routine on the handle's stream: host-mode scalars are read
// when the call is made, device-mode ones when the routine runs, and a
// host-mode result is there when the call returns. On the HIP backend these
// routines are not forwarded: they answer CUBLAS_STATUS_NOT_SUPPORTED and
// the log names the routine once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Handle.h"

#include "Blas.h"

#include <complex>
#include <cstdint>
#include <functional>
#include <initializer_list>

namespace cuhip::cublas {

// --- cuComplex and friends as the engine's types -----------------------------

template <typename T> struct EngineOf { using type = T; };
template <> struct EngineOf<cuComplex> { using type = std::complex<float>; };
template <> struct EngineOf<cuDoubleComplex> {
  using type = std::complex<double>;
};
template <typename T> struct EngineOf<const T> {
  using type = const typename EngineOf<T>::type;
};
template <typename T> struct EngineOf<T *> {
  using type = typename EngineOf<T>::type *;
};

/// A pointer to cuBLAS's types as a pointer to the engine's (cuComplex is
/// std::complex<float>'s layout), through any depth of pointers.
template <typename T> typename EngineOf<T *>::type E(T *P) {
  return reinterpret_cast<typename EngineOf<T *>::type>(P);
}

// --- enumerators -------------------------------------------------------------

bool toOp(cublasOperation_t T, blas::Op &Out);
bool toUplo(cublasFillMode_t U, blas::Uplo &Out);
bool toSide(cublasSideMode_t S, blas::Side &Out);
bool toDiag(cublasDiagType_t D, blas::Diag &Out);

/// The legacy API's characters: 'N', 'T', 'C'; 'U', 'L'; 'L', 'R'; 'U',
/// 'N' (either case). Another character becomes a number no enumerator
/// has, which the checks refuse with CUBLAS_STATUS_INVALID_VALUE.
cublasOperation_t legacyOp(char C);
cublasFillMode_t legacyUplo(char C);
cublasSideMode_t legacySide(char C);
cublasDiagType_t legacyDiag(char C);

// --- scalars -----------------------------------------------------------------

/// alpha or beta: its value when the pointer is a host pointer (read at the
/// call), else the device pointer (read when the routine runs).
template <typename T> struct Scalar {
  T Value{};
  const T *Device = nullptr;
  T get() const { return Device ? *Device : Value; }
};

// --- one call ----------------------------------------------------------------

class Call {
public:
  Call(const char *Name, cublasHandle_t Handle) : Name(Name), H(Handle) {}

  /// CUBLAS_STATUS_NOT_INITIALIZED for a handle cublasCreate did not give.
  cublasStatus_t start() const;
  /// CUBLAS_STATUS_INVALID_VALUE, logged with what was wrong.
  cublasStatus_t invalid(const char *What) const;
  /// CUBLAS_STATUS_NOT_SUPPORTED, logged with why.
  cublasStatus_t unsupported(const char *Why) const;
  /// Do all these sizes, leading dimensions and increments fit OpenBLAS's
  /// 32-bit interface? If not, says so in the log.
  bool fits(std::initializer_list<int64_t> Values) const;

  bool deviceScalars() const {
    return H->PointerMode == CUBLAS_POINTER_MODE_DEVICE;
  }
  template <typename T> Scalar<T> scalar(const T *P) const {
    Scalar<T> S;
    if (deviceScalars())
      S.Device = P;
    else
      S.Value = *P;
    return S;
  }

  /// Puts Work on the handle's stream. HostResult: the routine writes a
  /// result through a pointer that is a host pointer in host pointer mode,
  /// so the call waits for it there.
  cublasStatus_t run(std::function<void()> Work, bool HostResult = false) const;

  const char *Name;
  cublasHandle_t H;
};

/// The level-1 Ex forms over the four standard types (f32, f64 and their
/// complex forms), whose other types must match as the typed routine's do
/// (Level1Api.cpp). AxpyEx, ScalEx, DotEx and Nrm2Ex send complex vectors
/// here; the engine's VectorDesc path does their real and 16-bit ones.
bool isComplexType(cudaDataType T);
cublasStatus_t typedAxpyEx(const char *Name, cublasHandle_t H, int64_t N,
                           const void *Alpha, cudaDataType AlphaType,
                           const void *X, cudaDataType XType, int64_t IncX,
                           void *Y, cudaDataType YType, int64_t IncY,
                           cudaDataType Exec);
cublasStatus_t typedScalEx(const char *Name, cublasHandle_t H, int64_t N,
                           const void *Alpha, cudaDataType AlphaType, void *X,
                           cudaDataType XType, int64_t IncX, cudaDataType Exec);
cublasStatus_t typedDotEx(const char *Name, cublasHandle_t H, int64_t N,
                          const void *X, cudaDataType XType, int64_t IncX,
                          const void *Y, cudaDataType YType, int64_t IncY,
                          void *Result, cudaDataType ResultType,
                          cudaDataType Exec, bool Conj);
/// nrm2 (Asum false) or asum.
cublasStatus_t typedNrm2Ex(const char *Name, cublasHandle_t H, int64_t N,
                           const void *X, cudaDataType XType, int64_t IncX,
                           void *Result, cudaDataType ResultType,
                           cudaDataType Exec, bool Asum);

/// GemmEx and its batched forms with complex matrices (Level3Api.cpp):
/// D as GemmApi.cpp checked it, with TransA/TransB as the program gave them
/// (D's have lost the conjugation).
cublasStatus_t complexGemmEx(const char *Name, cublasHandle_t H,
                             cublasOperation_t TransA, cublasOperation_t TransB,
                             const blas::GemmDesc &D);

/// A stub's answer: CUBLAS_STATUS_NOT_SUPPORTED, logged once per name.
cublasStatus_t notImplemented(const char *Name, const char *Why);

} // namespace cuhip::cublas

// --- the exported names ------------------------------------------------------

/// FAMILY(NAME, INT, T) for S, D, C and Z, each with int and (NAME_64)
/// int64_t sizes. SUFFIX is _v2 or empty: cublasSgbmv_v2, cublasSgbmv_v2_64.
#define CUHIP_EACH_SDCZ(FAMILY, BASE, SUFFIX)                                  \
  CUHIP_EACH_SD(FAMILY, BASE, SUFFIX)                                          \
  CUHIP_EACH_CZ(FAMILY, BASE, SUFFIX)
#define CUHIP_EACH_SD(FAMILY, BASE, SUFFIX)                                    \
  FAMILY(cublasS##BASE##SUFFIX, int, float)                                    \
  FAMILY(cublasS##BASE##SUFFIX##_64, int64_t, float)                           \
  FAMILY(cublasD##BASE##SUFFIX, int, double)                                   \
  FAMILY(cublasD##BASE##SUFFIX##_64, int64_t, double)
#define CUHIP_EACH_CZ(FAMILY, BASE, SUFFIX)                                    \
  FAMILY(cublasC##BASE##SUFFIX, int, cuComplex)                                \
  FAMILY(cublasC##BASE##SUFFIX##_64, int64_t, cuComplex)                       \
  FAMILY(cublasZ##BASE##SUFFIX, int, cuDoubleComplex)                          \
  FAMILY(cublasZ##BASE##SUFFIX##_64, int64_t, cuDoubleComplex)

/// LEGACY(NAME, T) for the legacy S, D, C and Z names (cublasSgbmv).
#define CUHIP_LEGACY_SDCZ(LEGACY, BASE)                                        \
  CUHIP_LEGACY_SD(LEGACY, BASE) CUHIP_LEGACY_CZ(LEGACY, BASE)
#define CUHIP_LEGACY_SD(LEGACY, BASE)                                          \
  LEGACY(cublasS##BASE, float) LEGACY(cublasD##BASE, double)
#define CUHIP_LEGACY_CZ(LEGACY, BASE)                                          \
  LEGACY(cublasC##BASE, cuComplex) LEGACY(cublasZ##BASE, cuDoubleComplex)

/// The body of a legacy routine: its v2 form on the legacy handle, the
/// failure kept for cublasGetError.
#define CUHIP_LEGACY_CALL(EXPR) ::cuhip::cublas::legacyRecord(EXPR)
