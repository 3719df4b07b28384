// cuBLAS becomes hipBLAS: the handle, the level-1/2/3 calls (written with
// cublas_v2.h's short names, which are macros for the *_v2 functions), the
// enumerators and library_types.h's data types. cublasGemmEx's hipBLAS form
// with hipDataType and hipblasComputeType_t arguments is hipBLAS's v2 API
// (ROCm 6.0), so for HIP 5.2 the names are renamed and reported.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 6.2 --cuda-path %cuda_path 2>%t.62.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG62 --allow-empty %s < %t.62.err
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path -o %t.52.hip 2>%t.52.err
// RUN: FileCheck --check-prefix=DIAG52 %s < %t.52.err

#include <cublas_v2.h>
// CHECK: {{^ *}}#include <hipblas/hipblas.h>
#include <cuda_runtime.h>

#define BLAS_OK(call) ((call) == CUBLAS_STATUS_SUCCESS)
// CHECK: {{^ *}}#define BLAS_OK(call) ((call) == HIPBLAS_STATUS_SUCCESS)

int gemm(const float *a, const float *b, float *c, int n, cudaStream_t s) {
  cublasHandle_t h;
  // CHECK: {{^ *}}hipblasHandle_t h;
  if (!BLAS_OK(cublasCreate(&h)))
    return 1;
  // CHECK: {{^ *}}if (!BLAS_OK(hipblasCreate(&h)))
  cublasSetStream(h, s);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  // CHECK: {{^ *}}hipblasSetStream(h, s);
  // CHECK: {{^ *}}hipblasSetPointerMode(h, HIPBLAS_POINTER_MODE_HOST);
  float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha,
                                  a, n, b, n, &beta, c, n);
  // CHECK: {{^ *}}hipblasStatus_t st = hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n, &alpha,
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n,
                            n * n, b, n, n * n, &beta, c, n, n * n, 4);
  // CHECK: {{^ *}}hipblasSgemmStridedBatched(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &alpha, a, n,
  st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_32F,
                    n, b, CUDA_R_32F, n, &beta, c, CUDA_R_32F, n,
                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  // CHECK: {{^ *}}st = hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &alpha, a, HIP_R_32F,
  // CHECK-NEXT: {{^ *}}n, b, HIP_R_32F, n, &beta, c, HIP_R_32F, n,
  // CHECK-NEXT: {{^ *}}HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
  cublasSaxpy(h, n, &alpha, a, 1, c, 1);
  cublasSgemv(h, CUBLAS_OP_N, n, n, &alpha, a, n, b, 1, &beta, c, 1);
  // CHECK: {{^ *}}hipblasSaxpy(h, n, &alpha, a, 1, c, 1);
  // CHECK: {{^ *}}hipblasSgemv(h, HIPBLAS_OP_N, n, n, &alpha, a, n, b, 1, &beta, c, 1);
  int best;
  float norm;
  cublasIsamax(h, n, a, 1, &best);
  cublasSnrm2(h, n, a, 1, &norm);
  // CHECK: {{^ *}}hipblasIsamax(h, n, a, 1, &best);
  // CHECK: {{^ *}}hipblasSnrm2(h, n, a, 1, &norm);
  cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
  // CHECK: {{^ *}}hipblasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
  cublasDestroy(h);
  // CHECK: {{^ *}}hipblasDestroy(h);
  return st;
}

// The 64-bit level-3 call exists from hipBLAS 2.2 (ROCm 6.2).
int gemm64(cublasHandle_t h, const double *a, double *c, int64_t n) {
  double one = 1.0;
  return cublasDgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
                        &one, c, n);
  // CHECK: {{^ *}}return hipblasDgemm_64(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, a, n,
}

// DIAG62: cublas.cu:52:24: warning: 'CUBLAS_TENSOR_OP_MATH' has no HIP counterpart: deprecated in CUDA 11; {{.*}} [cuhip-unsupported]
// DIAG62-NOT: hip-version
// DIAG52: warning: 'hipblasGemmEx' (for 'cublasGemmEx') needs HIP 6.0; the target HIP is 5.2: {{.*}}HIPBLAS_V2{{.*}} [cuhip-hip-version]
// DIAG52: warning: 'HIPBLAS_COMPUTE_32F' (for 'CUBLAS_COMPUTE_32F') needs HIP 6.0
// DIAG52: warning: 'hipblasSetMathMode' (for 'cublasSetMathMode') needs HIP 6.1
// DIAG52: warning: 'hipblasDgemm_64' (for 'cublasDgemm_64') needs HIP 6.2
