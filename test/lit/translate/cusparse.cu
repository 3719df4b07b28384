// cuSPARSE's generic API becomes hipSPARSE's: the handle, sparse and dense
// descriptors, SpMV/SpMM with their buffer queries, and the enumerators,
// with cudaDataType's values as hipDataType's. The translated file compiles
// against Debian's hipSPARSE (cusparse-compile.test).
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err

#include <cuda_runtime.h>
#include <cusparse.h>
// CHECK: {{^ *}}#include <hipsparse/hipsparse.h>

#define SPARSE_OK(call) ((call) == CUSPARSE_STATUS_SUCCESS)
// CHECK: {{^ *}}#define SPARSE_OK(call) ((call) == HIPSPARSE_STATUS_SUCCESS)

int spmv(int rows, int cols, int nnz, int *rowPtr, int *colInd, float *vals,
         float *x, float *y, float *B, float *C, cudaStream_t s) {
  cusparseHandle_t h;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  cusparseDnMatDescr_t mb, mc;
  // CHECK: {{^ *}}hipsparseHandle_t h;
  // CHECK: {{^ *}}hipsparseSpMatDescr_t A;
  // CHECK: {{^ *}}hipsparseDnVecDescr_t vx, vy;
  // CHECK: {{^ *}}hipsparseDnMatDescr_t mb, mc;
  if (!SPARSE_OK(cusparseCreate(&h)))
    return 1;
  cusparseSetStream(h, s);
  // CHECK: {{^ *}}if (!SPARSE_OK(hipsparseCreate(&h)))
  // CHECK: {{^ *}}hipsparseSetStream(h, s);
  cusparseCreateCsr(&A, rows, cols, nnz, rowPtr, colInd, vals,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  // CHECK: {{^ *}}hipsparseCreateCsr(&A, rows, cols, nnz, rowPtr, colInd, vals,
  // CHECK-NEXT: {{^ *}}HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
  // CHECK-NEXT: {{^ *}}HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F);
  cusparseCreateDnVec(&vx, cols, x, CUDA_R_32F);
  cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F);
  // CHECK: {{^ *}}hipsparseCreateDnVec(&vx, cols, x, HIP_R_32F);
  float one = 1.0f, zero = 0.0f;
  size_t size = 0;
  void *buffer = nullptr;
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx,
                          &zero, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                          &size);
  // CHECK: {{^ *}}hipsparseSpMV_bufferSize(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx,
  // CHECK-NEXT: {{^ *}}&zero, vy, HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT,
  cudaMalloc(&buffer, size);
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  // CHECK: {{^ *}}hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy,
  // CHECK-NEXT: {{^ *}}HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseCreateDnMat(&mb, cols, 8, cols, B, CUDA_R_32F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&mc, rows, 8, rows, C, CUDA_R_32F, CUSPARSE_ORDER_COL);
  // CHECK: {{^ *}}hipsparseCreateDnMat(&mb, cols, 8, cols, B, HIP_R_32F, HIPSPARSE_ORDER_COLUMN);
  cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
               CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, mb, &zero, mc,
               CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
  // CHECK: {{^ *}}hipsparseSpMM(h, HIPSPARSE_OPERATION_NON_TRANSPOSE,
  // CHECK-NEXT: {{^ *}}HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, A, mb, &zero, mc,
  // CHECK-NEXT: {{^ *}}HIP_R_32F, HIPSPARSE_SPMM_ALG_DEFAULT, buffer);
  cusparseDestroyDnMat(mb);
  cusparseDestroyDnMat(mc);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroySpMat(A);
  cusparseDestroy(h);
  // CHECK: {{^ *}}hipsparseDestroySpMat(A);
  // CHECK: {{^ *}}hipsparseDestroy(h);
  cudaFree(buffer);
  return 0;
}
// DIAG-NOT: warning
