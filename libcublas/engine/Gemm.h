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

#include "cuhip/runtime/HalfFloat.h"

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
/// functions, benchmarks and tests: no stream, no runtime. Desc must be one
/// gemmSupported accepts.
void gemmOnHost(const GemmDesc &Desc);

/// The scratch memory per buffer (bytes) the f16/bf16 path widens blocks
/// into: 32 MiB unless set (tests set it small to exercise the blocking;
/// 0 restores the default). Not thread-safe: set it before GEMMs run.
void setConversionBudget(int64_t Bytes);

/// Can the engine carry out Desc's combination of types and compute type?
/// If not, Why says which combination (for the API layers' log line). The
/// CPU backend does every real f16/bf16/f32/f64 combination whose compute
/// type is F16, F32 or F64 (F64 only with f64 data); integer and complex
/// GEMMs are not done.
bool gemmSupported(const GemmDesc &Desc, const char **Why);

// --- level 1 and 2 ----------------------------------------------------------

enum class VectorOp { Axpy, Scal, Dot, Nrm2, Amax };

/// One level-1 operation over strided vectors, BLAS semantics for the
/// increments (a negative one walks from the far end; Scal, Nrm2 and Amax
/// do nothing / give 0 for an increment <= 0). Element types: XType and
/// YType; the scalar Alpha (Axpy, Scal) and Result (Dot, Nrm2) are in
/// ScalarType; ExecType is what the arithmetic is done in (F32 or F64).
/// Amax writes the 1-based index of the first element of largest |x| into
/// Result, as an int32 (or int64 with ResultIs64); 0 for an empty vector.
struct VectorDesc {
  VectorOp Kind = VectorOp::Axpy;
  int64_t N = 0;
  DType XType = DType::F32, YType = DType::F32, ScalarType = DType::F32,
        ExecType = DType::F32;
  const void *X = nullptr;
  int64_t IncX = 1;
  void *Y = nullptr; // Axpy's output, Dot's second operand, Scal's vector
  int64_t IncY = 1;
  const void *Alpha = nullptr; // read when the operation runs
  void *Result = nullptr;
  bool ResultIs64 = false;
  // CUBLAS_POINTER_MODE_DEVICE: Alpha and Result are device memory.
  bool ScalarsOnDevice = false;
};

/// y = alpha * op(A) * x + beta * y, column-major A of M x N.
struct GemvDesc {
  Op Trans = Op::N;
  int64_t M = 0, N = 0;
  DType Type = DType::F32; // F32 or F64 for everything
  const void *A = nullptr;
  int64_t Lda = 0;
  const void *X = nullptr;
  int64_t IncX = 1;
  void *Y = nullptr;
  int64_t IncY = 1;
  const void *Alpha = nullptr, *Beta = nullptr;
  bool ScalarsOnDevice = false;
};

bool vectorSupported(const VectorDesc &Desc, const char **Why);
int vectorOp(const VectorDesc &Desc, void *Stream);
void vectorOpOnHost(const VectorDesc &Desc);
int gemv(const GemvDesc &Desc, void *Stream);
void gemvOnHost(const GemvDesc &Desc);

// --- the HIP backend's library ----------------------------------------------

/// rocBLAS, loaded with dlopen on first use: CUHIP_ROCBLAS_LIBRARY names an
/// exact file, else librocblas.so.4, .so.3, librocblas.so. Each call
/// enqueues on HipStream (a hipStream_t) and returns a cudaError_t-style
/// status: cudaErrorNotSupported (with a log line naming the library) when
/// rocBLAS is absent or lacks the entry point, cudaErrorInvalidValue for
/// what rocBLAS refuses. The gemm/vectorOp/gemv above call these on the HIP
/// backend; tests call them directly against a stand-in library.
namespace rocblas {
int gemm(const GemmDesc &Desc, void *HipStream);
int vectorOp(const VectorDesc &Desc, void *HipStream);
int gemv(const GemvDesc &Desc, void *HipStream);
/// Forgets the loaded library (tests switch stand-ins).
void reset();
} // namespace rocblas

// --- element conversions (round to nearest even) ------------------------------

// The runtime's (cuhip/runtime/HalfFloat.h), under the engine's names.
using cuhip::bf16ToFloat;
using cuhip::floatToBf16;
using cuhip::floatToHalf;
using cuhip::halfToFloat;
/// Size in bytes of one element; 0 for a type the engine does not know.
unsigned dtypeSize(DType T);

} // namespace cuhip::blas
