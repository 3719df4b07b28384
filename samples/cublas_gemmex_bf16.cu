// cublas_gemmex_bf16: mixed-precision matrix multiplies through cublasGemmEx
// as bfloat16 LLM training code does them: bfloat16 weights and activations
// with float32 accumulation (CUBLAS_COMPUTE_32F) into a float32 output and
// into a bfloat16 output, the GPT-2 matmul_forward shape and transposes
// (op(A) = weight^T, op(B) = inp), with beta != 0 reading the old output;
// then float32 data with CUBLAS_COMPUTE_32F_FAST_16BF, which lets the library
// round the inputs to bfloat16. Checked against a double-precision host GEMM
// on the same (bfloat16-rounded) inputs, with a host float-to-bfloat16
// converter written here; prints PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// Host bfloat16 <-> float: bfloat16 is the upper half of a float32.
static uint16_t hostFloatToBF16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u); // round to nearest, ties to even
  return uint16_t(u >> 16);
}
static float hostBF16ToFloat(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

static unsigned state = 777u;
static float frand() {
  state = state * 1664525u + 1013904223u;
  return float(state >> 8) / float(1 << 24) * 2.0f - 1.0f;
}

// A column-major matrix kept as the float values the device sees.
struct Matrix {
  int rows, cols, ld;
  std::vector<float> v;
  double at(bool trans, int i, int j) const {
    return trans ? v[size_t(i) * ld + j] : v[size_t(j) * ld + i];
  }
};

static Matrix randomMatrix(int rows, int cols, int ld, bool bf16Values) {
  Matrix x{rows, cols, ld, std::vector<float>(size_t(ld) * cols)};
  for (float &f : x.v)
    f = bf16Values ? hostBF16ToFloat(hostFloatToBF16(frand())) : frand();
  return x;
}

static std::vector<uint16_t> toBF16(const std::vector<float> &v) {
  std::vector<uint16_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = hostFloatToBF16(v[i]);
  return out;
}

// got (m x n, leading dimension ldc) against alpha * op(A) op(B) + beta * C0.
// relTol bounds the output's own rounding relative to the result; inTol the
// inputs' rounding relative to sum |a||b| (zero when the inputs are exact).
static int check(const char *what, bool ta, bool tb, int m, int n, int k,
                 float alpha, const Matrix &a, const Matrix &b, float beta,
                 const Matrix &c0, const std::vector<float> &got,
                 double relTol, double inTol) {
  int bad = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double acc = 0.0, mag = 0.0;
      for (int p = 0; p < k; ++p) {
        double t = a.at(ta, i, p) * b.at(tb, p, j);
        acc += t;
        mag += std::fabs(t);
      }
      double c = c0.v[size_t(j) * c0.ld + i];
      double want = alpha * acc + beta * c;
      double sumMag = std::fabs(alpha) * mag + std::fabs(beta * c);
      double tol = std::fabs(want) * relTol + sumMag * inTol +
                   sumMag * (k + 2) * std::ldexp(1.0, -23) + 1e-6;
      double g = got[size_t(j) * c0.ld + i];
      if (!(std::fabs(g - want) <= tol) && bad++ < 5)
        std::fprintf(stderr, "%s: D[%d,%d] = %.8g, want %.8g (tolerance %.3g)\n",
                     what, i, j, g, want, tol);
    }
  return bad;
}

template <typename T> static T *upload(const std::vector<T> &v) {
  T *d = nullptr;
  if (cudaMalloc(&d, v.size() * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) !=
          cudaSuccess)
    return nullptr;
  return d;
}

int main() {
  cublasHandle_t handle;
  CHECK_BLAS(cublasCreate(&handle));
  // What bfloat16 training code asks for; the result must not depend on it.
  CHECK_BLAS(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  int bad = 0;

  // GPT-2 matmul_forward in bfloat16: out (BT x OC, row-major) = inp (BT x C)
  // @ weight (OC x C)^T, i.e. column-major D (OC x BT) = weight^T * inp.
  const int BT = 64, C = 96, OC = 192;
  Matrix weight = randomMatrix(C, OC, C, true);
  Matrix inp = randomMatrix(C, BT, C, true);
  std::vector<uint16_t> weight16 = toBF16(weight.v), inp16 = toBF16(inp.v);
  uint16_t *dWeight = upload(weight16), *dInp = upload(inp16);
  if (!dWeight || !dInp) {
    std::fprintf(stderr, "cudaMalloc/cudaMemcpy of the inputs failed\n");
    return 1;
  }
  const float alpha = 1.0f, beta = 0.5f;

  // bfloat16 inputs, float32 output, float32 compute.
  {
    Matrix c0 = randomMatrix(OC, BT, OC, false);
    float *dOut = upload(c0.v);
    if (!dOut)
      return 1;
    CHECK_BLAS(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, OC, BT, C, &alpha,
                            dWeight, CUDA_R_16BF, C, dInp, CUDA_R_16BF, C,
                            &beta, dOut, CUDA_R_32F, OC, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got(c0.v.size());
    CHECK(cudaMemcpy(got.data(), dOut, got.size() * 4, cudaMemcpyDeviceToHost));
    bad += check("bf16 x bf16 -> f32", true, false, OC, BT, C, alpha, weight,
                 inp, beta, c0, got, 0.0, 0.0);
    CHECK(cudaFree(dOut));
  }

  // bfloat16 inputs and output, float32 compute: one rounding to bfloat16
  // at the end (2^-8 relative, with a little room for the float sum).
  {
    Matrix c0 = randomMatrix(OC, BT, OC, true);
    uint16_t *dOut = upload(toBF16(c0.v));
    if (!dOut)
      return 1;
    CHECK_BLAS(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, OC, BT, C, &alpha,
                            dWeight, CUDA_R_16BF, C, dInp, CUDA_R_16BF, C,
                            &beta, dOut, CUDA_R_16BF, OC, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    CHECK(cudaDeviceSynchronize());
    std::vector<uint16_t> got16(c0.v.size());
    CHECK(cudaMemcpy(got16.data(), dOut, got16.size() * 2,
                     cudaMemcpyDeviceToHost));
    std::vector<float> got(got16.size());
    for (size_t i = 0; i < got.size(); ++i)
      got[i] = hostBF16ToFloat(got16[i]);
    bad += check("bf16 x bf16 -> bf16", true, false, OC, BT, C, alpha, weight,
                 inp, beta, c0, got, std::ldexp(1.0, -8), 0.0);
    CHECK(cudaFree(dOut));
  }

  // float32 data with CUBLAS_COMPUTE_32F_FAST_16BF and (N, T) transposes,
  // as a backward pass's dweight = dout^T inp is written: the inputs may be
  // rounded to bfloat16 (2^-8 relative each, so 2^-7 per product).
  {
    const int m = 48, n = 40, k = 72;
    Matrix a = randomMatrix(m, k, m + 1, false);
    Matrix b = randomMatrix(n, k, n + 3, false);
    Matrix c0 = randomMatrix(m, n, m, false);
    float *dA = upload(a.v), *dB = upload(b.v), *dC = upload(c0.v);
    if (!dA || !dB || !dC)
      return 1;
    const float a2 = 0.5f, b2 = 1.0f; // accumulate, as dweight += ... does
    CHECK_BLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &a2, dA,
                            CUDA_R_32F, a.ld, dB, CUDA_R_32F, b.ld, &b2, dC,
                            CUDA_R_32F, c0.ld, CUBLAS_COMPUTE_32F_FAST_16BF,
                            CUBLAS_GEMM_DEFAULT));
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got(c0.v.size());
    CHECK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
    bad += check("f32 with COMPUTE_32F_FAST_16BF", false, true, m, n, k, a2, a,
                 b, b2, c0, got, 0.0, std::ldexp(1.0, -7));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
  }

  CHECK(cudaFree(dWeight));
  CHECK(cudaFree(dInp));
  CHECK_BLAS(cublasDestroy(handle));
  std::printf("cublas_gemmex_bf16: %s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
