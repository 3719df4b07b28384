// gelu: the tanh approximation of GELU used by GPT-2, forward and backward,
// once on float32 tensors and once on bfloat16 tensors (cuda_bf16.h, two
// elements per thread as __nv_bfloat162, computed in float and rounded back
// with round-to-nearest-even). Checked against a double-precision host
// computation, with a host float-to-bfloat16 converter written here; prints
// PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
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

#define GELU_SCALE 0.7978845608028654f // sqrt(2 / pi)

__device__ float geluValue(float x) {
  float cube = 0.044715f * x * x * x;
  return 0.5f * x * (1.0f + tanhf(GELU_SCALE * (x + cube)));
}

__device__ float geluGrad(float x) {
  float t = tanhf(GELU_SCALE * (x + 0.044715f * x * x * x));
  float sech2 = 1.0f - t * t; // sech^2 without cosh, which overflows early
  return 0.5f * (1.0f + t) +
         0.5f * x * sech2 * GELU_SCALE * (1.0f + 3.0f * 0.044715f * x * x);
}

__global__ void geluForwardF32(float *out, const float *inp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = geluValue(inp[i]);
}

__global__ void geluBackwardF32(float *dinp, const float *inp,
                                const float *dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dinp[i] = geluGrad(inp[i]) * dout[i];
}

// n2: number of bfloat16 pairs
__global__ void geluForwardBF16(__nv_bfloat162 *out, const __nv_bfloat162 *inp,
                                int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2)
    return;
  float2 x = __bfloat1622float2(inp[i]);
  out[i] = __floats2bfloat162_rn(geluValue(x.x), geluValue(x.y));
}

__global__ void geluBackwardBF16(__nv_bfloat162 *dinp,
                                 const __nv_bfloat162 *inp,
                                 const __nv_bfloat162 *dout, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2)
    return;
  float2 x = __bfloat1622float2(inp[i]);
  float2 d = __bfloat1622float2(dout[i]);
  dinp[i] = __floats2bfloat162_rn(geluGrad(x.x) * d.x, geluGrad(x.y) * d.y);
}

// Host bfloat16 <-> float: bfloat16 is the upper half of a float32.
static uint16_t hostFloatToBF16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  // NaN first: rounding could carry its payload into the infinity encoding.
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

static double refGelu(double x) {
  double s = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(s * (x + 0.044715 * x * x * x)));
}
static double refGeluGrad(double x) {
  double s = std::sqrt(2.0 / M_PI);
  double t = std::tanh(s * (x + 0.044715 * x * x * x));
  return 0.5 * (1.0 + t) +
         0.5 * x * (1.0 - t * t) * s * (1.0 + 3.0 * 0.044715 * x * x);
}

int main() {
  const int n = 4 * 64 * 4 * 128; // B * T * 4C, the MLP hidden activations
  std::vector<float> inp(n), dout(n);
  unsigned state = 99u;
  auto frand = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1 << 24) * 2.0f - 1.0f;
  };
  for (int i = 0; i < n; ++i) {
    inp[i] = 6.0f * frand(); // covers both tails and the curved middle
    dout[i] = frand();
  }
  std::vector<uint16_t> inp16(n), dout16(n);
  for (int i = 0; i < n; ++i) {
    inp16[i] = hostFloatToBF16(inp[i]);
    dout16[i] = hostFloatToBF16(dout[i]);
  }

  float *dIn, *dDout, *dOut, *dDinp;
  __nv_bfloat162 *dIn16, *dDout16, *dOut16, *dDinp16;
  size_t bytes = size_t(n) * sizeof(float), bytes16 = size_t(n) * 2;
  CHECK(cudaMalloc(&dIn, bytes));
  CHECK(cudaMalloc(&dDout, bytes));
  CHECK(cudaMalloc(&dOut, bytes));
  CHECK(cudaMalloc(&dDinp, bytes));
  CHECK(cudaMalloc(&dIn16, bytes16));
  CHECK(cudaMalloc(&dDout16, bytes16));
  CHECK(cudaMalloc(&dOut16, bytes16));
  CHECK(cudaMalloc(&dDinp16, bytes16));
  CHECK(cudaMemcpy(dIn, inp.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDout, dout.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dIn16, inp16.data(), bytes16, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDout16, dout16.data(), bytes16, cudaMemcpyHostToDevice));

  const int threads = 256;
  geluForwardF32<<<(n + threads - 1) / threads, threads>>>(dOut, dIn, n);
  geluBackwardF32<<<(n + threads - 1) / threads, threads>>>(dDinp, dIn, dDout,
                                                            n);
  int n2 = n / 2;
  geluForwardBF16<<<(n2 + threads - 1) / threads, threads>>>(dOut16, dIn16, n2);
  geluBackwardBF16<<<(n2 + threads - 1) / threads, threads>>>(dDinp16, dIn16,
                                                              dDout16, n2);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> out(n), dinp(n);
  std::vector<uint16_t> out16(n), dinp16(n);
  CHECK(cudaMemcpy(out.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dinp.data(), dDinp, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out16.data(), dOut16, bytes16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dinp16.data(), dDinp16, bytes16, cudaMemcpyDeviceToHost));

  // Tolerances. float32: tanhf is accurate to a couple of ulp, but for
  // x << 0 the factor 1 + tanh(..) cancels, leaving an absolute error of
  // about |x| * 2^-23, so the bound is 1e-5 relative plus 1e-6 * (1 + |x|)
  // absolute. bfloat16: the device computes in float and rounds once, the
  // host computes in double and rounds once; the two roundings can only land
  // on different neighbours when the float value is within its own error of
  // a rounding boundary, so one bfloat16 ulp (2^-7 relative) of difference
  // is allowed on top of the same absolute term.
  int bad = 0;
  auto report = [&](const char *what, int i, double got, double want) {
    if (bad++ < 8)
      std::fprintf(stderr, "%s[%d] (x=%g): got %.8g, want %.8g\n", what, i,
                   inp[i], got, want);
  };
  for (int i = 0; i < n; ++i) {
    double x = inp[i], absTol = 1e-6 * (1.0 + std::fabs(x));
    double want = refGelu(x);
    if (std::fabs(out[i] - want) > 1e-5 * std::fabs(want) + absTol)
      report("gelu f32", i, out[i], want);
    want = refGeluGrad(x) * dout[i];
    if (std::fabs(dinp[i] - want) > 1e-5 * std::fabs(want) + absTol)
      report("gelu' f32", i, dinp[i], want);

    double x16 = hostBF16ToFloat(inp16[i]);
    absTol = 1e-6 * (1.0 + std::fabs(x16));
    want = hostBF16ToFloat(hostFloatToBF16(float(refGelu(x16))));
    double got = hostBF16ToFloat(out16[i]);
    if (std::fabs(got - want) > std::ldexp(std::fabs(want), -7) + absTol)
      report("gelu bf16", i, got, want);
    want = hostBF16ToFloat(
        hostFloatToBF16(float(refGeluGrad(x16) * hostBF16ToFloat(dout16[i]))));
    got = hostBF16ToFloat(dinp16[i]);
    if (std::fabs(got - want) > std::ldexp(std::fabs(want), -7) + absTol)
      report("gelu' bf16", i, got, want);
  }
  for (void *p :
       {(void *)dIn, (void *)dDout, (void *)dOut, (void *)dDinp, (void *)dIn16,
        (void *)dDout16, (void *)dOut16, (void *)dDinp16})
    CHECK(cudaFree(p));
  std::printf("gelu n=%d: %s\n", n, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
