//===- LtState.h - What cuhip keeps in cuBLASLt's handles and descriptors -===//
//
// cuBLASLt's descriptors are semi-opaque: a program may allocate the storage
// itself (cublasLtMatmulDescOpaque_t on its stack) and fill it with the
// *Init forms, so cuhip's state lives inside those fixed-size structs rather
// than behind a pointer. A magic word tells an initialised descriptor from
// garbage so that cublasLtMatmul can say which argument is wrong.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CublasLtTypes.h"

#include <atomic>
#include <cstdint>
#include <cstring>

#define CUHIP_LT_EXPORT extern "C" __attribute__((visibility("default")))

namespace cuhip::blaslt {

constexpr uint32_t LayoutMagic = 0x4c61794fu;     // "LayO"
constexpr uint32_t MatmulDescMagic = 0x4d6d4453u; // "MmDS"
constexpr uint32_t PreferenceMagic = 0x50726566u; // "Pref"
constexpr uint32_t HandleMagic = 0x4c744878u;     // "LtHx"
constexpr uint64_t AlgoMagic = 0x6375686970416c67ull; // "cuhipAlg"

struct LayoutState {
  uint32_t Magic;
  int32_t Type;       // cudaDataType
  int32_t Order;      // cublasLtOrder_t
  int32_t BatchCount; // >= 1
  uint64_t Rows, Cols;
  int64_t Ld;
  int64_t BatchStride; // elements
  int64_t PlaneOffset;
  uint32_t BatchMode;
};
static_assert(sizeof(LayoutState) <= sizeof(cublasLtMatrixLayoutOpaque_t));

struct MatmulDescState {
  uint32_t Magic;
  int32_t ComputeType; // cublasComputeType_t
  int32_t ScaleType;   // cudaDataType
  int32_t PointerMode; // cublasLtPointerMode_t
  int32_t TransA, TransB, TransC;
  int32_t FillMode;
  uint32_t Epilogue; // cublasLtEpilogue_t
  int32_t BiasType;  // cudaDataType, -1: D's type
  int32_t AuxType;   // cudaDataType, -1: D's type
  int32_t SmCountTarget;
  void *Bias;
  int64_t BiasBatchStride;
  void *Aux;
  int64_t AuxLd;
  int64_t AuxBatchStride;
  int64_t AlphaVectorBatchStride;
  // Attributes of fp8 and block-scaled GEMMs: kept so that programs can set
  // and read them back; cublasLtMatmul refuses a non-null one.
  void *AScale, *BScale, *CScale, *DScale, *AmaxD, *AuxScale, *AuxAmax,
      *DOutScale, *Emulation;
  int32_t AScaleMode, BScaleMode, CScaleMode, DScaleMode, AuxScaleMode,
      DOutScaleMode;
  int8_t FastAccum;
};
static_assert(sizeof(MatmulDescState) <= sizeof(cublasLtMatmulDescOpaque_t));

struct PreferenceState {
  uint32_t Magic;
  uint32_t SearchMode;
  uint64_t MaxWorkspaceBytes;
  uint32_t ReductionSchemeMask;
  uint32_t MinAlignment[4]; // A, B, C, D
  float MaxWavesCount;
  uint64_t ImplMask;
};
static_assert(sizeof(PreferenceState) <= sizeof(cublasLtMatmulPreferenceOpaque_t));

template <typename State, typename Opaque> State *stateOf(Opaque *O) {
  return reinterpret_cast<State *>(O);
}

inline LayoutState *layoutOf(cublasLtMatrixLayout_t L) {
  auto *S = stateOf<LayoutState>(L);
  return S && S->Magic == LayoutMagic ? S : nullptr;
}
inline MatmulDescState *matmulDescOf(cublasLtMatmulDesc_t D) {
  auto *S = stateOf<MatmulDescState>(D);
  return S && S->Magic == MatmulDescMagic ? S : nullptr;
}
inline PreferenceState *preferenceOf(cublasLtMatmulPreference_t P) {
  auto *S = stateOf<PreferenceState>(P);
  return S && S->Magic == PreferenceMagic ? S : nullptr;
}

} // namespace cuhip::blaslt

struct cublasLtContext {
  uint32_t Magic = cuhip::blaslt::HandleMagic;
  /// The hipBLASLt handle when the HIP backend forwards; null on the CPU.
  void *HipHandle = nullptr;
};

namespace cuhip::blaslt {
inline bool validHandle(cublasLtHandle_t H) {
  return H && H->Magic == HandleMagic;
}

/// cuBLASLt's own logger (cublasLtLogger*): programs may route its
/// messages to a callback or a file. cuhip sends every refusal through the
/// runtime's logger (CUHIP_LOG) as well; see LtLog.cpp.
enum LtLogLevel { LtLogError = 1, LtLogTrace = 5 };
void ltLog(int Level, const char *Function, const char *Fmt, ...)
    __attribute__((format(printf, 3, 4)));
/// A refusal: logs why at warn level (and to the program's cuBLASLt logger
/// at error level) and returns Status.
cublasStatus_t ltRefuse(cublasStatus_t Status, const char *Function,
                        const char *Fmt, ...)
    __attribute__((format(printf, 3, 4)));
} // namespace cuhip::blaslt
