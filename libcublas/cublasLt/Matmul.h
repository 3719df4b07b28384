//===- Matmul.h - cublasLtMatmul as one resolved, checked problem ---------===//
//
// The API layer turns a matmul descriptor and four layouts into a
// MatmulProblem: everything checked, every enum translated, nothing left to
// decide. runOnHost carries it out on host-addressable memory with the GEMM
// engine (libcublas/engine/Gemm.h) and cuBLASLt's epilogues; the CPU
// backend calls it from a host function ordered on the program's stream.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CublasLtTypes.h"
#include "LtState.h"

#include "../engine/Gemm.h"

#include <cstdint>

namespace cuhip::blaslt {

/// One matrix of the problem: where it is and how it is stored.
struct MatrixRef {
  const void *Ptr = nullptr;
  blas::DType Type = blas::DType::F32;
  bool RowMajor = false;
  int64_t Rows = 0, Cols = 0, Ld = 0, BatchStride = 0;

  /// Element offset of (R, C) within one batch entry.
  int64_t offset(int64_t R, int64_t C) const {
    return RowMajor ? R * Ld + C : R + C * Ld;
  }
};

/// What the epilogue does, decoded from cublasLtEpilogue_t.
struct EpilogueOps {
  bool AddBias = false;   // forward: D = act(x + bias[row])
  bool Relu = false;
  bool Gelu = false;
  bool StoreAux = false;  // forward: aux = x (+ bias), before activation
  bool DGelu = false;     // backward: D = x * gelu'(aux)
  bool BiasGradD = false; // backward: bias[row] = sum over columns of D
  bool BiasGradA = false; // bias[row] = sum over k of op(A)
  bool BiasGradB = false; // bias[col] = sum over k of op(B)
  /// Anything besides D = alpha*op(A)op(B) + beta*C written per element?
  bool elementwise() const {
    return AddBias || Relu || Gelu || StoreAux || DGelu || BiasGradD;
  }
};

/// Decodes Epilogue; false for one cuhip does not carry out (ReLU's
/// bit-mask forms).
bool decodeEpilogue(uint32_t Epilogue, EpilogueOps &Out);

struct MatmulProblem {
  blas::Op TransA = blas::Op::N, TransB = blas::Op::N;
  int64_t M = 0, N = 0, K = 0, BatchCount = 1;
  MatrixRef A, B, C, D;
  void *DOut = nullptr; // D.Ptr, writable
  blas::Compute ComputeType = blas::Compute::F32;
  // Host pointer mode: the values captured when cublasLtMatmul was called.
  // Device pointer mode: read from AlphaPtr/BetaPtr when the work runs.
  bool ScalarsOnDevice = false;
  const void *AlphaPtr = nullptr, *BetaPtr = nullptr;
  double Alpha = 1, Beta = 0;

  EpilogueOps Ops;
  void *Bias = nullptr; // input for AddBias, output for the gradients
  blas::DType BiasType = blas::DType::F32;
  int64_t BiasBatchStride = 0;
  MatrixRef Aux; // StoreAux writes it, DGelu reads it; D's shape and order
};

/// Carries out P on host-addressable memory (the CPU backend's device
/// memory), synchronously.
void runOnHost(const MatmulProblem &P);

/// The tanh approximation of GELU that cuBLASLt's epilogues use, and its
/// derivative.
float geluTanh(float X);
float geluTanhGrad(float X);

/// f32 <-> the storage types cuBLASLt's f32-compute GEMMs read and write.
float loadElement(const void *Base, blas::DType T, int64_t Index);
void storeElement(void *Base, blas::DType T, int64_t Index, float V);

} // namespace cuhip::blaslt
