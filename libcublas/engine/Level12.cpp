//===- Level12.cpp - axpy, scal, dot, nrm2, amax and gemv on the host -----===//
//
// f32 and f64 vectors of one type go to OpenBLAS; the Ex forms' mixed and
// 16-bit types use a plain loop computed in the execution type (these are
// O(n) operations: the loop is as fast as the memory). Scalars and results
// follow the pointer mode, read and written when the operation runs.
//
//===----------------------------------------------------------------------===//
#include "Gemm.h"
#include "HostJob.h"

#include "cuhip/runtime/Runtime.h"

#include <cblas.h>

#include <cmath>
#include <cstring>
#include <memory>

namespace cuhip::blas {

namespace {

double loadAny(DType T, const void *Base, int64_t Index) {
  switch (T) {
  case DType::F32:
    return static_cast<const float *>(Base)[Index];
  case DType::F64:
    return static_cast<const double *>(Base)[Index];
  case DType::F16:
    return halfToFloat(static_cast<const uint16_t *>(Base)[Index]);
  case DType::BF16:
    return bf16ToFloat(static_cast<const uint16_t *>(Base)[Index]);
  default:
    return 0;
  }
}

void storeAny(DType T, void *Base, int64_t Index, double V) {
  switch (T) {
  case DType::F32:
    static_cast<float *>(Base)[Index] = static_cast<float>(V);
    break;
  case DType::F64:
    static_cast<double *>(Base)[Index] = V;
    break;
  case DType::F16:
    static_cast<uint16_t *>(Base)[Index] = floatToHalf(static_cast<float>(V));
    break;
  case DType::BF16:
    static_cast<uint16_t *>(Base)[Index] = floatToBf16(static_cast<float>(V));
    break;
  default:
    break;
  }
}

/// Rounds V as ExecType arithmetic would hold it.
double inExec(DType Exec, double V) {
  return Exec == DType::F64 ? V : static_cast<double>(static_cast<float>(V));
}

/// BLAS's position of element I of a vector of N with increment Inc.
inline int64_t at(int64_t I, int64_t N, int64_t Inc) {
  return Inc >= 0 ? I * Inc : (I - N + 1) * Inc;
}

bool isReal(DType T) {
  return T == DType::F32 || T == DType::F64 || T == DType::F16 ||
         T == DType::BF16;
}

void genericVectorOp(const VectorDesc &V) {
  DType E = V.ExecType;
  switch (V.Kind) {
  case VectorOp::Axpy: {
    double A = inExec(E, loadAny(V.ScalarType, V.Alpha, 0));
    for (int64_t I = 0; I < V.N; ++I) {
      int64_t Xi = at(I, V.N, V.IncX), Yi = at(I, V.N, V.IncY);
      double R = inExec(E, inExec(E, A * loadAny(V.XType, V.X, Xi)) +
                               loadAny(V.YType, V.Y, Yi));
      storeAny(V.YType, V.Y, Yi, R);
    }
    return;
  }
  case VectorOp::Scal: {
    double A = inExec(E, loadAny(V.ScalarType, V.Alpha, 0));
    for (int64_t I = 0; I < V.N; ++I)
      storeAny(V.XType, const_cast<void *>(V.X), I * V.IncX,
               inExec(E, A * loadAny(V.XType, V.X, I * V.IncX)));
    return;
  }
  case VectorOp::Dot: {
    double Sum = 0;
    for (int64_t I = 0; I < V.N; ++I)
      Sum = inExec(E, Sum + inExec(E, loadAny(V.XType, V.X, at(I, V.N, V.IncX)) *
                                          loadAny(V.YType, V.Y,
                                                  at(I, V.N, V.IncY))));
    storeAny(V.ScalarType, V.Result, 0, Sum);
    return;
  }
  case VectorOp::Nrm2: {
    // Scaled so that neither overflow nor underflow spoils the result.
    double Scale = 0, Ssq = 1;
    for (int64_t I = 0; I < V.N; ++I) {
      double X = std::fabs(loadAny(V.XType, V.X, I * V.IncX));
      if (X == 0)
        continue;
      if (Scale < X) {
        Ssq = 1 + Ssq * (Scale / X) * (Scale / X);
        Scale = X;
      } else {
        Ssq += (X / Scale) * (X / Scale);
      }
    }
    storeAny(V.ScalarType, V.Result, 0, inExec(E, Scale * std::sqrt(Ssq)));
    return;
  }
  case VectorOp::Amax: {
    int64_t Best = 0;
    double BestAbs = -1;
    for (int64_t I = 0; I < V.N; ++I) {
      double X = std::fabs(loadAny(V.XType, V.X, I * V.IncX));
      if (X > BestAbs) { // the first of equal magnitudes, as BLAS
        Best = I + 1;
        BestAbs = X;
      }
    }
    if (V.ResultIs64)
      *static_cast<int64_t *>(V.Result) = Best;
    else
      *static_cast<int32_t *>(V.Result) = static_cast<int32_t>(Best);
    return;
  }
  }
}

} // namespace

bool vectorSupported(const VectorDesc &V, const char **Why) {
  const char *Reason = nullptr;
  if (!isReal(V.XType) ||
      (V.Kind == VectorOp::Axpy || V.Kind == VectorOp::Dot ? !isReal(V.YType)
                                                           : false) ||
      (V.Kind != VectorOp::Amax && !isReal(V.ScalarType)))
    Reason = "complex and integer vectors are not implemented";
  else if (V.Kind != VectorOp::Amax && V.ExecType != DType::F32 &&
           V.ExecType != DType::F64)
    Reason = "the execution type must be f32 or f64";
  if (Why)
    *Why = Reason;
  return Reason == nullptr;
}

void vectorOpOnHost(const VectorDesc &V) {
  // The results of an empty or badly strided vector are defined (BLAS):
  // 0 for dot, nrm2 and amax; axpy and scal do nothing.
  bool NoElements = V.N <= 0 || ((V.Kind == VectorOp::Scal ||
                                  V.Kind == VectorOp::Nrm2 ||
                                  V.Kind == VectorOp::Amax) &&
                                 V.IncX <= 0);
  if (NoElements) {
    if (V.Kind == VectorOp::Dot || V.Kind == VectorOp::Nrm2)
      storeAny(V.ScalarType, V.Result, 0, 0.0);
    else if (V.Kind == VectorOp::Amax) {
      if (V.ResultIs64)
        *static_cast<int64_t *>(V.Result) = 0;
      else
        *static_cast<int32_t *>(V.Result) = 0;
    }
    return;
  }
  bool F32 = V.XType == DType::F32 && V.ExecType == DType::F32 &&
             (V.Kind == VectorOp::Amax ||
              (V.ScalarType == DType::F32 &&
               (V.Kind == VectorOp::Scal || V.Kind == VectorOp::Nrm2 ||
                V.YType == DType::F32)));
  bool F64 = V.XType == DType::F64 && V.ExecType == DType::F64 &&
             (V.Kind == VectorOp::Amax ||
              (V.ScalarType == DType::F64 &&
               (V.Kind == VectorOp::Scal || V.Kind == VectorOp::Nrm2 ||
                V.YType == DType::F64)));
  if (V.Kind == VectorOp::Amax && V.XType == DType::F32)
    F32 = true;
  if (V.Kind == VectorOp::Amax && V.XType == DType::F64)
    F64 = true;
  if (!F32 && !F64) {
    genericVectorOp(V);
    return;
  }
  const float *Xf = static_cast<const float *>(V.X);
  const double *Xd = static_cast<const double *>(V.X);
  switch (V.Kind) {
  case VectorOp::Axpy:
    if (F32)
      cblas_saxpy(V.N, *static_cast<const float *>(V.Alpha), Xf, V.IncX,
                  static_cast<float *>(V.Y), V.IncY);
    else
      cblas_daxpy(V.N, *static_cast<const double *>(V.Alpha), Xd, V.IncX,
                  static_cast<double *>(V.Y), V.IncY);
    return;
  case VectorOp::Scal:
    if (F32)
      cblas_sscal(V.N, *static_cast<const float *>(V.Alpha),
                  const_cast<float *>(Xf), V.IncX);
    else
      cblas_dscal(V.N, *static_cast<const double *>(V.Alpha),
                  const_cast<double *>(Xd), V.IncX);
    return;
  case VectorOp::Dot:
    if (F32)
      *static_cast<float *>(V.Result) = cblas_sdot(
          V.N, Xf, V.IncX, static_cast<const float *>(V.Y), V.IncY);
    else
      *static_cast<double *>(V.Result) = cblas_ddot(
          V.N, Xd, V.IncX, static_cast<const double *>(V.Y), V.IncY);
    return;
  case VectorOp::Nrm2:
    if (F32)
      *static_cast<float *>(V.Result) = cblas_snrm2(V.N, Xf, V.IncX);
    else
      *static_cast<double *>(V.Result) = cblas_dnrm2(V.N, Xd, V.IncX);
    return;
  case VectorOp::Amax: {
    int64_t Index = static_cast<int64_t>(
                        F32 ? cblas_isamax(V.N, Xf, V.IncX)
                            : cblas_idamax(V.N, Xd, V.IncX)) +
                    1;
    if (V.ResultIs64)
      *static_cast<int64_t *>(V.Result) = Index;
    else
      *static_cast<int32_t *>(V.Result) = static_cast<int32_t>(Index);
    return;
  }
  }
}

void gemvOnHost(const GemvDesc &G) {
  if (G.M <= 0 || G.N <= 0)
    return;
  CBLAS_TRANSPOSE T = G.Trans == Op::N ? CblasNoTrans : CblasTrans;
  if (G.Type == DType::F64)
    cblas_dgemv(CblasColMajor, T, G.M, G.N,
                *static_cast<const double *>(G.Alpha),
                static_cast<const double *>(G.A), G.Lda,
                static_cast<const double *>(G.X), G.IncX,
                *static_cast<const double *>(G.Beta),
                static_cast<double *>(G.Y), G.IncY);
  else
    cblas_sgemv(CblasColMajor, T, G.M, G.N,
                *static_cast<const float *>(G.Alpha),
                static_cast<const float *>(G.A), G.Lda,
                static_cast<const float *>(G.X), G.IncX,
                *static_cast<const float *>(G.Beta),
                static_cast<float *>(G.Y), G.IncY);
}

namespace {

struct VectorJob {
  VectorDesc Desc;
  alignas(8) unsigned char AlphaValue[8];
  bool OneShot = true;
};

struct GemvJob {
  GemvDesc Desc;
  alignas(8) unsigned char AlphaValue[8], BetaValue[8];
  bool OneShot = true;
};

void runVectorJob(void *P) {
  auto *J = static_cast<VectorJob *>(P);
  vectorOpOnHost(J->Desc);
  if (J->OneShot)
    delete J;
}

void runGemvJob(void *P) {
  auto *J = static_cast<GemvJob *>(P);
  gemvOnHost(J->Desc);
  if (J->OneShot)
    delete J;
}

} // namespace

int vectorOp(const VectorDesc &Desc, void *Stream) {
  rt::Runtime &R = rt::Runtime::get();
  if (R.onHipBackend()) {
    void *HipStream;
    if (int S = R.nativeStream(Stream, &HipStream))
      return S;
    return rocblas::vectorOp(Desc, HipStream);
  }
  auto Job = std::make_unique<VectorJob>();
  Job->Desc = Desc;
  if (!Desc.ScalarsOnDevice && Desc.Alpha) {
    std::memcpy(Job->AlphaValue, Desc.Alpha, dtypeSize(Desc.ScalarType));
    Job->Desc.Alpha = Job->AlphaValue;
  }
  int S = enqueueHostJob(std::move(Job), runVectorJob, Stream);
  // Host-mode results are the caller's to read when the call returns:
  // cuBLAS waits for the stream then, and so does this.
  if (S == rt::cudaSuccess && !Desc.ScalarsOnDevice && Desc.Result)
    S = R.streamSynchronize(Stream);
  return S;
}

int gemv(const GemvDesc &Desc, void *Stream) {
  return runAlphaBetaJob<GemvJob>(Desc, Stream, dtypeSize(Desc.Type),
                                  rocblas::gemv, runGemvJob);
}

} // namespace cuhip::blas
