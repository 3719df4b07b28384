//===- LowerAmdgpuWarp.h - Warp collectives for the AMDGPU target ---------===//
//
// The entry point LowerToAmdgpu.cpp uses to replace one NVVM warp-collective
// call (shfl, vote, activemask, elect, match, redux, bar.warp.sync) of the
// target-neutral IR by amdgcn code acting on the 32-lane CUDA warp: the whole
// wavefront on wave32 targets, the lane's half of it on wave64 targets.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/AmdgpuTarget.h"

namespace llvm {
class CallBase;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace cuhip::ptx::amdgpu {

/// Lowers CB and erases it if it is a warp collective this target
/// implements; returns false (leaving CB alone) otherwise.
bool lowerWarpCollective(llvm::CallBase &CB, const Target &T);

/// The lane's index in its wavefront (0-31 or 0-63), from mbcnt; shared
/// with the matrix lowering (LowerAmdgpuMatrix.cpp).
llvm::Value *emitLaneInWave(llvm::IRBuilderBase &B, bool Wave64);

/// The ballot of P over the active lanes of the 32-lane warp whose first
/// wavefront lane is Base (0, or 32 in the upper half on wave64), as a
/// 32-bit mask (bit i = lane i of the warp); shared with the barriers.
llvm::Value *emitWarpBallot(llvm::IRBuilderBase &B, bool Wave64,
                            llvm::Value *P, llvm::Value *Base);

} // namespace cuhip::ptx::amdgpu
