//===- Unsupported.cpp - cuBLAS entry points cuhip does not implement ----===//
//
// Exported so that programs and libraries linked against NVIDIA's
// libcublas load; each answers CUBLAS_STATUS_NOT_SUPPORTED and says so in
// the log once. The bdmm and backdoor entry points are undocumented (no
// header declares them), so they are declared without parameters and read
// none of their arguments, which the C calling convention makes safe for
// any argument list. cublasUint8gemmBias is declared in cublas_api.h but
// not documented.
//
//===----------------------------------------------------------------------===//
#include "BlasCall.h"

using namespace cuhip::cublas;

#define UNDOCUMENTED(NAME)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME() {                                         \
    return notImplemented(#NAME, "an undocumented entry point");               \
  }
UNDOCUMENTED(cublasSbdmm)
UNDOCUMENTED(cublasDbdmm)
UNDOCUMENTED(cublasCbdmm)
UNDOCUMENTED(cublasZbdmm)
UNDOCUMENTED(cublasGetBackdoor)
UNDOCUMENTED(cublasSetBackdoor)
UNDOCUMENTED(cublasSetBackdoorEx)
#undef UNDOCUMENTED

CUHIP_EXPORT cublasStatus_t cublasUint8gemmBias(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
    cublasOperation_t transc, int m, int n, int k, const unsigned char *A,
    int A_bias, int lda, const unsigned char *B, int B_bias, int ldb,
    unsigned char *C, int C_bias, int ldc, int C_mult, int C_shift) {
  return notImplemented("cublasUint8gemmBias",
                        "integer GEMMs are not implemented");
}
