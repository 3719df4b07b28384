//===- LtApi.cpp - cuBLASLt handles, versions and descriptors -------------===//
//
// The bookkeeping half of libcublasLt: handles, version and status queries,
// and the three descriptor families (matrix layouts, matmul descriptors,
// preferences) with their attribute get/set, which follow cuBLASLt's rules:
// a set needs the attribute's exact size, a get with size 0 reports the
// size it needs.
//
//===----------------------------------------------------------------------===//
#include "LtApi.h"

#include "ApiCommon.h"

#include <new>

using namespace cuhip::blaslt;

namespace {

/// Where an attribute lives in a descriptor and how big cuBLASLt says it is.
struct Field {
  void *Ptr = nullptr;
  size_t Size = 0;
};

template <typename T> Field field(T &V) { return {&V, sizeof(T)}; }

cublasStatus_t setField(const char *Fn, Field F, int Attr, const void *Buf,
                        size_t Size) {
  if (!F.Ptr)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "unknown attribute %d; see cublasLt.h for the attributes "
                    "this descriptor has",
                    Attr);
  if (!Buf || Size != F.Size)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "attribute %d takes %zu bytes, was given %zu%s", Attr,
                    F.Size, Size, Buf ? "" : " at a null pointer");
  std::memcpy(F.Ptr, Buf, Size);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t getField(const char *Fn, Field F, int Attr, void *Buf,
                        size_t Size, size_t *Written) {
  if (!F.Ptr)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "unknown attribute %d; see cublasLt.h for the attributes "
                    "this descriptor has",
                    Attr);
  if (Size == 0) {
    if (!Written)
      return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                      "sizeInBytes is 0 and sizeWritten is null: nothing to "
                      "answer");
    *Written = F.Size;
    return CUBLAS_STATUS_SUCCESS;
  }
  if (!Buf || Size != F.Size)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "attribute %d is %zu bytes, the buffer is %zu%s", Attr,
                    F.Size, Size, Buf ? "" : " at a null pointer");
  std::memcpy(Buf, F.Ptr, Size);
  if (Written)
    *Written = Size;
  return CUBLAS_STATUS_SUCCESS;
}

Field layoutField(LayoutState &L, int Attr) {
  switch (Attr) {
  case CUBLASLT_MATRIX_LAYOUT_TYPE:
    return field(L.Type);
  case CUBLASLT_MATRIX_LAYOUT_ORDER:
    return field(L.Order);
  case CUBLASLT_MATRIX_LAYOUT_ROWS:
    return field(L.Rows);
  case CUBLASLT_MATRIX_LAYOUT_COLS:
    return field(L.Cols);
  case CUBLASLT_MATRIX_LAYOUT_LD:
    return field(L.Ld);
  case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT:
    return field(L.BatchCount);
  case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET:
    return field(L.BatchStride);
  case CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET:
    return field(L.PlaneOffset);
  case CUBLASLT_MATRIX_LAYOUT_BATCH_MODE:
    return field(L.BatchMode);
  default:
    return {};
  }
}

Field matmulDescField(MatmulDescState &D, int Attr) {
  switch (Attr) {
  case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE:
    return field(D.ComputeType);
  case CUBLASLT_MATMUL_DESC_SCALE_TYPE:
    return field(D.ScaleType);
  case CUBLASLT_MATMUL_DESC_POINTER_MODE:
    return field(D.PointerMode);
  case CUBLASLT_MATMUL_DESC_TRANSA:
    return field(D.TransA);
  case CUBLASLT_MATMUL_DESC_TRANSB:
    return field(D.TransB);
  case CUBLASLT_MATMUL_DESC_TRANSC:
    return field(D.TransC);
  case CUBLASLT_MATMUL_DESC_FILL_MODE:
    return field(D.FillMode);
  case CUBLASLT_MATMUL_DESC_EPILOGUE:
    return field(D.Epilogue);
  case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
    return field(D.Bias);
  case CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE:
    return field(D.BiasBatchStride);
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER:
    return field(D.Aux);
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD:
    return field(D.AuxLd);
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE:
    return field(D.AuxBatchStride);
  case CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE:
    return field(D.AlphaVectorBatchStride);
  case CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET:
    return field(D.SmCountTarget);
  case CUBLASLT_MATMUL_DESC_A_SCALE_POINTER:
    return field(D.AScale);
  case CUBLASLT_MATMUL_DESC_B_SCALE_POINTER:
    return field(D.BScale);
  case CUBLASLT_MATMUL_DESC_C_SCALE_POINTER:
    return field(D.CScale);
  case CUBLASLT_MATMUL_DESC_D_SCALE_POINTER:
    return field(D.DScale);
  case CUBLASLT_MATMUL_DESC_AMAX_D_POINTER:
    return field(D.AmaxD);
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE:
    return field(D.AuxType);
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER:
    return field(D.AuxScale);
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER:
    return field(D.AuxAmax);
  case CUBLASLT_MATMUL_DESC_FAST_ACCUM:
    return field(D.FastAccum);
  case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE:
    return field(D.BiasType);
  case CUBLASLT_MATMUL_DESC_A_SCALE_MODE:
    return field(D.AScaleMode);
  case CUBLASLT_MATMUL_DESC_B_SCALE_MODE:
    return field(D.BScaleMode);
  case CUBLASLT_MATMUL_DESC_C_SCALE_MODE:
    return field(D.CScaleMode);
  case CUBLASLT_MATMUL_DESC_D_SCALE_MODE:
    return field(D.DScaleMode);
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE:
    return field(D.AuxScaleMode);
  case CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER:
    return field(D.DOutScale);
  case CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE:
    return field(D.DOutScaleMode);
  case CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR:
    return field(D.Emulation);
  default:
    return {};
  }
}

Field preferenceField(PreferenceState &P, int Attr) {
  switch (Attr) {
  case CUBLASLT_MATMUL_PREF_SEARCH_MODE:
    return field(P.SearchMode);
  case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES:
    return field(P.MaxWorkspaceBytes);
  case CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK:
    return field(P.ReductionSchemeMask);
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES:
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES:
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES:
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES:
    return field(P.MinAlignment[Attr - CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES]);
  case CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT:
    return field(P.MaxWavesCount);
  case CUBLASLT_MATMUL_PREF_IMPL_MASK:
    return field(P.ImplMask);
  default:
    return {};
  }
}

cublasStatus_t initLayout(cublasLtMatrixLayout_t L, cudaDataType Type,
                          uint64_t Rows, uint64_t Cols, int64_t Ld) {
  auto *S = stateOf<LayoutState>(L);
  std::memset(S, 0, sizeof(cublasLtMatrixLayoutOpaque_t));
  S->Magic = LayoutMagic;
  S->Type = Type;
  S->Order = CUBLASLT_ORDER_COL;
  S->Rows = Rows;
  S->Cols = Cols;
  S->Ld = Ld;
  S->BatchCount = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t initMatmulDesc(cublasLtMatmulDesc_t D,
                              cublasComputeType_t Compute,
                              cudaDataType_t Scale) {
  auto *S = stateOf<MatmulDescState>(D);
  std::memset(S, 0, sizeof(cublasLtMatmulDescOpaque_t));
  S->Magic = MatmulDescMagic;
  S->ComputeType = Compute;
  S->ScaleType = Scale;
  S->PointerMode = CUBLASLT_POINTER_MODE_HOST;
  S->TransA = S->TransB = S->TransC = CUBLAS_OP_N;
  S->FillMode = 2; // CUBLAS_FILL_MODE_FULL
  S->Epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  S->BiasType = S->AuxType = -1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t initPreference(cublasLtMatmulPreference_t P) {
  auto *S = stateOf<PreferenceState>(P);
  std::memset(S, 0, sizeof(cublasLtMatmulPreferenceOpaque_t));
  S->Magic = PreferenceMagic;
  S->SearchMode = CUBLASLT_SEARCH_BEST_FIT;
  S->ReductionSchemeMask = 0x7; // CUBLASLT_REDUCTION_SCHEME_MASK
  for (uint32_t &A : S->MinAlignment)
    A = 256;
  S->ImplMask = ~uint64_t(0);
  return CUBLAS_STATUS_SUCCESS;
}

size_t HeuristicsCacheCapacity = 8192;
std::atomic<unsigned> CpuInstructionsMask{0};

} // namespace

// --- handles, versions, status ----------------------------------------------

CUHIP_LT_EXPORT cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle) {
  if (!lightHandle)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, "cublasLtCreate",
                    "lightHandle is null; pass the address of a "
                    "cublasLtHandle_t");
  auto *H = new (std::nothrow) cublasLtContext;
  if (!H)
    return CUBLAS_STATUS_ALLOC_FAILED;
  if (cublasStatus_t S = ltHipCreate(H); S != CUBLAS_STATUS_SUCCESS) {
    delete H;
    return S;
  }
  *lightHandle = H;
  ltLog(LtLogTrace, "cublasLtCreate", "handle %p", static_cast<void *>(H));
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle) {
  if (!validHandle(lightHandle))
    return ltRefuse(CUBLAS_STATUS_NOT_INITIALIZED, "cublasLtDestroy",
                    "%p is not a handle cublasLtCreate returned",
                    static_cast<void *>(lightHandle));
  ltHipDestroy(lightHandle);
  lightHandle->Magic = 0;
  delete lightHandle;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT const char *cublasLtGetStatusName(cublasStatus_t status) {
  return cuhip::blas::statusName(status);
}

CUHIP_LT_EXPORT const char *cublasLtGetStatusString(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "success";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "the library was not initialized (or the handle is not valid)";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "a resource allocation failed";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "an invalid value was passed to the function";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "the device does not support the requested feature";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "access to device memory failed";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "the work failed to execute on the device";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "an internal operation failed";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "the requested operation or combination is not supported";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "a license check failed";
  }
  return "unknown cuBLAS status";
}

CUHIP_LT_EXPORT size_t cublasLtGetVersion(void) { return LtVersion; }

CUHIP_LT_EXPORT size_t cublasLtGetCudartVersion(void) {
  return LtCudartVersion;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtGetProperty(libraryPropertyType type,
                                                   int *value) {
  if (!value)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, "cublasLtGetProperty",
                    "value is null");
  if (cuhip::blas::versionProperty(type, int(LtVersion), *value))
    return CUBLAS_STATUS_SUCCESS;
  return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, "cublasLtGetProperty",
                  "unknown libraryPropertyType %d; use MAJOR_VERSION, "
                  "MINOR_VERSION or PATCH_LEVEL",
                  int(type));
}

CUHIP_LT_EXPORT cublasStatus_t
cublasLtHeuristicsCacheGetCapacity(size_t *capacity) {
  if (!capacity)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE,
                    "cublasLtHeuristicsCacheGetCapacity", "capacity is null");
  *capacity = HeuristicsCacheCapacity;
  return CUBLAS_STATUS_SUCCESS;
}

// cuhip's heuristic is a constant answer; the capacity is only remembered.
CUHIP_LT_EXPORT cublasStatus_t
cublasLtHeuristicsCacheSetCapacity(size_t capacity) {
  HeuristicsCacheCapacity = capacity;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT unsigned cublasLtDisableCpuInstructionsSetMask(unsigned mask) {
  return CpuInstructionsMask.exchange(mask);
}

// --- matrix layouts ---------------------------------------------------------

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatrixLayoutInit_internal(
    cublasLtMatrixLayout_t matLayout, size_t size, cudaDataType type,
    uint64_t rows, uint64_t cols, int64_t ld) {
  if (!matLayout || size < sizeof(cublasLtMatrixLayoutOpaque_t))
    return CUBLAS_STATUS_ALLOC_FAILED;
  return initLayout(matLayout, type, rows, cols, ld);
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatrixLayoutCreate(
    cublasLtMatrixLayout_t *matLayout, cudaDataType type, uint64_t rows,
    uint64_t cols, int64_t ld) {
  if (!matLayout)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, "cublasLtMatrixLayoutCreate",
                    "matLayout is null");
  auto *L = new (std::nothrow) cublasLtMatrixLayoutOpaque_t;
  if (!L)
    return CUBLAS_STATUS_ALLOC_FAILED;
  initLayout(L, type, rows, cols, ld);
  *matLayout = L;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t
cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout) {
  if (LayoutState *S = layoutOf(matLayout))
    S->Magic = 0;
  delete matLayout;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatrixLayoutSetAttribute(
    cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
    const void *buf, size_t sizeInBytes) {
  const char *Fn = "cublasLtMatrixLayoutSetAttribute";
  LayoutState *S = layoutOf(matLayout);
  if (!S)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "matLayout is not an initialised layout");
  return setField(Fn, layoutField(*S, attr), attr, buf, sizeInBytes);
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatrixLayoutGetAttribute(
    cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
    void *buf, size_t sizeInBytes, size_t *sizeWritten) {
  const char *Fn = "cublasLtMatrixLayoutGetAttribute";
  LayoutState *S = layoutOf(matLayout);
  if (!S)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "matLayout is not an initialised layout");
  return getField(Fn, layoutField(*S, attr), attr, buf, sizeInBytes,
                  sizeWritten);
}

// --- matmul descriptors -----------------------------------------------------

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatmulDescInit_internal(
    cublasLtMatmulDesc_t matmulDesc, size_t size,
    cublasComputeType_t computeType, cudaDataType_t scaleType) {
  if (!matmulDesc || size < sizeof(cublasLtMatmulDescOpaque_t))
    return CUBLAS_STATUS_ALLOC_FAILED;
  return initMatmulDesc(matmulDesc, computeType, scaleType);
}

CUHIP_LT_EXPORT cublasStatus_t
cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc,
                         cublasComputeType_t computeType,
                         cudaDataType_t scaleType) {
  if (!matmulDesc)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, "cublasLtMatmulDescCreate",
                    "matmulDesc is null");
  auto *D = new (std::nothrow) cublasLtMatmulDescOpaque_t;
  if (!D)
    return CUBLAS_STATUS_ALLOC_FAILED;
  initMatmulDesc(D, computeType, scaleType);
  *matmulDesc = D;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t
cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc) {
  if (MatmulDescState *S = matmulDescOf(matmulDesc))
    S->Magic = 0;
  delete matmulDesc;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatmulDescSetAttribute(
    cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
    const void *buf, size_t sizeInBytes) {
  const char *Fn = "cublasLtMatmulDescSetAttribute";
  MatmulDescState *S = matmulDescOf(matmulDesc);
  if (!S)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "matmulDesc is not an initialised matmul descriptor");
  Field F = matmulDescField(*S, attr);
  if ((attr == CUBLASLT_MATMUL_DESC_TRANSA ||
       attr == CUBLASLT_MATMUL_DESC_TRANSB ||
       attr == CUBLASLT_MATMUL_DESC_TRANSC) &&
      buf && sizeInBytes == sizeof(int32_t)) {
    int32_t Op;
    std::memcpy(&Op, buf, sizeof(Op));
    if (Op < CUBLAS_OP_N || Op > CUBLAS_OP_CONJG)
      return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                      "%d is not a cublasOperation_t (CUBLAS_OP_N, _T or _C)",
                      Op);
  }
  return setField(Fn, F, attr, buf, sizeInBytes);
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatmulDescGetAttribute(
    cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
    void *buf, size_t sizeInBytes, size_t *sizeWritten) {
  const char *Fn = "cublasLtMatmulDescGetAttribute";
  MatmulDescState *S = matmulDescOf(matmulDesc);
  if (!S)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "matmulDesc is not an initialised matmul descriptor");
  return getField(Fn, matmulDescField(*S, attr), attr, buf, sizeInBytes,
                  sizeWritten);
}

// --- preferences ------------------------------------------------------------

CUHIP_LT_EXPORT cublasStatus_t
cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref,
                                      size_t size) {
  if (!pref || size < sizeof(cublasLtMatmulPreferenceOpaque_t))
    return CUBLAS_STATUS_ALLOC_FAILED;
  return initPreference(pref);
}

CUHIP_LT_EXPORT cublasStatus_t
cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref) {
  if (!pref)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE,
                    "cublasLtMatmulPreferenceCreate", "pref is null");
  auto *P = new (std::nothrow) cublasLtMatmulPreferenceOpaque_t;
  if (!P)
    return CUBLAS_STATUS_ALLOC_FAILED;
  initPreference(P);
  *pref = P;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t
cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  if (PreferenceState *S = preferenceOf(pref))
    S->Magic = 0;
  delete pref;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatmulPreferenceSetAttribute(
    cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr,
    const void *buf, size_t sizeInBytes) {
  const char *Fn = "cublasLtMatmulPreferenceSetAttribute";
  PreferenceState *S = preferenceOf(pref);
  if (!S)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "pref is not an initialised preference");
  return setField(Fn, preferenceField(*S, attr), attr, buf, sizeInBytes);
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtMatmulPreferenceGetAttribute(
    cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr,
    void *buf, size_t sizeInBytes, size_t *sizeWritten) {
  const char *Fn = "cublasLtMatmulPreferenceGetAttribute";
  PreferenceState *S = preferenceOf(pref);
  if (!S)
    return ltRefuse(CUBLAS_STATUS_INVALID_VALUE, Fn,
                    "pref is not an initialised preference");
  return getField(Fn, preferenceField(*S, attr), attr, buf, sizeInBytes,
                  sizeWritten);
}
