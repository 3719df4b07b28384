//===- AmdgpuMath.h - Math functions through the ROCm device libraries ----===//
//
// The transcendental intrinsics of the target-neutral IR (llvm.sin, cos,
// exp2, log2, tanh) have no exact AMDGPU lowering in the backend for f64;
// they become calls to ROCm's ocml, which is linked in from the
// rocm-device-libs bitcode with the control constants set for the target.
// The same linking brings in ockl for printf and assert (AmdgpuPrintf.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CUHIP_PTX_AMDGPU_AMDGPUMATH_H
#define CUHIP_PTX_AMDGPU_AMDGPUMATH_H

#include "llvm/Support/Error.h"

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace cuhip::ptx::amdgpu {

struct Target;

/// If CB calls a math intrinsic that ocml implements for its type, replaces
/// it with a call to the __ocml_* function and returns true.
bool lowerMathCall(llvm::CallBase &CB);

/// Links the ocml and ockl functions M calls (only those, internalized) and
/// the __oclc_* control constants they read, set for T, into M. M must
/// already have its AMDGPU triple and data layout. A no-op when M calls
/// neither library.
llvm::Error linkDeviceLibraries(llvm::Module &M, const Target &T);

} // namespace cuhip::ptx::amdgpu

#endif
