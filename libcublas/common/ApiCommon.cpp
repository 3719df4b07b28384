//===- ApiCommon.cpp - What libcublas's and libcublasLt's API layers share ===//
//
// See ApiCommon.h.
//
//===----------------------------------------------------------------------===//
#include "ApiCommon.h"

namespace cuhip::blas {

const char *statusName(cublasStatus_t S) {
  switch (S) {
#define NAME(S)                                                                \
  case S:                                                                      \
    return #S;
    NAME(CUBLAS_STATUS_SUCCESS)
    NAME(CUBLAS_STATUS_NOT_INITIALIZED)
    NAME(CUBLAS_STATUS_ALLOC_FAILED)
    NAME(CUBLAS_STATUS_INVALID_VALUE)
    NAME(CUBLAS_STATUS_ARCH_MISMATCH)
    NAME(CUBLAS_STATUS_MAPPING_ERROR)
    NAME(CUBLAS_STATUS_EXECUTION_FAILED)
    NAME(CUBLAS_STATUS_INTERNAL_ERROR)
    NAME(CUBLAS_STATUS_NOT_SUPPORTED)
    NAME(CUBLAS_STATUS_LICENSE_ERROR)
#undef NAME
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

bool versionProperty(libraryPropertyType Type, int Version, int &Out) {
  switch (Type) {
  case MAJOR_VERSION:
    Out = Version / 10000;
    return true;
  case MINOR_VERSION:
    Out = Version / 100 % 100;
    return true;
  case PATCH_LEVEL:
    Out = Version % 100;
    return true;
  }
  return false;
}

bool dtypeOf(int32_t T, DType &Out) {
  switch (T) {
  case CUDA_R_32F:
    Out = DType::F32;
    return true;
  case CUDA_R_64F:
    Out = DType::F64;
    return true;
  case CUDA_R_16F:
    Out = DType::F16;
    return true;
  case CUDA_R_16BF:
    Out = DType::BF16;
    return true;
  case CUDA_R_8I:
    Out = DType::I8;
    return true;
  case CUDA_R_32I:
    Out = DType::I32;
    return true;
  case CUDA_C_32F:
    Out = DType::C32;
    return true;
  case CUDA_C_64F:
    Out = DType::C64;
    return true;
  default:
    return false;
  }
}

} // namespace cuhip::blas
