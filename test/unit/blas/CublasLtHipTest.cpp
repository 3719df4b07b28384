//===- CublasLtHipTest.cpp - cuBLASLt's hipBLASLt forwarding --------------===//
//
// The HIP backend's cuBLASLt hands matmuls to hipBLASLt. With no AMD GPU and
// no hipBLASLt here, these tests load a recording stand-in
// (StandInHipblasLt.cpp) and check what cuhip asks of it: hipBLASLt's own
// numbers for operations, compute types and attributes, the epilogue and
// its pointers, row order and batches on the layouts, the program's
// pointers and the HIP stream passed through, every descriptor destroyed.
// Without the library, creating a handle is refused with NOT_SUPPORTED.
//
//===----------------------------------------------------------------------===//
#include "LtApi.h"

#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace cuhip::blaslt;

// The API entry points this test builds descriptors with (cuhip's own
// types; the toolkit's header is not used here).
extern "C" {
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *,
                                        cublasComputeType_t, cudaDataType_t);
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t);
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t,
                                              cublasLtMatmulDescAttributes_t,
                                              const void *, size_t);
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *,
                                          cudaDataType, uint64_t, uint64_t,
                                          int64_t);
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t);
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t,
                                                cublasLtMatrixLayoutAttribute_t,
                                                const void *, size_t);
cublasStatus_t cublasLtCreate(cublasLtHandle_t *);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t);
cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t,
                              const void *, const void *,
                              cublasLtMatrixLayout_t, const void *,
                              cublasLtMatrixLayout_t, const void *,
                              const void *, cublasLtMatrixLayout_t, void *,
                              cublasLtMatrixLayout_t,
                              const cublasLtMatmulAlgo_t *, void *, size_t,
                              cudaStream_t);
}

namespace {

std::string standInLog() {
  void *L = dlopen(STANDIN_HIPBLASLT_PATH, RTLD_NOW | RTLD_NOLOAD);
  if (!L)
    return "";
  auto *Fn = reinterpret_cast<const char *(*)()>(
      dlsym(L, "standInHipblasLtLog"));
  std::string S = Fn ? Fn() : "";
  dlclose(L);
  return S;
}

bool contains(const std::string &Log, const std::string &Line) {
  return Log.find(Line) != std::string::npos;
}

TEST(CublasLtHip, MissingLibraryIsNotSupported) {
  setenv("CUHIP_HIPBLASLT_LIBRARY", "/nonexistent/libhipblaslt.so.1", 1);
  hipblaslt::reset();
  void *H = nullptr;
  EXPECT_EQ(hipblaslt::createHandle(&H), CUBLAS_STATUS_NOT_SUPPORTED);
  unsetenv("CUHIP_HIPBLASLT_LIBRARY");
  hipblaslt::reset();
}

TEST(CublasLtHip, ForwardsMatmulWithEpilogue) {
  setenv("CUHIP_HIPBLASLT_LIBRARY", STANDIN_HIPBLASLT_PATH, 1);
  hipblaslt::reset();
  void *H = nullptr;
  ASSERT_EQ(hipblaslt::createHandle(&H), CUBLAS_STATUS_SUCCESS);

  cublasLtMatmulDesc_t Desc;
  ASSERT_EQ(cublasLtMatmulDescCreate(&Desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  int32_t T = CUBLAS_OP_T;
  uint32_t Epi = CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  void *Bias = reinterpret_cast<void *>(0xb1a5), *Aux = reinterpret_cast<void *>(0xa0c);
  int64_t AuxLd = 24;
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_TRANSA, &T, sizeof(T));
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &Epi, sizeof(Epi));
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &Bias, sizeof(Bias));
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &Aux, sizeof(Aux));
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &AuxLd, sizeof(AuxLd));

  cublasLtMatrixLayout_t L[4];
  cublasLtMatrixLayoutCreate(&L[0], CUDA_R_16BF, 16, 24, 16); // A^T: 24x16
  cublasLtMatrixLayoutCreate(&L[1], CUDA_R_16BF, 16, 10, 16);
  cublasLtMatrixLayoutCreate(&L[2], CUDA_R_16BF, 24, 10, 24);
  cublasLtMatrixLayoutCreate(&L[3], CUDA_R_16BF, 24, 10, 24);
  int32_t Row = CUBLASLT_ORDER_ROW, Batch = 4;
  int64_t Stride = 384;
  cublasLtMatrixLayoutSetAttribute(L[1], CUBLASLT_MATRIX_LAYOUT_ORDER, &Row, sizeof(Row));
  for (cublasLtMatrixLayout_t X : L) {
    cublasLtMatrixLayoutSetAttribute(X, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &Batch, sizeof(Batch));
    cublasLtMatrixLayoutSetAttribute(X, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &Stride, sizeof(Stride));
  }
  const LayoutState *Ls[4] = {layoutOf(L[0]), layoutOf(L[1]), layoutOf(L[2]),
                              layoutOf(L[3])};
  float Alpha = 2, Beta = 0;
  void *Stream = reinterpret_cast<void *>(0x5eed);
  EXPECT_EQ(hipblaslt::matmul(H, *matmulDescOf(Desc), Ls, &Alpha,
                              reinterpret_cast<void *>(0xa), reinterpret_cast<void *>(0xb),
                              &Beta, reinterpret_cast<void *>(0xc),
                              reinterpret_cast<void *>(0xd), nullptr, 0, Stream),
            CUBLAS_STATUS_SUCCESS);
  std::string Log = standInLog();
  SCOPED_TRACE(Log);
  // hipBLASLt numbers: HIPBLAS_COMPUTE_32F is 2, HIPBLAS_OP_T 112; the
  // attributes TRANSA 0, TRANSB 1, EPILOGUE 2, BIAS_POINTER 3,
  // EPILOGUE_AUX_POINTER 10, EPILOGUE_AUX_LD 11.
  EXPECT_TRUE(contains(Log, "hipblasLtMatmulDescCreate compute=2 scale=0"));
  EXPECT_TRUE(contains(Log, "attr=0 size=4 value=112"));
  EXPECT_TRUE(contains(Log, "attr=1 size=4 value=111"));
  EXPECT_TRUE(contains(Log, "attr=2 size=4 value=164"));
  EXPECT_TRUE(contains(Log, "attr=3 size=8 value=45477"));  // 0xb1a5
  EXPECT_TRUE(contains(Log, "attr=10 size=8 value=2572"));  // 0xa0c
  EXPECT_TRUE(contains(Log, "attr=11 size=8 value=24"));
  EXPECT_TRUE(contains(Log, "hipblasLtMatrixLayoutCreate type=14 rows=16 cols=24 ld=16"));
  EXPECT_TRUE(contains(Log, "attr=3 value=1")); // ORDER row on B
  EXPECT_TRUE(contains(Log, "attr=0 value=4")); // BATCH_COUNT
  EXPECT_TRUE(contains(Log, "attr=1 value=384")); // STRIDED_BATCH_OFFSET
  EXPECT_TRUE(contains(Log, "alpha=2 A=0xa B=0xb C=0xc D=0xd algo=(nil) workspace=0 stream=0x5eed"));
  // Everything created for the call is destroyed.
  size_t Created = 0, Destroyed = 0;
  for (size_t P = 0; (P = Log.find("Layout", P)) != std::string::npos; ++P) {
    if (Log.compare(P, 12, "LayoutCreate") == 0)
      ++Created;
    if (Log.compare(P, 13, "LayoutDestroy") == 0)
      ++Destroyed;
  }
  EXPECT_EQ(Created, 4u);
  EXPECT_EQ(Destroyed, 4u);
  EXPECT_TRUE(contains(Log, "hipblasLtMatmulDescDestroy"));

  for (cublasLtMatrixLayout_t X : L)
    cublasLtMatrixLayoutDestroy(X);
  cublasLtMatmulDescDestroy(Desc);
  hipblaslt::destroyHandle(H);
  EXPECT_TRUE(contains(standInLog(), "hipblasLtDestroy"));
  unsetenv("CUHIP_HIPBLASLT_LIBRARY");
  hipblaslt::reset();
}

/// Through the API on the runtime's HIP backend (the runtime's stand-in
/// libamdhip64): a handle holds a hipBLASLt handle, and a matmul on a
/// created stream reaches hipBLASLt with that stream's hipStream_t. Returns
/// a bit per failed check; runs in a child process, since the runtime picks
/// its backend once.
int checkThroughRuntime(bool WithHipblasLt) {
  setenv("CUHIP_BACKEND", "hip", 1);
  setenv("CUHIP_HIP_LIBRARY", STANDIN_HIP_PATH, 1);
  setenv("CUHIP_HIPBLASLT_LIBRARY",
         WithHipblasLt ? STANDIN_HIPBLASLT_PATH : "/nonexistent/libhipblaslt.so",
         1);
  cuhip::rt::Runtime &R = cuhip::rt::Runtime::get();
  if (!R.onHipBackend())
    return 1;
  cublasLtHandle_t H = nullptr;
  cublasStatus_t S = cublasLtCreate(&H);
  if (!WithHipblasLt)
    return S == CUBLAS_STATUS_NOT_SUPPORTED ? 0 : 2;
  if (S != CUBLAS_STATUS_SUCCESS || !H->HipHandle)
    return 4;
  void *Stream = nullptr, *HipStream = nullptr;
  if (R.streamCreate(&Stream, 0, 0) || R.nativeStream(Stream, &HipStream) ||
      !HipStream)
    return 8;
  cublasLtMatmulDesc_t Desc;
  cublasLtMatmulDescCreate(&Desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t L;
  cublasLtMatrixLayoutCreate(&L, CUDA_R_32F, 4, 4, 4);
  void *Dev = nullptr;
  if (R.malloc(&Dev, 64 * sizeof(float)))
    return 16;
  float One = 1, Zero = 0;
  S = cublasLtMatmul(H, Desc, &One, Dev, L, Dev, L, &Zero, Dev, L, Dev, L,
                     nullptr, nullptr, 0, static_cast<cudaStream_t>(Stream));
  if (S != CUBLAS_STATUS_SUCCESS)
    return 32;
  char Want[64];
  std::snprintf(Want, sizeof(Want), "stream=%p", HipStream);
  if (!contains(standInLog(), Want))
    return 64;
  return cublasLtDestroy(H) == CUBLAS_STATUS_SUCCESS ? 0 : 128;
}

TEST(CublasLtHip, ThroughTheRuntimesHipBackend) {
  GTEST_FLAG_SET(death_test_style, "threadsafe"); // OpenBLAS has threads
  EXPECT_EXIT(std::exit(checkThroughRuntime(true)),
              ::testing::ExitedWithCode(0), "");
}

TEST(CublasLtHip, CreateRefusedWithoutHipblasLtOnHipBackend) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(checkThroughRuntime(false)),
              ::testing::ExitedWithCode(0), "");
}

} // namespace
