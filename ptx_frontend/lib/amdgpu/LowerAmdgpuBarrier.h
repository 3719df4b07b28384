//===- LowerAmdgpuBarrier.h - PTX CTA barriers for the AMDGPU target ------===//
//
// The entry points LowerToAmdgpu.cpp uses for the PTX barriers other than a
// plain `bar.sync 0`: counted and numbered bar.sync/barrier.sync, bar.arrive
// and bar.red, implemented with a small barrier state in LDS (see
// LowerAmdgpuBarrier.cpp), and the initialisation of that state in the
// kernels that use it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/AmdgpuTarget.h"

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace cuhip::ptx::amdgpu {

/// Lowers CB and erases it if it is a CTA barrier this file implements;
/// returns false (leaving CB alone) otherwise, in particular for a plain
/// `bar.sync 0`, which LowerToAmdgpu.cpp lowers to s_barrier.
bool lowerCtaBarrier(llvm::CallBase &CB, const Target &T);

/// After every function is lowered: if the module has the LDS barrier
/// state, makes each kernel that can reach it (directly or through calls)
/// clear it at entry, followed by a workgroup barrier.
void initCtaBarrierState(llvm::Module &M);

} // namespace cuhip::ptx::amdgpu
