//===- RocblasForwardingTest.cpp - The engine's rocBLAS calls -------------===//
//
// On the HIP backend the engine hands its operations to rocBLAS. rocBLAS is
// not installed here, so the calls go to a recording stand-in
// (StandInRocblas.cpp) and the test reads back what arrived: the stream,
// the pointer mode, rocBLAS's numbers for transposes, types and compute
// types, sizes, leading dimensions and strides. Without the library every
// operation answers not-supported.
//
//===----------------------------------------------------------------------===//
#include "Gemm.h"

#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>

using namespace cuhip;
using namespace cuhip::blas;

namespace {

class RocblasForwarding : public testing::Test {
protected:
  void *Lib = nullptr;
  const char *(*ReadLog)() = nullptr;
  void SetUp() override {
    setenv("CUHIP_ROCBLAS_LIBRARY", STANDIN_ROCBLAS_PATH, 1);
    rocblas::reset();
    Lib = dlopen(STANDIN_ROCBLAS_PATH, RTLD_NOW);
    ASSERT_NE(Lib, nullptr) << dlerror();
    ReadLog = reinterpret_cast<const char *(*)()>(
        dlsym(Lib, "standInRocblasLog"));
    ASSERT_NE(ReadLog, nullptr);
    ReadLog();
  }
  void TearDown() override {
    unsetenv("CUHIP_ROCBLAS_LIBRARY");
    rocblas::reset();
  }
  std::string log() { return ReadLog(); }
};

void *const FakeStream = reinterpret_cast<void *>(0x5000);

GemmDesc bf16Gemm() {
  static float One = 1, Zero = 0;
  GemmDesc G;
  G.TransA = Op::T;
  G.M = 64;
  G.N = 32;
  G.K = 48;
  G.TypeA = G.TypeB = DType::BF16;
  G.TypeC = G.TypeD = DType::F32;
  G.A = reinterpret_cast<void *>(0x1000);
  G.B = reinterpret_cast<void *>(0x2000);
  G.C = G.D = reinterpret_cast<void *>(0x3000);
  G.Lda = 48;
  G.Ldb = 50;
  G.Ldc = G.Ldd = 64;
  G.Alpha = &One;
  G.Beta = &Zero;
  return G;
}

} // namespace

TEST_F(RocblasForwarding, GemmEx) {
  GemmDesc G = bf16Gemm();
  ASSERT_EQ(rocblas::gemm(G, FakeStream), rt::cudaSuccess);
  std::string L = log();
  EXPECT_NE(L.find("rocblas_create_handle"), std::string::npos) << L;
  EXPECT_NE(L.find("rocblas_set_stream 0x5000"), std::string::npos) << L;
  EXPECT_NE(L.find("rocblas_set_pointer_mode 0"), std::string::npos) << L;
  // transpose 112, none 111; bf16 168, f32 151; compute f32 151.
  EXPECT_NE(L.find("rocblas_gemm_ex ta=112 tb=111 m=64 n=32 k=48 "
                   "a=0x1000:168:48 b=0x2000:168:50 c=0x3000:151:64 "
                   "d=0x3000:151:64 compute=151 algo=0"),
            std::string::npos)
      << L;
}

TEST_F(RocblasForwarding, BatchesDeviceScalarsAndHalfCompute) {
  GemmDesc G = bf16Gemm();
  G.TypeA = G.TypeB = G.TypeC = G.TypeD = DType::F16;
  G.ComputeType = Compute::F16;
  G.BatchCount = 12;
  G.StrideA = 100;
  G.StrideB = 200;
  G.StrideC = G.StrideD = 300;
  G.ScalarsOnDevice = true;
  ASSERT_EQ(rocblas::gemm(G, FakeStream), rt::cudaSuccess);
  std::string L = log();
  EXPECT_NE(L.find("rocblas_set_pointer_mode 1"), std::string::npos) << L;
  EXPECT_NE(L.find("rocblas_gemm_strided_batched_ex ta=112 tb=111 m=64 n=32 "
                   "k=48 a=0x1000:150:48:100 b=0x2000:150:50:200 "
                   "c=0x3000:150:64:300 d=0x3000:150:64:300 batch=12 "
                   "compute=150"),
            std::string::npos)
      << L;
  GemmDesc P = bf16Gemm();
  void *Arrays[3] = {};
  P.AArray = reinterpret_cast<const void *const *>(0x7000);
  P.BArray = reinterpret_cast<const void *const *>(0x8000);
  P.CArray = nullptr;
  P.DArray = reinterpret_cast<void *const *>(0x9000);
  P.BatchCount = 3;
  (void)Arrays;
  ASSERT_EQ(rocblas::gemm(P, FakeStream), rt::cudaSuccess);
  L = log();
  EXPECT_NE(L.find("rocblas_gemm_batched_ex m=64 n=32 k=48 a=0x7000 b=0x8000 "
                   "c=0x9000 d=0x9000 batch=3 compute=151"),
            std::string::npos)
      << L;
}

TEST_F(RocblasForwarding, RefusalsBecomeErrors) {
  GemmDesc G = bf16Gemm();
  G.M = 77; // the stand-in answers rocblas_status_invalid_size
  EXPECT_EQ(rocblas::gemm(G, FakeStream), rt::cudaErrorInvalidValue);
  G.M = int64_t(1) << 33;
  EXPECT_EQ(rocblas::gemm(G, FakeStream), rt::cudaErrorNotSupported);
}

TEST_F(RocblasForwarding, VectorsAndGemv) {
  float Alpha = 1, Result;
  VectorDesc V;
  V.Kind = VectorOp::Axpy;
  V.N = 10;
  V.XType = V.YType = DType::F16;
  V.IncX = 2;
  V.IncY = -1;
  V.Alpha = &Alpha;
  V.X = V.Y = &Result;
  ASSERT_EQ(rocblas::vectorOp(V, FakeStream), rt::cudaSuccess);
  V.Kind = VectorOp::Dot;
  V.Result = &Result;
  ASSERT_EQ(rocblas::vectorOp(V, FakeStream), rt::cudaSuccess);
  V.Kind = VectorOp::Nrm2;
  V.XType = DType::BF16;
  ASSERT_EQ(rocblas::vectorOp(V, FakeStream), rt::cudaSuccess);
  V.Kind = VectorOp::Scal;
  ASSERT_EQ(rocblas::vectorOp(V, FakeStream), rt::cudaSuccess);
  V.Kind = VectorOp::Amax;
  V.XType = DType::F64;
  ASSERT_EQ(rocblas::vectorOp(V, FakeStream), rt::cudaSuccess);
  GemvDesc M;
  M.Trans = Op::T;
  M.M = 5;
  M.N = 6;
  M.Lda = 7;
  M.IncX = 1;
  M.IncY = 3;
  M.Alpha = M.Beta = &Alpha;
  ASSERT_EQ(rocblas::gemv(M, FakeStream), rt::cudaSuccess);
  std::string L = log();
  for (const char *Want :
       {"rocblas_axpy_ex n=10 alpha=151 x=150:2 y=150:-1 exec=151",
        "rocblas_dot_ex n=10 x=150:2 y=150:-1 result=151 exec=151",
        "rocblas_nrm2_ex n=10 x=168:2 result=151 exec=151",
        "rocblas_scal_ex n=10 alpha=151 x=168:2 exec=151",
        "rocblas_idamax n=10 incx=2",
        "rocblas_sgemv trans=112 m=5 n=6 lda=7 incx=1 incy=3"})
    EXPECT_NE(L.find(Want), std::string::npos) << Want << "\n" << L;
}

TEST(RocblasAbsent, EveryOperationIsNotSupported) {
  setenv("CUHIP_ROCBLAS_LIBRARY", "/nonexistent/librocblas.so.4", 1);
  rocblas::reset();
  GemmDesc G = bf16Gemm();
  EXPECT_EQ(rocblas::gemm(G, FakeStream), rt::cudaErrorNotSupported);
  VectorDesc V;
  V.N = 3;
  EXPECT_EQ(rocblas::vectorOp(V, FakeStream), rt::cudaErrorNotSupported);
  GemvDesc M;
  EXPECT_EQ(rocblas::gemv(M, FakeStream), rt::cudaErrorNotSupported);
  unsetenv("CUHIP_ROCBLAS_LIBRARY");
  rocblas::reset();
}
