//===- ApiCommon.h - What libcublas's and libcublasLt's API layers share --===//
//
// The answers both libraries give the same way: a status's name, a version
// number split into libraryPropertyType parts, and the cudaDataType to
// engine element type translation. Each API layer keeps its own checks of
// which types a routine accepts and its own log messages.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CublasCommonTypes.h"

#include "Gemm.h"

namespace cuhip::blas {

/// cublasGetStatusName's answer: the enumerator's name.
const char *statusName(cublasStatus_t S);

/// One part of a MAJOR*10000 + MINOR*100 + PATCH version number; false for a
/// type that is none of MAJOR_VERSION, MINOR_VERSION and PATCH_LEVEL.
bool versionProperty(libraryPropertyType Type, int Version, int &Out);

/// The engine's element type for a cudaDataType; false for one the engine
/// has no type for.
bool dtypeOf(int32_t T, DType &Out);

} // namespace cuhip::blas
