// cublas_sgemm: the float32 matrix multiplies of a GPT-2 layer through
// cublasSgemm, as llm.c's matmul_forward writes them (out = inp @ weight^T in
// row-major terms, i.e. op(A) = weight^T, op(B) = inp in cuBLAS's
// column-major terms), then every transpose combination with padded leading
// dimensions and alpha/beta read from host memory and from device memory
// (CUBLAS_POINTER_MODE_DEVICE), on a stream of the program's own. Also checks
// that a leading dimension that is too small is refused. Checked against a
// double-precision host GEMM; prints PASS or FAIL.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorName(err_), cudaGetErrorString(err_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

#define CHECK_BLAS(call)                                                       \
  do {                                                                         \
    cublasStatus_t st_ = (call);                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cublasGetStatusName(st_),                            \
                   cublasGetStatusString(st_));                                \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static unsigned state = 12345u;
static float frand() {
  state = state * 1664525u + 1013904223u;
  return float(state >> 8) / float(1 << 24) * 2.0f - 1.0f;
}

// Element (i, j) of op(X) for a column-major X with leading dimension ld.
static double opAt(const std::vector<float> &x, int ld, bool trans, int i,
                   int j) {
  return trans ? x[size_t(i) * ld + j] : x[size_t(j) * ld + i];
}

// Compares the m x n column-major result got (leading dimension ldc)
// against alpha * op(A) op(B) + beta * c0 in double precision. The bound is
// float32 accumulation over k terms: k * 2^-23 of sum |a||b|, plus the
// beta term's rounding.
static int checkGemm(const char *what, bool ta, bool tb, int m, int n, int k,
                     float alpha, const std::vector<float> &a, int lda,
                     const std::vector<float> &b, int ldb, float beta,
                     const std::vector<float> &c0,
                     const std::vector<float> &got, int ldc) {
  int bad = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double acc = 0.0, mag = 0.0;
      for (int p = 0; p < k; ++p) {
        double t = opAt(a, lda, ta, i, p) * opAt(b, ldb, tb, p, j);
        acc += t;
        mag += std::fabs(t);
      }
      double c = c0[size_t(j) * ldc + i];
      double want = alpha * acc + beta * c;
      double tol = (std::fabs(alpha) * mag + std::fabs(beta * c)) *
                       (k + 2) * std::ldexp(1.0, -23) + 1e-6;
      double g = got[size_t(j) * ldc + i];
      if (!(std::fabs(g - want) <= tol) && bad++ < 5)
        std::fprintf(stderr, "%s (%c%c): C[%d,%d] = %.8g, want %.8g\n", what,
                     ta ? 'T' : 'N', tb ? 'T' : 'N', i, j, g, want);
    }
  // Padding rows between m and ldc belong to the caller: untouched.
  for (int j = 0; j < n; ++j)
    for (int i = m; i < ldc; ++i)
      if (got[size_t(j) * ldc + i] != c0[size_t(j) * ldc + i] && bad++ < 5)
        std::fprintf(stderr, "%s: padding C[%d,%d] was overwritten\n", what, i,
                     j);
  return bad;
}

static std::vector<float> randomMatrix(size_t n) {
  std::vector<float> v(n);
  for (float &x : v)
    x = frand();
  return v;
}

int main() {
  cublasHandle_t handle;
  CHECK_BLAS(cublasCreate(&handle));
  int version = 0;
  CHECK_BLAS(cublasGetVersion(handle, &version));
  if (version <= 0) {
    std::fprintf(stderr, "cublasGetVersion returned %d\n", version);
    return 1;
  }
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK_BLAS(cublasSetStream(handle, stream));
  int bad = 0;

  // 1. llm.c's matmul forward: inp (B*T, C) and weight (OC, C), row-major,
  // out (B*T, OC) = inp @ weight^T. In column-major terms out^T (OC x BT) =
  // weight (as C x OC, transposed) times inp^T (C x BT).
  {
    const int BT = 64, C = 96, OC = 4 * 96;
    std::vector<float> inp = randomMatrix(size_t(BT) * C);
    std::vector<float> weight = randomMatrix(size_t(OC) * C);
    std::vector<float> zeros(size_t(BT) * OC, 0.0f), out(zeros.size());
    float *dInp, *dWeight, *dOut;
    CHECK(cudaMalloc(&dInp, inp.size() * 4));
    CHECK(cudaMalloc(&dWeight, weight.size() * 4));
    CHECK(cudaMalloc(&dOut, out.size() * 4));
    CHECK(cudaMemcpy(dInp, inp.data(), inp.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dWeight, weight.data(), weight.size() * 4,
                     cudaMemcpyHostToDevice));
    const float one = 1.0f, zero = 0.0f;
    CHECK_BLAS(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, OC, BT, C, &one,
                           dWeight, C, dInp, C, &zero, dOut, OC));
    CHECK(cudaMemcpyAsync(out.data(), dOut, out.size() * 4,
                          cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    bad += checkGemm("matmul_forward", true, false, OC, BT, C, 1.0f, weight, C,
                     inp, C, 0.0f, zeros, out, OC);
    CHECK(cudaFree(dInp));
    CHECK(cudaFree(dWeight));
    CHECK(cudaFree(dOut));
  }

  // 2. Every transpose combination, odd sizes, padded leading dimensions,
  // alpha and beta on the host and then on the device.
  const int m = 37, n = 29, k = 53;
  float *dScalars;
  const float hostScalars[2] = {0.75f, -1.25f};
  CHECK(cudaMalloc(&dScalars, sizeof hostScalars));
  CHECK(cudaMemcpy(dScalars, hostScalars, sizeof hostScalars,
                   cudaMemcpyHostToDevice));
  for (int mode = 0; mode < 2; ++mode) {
    CHECK_BLAS(cublasSetPointerMode(handle, mode ? CUBLAS_POINTER_MODE_DEVICE
                                                 : CUBLAS_POINTER_MODE_HOST));
    cublasPointerMode_t readBack;
    CHECK_BLAS(cublasGetPointerMode(handle, &readBack));
    if (readBack != (mode ? CUBLAS_POINTER_MODE_DEVICE
                          : CUBLAS_POINTER_MODE_HOST)) {
      std::fprintf(stderr, "cublasGetPointerMode: got %d\n", int(readBack));
      ++bad;
    }
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb) {
        int aRows = ta ? k : m, aCols = ta ? m : k;
        int bRows = tb ? n : k, bCols = tb ? k : n;
        int lda = aRows + 3, ldb = bRows + 5, ldc = m + 2;
        std::vector<float> a = randomMatrix(size_t(lda) * aCols);
        std::vector<float> b = randomMatrix(size_t(ldb) * bCols);
        std::vector<float> c = randomMatrix(size_t(ldc) * n), got(c.size());
        float *dA, *dB, *dC;
        CHECK(cudaMalloc(&dA, a.size() * 4));
        CHECK(cudaMalloc(&dB, b.size() * 4));
        CHECK(cudaMalloc(&dC, c.size() * 4));
        CHECK(cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dC, c.data(), c.size() * 4, cudaMemcpyHostToDevice));
        const float *alpha = mode ? dScalars : &hostScalars[0];
        const float *beta = mode ? dScalars + 1 : &hostScalars[1];
        CHECK_BLAS(cublasSgemm(handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                               tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, alpha,
                               dA, lda, dB, ldb, beta, dC, ldc));
        CHECK(cudaStreamSynchronize(stream));
        CHECK(cudaMemcpy(got.data(), dC, got.size() * 4,
                         cudaMemcpyDeviceToHost));
        bad += checkGemm(mode ? "alpha/beta on device" : "alpha/beta on host",
                         ta, tb, m, n, k, hostScalars[0], a, lda, b, ldb,
                         hostScalars[1], c, got, ldc);
        CHECK(cudaFree(dA));
        CHECK(cudaFree(dB));
        CHECK(cudaFree(dC));
      }
  }
  CHECK_BLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));

  // 3. A leading dimension smaller than the rows it must hold is refused
  // before anything runs.
  {
    const float one = 1.0f;
    cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                    &one, dScalars, m - 1, dScalars, k, &one,
                                    dScalars, m);
    if (st != CUBLAS_STATUS_INVALID_VALUE) {
      std::fprintf(stderr, "lda < m: got %s, want CUBLAS_STATUS_INVALID_VALUE\n",
                   cublasGetStatusName(st));
      ++bad;
    }
  }

  CHECK(cudaFree(dScalars));
  CHECK_BLAS(cublasDestroy(handle));
  CHECK(cudaStreamDestroy(stream));
  std::printf("cublas_sgemm: %s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
