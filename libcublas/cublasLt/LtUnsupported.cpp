//===- LtUnsupported.cpp - cuBLASLt entry points cuhip does not implement -===//
//
// Matrix transforms, emulation descriptors and the low-level algorithm API
// (enumerating, configuring and checking algorithms by id) are not needed by
// the programs cuhip targets: cublasLtMatmulAlgoGetHeuristic's one algorithm
// serves every matmul. They are exported so that programs linked against
// NVIDIA's library load, and answer CUBLAS_STATUS_NOT_SUPPORTED with a log
// line. Each is declared without parameters: it reads none of its arguments,
// which the C calling convention makes safe for any argument list
// (scripts/check-export-signatures.py accepts that for this file).
//
//===----------------------------------------------------------------------===//
#include "LtState.h"

#define CUHIP_LT_UNSUPPORTED(Name, What)                                       \
  CUHIP_LT_EXPORT cublasStatus_t Name() {                                      \
    return cuhip::blaslt::ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, #Name,         \
                                   "%s; use cublasLtMatmul with the "          \
                                   "algorithm cublasLtMatmulAlgoGetHeuristic " \
                                   "returns",                                  \
                                   What);                                      \
  }

CUHIP_LT_UNSUPPORTED(cublasLtMatrixTransform, "matrix transforms are not done")
CUHIP_LT_UNSUPPORTED(cublasLtMatrixTransformDescInit_internal,
                     "matrix transforms are not done")
CUHIP_LT_UNSUPPORTED(cublasLtMatrixTransformDescCreate,
                     "matrix transforms are not done")
CUHIP_LT_UNSUPPORTED(cublasLtMatrixTransformDescDestroy,
                     "matrix transforms are not done")
CUHIP_LT_UNSUPPORTED(cublasLtMatrixTransformDescSetAttribute,
                     "matrix transforms are not done")
CUHIP_LT_UNSUPPORTED(cublasLtMatrixTransformDescGetAttribute,
                     "matrix transforms are not done")
CUHIP_LT_UNSUPPORTED(cublasLtEmulationDescInit_internal,
                     "floating-point emulation is not done")
CUHIP_LT_UNSUPPORTED(cublasLtEmulationDescCreate,
                     "floating-point emulation is not done")
CUHIP_LT_UNSUPPORTED(cublasLtEmulationDescDestroy,
                     "floating-point emulation is not done")
CUHIP_LT_UNSUPPORTED(cublasLtEmulationDescSetAttribute,
                     "floating-point emulation is not done")
CUHIP_LT_UNSUPPORTED(cublasLtEmulationDescGetAttribute,
                     "floating-point emulation is not done")
CUHIP_LT_UNSUPPORTED(cublasLtMatmulAlgoGetIds,
                     "algorithms are not enumerated by id")
CUHIP_LT_UNSUPPORTED(cublasLtMatmulAlgoInit,
                     "algorithms are not configured by id")
CUHIP_LT_UNSUPPORTED(cublasLtMatmulAlgoCheck, "algorithms are not checked")
CUHIP_LT_UNSUPPORTED(cublasLtMatmulAlgoCapGetAttribute,
                     "algorithm capabilities are not reported")
CUHIP_LT_UNSUPPORTED(cublasLtMatmulAlgoConfigSetAttribute,
                     "algorithms are not configured")
CUHIP_LT_UNSUPPORTED(cublasLtMatmulAlgoConfigGetAttribute,
                     "algorithms are not configured")
