//===- RocBlas.cpp - The engine's operations forwarded to rocBLAS ---------===//
//
// On the HIP backend the matrices live in GPU memory, so the engine hands
// the operation to rocBLAS on the HIP stream behind the cudaStream_t.
// rocBLAS is loaded with dlopen (Debian has none, and cuhip must build and
// run without it); its types are declared here from its public API: the
// numbers of rocblas_operation, rocblas_datatype, rocblas_pointer_mode and
// rocblas_status, and the entry points' signatures (32-bit rocblas_int
// sizes, 64-bit strides). One rocBLAS handle serves the process; a mutex
// keeps each call's set_stream / set_pointer_mode / call together.
//
//===----------------------------------------------------------------------===//
#include "Gemm.h"

#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Runtime.h"

#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace cuhip::blas::rocblas {

namespace {

using Handle = void *;
using RbInt = int32_t;
using RbStride = int64_t;
using RbStatus = int;
// rocblas_operation, rocblas_datatype, rocblas_gemm_algo and
// rocblas_pointer_mode are C enums: int-sized.
using RbEnum = int;

constexpr RbEnum OperationNone = 111, OperationTranspose = 112,
                 OperationConjugateTranspose = 113;
constexpr RbEnum TypeF16 = 150, TypeF32 = 151, TypeF64 = 152, TypeC32 = 154,
                 TypeC64 = 155, TypeI8 = 160, TypeI32 = 162, TypeBF16 = 168;
constexpr RbEnum PointerModeHost = 0, PointerModeDevice = 1;
constexpr RbEnum GemmAlgoStandard = 0;
constexpr RbStatus StatusSuccess = 0, StatusInvalidHandle = 1,
                   StatusNotImplemented = 2, StatusInvalidPointer = 3,
                   StatusInvalidSize = 4, StatusMemoryError = 5,
                   StatusInvalidValue = 11;

struct Api {
  void *Lib = nullptr;
  std::string Name;
  Handle H = nullptr;
  RbStatus (*CreateHandle)(Handle *) = nullptr;
  RbStatus (*SetStream)(Handle, void *) = nullptr;
  RbStatus (*SetPointerMode)(Handle, RbEnum) = nullptr;
  RbStatus (*GemmEx)(Handle, RbEnum, RbEnum, RbInt, RbInt, RbInt, const void *,
                     const void *, RbEnum, RbInt, const void *, RbEnum, RbInt,
                     const void *, const void *, RbEnum, RbInt, void *, RbEnum,
                     RbInt, RbEnum, RbEnum, int32_t, uint32_t) = nullptr;
  RbStatus (*GemmStridedBatchedEx)(
      Handle, RbEnum, RbEnum, RbInt, RbInt, RbInt, const void *, const void *,
      RbEnum, RbInt, RbStride, const void *, RbEnum, RbInt, RbStride,
      const void *, const void *, RbEnum, RbInt, RbStride, void *, RbEnum,
      RbInt, RbStride, RbInt, RbEnum, RbEnum, int32_t, uint32_t) = nullptr;
  RbStatus (*GemmBatchedEx)(Handle, RbEnum, RbEnum, RbInt, RbInt, RbInt,
                            const void *, const void *, RbEnum, RbInt,
                            const void *, RbEnum, RbInt, const void *,
                            const void *, RbEnum, RbInt, void *, RbEnum, RbInt,
                            RbInt, RbEnum, RbEnum, int32_t,
                            uint32_t) = nullptr;
  RbStatus (*AxpyEx)(Handle, RbInt, const void *, RbEnum, const void *, RbEnum,
                     RbInt, void *, RbEnum, RbInt, RbEnum) = nullptr;
  RbStatus (*ScalEx)(Handle, RbInt, const void *, RbEnum, void *, RbEnum,
                     RbInt, RbEnum) = nullptr;
  RbStatus (*DotEx)(Handle, RbInt, const void *, RbEnum, RbInt, const void *,
                    RbEnum, RbInt, void *, RbEnum, RbEnum) = nullptr;
  RbStatus (*Nrm2Ex)(Handle, RbInt, const void *, RbEnum, RbInt, void *,
                     RbEnum, RbEnum) = nullptr;
  RbStatus (*Isamax)(Handle, RbInt, const float *, RbInt, RbInt *) = nullptr;
  RbStatus (*Idamax)(Handle, RbInt, const double *, RbInt, RbInt *) = nullptr;
  RbStatus (*Sgemv)(Handle, RbEnum, RbInt, RbInt, const float *, const float *,
                    RbInt, const float *, RbInt, const float *, float *,
                    RbInt) = nullptr;
  RbStatus (*Dgemv)(Handle, RbEnum, RbInt, RbInt, const double *,
                    const double *, RbInt, const double *, RbInt,
                    const double *, double *, RbInt) = nullptr;
};

std::mutex Lock;
Api *Loaded = nullptr;
bool Tried = false;

std::vector<std::string> candidates() {
  if (const char *E = std::getenv("CUHIP_ROCBLAS_LIBRARY"); E && *E)
    return {E};
  return {"librocblas.so.4", "librocblas.so.3", "librocblas.so"};
}

template <typename F> void resolve(Api &A, F &Fn, const char *Name) {
  Fn = reinterpret_cast<F>(dlsym(A.Lib, Name));
}

/// The loaded rocBLAS with a handle, or null (logged once). Lock held.
Api *api() {
  if (Tried)
    return Loaded;
  Tried = true;
  std::string Tries;
  for (const std::string &Name : candidates()) {
    void *Lib = dlopen(Name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (Lib) {
      auto *A = new Api;
      A->Lib = Lib;
      A->Name = Name;
      resolve(*A, A->CreateHandle, "rocblas_create_handle");
      resolve(*A, A->SetStream, "rocblas_set_stream");
      resolve(*A, A->SetPointerMode, "rocblas_set_pointer_mode");
      resolve(*A, A->GemmEx, "rocblas_gemm_ex");
      resolve(*A, A->GemmStridedBatchedEx, "rocblas_gemm_strided_batched_ex");
      resolve(*A, A->GemmBatchedEx, "rocblas_gemm_batched_ex");
      resolve(*A, A->AxpyEx, "rocblas_axpy_ex");
      resolve(*A, A->ScalEx, "rocblas_scal_ex");
      resolve(*A, A->DotEx, "rocblas_dot_ex");
      resolve(*A, A->Nrm2Ex, "rocblas_nrm2_ex");
      resolve(*A, A->Isamax, "rocblas_isamax");
      resolve(*A, A->Idamax, "rocblas_idamax");
      resolve(*A, A->Sgemv, "rocblas_sgemv");
      resolve(*A, A->Dgemv, "rocblas_dgemv");
      if (!A->CreateHandle || !A->SetStream || !A->SetPointerMode) {
        CUHIP_ERROR("%s lacks rocblas_create_handle/rocblas_set_stream/"
                    "rocblas_set_pointer_mode; cuBLAS calls answer "
                    "CUBLAS_STATUS_NOT_SUPPORTED (install a complete rocBLAS)",
                    Name.c_str());
        dlclose(Lib);
        delete A;
        return nullptr;
      }
      if (RbStatus S = A->CreateHandle(&A->H)) {
        CUHIP_ERROR("rocblas_create_handle failed (rocblas_status %d); cuBLAS "
                    "calls answer CUBLAS_STATUS_NOT_SUPPORTED",
                    S);
        dlclose(Lib);
        delete A;
        return nullptr;
      }
      CUHIP_INFO("cuBLAS on the HIP backend forwards to %s", Name.c_str());
      Loaded = A;
      return A;
    }
    Tries += Tries.empty() ? "" : ", ";
    Tries += Name;
  }
  CUHIP_ERROR("rocBLAS is not installed (tried %s): cuBLAS calls on the HIP "
              "backend answer CUBLAS_STATUS_NOT_SUPPORTED; install ROCm's "
              "rocBLAS, name it with CUHIP_ROCBLAS_LIBRARY, or run with "
              "CUHIP_BACKEND=cpu",
              Tries.c_str());
  return nullptr;
}

int translate(RbStatus S, const char *What) {
  switch (S) {
  case StatusSuccess:
    return rt::cudaSuccess;
  case StatusInvalidSize:
  case StatusInvalidValue:
  case StatusInvalidPointer:
    CUHIP_WARN("%s: rocBLAS refused the arguments (rocblas_status %d)", What,
               S);
    return rt::cudaErrorInvalidValue;
  case StatusMemoryError:
    return rt::cudaErrorMemoryAllocation;
  case StatusNotImplemented:
    CUHIP_WARN("%s: rocBLAS does not implement this combination", What);
    return rt::cudaErrorNotSupported;
  case StatusInvalidHandle:
  default:
    CUHIP_ERROR("%s failed in rocBLAS (rocblas_status %d)", What, S);
    return rt::cudaErrorUnknown;
  }
}

int missing(const char *Entry) {
  CUHIP_ERROR("the rocBLAS in use lacks %s: the cuBLAS call answers "
              "CUBLAS_STATUS_NOT_SUPPORTED (install a newer rocBLAS)",
              Entry);
  return rt::cudaErrorNotSupported;
}

RbEnum operation(Op T) {
  return T == Op::N   ? OperationNone
         : T == Op::T ? OperationTranspose
                      : OperationConjugateTranspose;
}

RbEnum datatype(DType T) {
  switch (T) {
  case DType::F32:
    return TypeF32;
  case DType::F64:
    return TypeF64;
  case DType::F16:
    return TypeF16;
  case DType::BF16:
    return TypeBF16;
  case DType::I8:
    return TypeI8;
  case DType::I32:
    return TypeI32;
  case DType::C32:
    return TypeC32;
  case DType::C64:
    return TypeC64;
  }
  return TypeF32;
}

RbEnum computeType(Compute C) {
  switch (C) {
  case Compute::F16:
    return TypeF16;
  case Compute::F64:
    return TypeF64;
  case Compute::I32:
    return TypeI32;
  case Compute::F32:
    break;
  }
  return TypeF32;
}

bool fits(int64_t V) { return V >= INT_MIN && V <= INT_MAX; }

/// Takes the lock, loads rocBLAS and points its handle at the stream and
/// pointer mode. Null when rocBLAS is absent (already logged).
struct Call {
  std::lock_guard<std::mutex> G{Lock};
  Api *A = nullptr;
  int Status = rt::cudaErrorNotSupported;
  Call(void *HipStream, bool OnDevice) {
    A = api();
    if (!A)
      return;
    Status = translate(A->SetStream(A->H, HipStream), "rocblas_set_stream");
    if (Status == rt::cudaSuccess)
      Status = translate(A->SetPointerMode(A->H, OnDevice ? PointerModeDevice
                                                          : PointerModeHost),
                         "rocblas_set_pointer_mode");
  }
};

int tooLarge(const char *What) {
  CUHIP_WARN("%s: a size, leading dimension or count beyond 2^31-1 is not "
             "supported by rocBLAS's 32-bit interface",
             What);
  return rt::cudaErrorNotSupported;
}

} // namespace

int gemm(const GemmDesc &G, void *HipStream) {
  if (!fits(G.M) || !fits(G.N) || !fits(G.K) || !fits(G.Lda) ||
      !fits(G.Ldb) || !fits(G.Ldc) || !fits(G.Ldd) || !fits(G.BatchCount))
    return tooLarge("GEMM");
  Call C(HipStream, G.ScalarsOnDevice);
  if (C.Status)
    return C.Status;
  Api &A = *C.A;
  const void *CMat = G.C ? G.C : G.D;
  if (G.AArray) {
    if (!A.GemmBatchedEx)
      return missing("rocblas_gemm_batched_ex");
    return translate(
        A.GemmBatchedEx(A.H, operation(G.TransA), operation(G.TransB), G.M,
                        G.N, G.K, G.Alpha, G.AArray, datatype(G.TypeA), G.Lda,
                        G.BArray, datatype(G.TypeB), G.Ldb, G.Beta,
                        G.CArray ? static_cast<const void *>(G.CArray)
                                 : static_cast<const void *>(G.DArray),
                        datatype(G.TypeC), G.Ldc,
                        const_cast<void **>(G.DArray), datatype(G.TypeD),
                        G.Ldd, G.BatchCount, computeType(G.ComputeType),
                        GemmAlgoStandard, 0, 0),
        "rocblas_gemm_batched_ex");
  }
  if (G.BatchCount != 1) {
    if (!A.GemmStridedBatchedEx)
      return missing("rocblas_gemm_strided_batched_ex");
    return translate(
        A.GemmStridedBatchedEx(
            A.H, operation(G.TransA), operation(G.TransB), G.M, G.N, G.K,
            G.Alpha, G.A, datatype(G.TypeA), G.Lda, G.StrideA, G.B,
            datatype(G.TypeB), G.Ldb, G.StrideB, G.Beta, CMat,
            datatype(G.TypeC), G.Ldc, G.C ? G.StrideC : G.StrideD, G.D,
            datatype(G.TypeD), G.Ldd, G.StrideD, G.BatchCount,
            computeType(G.ComputeType), GemmAlgoStandard, 0, 0),
        "rocblas_gemm_strided_batched_ex");
  }
  if (!A.GemmEx)
    return missing("rocblas_gemm_ex");
  return translate(A.GemmEx(A.H, operation(G.TransA), operation(G.TransB), G.M,
                            G.N, G.K, G.Alpha, G.A, datatype(G.TypeA), G.Lda,
                            G.B, datatype(G.TypeB), G.Ldb, G.Beta, CMat,
                            datatype(G.TypeC), G.Ldc, G.D, datatype(G.TypeD),
                            G.Ldd, computeType(G.ComputeType),
                            GemmAlgoStandard, 0, 0),
                   "rocblas_gemm_ex");
}

int vectorOp(const VectorDesc &V, void *HipStream) {
  if (!fits(V.N) || !fits(V.IncX) || !fits(V.IncY))
    return tooLarge("level-1 operation");
  Call C(HipStream, V.ScalarsOnDevice);
  if (C.Status)
    return C.Status;
  Api &A = *C.A;
  RbEnum X = datatype(V.XType), Y = datatype(V.YType),
         S = datatype(V.ScalarType), E = datatype(V.ExecType);
  switch (V.Kind) {
  case VectorOp::Axpy:
    if (!A.AxpyEx)
      return missing("rocblas_axpy_ex");
    return translate(A.AxpyEx(A.H, V.N, V.Alpha, S, V.X, X, V.IncX, V.Y, Y,
                              V.IncY, E),
                     "rocblas_axpy_ex");
  case VectorOp::Scal:
    if (!A.ScalEx)
      return missing("rocblas_scal_ex");
    return translate(A.ScalEx(A.H, V.N, V.Alpha, S, const_cast<void *>(V.X),
                              X, V.IncX, E),
                     "rocblas_scal_ex");
  case VectorOp::Dot:
    if (!A.DotEx)
      return missing("rocblas_dot_ex");
    return translate(A.DotEx(A.H, V.N, V.X, X, V.IncX, V.Y, Y, V.IncY,
                             V.Result, S, E),
                     "rocblas_dot_ex");
  case VectorOp::Nrm2:
    if (!A.Nrm2Ex)
      return missing("rocblas_nrm2_ex");
    return translate(A.Nrm2Ex(A.H, V.N, V.X, X, V.IncX, V.Result, S, E),
                     "rocblas_nrm2_ex");
  case VectorOp::Amax: {
    if (V.ResultIs64)
      return tooLarge("cublasI?amax_64");
    auto *R = static_cast<RbInt *>(V.Result);
    if (V.XType == DType::F32)
      return A.Isamax ? translate(A.Isamax(A.H, V.N,
                                           static_cast<const float *>(V.X),
                                           V.IncX, R),
                                  "rocblas_isamax")
                      : missing("rocblas_isamax");
    if (V.XType == DType::F64)
      return A.Idamax ? translate(A.Idamax(A.H, V.N,
                                           static_cast<const double *>(V.X),
                                           V.IncX, R),
                                  "rocblas_idamax")
                      : missing("rocblas_idamax");
    return missing("an amax for this type");
  }
  }
  return rt::cudaErrorNotSupported;
}

int gemv(const GemvDesc &G, void *HipStream) {
  if (!fits(G.M) || !fits(G.N) || !fits(G.Lda) || !fits(G.IncX) ||
      !fits(G.IncY))
    return tooLarge("GEMV");
  Call C(HipStream, G.ScalarsOnDevice);
  if (C.Status)
    return C.Status;
  Api &A = *C.A;
  if (G.Type == DType::F64)
    return A.Dgemv ? translate(A.Dgemv(A.H, operation(G.Trans), G.M, G.N,
                                       static_cast<const double *>(G.Alpha),
                                       static_cast<const double *>(G.A), G.Lda,
                                       static_cast<const double *>(G.X),
                                       G.IncX,
                                       static_cast<const double *>(G.Beta),
                                       static_cast<double *>(G.Y), G.IncY),
                               "rocblas_dgemv")
                   : missing("rocblas_dgemv");
  return A.Sgemv ? translate(A.Sgemv(A.H, operation(G.Trans), G.M, G.N,
                                     static_cast<const float *>(G.Alpha),
                                     static_cast<const float *>(G.A), G.Lda,
                                     static_cast<const float *>(G.X), G.IncX,
                                     static_cast<const float *>(G.Beta),
                                     static_cast<float *>(G.Y), G.IncY),
                             "rocblas_sgemv")
                 : missing("rocblas_sgemv");
}

void reset() {
  std::lock_guard<std::mutex> G(Lock);
  // The handle and library of a stand-in are left loaded: other threads may
  // hold their function pointers no longer than a call, which the lock
  // covers, but rocBLAS itself is never unloaded by the process either.
  Loaded = nullptr;
  Tried = false;
}

} // namespace cuhip::blas::rocblas
