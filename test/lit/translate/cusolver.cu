// cuSOLVER's dense API becomes hipSOLVER's cuSOLVER-compatible API
// (hipsolverDn*): handle, stream, LU, Cholesky, SVD and symmetric
// eigensolver calls with their buffer-size queries. cuSOLVER's fill-mode and
// operation arguments are cuBLAS enumerators, which become hipBLAS's; the
// row notes tell the user to write hipSOLVER's own there.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err

#include <cusolverDn.h>
// CHECK: {{^ *}}#include <hipsolver/hipsolver.h>

int factor(double *A, double *W, double *work, int *ipiv, int *info, int n,
           cudaStream_t s) {
  cusolverDnHandle_t h;
  // CHECK: {{^ *}}hipsolverDnHandle_t h;
  if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
    return 1;
  cusolverDnSetStream(h, s);
  // CHECK: {{^ *}}if (hipsolverDnCreate(&h) != HIPSOLVER_STATUS_SUCCESS)
  // CHECK: {{^ *}}hipsolverDnSetStream(h, s);
  int lwork = 0;
  cusolverDnDgetrf_bufferSize(h, n, n, A, n, &lwork);
  cusolverDnDgetrf(h, n, n, A, n, work, ipiv, info);
  cusolverDnDgetrs(h, CUBLAS_OP_N, n, 1, A, n, ipiv, W, n, info);
  // CHECK: {{^ *}}hipsolverDnDgetrf_bufferSize(h, n, n, A, n, &lwork);
  // CHECK: {{^ *}}hipsolverDnDgetrf(h, n, n, A, n, work, ipiv, info);
  // CHECK: {{^ *}}hipsolverDnDgetrs(h, HIPBLAS_OP_N, n, 1, A, n, ipiv, W, n, info);
  cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  // CHECK: {{^ *}}hipsolverDnDpotrf(h, HIPBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  cusolverDnDsyevd_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER,
                              n, A, n, W, &lwork);
  cusolverDnDsyevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, A, n,
                   W, work, lwork, info);
  // CHECK: {{^ *}}hipsolverDnDsyevd_bufferSize(h, HIPSOLVER_EIG_MODE_VECTOR, HIPBLAS_FILL_MODE_UPPER,
  // CHECK: {{^ *}}hipsolverDnDsyevd(h, HIPSOLVER_EIG_MODE_VECTOR, HIPBLAS_FILL_MODE_UPPER, n, A, n,
  cusolverDnDgesvd_bufferSize(h, n, n, &lwork);
  // CHECK: {{^ *}}hipsolverDnDgesvd_bufferSize(h, n, n, &lwork);
  cusolverDnDestroy(h);
  // CHECK: {{^ *}}hipsolverDnDestroy(h);
  return 0;
}
// The note on the row is part of the table; the call itself is renamed.
// DIAG-NOT: warning
