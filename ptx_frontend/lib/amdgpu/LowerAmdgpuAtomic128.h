//===- LowerAmdgpuAtomic128.h - 128-bit atomics for the AMDGPU target -----===//
//
// PTX's atom.cas.b128 and atom.exch.b128 become `cmpxchg i128` and
// `atomicrmw xchg i128` in the target-neutral IR; no AMDGPU target has a
// 128-bit atomic instruction, so LowerToAmdgpu.cpp hands them here.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace llvm {
class Function;
} // namespace llvm

namespace cuhip::ptx::amdgpu {

/// Replaces every 128-bit cmpxchg and atomicrmw xchg in F by a critical
/// section under a spin lock; returns the number replaced.
unsigned lowerAtomics128(llvm::Function &F);

} // namespace cuhip::ptx::amdgpu
