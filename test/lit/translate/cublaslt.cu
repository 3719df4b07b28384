// cuBLASLt becomes hipBLASLt (first shipped with ROCm 5.5): handle, matmul
// descriptors, layouts, preferences, the heuristic query and the epilogues.
// GELU_AUX and the bias-gradient epilogues are in hipBLASLt from ROCm 6.0.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 6.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err
// RUN: %cuhip translate %s --hip-version 5.7 --cuda-path %cuda_path -o %t.57.hip 2>%t.57.err
// RUN: FileCheck --check-prefix=DIAG57 %s < %t.57.err

#include <cublasLt.h>
// CHECK: {{^ *}}#include <hipblaslt/hipblaslt.h>

int matmul(cublasLtHandle_t lt, const float *a, const float *b, float *d,
           const float *bias, void *aux, int n, void *ws, size_t wsSize) {
  // CHECK: {{^ *}}int matmul(hipblasLtHandle_t lt, const float *a, const float *b, float *d,
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatmulPreference_t pref;
  // CHECK: {{^ *}}hipblasLtMatmulDesc_t op;
  // CHECK: {{^ *}}hipblasLtMatrixLayout_t la, lb, ld;
  // CHECK: {{^ *}}hipblasLtMatmulPreference_t pref;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  // CHECK: {{^ *}}hipblasLtMatmulDescCreate(&op, HIPBLAS_COMPUTE_32F, HIP_R_32F);
  cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_GELU_AUX;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &aux, sizeof(aux));
  // CHECK: {{^ *}}hipblasLtEpilogue_t epi = HIPBLASLT_EPILOGUE_GELU_AUX;
  // CHECK: {{^ *}}hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
  // CHECK: {{^ *}}hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
  // CHECK: {{^ *}}hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &aux, sizeof(aux));
  cublasLtEpilogue_t others[] = {CUBLASLT_EPILOGUE_BIAS, CUBLASLT_EPILOGUE_GELU,
                                 CUBLASLT_EPILOGUE_BGRADB};
  // CHECK: {{^ *}}hipblasLtEpilogue_t others[] = {HIPBLASLT_EPILOGUE_BIAS, HIPBLASLT_EPILOGUE_GELU,
  // CHECK-NEXT: {{^ *}}HIPBLASLT_EPILOGUE_BGRADB};
  cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, n, n, n);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, n, n, n);
  cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, n, n, n);
  // CHECK: {{^ *}}hipblasLtMatrixLayoutCreate(&la, HIP_R_32F, n, n, n);
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                       &wsSize, sizeof(wsSize));
  // CHECK: {{^ *}}hipblasLtMatmulPreferenceCreate(&pref);
  // CHECK: {{^ *}}hipblasLtMatmulPreferenceSetAttribute(pref, HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, ld, ld, pref, 1, &result, &found);
  // CHECK: {{^ *}}hipblasLtMatmulHeuristicResult_t result;
  // CHECK: {{^ *}}hipblasLtMatmulAlgoGetHeuristic(lt, op, la, lb, ld, ld, pref, 1, &result, &found);
  float one = 1.0f, zero = 0.0f;
  cublasLtMatmul(lt, op, &one, a, la, b, lb, &zero, d, ld, d, ld, &result.algo,
                 ws, wsSize, 0);
  // CHECK: {{^ *}}hipblasLtMatmul(lt, op, &one, a, la, b, lb, &zero, d, ld, d, ld, &result.algo,
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatmulDescDestroy(op);
  // CHECK: {{^ *}}hipblasLtMatmulPreferenceDestroy(pref);
  // CHECK: {{^ *}}hipblasLtMatrixLayoutDestroy(la);
  // CHECK: {{^ *}}hipblasLtMatmulDescDestroy(op);
  return found + int(others[0]);
}
// DIAG-NOT: warning
// DIAG57: warning: 'HIPBLASLT_EPILOGUE_GELU_AUX' (for 'CUBLASLT_EPILOGUE_GELU_AUX') needs HIP 6.0; the target HIP is 5.7
// DIAG57-NOT: 'HIPBLASLT_EPILOGUE_BIAS'
// DIAG57: warning: 'HIPBLASLT_EPILOGUE_BGRADB' (for 'CUBLASLT_EPILOGUE_BGRADB') needs HIP 6.0
