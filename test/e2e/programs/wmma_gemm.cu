// Tensor-core GEMMs the way LLM kernels write them, checked against the
// host: nvcuda::wmma with half (float and half accumulators, alpha/beta
// applied elementwise to the accumulator fragment, A staged through shared
// memory by the block), __nv_bfloat16, tf32 (with __float_to_tf32 on the
// fragments), signed char and double fragments, and an ldmatrix + mma.sync
// tile in inline PTX as flash-attention-style kernels use it. Inputs are
// small integers and halves, so every product and sum is exact and the
// results must match bit for bit.
#include <cstdio>
#include <cstdlib>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <vector>

using namespace nvcuda;

// The bf16, tf32 and double fragments need sm_80. The test runs the sm_80
// build; test/ptx_modes also compiles every program for the oldest target
// nvcc has, where those three kernels are left empty.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define HAVE_SM80_FRAGMENTS 1
#endif

static int failures = 0;
static void expect(bool ok, const char *what) {
  std::printf("%-56s %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                      \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

template <typename T> T *upload(const std::vector<T> &v) {
  T *d;
  CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> v(n);
  CHECK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

// C = alpha * A * B + beta * C; A is M x K row-major, B is K x N
// column-major, C is M x N row-major. Each warp of a 4-warp block computes
// one 16 x 16 tile; the block's 32 rows of A are staged in shared memory.
constexpr int GM = 64, GN = 64, GK = 96;
__global__ void gemmHalf(const half *a, const half *b, float *c, float alpha,
                         float beta) {
  __shared__ half tileA[32][GK];
  int warp = threadIdx.x / 32;
  int rowBase = blockIdx.y * 32;
  for (int i = threadIdx.x; i < 32 * GK; i += blockDim.x)
    tileA[i / GK][i % GK] = a[(rowBase + i / GK) * GK + i % GK];
  __syncthreads();
  int tileRow = (warp / 2) * 16, tileCol = blockIdx.x * 32 + (warp % 2) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < GK; k += 16) {
    wmma::load_matrix_sync(fa, &tileA[tileRow][k], GK);
    wmma::load_matrix_sync(fb, b + tileCol * GK + k, GK);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  float *cTile = c + (rowBase + tileRow) * GN + tileCol;
  wmma::load_matrix_sync(fc, cTile, GN, wmma::mem_row_major);
  for (int i = 0; i < fc.num_elements; ++i)
    fc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
  wmma::store_matrix_sync(cTile, fc, GN, wmma::mem_row_major);
}

// One 16 x 16 tile with a half accumulator, stored column-major.
__global__ void tileHalfAcc(const half *a, const half *b, half *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(1.0f));
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_col_major);
}

// bf16 (32 x 8 x 16 tiles), C loaded and D stored column-major.
__global__ void tileBf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                         float *c) {
#ifdef HAVE_SM80_FRAGMENTS
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::load_matrix_sync(acc, c, 32, wmma::mem_col_major);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 32, wmma::mem_col_major);
#endif
}

// tf32: fragments loaded from float and rounded with __float_to_tf32.
__global__ void tileTf32(const float *a, const float *b, float *c) {
#ifdef HAVE_SM80_FRAGMENTS
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major>
      fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major>
      fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < 32; k += 8) {
    wmma::load_matrix_sync(fa, a + k, 32);
    wmma::load_matrix_sync(fb, b + k, 32);
    for (int i = 0; i < fa.num_elements; ++i)
      fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i)
      fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
#endif
}

// int8 with an int accumulator.
__global__ void tileInt8(const signed char *a, const signed char *b, int *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, 7);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

// double: 8 x 8 x 4.
__global__ void tileF64(const double *a, const double *b, double *c) {
#ifdef HAVE_SM80_FRAGMENTS
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::fill_fragment(acc, 0.5);
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 4);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 8, wmma::mem_row_major);
#endif
}

// D (16 x 8, f32) = A (16 x 16 half, row-major) * B (16 x 8 half,
// row-major) through shared memory: ldmatrix.x4 for A, ldmatrix.x2.trans
// for B, mma.sync.m16n8k16; each lane writes its fragment of D by the PTX
// ISA's accumulator layout.
__global__ void tileLdmatrixMma(const half *a, const half *b, float *d) {
  __shared__ __align__(16) half sa[16 * 16];
  __shared__ __align__(16) half sb[16 * 8];
  int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32)
    sa[i] = a[i];
  for (int i = lane; i < 128; i += 32)
    sb[i] = b[i];
  __syncwarp();
  // ldmatrix.x4: lanes 0-15 point at rows 0-15 (columns 0-7), lanes 16-31
  // at rows 0-15 (columns 8-15): the four 8x8 quarters in a0..a3 order.
  unsigned aAddr = static_cast<unsigned>(
      __cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]));
  unsigned bAddr =
      static_cast<unsigned>(__cvta_generic_to_shared(&sb[(lane % 16) * 8]));
  unsigned a0, a1, a2, a3, b0, b1;
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
      : "r"(aAddr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(b0), "=r"(b1)
               : "r"(bAddr));
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int g = lane / 4, t = lane % 4;
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}

static float val(int i, int j, int m, int s) {
  return float(((i * 7 + j * 3 + s) % m) - m / 2);
}

int main() {
  // gemmHalf
  {
    std::vector<half> a(GM * GK), b(GK * GN);
    std::vector<float> af(GM * GK), bf(GK * GN), c(GM * GN);
    for (int i = 0; i < GM; ++i)
      for (int k = 0; k < GK; ++k)
        a[i * GK + k] = __float2half(af[i * GK + k] = val(i, k, 9, 1) * 0.5f);
    for (int k = 0; k < GK; ++k)
      for (int j = 0; j < GN; ++j) // column-major
        b[j * GK + k] = __float2half(bf[j * GK + k] = val(k, j, 7, 2));
    for (int i = 0; i < GM * GN; ++i)
      c[i] = float(i % 13 - 6);
    half *da = upload(a), *db = upload(b);
    float *dc = upload(c);
    gemmHalf<<<dim3(GN / 32, GM / 32), 128>>>(da, db, dc, 2.0f, -1.0f);
    CHECK(cudaGetLastError());
    std::vector<float> got = download(dc, GM * GN);
    bool ok = true;
    for (int i = 0; i < GM; ++i)
      for (int j = 0; j < GN; ++j) {
        double s = 0;
        for (int k = 0; k < GK; ++k)
          s += double(af[i * GK + k]) * bf[j * GK + k];
        float want = float(2.0 * s - c[i * GN + j]);
        ok = ok && got[i * GN + j] == want;
      }
    expect(ok, "wmma half GEMM 64x64x96, shared A, alpha/beta");
  }
  // tileHalfAcc
  {
    std::vector<half> a(256), b(256);
    std::vector<float> af(256), bf(256);
    for (int i = 0; i < 256; ++i) {
      a[i] = __float2half(af[i] = val(i, i / 16, 5, 0) * 0.25f);
      b[i] = __float2half(bf[i] = val(i / 16, i, 7, 3));
    }
    half *da = upload(a), *db = upload(b), *dd;
    CHECK(cudaMalloc(&dd, 256 * sizeof(half)));
    tileHalfAcc<<<1, 32>>>(da, db, dd);
    CHECK(cudaGetLastError());
    std::vector<half> got = download(dd, 256);
    bool ok = true;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        double s = 1;
        for (int k = 0; k < 16; ++k) // A column-major, B row-major
          s += double(af[k * 16 + i]) * bf[k * 16 + j];
        ok = ok && __half2float(got[j * 16 + i]) == float(s);
      }
    expect(ok, "wmma half accumulator, col-major A and D");
  }
  // tileBf16
  {
    std::vector<__nv_bfloat16> a(32 * 16), b(16 * 8);
    std::vector<float> af(32 * 16), bf(16 * 8), c(32 * 8);
    for (int i = 0; i < 32 * 16; ++i)
      a[i] = __float2bfloat16(af[i] = val(i / 16, i % 16, 11, 4) * 0.5f);
    for (int i = 0; i < 16 * 8; ++i)
      b[i] = __float2bfloat16(bf[i] = val(i / 8, i % 8, 5, 1));
    for (int i = 0; i < 32 * 8; ++i)
      c[i] = float(i % 9);
    __nv_bfloat16 *da = upload(a), *db = upload(b);
    float *dc = upload(c);
    tileBf16<<<1, 32>>>(da, db, dc);
    CHECK(cudaGetLastError());
    std::vector<float> got = download(dc, 32 * 8);
    bool ok = true;
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 8; ++j) {
        double s = c[j * 32 + i];
        for (int k = 0; k < 16; ++k)
          s += double(af[i * 16 + k]) * bf[k * 8 + j];
        ok = ok && got[j * 32 + i] == float(s);
      }
    expect(ok, "wmma bf16 32x8x16, col-major accumulator");
  }
  // tileTf32
  {
    std::vector<float> a(16 * 32), b(32 * 16);
    for (int i = 0; i < 16 * 32; ++i) {
      a[i] = val(i / 32, i % 32, 9, 2) * 0.125f;
      b[i] = val(i % 32, i / 32, 7, 5);
    }
    float *da = upload(a), *db = upload(b), *dc;
    CHECK(cudaMalloc(&dc, 256 * sizeof(float)));
    tileTf32<<<1, 32>>>(da, db, dc);
    CHECK(cudaGetLastError());
    std::vector<float> got = download(dc, 256);
    bool ok = true;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        double s = 0;
        for (int k = 0; k < 32; ++k)
          s += double(a[i * 32 + k]) * b[j * 32 + k];
        ok = ok && got[i * 16 + j] == float(s);
      }
    expect(ok, "wmma tf32 16x16x8, K = 32");
  }
  // tileInt8
  {
    std::vector<signed char> a(256), b(256);
    for (int i = 0; i < 256; ++i) {
      a[i] = static_cast<signed char>((i * 37 + 11) % 256 - 128);
      b[i] = static_cast<signed char>((i * 53 + 5) % 256 - 128);
    }
    signed char *da = upload(a), *db = upload(b);
    int *dc;
    CHECK(cudaMalloc(&dc, 256 * sizeof(int)));
    tileInt8<<<1, 32>>>(da, db, dc);
    CHECK(cudaGetLastError());
    std::vector<int> got = download(dc, 256);
    bool ok = true;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        int s = 7;
        for (int k = 0; k < 16; ++k)
          s += int(a[i * 16 + k]) * int(b[j * 16 + k]);
        ok = ok && got[i * 16 + j] == s;
      }
    expect(ok, "wmma s8 16x16x16, int accumulator");
  }
  // tileF64
  {
    std::vector<double> a(32), b(32);
    for (int i = 0; i < 32; ++i) {
      a[i] = val(i / 4, i % 4, 7, 1) * 0.25;
      b[i] = val(i % 4, i / 4, 9, 0) * 0.5;
    }
    double *da = upload(a), *db = upload(b), *dc;
    CHECK(cudaMalloc(&dc, 64 * sizeof(double)));
    tileF64<<<1, 32>>>(da, db, dc);
    CHECK(cudaGetLastError());
    std::vector<double> got = download(dc, 64);
    bool ok = true;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        double s = 0.5;
        for (int k = 0; k < 4; ++k)
          s += a[i * 4 + k] * b[j * 4 + k];
        ok = ok && got[i * 8 + j] == s;
      }
    expect(ok, "wmma f64 8x8x4");
  }
  // tileLdmatrixMma
  {
    std::vector<half> a(256), b(128);
    std::vector<float> af(256), bf(128);
    for (int i = 0; i < 256; ++i)
      a[i] = __float2half(af[i] = val(i / 16, i % 16, 9, 3) * 0.5f);
    for (int i = 0; i < 128; ++i)
      b[i] = __float2half(bf[i] = val(i / 8, i % 8, 5, 2));
    half *da = upload(a), *db = upload(b);
    float *dd;
    CHECK(cudaMalloc(&dd, 128 * sizeof(float)));
    tileLdmatrixMma<<<1, 32>>>(da, db, dd);
    CHECK(cudaGetLastError());
    std::vector<float> got = download(dd, 128);
    bool ok = true;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        double s = 0;
        for (int k = 0; k < 16; ++k)
          s += double(af[i * 16 + k]) * bf[k * 8 + j];
        ok = ok && got[i * 8 + j] == float(s);
      }
    expect(ok, "ldmatrix.x4 + ldmatrix.x2.trans + mma.sync m16n8k16");
  }
  CHECK(cudaDeviceSynchronize());
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
