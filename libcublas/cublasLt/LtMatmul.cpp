//===- LtMatmul.cpp - cublasLtMatmul, its heuristic and argument checks ---===//
//
// resolveMatmul is the one place that decides whether cuhip carries out a
// matmul: it checks the descriptor and layouts as cuBLASLt documents them
// (CUBLAS_STATUS_INVALID_VALUE for shapes, leading dimensions and batch
// counts that do not fit together) and refuses, with a log line saying so,
// what cuhip does not implement (CUBLAS_STATUS_NOT_SUPPORTED). The
// heuristic answers one algorithm for any problem resolveMatmul accepts;
// cublasLtMatmul enqueues the work on the program's stream, so it runs
// after the stream's earlier work, like a kernel.
//
//===----------------------------------------------------------------------===//
#include "LtApi.h"

#include "ApiCommon.h"

#include "HostJob.h"
#include "cuhip/runtime/Runtime.h"

#include <memory>
#include <new>

using namespace cuhip;
using namespace cuhip::blaslt;
using blas::DType;

namespace {

/// The matrix types cuhip's matmul reads and writes: the real floats.
bool storageType(int32_t T, DType &Out) {
  return blas::dtypeOf(T, Out) && (Out == DType::F32 || Out == DType::F16 ||
                                   Out == DType::BF16 || Out == DType::F64);
}

const char *typeName(int32_t T) {
  switch (T) {
  case CUDA_R_32F:
    return "CUDA_R_32F";
  case CUDA_R_16F:
    return "CUDA_R_16F";
  case CUDA_R_16BF:
    return "CUDA_R_16BF";
  case CUDA_R_64F:
    return "CUDA_R_64F";
  case CUDA_R_8I:
    return "CUDA_R_8I";
  case CUDA_R_32I:
    return "CUDA_R_32I";
  case CUDA_R_8F_E4M3:
    return "CUDA_R_8F_E4M3";
  case CUDA_R_8F_E5M2:
    return "CUDA_R_8F_E5M2";
  default:
    return "this data type";
  }
}

cublasStatus_t matrixRef(const char *Fn, char Name, const LayoutState &L,
                         MatrixRef &Out) {
  if (!storageType(L.Type, Out.Type))
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "matrix %c is %s; cuhip's cuBLASLt does CUDA_R_32F, "
                    "CUDA_R_16F, CUDA_R_16BF (and CUDA_R_64F with "
                    "CUBLAS_COMPUTE_64F)",
                    Name, typeName(L.Type));
  if (L.Order != CUBLASLT_ORDER_COL && L.Order != CUBLASLT_ORDER_ROW)
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "matrix %c has order %d; cuhip does CUBLASLT_ORDER_COL "
                    "and CUBLASLT_ORDER_ROW, not the tiled orders",
                    Name, L.Order);
  if (L.PlaneOffset != 0 || L.BatchMode != CUBLASLT_BATCH_MODE_STRIDED)
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "matrix %c uses planar-complex or pointer-array batches, "
                    "which cuhip does not do",
                    Name);
  if (L.Rows > uint64_t(INT64_MAX) || L.Cols > uint64_t(INT64_MAX))
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn, "matrix %c is too large",
                    Name);
  Out.RowMajor = L.Order == CUBLASLT_ORDER_ROW;
  Out.Rows = int64_t(L.Rows);
  Out.Cols = int64_t(L.Cols);
  Out.Ld = L.Ld;
  Out.BatchStride = L.BatchStride;
  int64_t Need = Out.RowMajor ? Out.Cols : Out.Rows;
  if (L.Ld < (Need > 1 ? Need : 1))
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "matrix %c: leading dimension %lld is less than its %s "
                    "(%lld) in %s order",
                    Name, (long long)L.Ld, Out.RowMajor ? "columns" : "rows",
                    (long long)Need, Out.RowMajor ? "row" : "column");
  if (L.BatchCount < 1)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "matrix %c: batch count %d must be at least 1", Name,
                    L.BatchCount);
  return CUBLAS_STATUS_SUCCESS;
}

bool opOf(int32_t T, blas::Op &Out) {
  if (T == CUBLAS_OP_N)
    Out = blas::Op::N;
  else if (T == CUBLAS_OP_T || T == CUBLAS_OP_C) // real data: C is T
    Out = blas::Op::T;
  else
    return false;
  return true;
}

} // namespace

cublasStatus_t cuhip::blaslt::resolveMatmul(
    const char *Fn, cublasLtMatmulDesc_t DescArg, cublasLtMatrixLayout_t AArg,
    cublasLtMatrixLayout_t BArg, cublasLtMatrixLayout_t CArg,
    cublasLtMatrixLayout_t DArg, MatmulProblem &P) {
  const MatmulDescState *Desc = matmulDescOf(DescArg);
  if (!Desc)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "the matmul descriptor is null or not initialised; "
                    "create it with cublasLtMatmulDescCreate");
  const LayoutState *L[4] = {layoutOf(AArg), layoutOf(BArg), layoutOf(CArg),
                             layoutOf(DArg)};
  for (int I = 0; I < 4; ++I)
    if (!L[I])
      return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                      "the layout of matrix %c is null or not initialised; "
                      "create it with cublasLtMatrixLayoutCreate",
                      "ABCD"[I]);

  P = MatmulProblem();
  switch (Desc->ComputeType) {
  case CUBLAS_COMPUTE_32F:
  case CUBLAS_COMPUTE_32F_PEDANTIC:
  case CUBLAS_COMPUTE_32F_FAST_16F:
  case CUBLAS_COMPUTE_32F_FAST_16BF:
  case CUBLAS_COMPUTE_32F_FAST_TF32:
    P.ComputeType = blas::Compute::F32;
    if (Desc->ScaleType != CUDA_R_32F)
      return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                      "scale type %s with a 32F compute type; use CUDA_R_32F",
                      typeName(Desc->ScaleType));
    break;
  case CUBLAS_COMPUTE_16F:
  case CUBLAS_COMPUTE_16F_PEDANTIC:
    P.ComputeType = blas::Compute::F16;
    if (Desc->ScaleType != CUDA_R_16F)
      return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                      "scale type %s with CUBLAS_COMPUTE_16F; use CUDA_R_16F",
                      typeName(Desc->ScaleType));
    break;
  case CUBLAS_COMPUTE_64F:
  case CUBLAS_COMPUTE_64F_PEDANTIC:
    P.ComputeType = blas::Compute::F64;
    if (Desc->ScaleType != CUDA_R_64F)
      return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                      "scale type %s with CUBLAS_COMPUTE_64F; use CUDA_R_64F",
                      typeName(Desc->ScaleType));
    break;
  default:
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "compute type %d; cuhip's cuBLASLt does the CUBLAS_COMPUTE_"
                    "32F family, CUBLAS_COMPUTE_16F and CUBLAS_COMPUTE_64F",
                    Desc->ComputeType);
  }
  if (Desc->PointerMode != CUBLASLT_POINTER_MODE_HOST &&
      Desc->PointerMode != CUBLASLT_POINTER_MODE_DEVICE)
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "pointer mode %d; cuhip does CUBLASLT_POINTER_MODE_HOST "
                    "and _DEVICE, not the per-row alpha vectors",
                    Desc->PointerMode);
  P.ScalarsOnDevice = Desc->PointerMode == CUBLASLT_POINTER_MODE_DEVICE;
  if (!opOf(Desc->TransA, P.TransA) || !opOf(Desc->TransB, P.TransB))
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "TRANSA/TRANSB must be CUBLAS_OP_N, _T or _C");
  if (Desc->TransC != CUBLAS_OP_N || Desc->FillMode != 2)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "TRANSC must be CUBLAS_OP_N and FILL_MODE "
                    "CUBLAS_FILL_MODE_FULL, as cuBLASLt requires");
  if (Desc->AScale || Desc->BScale || Desc->CScale || Desc->DScale ||
      Desc->AmaxD || Desc->AuxScale || Desc->AuxAmax || Desc->DOutScale ||
      Desc->Emulation)
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "scale, amax and emulation attributes (fp8 and "
                    "block-scaled GEMMs) are not done by cuhip");

  MatrixRef *Refs[4] = {&P.A, &P.B, &P.C, &P.D};
  for (int I = 0; I < 4; ++I)
    if (cublasStatus_t S = matrixRef(Fn, "ABCD"[I], *L[I], *Refs[I]))
      return S;
  bool F64 = P.ComputeType == blas::Compute::F64;
  for (int I = 0; I < 4; ++I)
    if ((Refs[I]->Type == DType::F64) != F64)
      return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                      "matrix %c is %s with compute type %d; CUDA_R_64F "
                      "matrices go with CUBLAS_COMPUTE_64F only",
                      "ABCD"[I], typeName(L[I]->Type), Desc->ComputeType);
  if (P.ComputeType == blas::Compute::F16)
    for (int I = 0; I < 4; ++I)
      if (Refs[I]->Type != DType::F16)
        return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                        "CUBLAS_COMPUTE_16F needs CUDA_R_16F matrices "
                        "(matrix %c is %s)",
                        "ABCD"[I], typeName(L[I]->Type));
  if (P.A.Type != P.B.Type || P.C.Type != P.D.Type)
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "A and B must have one type and C and D another "
                    "(A %s, B %s, C %s, D %s)",
                    typeName(L[0]->Type), typeName(L[1]->Type),
                    typeName(L[2]->Type), typeName(L[3]->Type));

  // op(A) is M x K, op(B) K x N, C and D M x N.
  bool TA = P.TransA != blas::Op::N, TB = P.TransB != blas::Op::N;
  P.M = TA ? P.A.Cols : P.A.Rows;
  P.K = TA ? P.A.Rows : P.A.Cols;
  int64_t KB = TB ? P.B.Cols : P.B.Rows;
  P.N = TB ? P.B.Rows : P.B.Cols;
  if (KB != P.K || P.D.Rows != P.M || P.D.Cols != P.N ||
      P.C.Rows != P.M || P.C.Cols != P.N)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "shapes do not fit: op(A) is %lldx%lld, op(B) %lldx%lld, "
                    "C %lldx%lld, D %lldx%lld",
                    (long long)P.M, (long long)P.K, (long long)KB,
                    (long long)P.N, (long long)P.C.Rows, (long long)P.C.Cols,
                    (long long)P.D.Rows, (long long)P.D.Cols);
  P.BatchCount = L[3]->BatchCount;
  for (int I = 0; I < 3; ++I)
    if (L[I]->BatchCount != P.BatchCount)
      return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                      "matrix %c has batch count %d, D has %d; they must "
                      "agree",
                      "ABC"[I], L[I]->BatchCount, L[3]->BatchCount);

  if (!decodeEpilogue(Desc->Epilogue, P.Ops))
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "epilogue %u; cuhip does DEFAULT, RELU, RELU_BIAS, BIAS, "
                    "GELU, GELU_AUX, GELU_BIAS, GELU_AUX_BIAS, DGELU, "
                    "DGELU_BGRAD, BGRADA and BGRADB (not ReLU's bit masks)",
                    Desc->Epilogue);
  bool AnyEpilogue = Desc->Epilogue != CUBLASLT_EPILOGUE_DEFAULT;
  if (AnyEpilogue && P.ComputeType != blas::Compute::F32)
    return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                    "epilogues with compute type %d; cuhip does them with the "
                    "32F compute types",
                    Desc->ComputeType);
  for (int64_t V : {P.M, P.N, P.K, P.A.Ld, P.B.Ld, P.C.Ld, P.D.Ld})
    if (V > INT32_MAX)
      return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                      "sizes and leading dimensions beyond 2^31-1 are not "
                      "done (OpenBLAS takes 32-bit sizes)");
  const EpilogueOps &E = P.Ops;
  if (E.AddBias || E.BiasGradD || E.BiasGradA || E.BiasGradB) {
    int32_t T = Desc->BiasType == -1 ? L[3]->Type : Desc->BiasType;
    if (!storageType(T, P.BiasType) || P.BiasType == DType::F64)
      return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                      "bias type %s; use CUDA_R_32F, CUDA_R_16F or "
                      "CUDA_R_16BF",
                      typeName(T));
    P.Bias = Desc->Bias;
    P.BiasBatchStride = Desc->BiasBatchStride;
  }
  if (E.StoreAux || E.DGelu) {
    int32_t T = Desc->AuxType == -1 ? L[3]->Type : Desc->AuxType;
    if (!storageType(T, P.Aux.Type) || P.Aux.Type == DType::F64)
      return ltRefuse(CUBLAS_STATUS_NOT_SUPPORTED, Fn,
                      "epilogue auxiliary type %s; use CUDA_R_32F, "
                      "CUDA_R_16F or CUDA_R_16BF",
                      typeName(T));
    P.Aux.Ptr = Desc->Aux;
    P.Aux.RowMajor = P.D.RowMajor;
    P.Aux.Rows = P.M;
    P.Aux.Cols = P.N;
    P.Aux.Ld = Desc->AuxLd;
    P.Aux.BatchStride = Desc->AuxBatchStride;
    int64_t Need = P.Aux.RowMajor ? P.N : P.M;
    if (P.Aux.Ld < Need)
      return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                      "EPILOGUE_AUX_LD is %lld, less than the %lld the "
                      "auxiliary matrix (D's shape and order) needs; set "
                      "CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD",
                      (long long)P.Aux.Ld, (long long)Need);
  }
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
    cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
    cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
    cublasLtMatmulPreference_t preference, int requestedAlgoCount,
    cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
    int *returnAlgoCount) {
  const char *Fn = "cublasLtMatmulAlgoGetHeuristic";
  if (!validHandle(lightHandle))
    return ltRefuse(CUBLAS_STATUS_NOT_INITIALIZED, Fn,
                    "lightHandle is not a handle cublasLtCreate returned");
  if (requestedAlgoCount <= 0 || !heuristicResultsArray || !returnAlgoCount)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "requestedAlgoCount must be positive and the result "
                    "pointers non-null");
  if (!preferenceOf(preference))
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "preference is null or not initialised; create it with "
                    "cublasLtMatmulPreferenceCreate");
  MatmulProblem P;
  if (cublasStatus_t S = resolveMatmul(Fn, operationDesc, Adesc, Bdesc, Cdesc,
                                       Ddesc, P)) {
    *returnAlgoCount = 0;
    return S;
  }
  // One algorithm, needing no workspace: whatever the preference allows.
  cublasLtMatmulHeuristicResult_t &R = heuristicResultsArray[0];
  std::memset(&R, 0, sizeof(R));
  R.algo.data[0] = AlgoMagic;
  R.workspaceSize = 0;
  R.state = CUBLAS_STATUS_SUCCESS;
  R.wavesCount = 1.0f;
  *returnAlgoCount = 1;
  ltLog(LtLogTrace, Fn, "m=%lld n=%lld k=%lld batch=%lld epilogue=%u: 1 algo",
        (long long)P.M, (long long)P.N, (long long)P.K,
        (long long)P.BatchCount, matmulDescOf(operationDesc)->Epilogue);
  return CUBLAS_STATUS_SUCCESS;
}

namespace {
struct MatmulJob {
  MatmulProblem P;
  bool OneShot = true;
};

void runJob(void *Data) {
  auto *J = static_cast<MatmulJob *>(Data);
  runOnHost(J->P);
  if (J->OneShot)
    delete J;
}

double hostScalar(const MatmulProblem &P, const void *V) {
  switch (P.ComputeType) {
  case blas::Compute::F64:
    return *static_cast<const double *>(V);
  case blas::Compute::F16:
    return blas::halfToFloat(*static_cast<const uint16_t *>(V));
  default:
    return *static_cast<const float *>(V);
  }
}
} // namespace

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatmul(
    cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
    const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
    const void *B, cublasLtMatrixLayout_t Bdesc, const void *beta,
    const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
    cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo,
    void *workspace, size_t workspaceSizeInBytes, cudaStream_t stream) {
  const char *Fn = "cublasLtMatmul";
  if (!validHandle(lightHandle))
    return ltRefuse(CUBLAS_STATUS_NOT_INITIALIZED, Fn,
                    "lightHandle is not a handle cublasLtCreate returned");
  auto Job = std::make_unique<MatmulJob>();
  MatmulProblem *P = &Job->P;
  if (cublasStatus_t S =
          resolveMatmul(Fn, computeDesc, Adesc, Bdesc, Cdesc, Ddesc, *P))
    return S;
  if (!alpha || !beta)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn, "alpha or beta is null");
  ltLog(LtLogTrace, Fn,
        "m=%lld n=%lld k=%lld batch=%lld epilogue=%u stream=%p",
        (long long)P->M, (long long)P->N, (long long)P->K,
        (long long)P->BatchCount, matmulDescOf(computeDesc)->Epilogue,
        static_cast<void *>(stream));
  bool Empty = P->M == 0 || P->N == 0;
  if (!Empty && (!D || (P->K > 0 && (!A || !B))))
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "A, B or D is null for a non-empty product");
  const EpilogueOps &E = P->Ops;
  if (!Empty && (E.AddBias || E.BiasGradA || E.BiasGradB || E.BiasGradD) &&
      !P->Bias)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "the epilogue needs CUBLASLT_MATMUL_DESC_BIAS_POINTER");
  if (!Empty && (E.StoreAux || E.DGelu) && !P->Aux.Ptr)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "the epilogue needs CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_"
                    "POINTER");

  if (lightHandle->HipHandle) {
    const MatmulDescState *Desc = matmulDescOf(computeDesc);
    const LayoutState *L[4] = {layoutOf(Adesc), layoutOf(Bdesc),
                               layoutOf(Cdesc), layoutOf(Ddesc)};
    return ltHipMatmul(lightHandle, *Desc, L, alpha, A, B, beta, C, D,
                       workspace, workspaceSizeInBytes, stream);
  }

  if (rt::Status S = rt::Runtime::get().deviceStatus(); S != rt::cudaSuccess)
    return ltRefuse(CUBLAS_STATUS_EXECUTION_FAILED, Fn,
                    "the device cannot run work: %s", rt::statusName(S));
  if (Empty)
    return CUBLAS_STATUS_SUCCESS;
  P->A.Ptr = A;
  P->B.Ptr = B;
  P->C.Ptr = C;
  P->D.Ptr = D;
  P->DOut = D;
  // Host scalars are read now (they may live on the caller's stack), device
  // scalars when the work runs, after the stream's earlier work.
  P->AlphaPtr = alpha;
  P->BetaPtr = beta;
  if (!P->ScalarsOnDevice) {
    P->Alpha = hostScalar(*P, alpha);
    P->Beta = hostScalar(*P, beta);
    if (P->Beta != 0 && !C)
      return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                      "beta is not 0 but C is null");
  }
  rt::Status S = rt::Status(blas::enqueueHostJob(std::move(Job), runJob, stream));
  if (S != rt::cudaSuccess)
    return ltRefuse(S == rt::cudaErrorInvalidResourceHandle
                        ? CUBLAS_STATUS_INVALID_VALUE
                        : CUBLAS_STATUS_EXECUTION_FAILED,
                    Fn, "could not enqueue the matmul on stream %p: %s",
                    static_cast<void *>(stream), rt::statusName(S));
  return CUBLAS_STATUS_SUCCESS;
}
