//===- LowerAmdgpuMatrix.h - Matrix instructions for the AMDGPU target ----===//
//
// The entry point LowerToAmdgpu.cpp uses to replace one warp-level matrix
// call of the target-neutral IR (ldmatrix, stmatrix, mma, wmma.load/store/
// mma: llvm.nvvm.* or cuhip.*, see LowerMatrix.cpp) by amdgcn code that
// gives the CPU backend's results exactly.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/AmdgpuTarget.h"

namespace llvm {
class CallBase;
} // namespace llvm

namespace cuhip::ptx::amdgpu {

/// Lowers CB and erases it if it is a matrix instruction; returns false
/// (leaving CB alone) otherwise.
bool lowerMatrixInstruction(llvm::CallBase &CB, const Target &T);

} // namespace cuhip::ptx::amdgpu
