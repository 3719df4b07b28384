//===- ArrayCopy.h - cudaMemcpy3D's array operands ------------------------===//
#pragma once

#include "Export.h"

namespace cuhip::cudart {

/// cudaMemcpy3D(Async) where the source or the destination is an array
/// (TextureApi.cpp); P is checked for null and for sides that name both an
/// array and a pointer.
cudaError_t memcpy3DWithArrays(const cudaMemcpy3DParms *P, cudaStream_t Stream,
                               bool Async);

} // namespace cuhip::cudart
