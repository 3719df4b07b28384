//===- LtHip.cpp - cuBLASLt on the HIP backend: hipBLASLt via dlopen ------===//
//
// On the HIP backend device memory is the GPU's, so the matmul goes to
// hipBLASLt, ROCm's counterpart of cuBLASLt, loaded with dlopen when the
// first handle is created (CUHIP_HIPBLASLT_LIBRARY names an exact file).
// hipBLASLt's API has cuBLASLt's shape but its own numbers for operations,
// compute types and descriptor attributes, so each matmul builds hipBLASLt
// descriptors from cuhip's checked ones and hands the program's pointers and
// the stream's hipStream_t through. Without hipBLASLt, cublasLtCreate
// answers CUBLAS_STATUS_NOT_SUPPORTED and says which library is missing.
//
//===----------------------------------------------------------------------===//
#include "LtApi.h"

#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Runtime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <vector>

using namespace cuhip;
using namespace cuhip::blaslt;

namespace {

// hipBLASLt's numbers (hipblaslt.h, hipblas-common.h).
enum : int32_t {
  HipStatusSuccess = 0,
  HipStatusNotInitialized = 1,
  HipStatusAllocFailed = 2,
  HipStatusInvalidValue = 3,
  HipStatusNotSupported = 7,
  HipOpN = 111,
  HipOpT = 112,
  HipCompute16F = 0,
  HipCompute32F = 2,
  HipCompute32FFast16F = 4,
  HipCompute32FFast16BF = 5,
  HipCompute32FFastTF32 = 6,
  HipCompute64F = 7,
  // hipblasLtMatmulDescAttributes_t
  HipDescTransA = 0,
  HipDescTransB = 1,
  HipDescEpilogue = 2,
  HipDescBiasPointer = 3,
  HipDescBiasDataType = 4,
  HipDescAuxPointer = 10,
  HipDescAuxLd = 11,
  HipDescAuxBatchStride = 12,
  HipDescPointerMode = 13,
  HipDescAuxDataType = 22,
  // hipblasLtMatrixLayoutAttribute_t
  HipLayoutBatchCount = 0,
  HipLayoutBatchStride = 1,
  HipLayoutOrder = 3,
};

using HipStatus = int32_t;
struct Api {
  void *Library = nullptr;
  std::string Name;
  HipStatus (*Create)(void **);
  HipStatus (*Destroy)(void *);
  HipStatus (*DescCreate)(void **, int32_t, int32_t);
  HipStatus (*DescDestroy)(void *);
  HipStatus (*DescSet)(void *, int32_t, const void *, size_t);
  HipStatus (*LayoutCreate)(void **, int32_t, uint64_t, uint64_t, int64_t);
  HipStatus (*LayoutDestroy)(void *);
  HipStatus (*LayoutSet)(void *, int32_t, const void *, size_t);
  HipStatus (*Matmul)(void *, void *, const void *, const void *, void *,
                      const void *, void *, const void *, const void *, void *,
                      void *, void *, const void *, void *, size_t, void *);
};

std::mutex Lock;
Api Loaded;
bool Tried = false;

std::vector<std::string> candidates() {
  if (const char *E = std::getenv("CUHIP_HIPBLASLT_LIBRARY"); E && *E)
    return {E};
  return {"libhipblaslt.so.1", "libhipblaslt.so.0", "libhipblaslt.so"};
}

/// The loaded library, or null (logged) when none is usable.
const Api *api() {
  std::lock_guard<std::mutex> G(Lock);
  if (Tried)
    return Loaded.Library ? &Loaded : nullptr;
  Tried = true;
  std::string Names;
  for (const std::string &N : candidates()) {
    void *L = dlopen(N.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!L) {
      Names += Names.empty() ? N : ", " + N;
      continue;
    }
    Api A;
    A.Library = L;
    A.Name = N;
    bool Ok = true;
    auto Get = [&](auto &Fn, const char *Sym) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
          dlsym(L, Sym));
      if (!Fn) {
        CUHIP_WARN("cuBLASLt: %s has no %s; the HIP backend needs a "
                   "hipBLASLt from ROCm 6 or later",
                   N.c_str(), Sym);
        Ok = false;
      }
    };
    Get(A.Create, "hipblasLtCreate");
    Get(A.Destroy, "hipblasLtDestroy");
    Get(A.DescCreate, "hipblasLtMatmulDescCreate");
    Get(A.DescDestroy, "hipblasLtMatmulDescDestroy");
    Get(A.DescSet, "hipblasLtMatmulDescSetAttribute");
    Get(A.LayoutCreate, "hipblasLtMatrixLayoutCreate");
    Get(A.LayoutDestroy, "hipblasLtMatrixLayoutDestroy");
    Get(A.LayoutSet, "hipblasLtMatrixLayoutSetAttribute");
    Get(A.Matmul, "hipblasLtMatmul");
    if (Ok) {
      Loaded = A;
      CUHIP_INFO("cuBLASLt: forwarding to %s", N.c_str());
      return &Loaded;
    }
    dlclose(L);
  }
  CUHIP_WARN("cuBLASLt: no hipBLASLt library (tried %s); cuBLASLt calls "
             "answer CUBLAS_STATUS_NOT_SUPPORTED on the HIP backend. Install "
             "ROCm's hipblaslt or set CUHIP_HIPBLASLT_LIBRARY",
             Names.c_str());
  return nullptr;
}

cublasStatus_t toCublas(HipStatus S) {
  switch (S) {
  case HipStatusSuccess:
    return CUBLAS_STATUS_SUCCESS;
  case HipStatusNotInitialized:
    return CUBLAS_STATUS_NOT_INITIALIZED;
  case HipStatusAllocFailed:
    return CUBLAS_STATUS_ALLOC_FAILED;
  case HipStatusInvalidValue:
    return CUBLAS_STATUS_INVALID_VALUE;
  case HipStatusNotSupported:
    return CUBLAS_STATUS_NOT_SUPPORTED;
  default:
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
}

int32_t hipCompute(int32_t C) {
  switch (C) {
  case CUBLAS_COMPUTE_16F:
  case CUBLAS_COMPUTE_16F_PEDANTIC:
    return HipCompute16F;
  case CUBLAS_COMPUTE_32F_FAST_16F:
    return HipCompute32FFast16F;
  case CUBLAS_COMPUTE_32F_FAST_16BF:
    return HipCompute32FFast16BF;
  case CUBLAS_COMPUTE_32F_FAST_TF32:
    return HipCompute32FFastTF32;
  case CUBLAS_COMPUTE_64F:
  case CUBLAS_COMPUTE_64F_PEDANTIC:
    return HipCompute64F;
  default:
    return HipCompute32F;
  }
}

/// Destroys what a matmul created, whatever happened in between.
struct Created {
  const Api &A;
  void *Desc = nullptr;
  void *Layouts[4] = {};
  ~Created() {
    for (void *L : Layouts)
      if (L)
        A.LayoutDestroy(L);
    if (Desc)
      A.DescDestroy(Desc);
  }
};

} // namespace

namespace cuhip::blaslt::hipblaslt {

cublasStatus_t createHandle(void **Out) {
  const Api *A = api();
  if (!A)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  return toCublas(A->Create(Out));
}

void destroyHandle(void *H) {
  if (const Api *A = api())
    A->Destroy(H);
}

cublasStatus_t matmul(void *Handle, const MatmulDescState &D,
                      const LayoutState *const L[4], const void *Alpha,
                      const void *APtr, const void *BPtr, const void *Beta,
                      const void *CPtr, void *DPtr, void *Workspace,
                      size_t WorkspaceBytes, void *HipStream) {
  const Api *A = api();
  if (!A)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  Created C{*A};
  // The data type numbers (hipDataType) are CUDA's.
  if (HipStatus S = A->DescCreate(&C.Desc, hipCompute(D.ComputeType),
                                  D.ScaleType))
    return toCublas(S);
  auto Set = [&](int32_t Attr, const auto &V) {
    return A->DescSet(C.Desc, Attr, &V, sizeof(V));
  };
  int32_t TransA = D.TransA == CUBLAS_OP_N ? HipOpN : HipOpT;
  int32_t TransB = D.TransB == CUBLAS_OP_N ? HipOpN : HipOpT;
  HipStatus S = Set(HipDescTransA, TransA);
  if (!S)
    S = Set(HipDescTransB, TransB);
  if (!S && D.PointerMode != CUBLASLT_POINTER_MODE_HOST)
    S = Set(HipDescPointerMode, D.PointerMode);
  if (!S && D.Epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
    S = Set(HipDescEpilogue, D.Epilogue); // same numbers as cuBLASLt's
    if (!S && D.Bias)
      S = Set(HipDescBiasPointer, D.Bias);
    if (!S && D.BiasType != -1)
      S = Set(HipDescBiasDataType, D.BiasType);
    if (!S && D.Aux) {
      S = Set(HipDescAuxPointer, D.Aux);
      if (!S)
        S = Set(HipDescAuxLd, D.AuxLd);
      if (!S)
        S = Set(HipDescAuxBatchStride, D.AuxBatchStride);
      if (!S && D.AuxType != -1)
        S = Set(HipDescAuxDataType, D.AuxType);
    }
  }
  if (D.BiasBatchStride != 0 && !S)
    CUHIP_WARN("cuBLASLt: hipBLASLt has no bias batch stride; the bias is "
               "shared by the batch entries");
  if (S)
    return toCublas(S);
  for (int I = 0; I < 4; ++I) {
    const LayoutState &Li = *L[I];
    if ((S = A->LayoutCreate(&C.Layouts[I], Li.Type, Li.Rows, Li.Cols, Li.Ld)))
      return toCublas(S);
    auto LSet = [&](int32_t Attr, const auto &V) {
      return A->LayoutSet(C.Layouts[I], Attr, &V, sizeof(V));
    };
    if (Li.Order != CUBLASLT_ORDER_COL && (S = LSet(HipLayoutOrder, Li.Order)))
      return toCublas(S);
    if (Li.BatchCount != 1) {
      if ((S = LSet(HipLayoutBatchCount, Li.BatchCount)) ||
          (S = LSet(HipLayoutBatchStride, Li.BatchStride)))
        return toCublas(S);
    }
  }
  // No algorithm: hipBLASLt picks one by its own heuristic.
  return toCublas(A->Matmul(Handle, C.Desc, Alpha, APtr, C.Layouts[0], BPtr,
                            C.Layouts[1], Beta, CPtr, C.Layouts[2], DPtr,
                            C.Layouts[3], nullptr, Workspace, WorkspaceBytes,
                            HipStream));
}

void reset() {
  std::lock_guard<std::mutex> G(Lock);
  if (Loaded.Library)
    dlclose(Loaded.Library);
  Loaded = Api();
  Tried = false;
}

} // namespace cuhip::blaslt::hipblaslt

cublasStatus_t cuhip::blaslt::ltHipCreate(cublasLtContext *H) {
  if (!rt::Runtime::get().onHipBackend())
    return CUBLAS_STATUS_SUCCESS;
  cublasStatus_t S = hipblaslt::createHandle(&H->HipHandle);
  if (S != CUBLAS_STATUS_SUCCESS)
    return ltRefuse(S, "cublasLtCreate",
                    "no hipBLASLt handle on the HIP backend (see the message "
                    "above); install ROCm's hipblaslt");
  return S;
}

void cuhip::blaslt::ltHipDestroy(cublasLtContext *H) {
  if (H->HipHandle)
    hipblaslt::destroyHandle(H->HipHandle);
}

cublasStatus_t cuhip::blaslt::ltHipMatmul(
    cublasLtContext *H, const MatmulDescState &Desc,
    const LayoutState *const Layouts[4], const void *Alpha, const void *A,
    const void *B, const void *Beta, const void *C, void *D, void *Workspace,
    size_t WorkspaceBytes, cudaStream_t Stream) {
  void *HipStream = nullptr;
  if (rt::Status S = rt::Runtime::get().nativeStream(Stream, &HipStream))
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, "cublasLtMatmul",
                    "stream %p: %s", static_cast<void *>(Stream),
                    rt::statusName(S));
  return hipblaslt::matmul(H->HipHandle, Desc, Layouts, Alpha, A, B, Beta, C,
                           D, Workspace, WorkspaceBytes, HipStream);
}
