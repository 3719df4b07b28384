// blas: single-precision GEMM through cuhip's cuBLAS drop-in against OpenBLAS
// called directly, in one process. The program is an ordinary CUDA program:
// built by nvcc against the toolkit's cublas_v2.h and libcublas, it runs
// through `cuhip run`, which loads cuhip's libcudart and libcublas in their
// place, so the cuBLAS side measures exactly what an unmodified program gets
// (cudaMalloc'd memory, cublasSgemm on the handle's stream, then
// cudaDeviceSynchronize). The reference is cblas_sgemm on host memory with
// the same shapes, transposes and data, from the same OpenBLAS the drop-in
// uses on the CPU backend. Prints the median GFLOP/s of each and their ratio
// (target >= 0.9); exits 1 if the two results disagree.
//
// Shapes (cuBLAS's column-major terms):
//  - 1024 x 1024 x 1024, op(A) = N, op(B) = N;
//  - llm.c's matmul_forward of GPT-2's MLP projection at B*T = 4096:
//    row-major out (4096 x 768) = inp (4096 x 3072) @ weight (768 x 3072)^T,
//    i.e. m = 768, n = 4096, k = 3072, op(A) = T (weight), op(B) = N (inp).
// --quick runs small shapes a few times and also checks both against a
// double-precision host GEMM; timings are then not meaningful.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cblas.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace {

struct Shape {
  const char *name;
  bool transA, transB;
  int m, n, k;
};

const Shape kFullShapes[] = {
    {"sgemm 1024x1024x1024 (N,N)", false, false, 1024, 1024, 1024},
    {"sgemm llm.c matmul_forward m=768 n=4096 k=3072 (T,N)", true, false, 768,
     4096, 3072},
};
const Shape kQuickShapes[] = {
    {"sgemm 64x48x80 (N,N)", false, false, 64, 48, 80},
    {"sgemm llm.c-like m=96 n=128 k=72 (T,N)", true, false, 96, 128, 72},
};

double seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

bool cudaOk(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return true;
  std::fprintf(stderr, "blas: %s failed: %s (%s)\n", what, cudaGetErrorName(e),
               cudaGetErrorString(e));
  return false;
}

bool blasOk(cublasStatus_t s, const char *what) {
  if (s == CUBLAS_STATUS_SUCCESS)
    return true;
  std::fprintf(stderr, "blas: %s failed: %s\n", what, cublasGetStatusName(s));
  return false;
}

// A page-aligned float array.
struct AlignedFloats {
  float *p = nullptr;
  size_t n;
  explicit AlignedFloats(size_t n) : n(n) {
    void *v = nullptr;
    if (posix_memalign(&v, 4096, n * sizeof(float)) != 0) {
      std::fprintf(stderr, "blas: out of host memory (%zu floats)\n", n);
      std::exit(1);
    }
    p = static_cast<float *>(v);
    std::memset(p, 0, n * sizeof(float));
  }
  AlignedFloats(const AlignedFloats &) = delete;
  ~AlignedFloats() { std::free(p); }
  float *data() { return p; }
  float *begin() { return p; }
  float *end() { return p + n; }
  float &operator[](size_t i) { return p[i]; }
};

// Runs one shape; returns false if something failed or the results differ.
bool runShape(cublasHandle_t handle, const Shape &s, int reps, bool quick) {
  int aRows = s.transA ? s.k : s.m, aCols = s.transA ? s.m : s.k;
  int bRows = s.transB ? s.n : s.k, bCols = s.transB ? s.k : s.n;
  int lda = aRows, ldb = bRows, ldc = s.m;
  size_t aN = size_t(lda) * aCols, bN = size_t(ldb) * bCols,
         cN = size_t(ldc) * s.n;
  // OpenBLAS's operands are page-aligned like cudaMalloc's, so alignment
  // does not favour either side.
  AlignedFloats a(aN), b(bN), cRef(cN);
  std::vector<float> cDev(cN);
  unsigned state = 4242u;
  auto frand = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1 << 24) - 0.5f;
  };
  for (float &x : a)
    x = frand();
  for (float &x : b)
    x = frand();

  float *dA, *dB, *dC;
  if (!cudaOk(cudaMalloc(&dA, aN * 4), "cudaMalloc") ||
      !cudaOk(cudaMalloc(&dB, bN * 4), "cudaMalloc") ||
      !cudaOk(cudaMalloc(&dC, cN * 4), "cudaMalloc") ||
      !cudaOk(cudaMemcpy(dA, a.data(), aN * 4, cudaMemcpyHostToDevice),
              "cudaMemcpy") ||
      !cudaOk(cudaMemcpy(dB, b.data(), bN * 4, cudaMemcpyHostToDevice),
              "cudaMemcpy"))
    return false;

  const float alpha = 1.0f, beta = 0.0f;
  cublasOperation_t opA = s.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opB = s.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  CBLAS_TRANSPOSE tA = s.transA ? CblasTrans : CblasNoTrans;
  CBLAS_TRANSPOSE tB = s.transB ? CblasTrans : CblasNoTrans;
  auto viaCublas = [&] {
    cublasStatus_t st = cublasSgemm(handle, opA, opB, s.m, s.n, s.k, &alpha,
                                    dA, lda, dB, ldb, &beta, dC, ldc);
    cudaError_t e = cudaDeviceSynchronize();
    return blasOk(st, "cublasSgemm") && cudaOk(e, "cudaDeviceSynchronize");
  };
  auto viaOpenBlas = [&] {
    cblas_sgemm(CblasColMajor, tA, tB, s.m, s.n, s.k, alpha, a.data(), lda,
                b.data(), ldb, beta, cRef.data(), ldc);
  };

  // One warm-up each (thread pools, page faults), then alternate, each
  // going first every other repetition, so both see the same machine state.
  if (!viaCublas())
    return false;
  viaOpenBlas();
  std::vector<double> tCublas, tOpenBlas;
  for (int r = 0; r < 2 * reps; ++r) {
    bool cublasTurn = (r % 2) == (r / 2 % 2);
    double t0 = seconds();
    if (cublasTurn && !viaCublas())
      return false;
    if (!cublasTurn)
      viaOpenBlas();
    (cublasTurn ? tCublas : tOpenBlas).push_back(seconds() - t0);
  }
  if (!cudaOk(cudaMemcpy(cDev.data(), dC, cN * 4, cudaMemcpyDeviceToHost),
              "cudaMemcpy"))
    return false;

  // Agreement: both are float32 GEMMs of the same data, summed in possibly
  // different orders; |x| <= 0.5, so each sum is bounded by k / 4.
  double tol = s.k * 0.25 * s.k * std::ldexp(1.0, -23) + 1e-6;
  int bad = 0;
  for (size_t i = 0; i < cN; ++i)
    if (!(std::fabs(double(cDev[i]) - cRef[i]) <= tol) && bad++ < 5)
      std::fprintf(stderr, "%s: C[%zu]: cuBLAS %.8g, OpenBLAS %.8g\n", s.name,
                   i, cDev[i], cRef[i]);
  if (quick) {
    for (int j = 0; j < s.n; ++j)
      for (int i = 0; i < s.m; ++i) {
        double acc = 0.0;
        for (int p = 0; p < s.k; ++p)
          acc += double(s.transA ? a[size_t(i) * lda + p]
                                 : a[size_t(p) * lda + i]) *
                 (s.transB ? b[size_t(p) * ldb + j] : b[size_t(j) * ldb + p]);
        float got = cDev[size_t(j) * ldc + i];
        if (!(std::fabs(got - acc) <= tol) && bad++ < 5)
          std::fprintf(stderr, "%s: C[%d,%d] = %.8g, want %.8g\n", s.name, i,
                       j, got, acc);
      }
  }
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);

  double flop = 2.0 * s.m * s.n * s.k;
  double gCublas = flop / median(tCublas) * 1e-9;
  double gOpenBlas = flop / median(tOpenBlas) * 1e-9;
  std::printf("%-54s cuhip cuBLAS %9.1f GFLOP/s  OpenBLAS %9.1f GFLOP/s  "
              "ratio %.3f (target >= 0.90)%s\n",
              s.name, gCublas, gOpenBlas, gCublas / gOpenBlas,
              bad ? "  RESULTS DIFFER" : "");
  return bad == 0;
}

} // namespace

int main(int argc, char **argv) {
  bool quick = false;
  int reps = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr,
                   "usage: cuhip run -- %s [--quick] [--reps N]\n"
                   "  --quick   small shapes, results checked, timings not "
                   "meaningful\n  --reps N  timed repetitions per shape "
                   "(default 9; 3 with --quick)\n",
                   argv[0]);
      return 2;
    }
  }
  if (reps <= 0)
    reps = quick ? 3 : 9;

  cublasHandle_t handle;
  if (!blasOk(cublasCreate(&handle), "cublasCreate"))
    return 1;
  int version = 0;
  cublasGetVersion(handle, &version);
  std::printf("cuBLAS version %d, OpenBLAS %s, %d repetitions per shape "
              "(median)\n",
              version, openblas_get_config(), reps);
  bool ok = true;
  if (quick)
    for (const Shape &s : kQuickShapes)
      ok &= runShape(handle, s, reps, true);
  else
    for (const Shape &s : kFullShapes)
      ok &= runShape(handle, s, reps, false);
  cublasDestroy(handle);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
