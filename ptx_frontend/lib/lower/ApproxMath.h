//===- ApproxMath.h - Inline f64 sequences for the .approx functions ------===//
//
// Branch-free, call-free f64 IR for ex2, lg2, sin, cos and tanh, the
// transcendentals behind PTX's .approx instructions. Each takes and returns
// an f64; the caller widens its operand and rounds the result once to the
// destination format. The sequences are accurate to far better than the
// ISA's bounds (see ApproxMath.cpp), use only arithmetic, fma, roundeven
// and integer bit manipulation, and so vectorize on the CPU target.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/IRBuilder.h"

namespace cuhip::ptx::lower {

/// 2^X. X may be any f64 that widens an f32, f16 or bf16 value.
llvm::Value *emitApproxExp2(llvm::IRBuilder<> &B, llvm::Value *X);

/// log2(X) for X widened from f32 (so X is never an f64 subnormal).
llvm::Value *emitApproxLog2(llvm::IRBuilder<> &B, llvm::Value *X);

/// sin(X) or cos(X) for X widened from f32 (its significand has at most 24
/// bits, which the reduction of huge arguments relies on).
llvm::Value *emitApproxSinCos(llvm::IRBuilder<> &B, llvm::Value *X, bool Cos);

/// tanh(X). X may be any f64 that widens an f32, f16 or bf16 value.
llvm::Value *emitApproxTanh(llvm::IRBuilder<> &B, llvm::Value *X);

} // namespace cuhip::ptx::lower
