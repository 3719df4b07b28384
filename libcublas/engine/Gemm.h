//===- Gemm.h - The matrix-multiply engine behind cuBLAS and cuBLASLt ----===//
//
// One engine serves cuhip's libcublas and libcublasLt: a column-major GEMM
// description in CUDA's terms (types, transposes, leading dimensions, batch
// strides, scalars) that the CPU backend carries out with OpenBLAS (f32 and
// f64 directly; f16/bf16 through f32 with conversion, as the compute type
// says) and the HIP backend forwards to rocBLAS. The API layers only check
// arguments and translate enums; the engine does the work on the stream's
// order (Runtime::streamAddHostFunc on the CPU backend).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace cuhip::blas {

/// Element types, as library_types.h's cudaDataType numbers name them.
enum class DType : int {
  F32 = 0,  // CUDA_R_32F
  F64 = 1,  // CUDA_R_64F
  F16 = 2,  // CUDA_R_16F
  I8 = 3,   // CUDA_R_8I
  C32 = 4,  // CUDA_C_32F
  C64 = 5,  // CUDA_C_64F
  I32 = 10, // CUDA_R_32I
  BF16 = 14 // CUDA_R_16BF
};

/// What the products and sums are computed in (cublasComputeType_t's
/// meaning, reduced to what changes the result on a CPU).
enum class Compute {
  F16,  // CUBLAS_COMPUTE_16F: accumulate in half (rounded per K-block)
  F32,  // CUBLAS_COMPUTE_32F and its _FAST_16F/_FAST_16BF/_FAST_TF32
  F64,  // CUBLAS_COMPUTE_64F
  I32   // CUBLAS_COMPUTE_32I
};

enum class Op { N, T, C };

/// D = alpha * op(A) * op(B) + beta * C, column-major, per batch entry.
/// Pointers are device pointers of the runtime (host-addressable on the CPU
/// backend). C and D may be the same matrix (cuBLAS always has D == C).
struct GemmDesc {
  Op TransA = Op::N, TransB = Op::N;
  int64_t M = 0, N = 0, K = 0;
  DType TypeA = DType::F32, TypeB = DType::F32, TypeC = DType::F32,
        TypeD = DType::F32;
  Compute ComputeType = Compute::F32;
  const void *A = nullptr, *B = nullptr, *C = nullptr;
  void *D = nullptr;
  int64_t Lda = 0, Ldb = 0, Ldc = 0, Ldd = 0;
  // Batches: either strided (Stride* in elements) or arrays of pointers
  // (the *Array fields, each BatchCount long, device memory).
  int64_t BatchCount = 1;
  int64_t StrideA = 0, StrideB = 0, StrideC = 0, StrideD = 0;
  const void *const *AArray = nullptr, *const *BArray = nullptr,
                    *const *CArray = nullptr;
  void *const *DArray = nullptr;
  // Scalars in the compute type's host representation, read when the
  // operation runs: host pointers, or device pointers with ScalarsOnDevice
  // (CUBLAS_POINTER_MODE_DEVICE).
  const void *Alpha = nullptr, *Beta = nullptr;
  bool ScalarsOnDevice = false;
};

/// Carries out Desc on the runtime's current backend, ordered on Stream (a
/// cudaStream_t). Returns a cudaError_t-style status of the runtime
/// (cuhip::rt::Status); the API layers turn it into cublasStatus_t.
int gemm(const GemmDesc &Desc, void *Stream);

/// The same synchronously on host memory, for the CPU backend's host
/// functions, benchmarks and tests: no stream, no runtime.
void gemmOnHost(const GemmDesc &Desc);

} // namespace cuhip::blas
