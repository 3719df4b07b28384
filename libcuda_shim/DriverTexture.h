//===- DriverTexture.h - cuMemcpy2D/3D's array operands -------------------===//
#pragma once

#include "DriverExport.h"

namespace cuhip::cuda {

/// cuMemcpy2D/3D (DriverMemory.cpp) where a side is CU_MEMORYTYPE_ARRAY:
/// the copy through the core's array copy (DriverTexture.cpp). Async says
/// whether Stream is a stream to enqueue on.
CUresult copyWithArrays(const CUDA_MEMCPY3D &C, void *Stream, bool Async);

} // namespace cuhip::cuda
