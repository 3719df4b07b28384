//===- CublasLegacyTest.cpp - The legacy cuBLAS API (cublas.h) -----------===//
//
// Old programs use cublas.h: an implicit context (cublasInit/Shutdown),
// scalars and results by value, character options, errors read with
// cublasGetError. This file is compiled against the toolkit's cublas.h
// (which cannot share a file with cublas_v2.h) and checks that context,
// a sample of every level against plain loops, and the error reporting.
//
//===----------------------------------------------------------------------===//
#include <cublas.h>
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

namespace {

template <typename T> T *upload(const std::vector<T> &V) {
  T *P = nullptr;
  EXPECT_EQ(cublasAlloc(static_cast<int>(V.size()), sizeof(T),
                        reinterpret_cast<void **>(&P)),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(
      cublasSetVector(static_cast<int>(V.size()), sizeof(T), V.data(), 1, P, 1),
      CUBLAS_STATUS_SUCCESS);
  return P;
}

template <typename T> std::vector<T> download(const T *P, int N) {
  std::vector<T> V(N);
  EXPECT_EQ(cublasGetVector(N, sizeof(T), P, 1, V.data(), 1),
            CUBLAS_STATUS_SUCCESS);
  return V;
}

TEST(CublasLegacy, ContextLevel1AndErrors) {
  ASSERT_EQ(cublasInit(), CUBLAS_STATUS_SUCCESS);
  int Version = 0;
  ASSERT_EQ(cublasGetVersion(&Version), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Version / 10000, 13);
  float *X = upload<float>({1, -5, 3, 4}), *Y = upload<float>({1, 1, 1, 1});
  cublasSaxpy(4, 2.0f, X, 1, Y, 1);
  EXPECT_EQ(cublasGetError(), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(download(Y, 4), (std::vector<float>{3, -9, 7, 9}));
  EXPECT_EQ(cublasSdot(4, X, 1, Y, 1), 3 + 45 + 21 + 36);
  EXPECT_FLOAT_EQ(cublasSnrm2(4, X, 1), std::sqrt(51.0f));
  EXPECT_EQ(cublasSasum(4, X, 1), 13);
  EXPECT_EQ(cublasIsamax(4, X, 1), 2);
  EXPECT_EQ(cublasIsamin(4, X, 1), 1);
  cublasSscal(2, -1.0f, X, 2);
  EXPECT_EQ(download(X, 4), (std::vector<float>{-1, -5, -3, 4}));
  cublasSswap(4, X, 1, Y, -1);
  EXPECT_EQ(download(X, 4), (std::vector<float>{9, 7, -9, 3}));
  // An invalid option is kept for cublasGetError, which then forgets it.
  cublasSgemv('x', 2, 2, 1.0f, X, 2, X, 1, 0.0f, Y, 1);
  EXPECT_EQ(cublasGetError(), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasGetError(), CUBLAS_STATUS_SUCCESS);
  cublasStrmv('U', 'N', 'N', 2, X, -1, Y, 1);
  EXPECT_EQ(cublasGetError(), CUBLAS_STATUS_INVALID_VALUE);
  void *P = nullptr;
  EXPECT_EQ(cublasAlloc(0, 4, &P), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasFree(X), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasFree(Y), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasShutdown(), CUBLAS_STATUS_SUCCESS);
}

TEST(CublasLegacy, ComplexByValue) {
  using cf = std::complex<float>;
  std::vector<cuComplex> Xh = {{1, 2}, {3, -1}}, Yh = {{0, 1}, {2, 2}};
  cuComplex *X = upload(Xh), *Y = upload(Yh);
  cuComplex Dot = cublasCdotc(2, X, 1, Y, 1);
  cf Want = std::conj(cf(1, 2)) * cf(0, 1) + std::conj(cf(3, -1)) * cf(2, 2);
  EXPECT_FLOAT_EQ(Dot.x, Want.real());
  EXPECT_FLOAT_EQ(Dot.y, Want.imag());
  EXPECT_FLOAT_EQ(cublasScasum(2, X, 1), 7);
  EXPECT_EQ(cublasIcamax(2, X, 1), 2);
  // C = alpha A B with A 1 x 2 (X as a row) and B 2 x 1 (Y): C = alpha x.y.
  cuComplex *C = upload<cuComplex>({{0, 0}});
  cuComplex Alpha{0, 1}, Beta{0, 0};
  cublasCgemm('N', 'N', 1, 1, 2, Alpha, X, 1, Y, 2, Beta, C, 1);
  EXPECT_EQ(cublasGetError(), CUBLAS_STATUS_SUCCESS);
  cf Got(download(C, 1)[0].x, download(C, 1)[0].y);
  cf WantC = cf(0, 1) * (cf(1, 2) * cf(0, 1) + cf(3, -1) * cf(2, 2));
  EXPECT_NEAR(std::abs(Got - WantC), 0, 1e-5);
  // Zrotg takes b by value.
  cuDoubleComplex A{3, 0}, S;
  double Cs;
  cublasZrotg(&A, cuDoubleComplex{4, 0}, &Cs, &S);
  EXPECT_NEAR(A.x, 5, 1e-12);
  EXPECT_NEAR(Cs, 0.6, 1e-12);
  cublasFree(X);
  cublasFree(Y);
  cublasFree(C);
}

TEST(CublasLegacy, Level3OnTheKernelStream) {
  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  ASSERT_EQ(cublasSetKernelStream(S), CUBLAS_STATUS_SUCCESS);
  // B = inv(L) B in place for L = [2 0; 1 1] (lower), with alpha 2.
  std::vector<double> Lh = {2, 1, 0, 1}, Bh = {4, 3, 2, 5};
  double *L = upload(Lh), *B = upload(Bh);
  cublasDtrsm('L', 'L', 'N', 'N', 2, 2, 2.0, L, 2, B, 2);
  EXPECT_EQ(cublasGetError(), CUBLAS_STATUS_SUCCESS);
  // Column 1: 2*(4,3): x0 = 4, x1 = 6 - 4 = 2; column 2: 2*(2,5): 2, 8.
  std::vector<double> Got(4);
  cudaMemcpyAsync(Got.data(), B, sizeof(double) * 4, cudaMemcpyDeviceToHost, S);
  cudaStreamSynchronize(S);
  EXPECT_EQ(Got, (std::vector<double>{4, 2, 2, 8}));
  // C = A A^T (lower triangle) with dsyrk, then the legacy trmm in place.
  double *C = upload<double>({0, 0, -7, 0});
  cublasDsyrk('L', 'N', 2, 2, 1.0, L, 2, 0.0, C, 2);
  EXPECT_EQ(download(C, 4), (std::vector<double>{4, 2, -7, 2}));
  cublasDtrmm('L', 'U', 'T', 'U', 2, 2, 1.0, L, 2, B, 2);
  // L's upper triangle with a unit diagonal is I, so B stays.
  EXPECT_EQ(download(B, 4), (std::vector<double>{4, 2, 2, 8}));
  cublasSetKernelStream(nullptr);
  cublasFree(L);
  cublasFree(B);
  cublasFree(C);
  cudaStreamDestroy(S);
}

} // namespace
