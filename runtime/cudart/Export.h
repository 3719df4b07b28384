//===- Export.h - Shared bits of the libcudart drop-in --------------------===//
#pragma once

#include "CudaRuntimeTypes.h"

#include "cuhip/runtime/Runtime.h"

#define CUHIP_EXPORT extern "C" __attribute__((visibility("default")))

namespace cuhip::cudart {

inline rt::Runtime &runtime() { return rt::Runtime::get(); }
inline rt::Dim3 toDim3(dim3 D) { return {D.x, D.y, D.z}; }

} // namespace cuhip::cudart
