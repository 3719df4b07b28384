// adamw: the AdamW optimizer step of a training loop: first and second moment
// updates, bias correction by 1 - beta^t, decoupled weight decay, float32
// parameters, and optionally a bfloat16 copy of every parameter written by
// the same kernel (the copy a mixed-precision forward pass would read).
// Five steps run with fresh gradients each; parameters and moments are
// checked against a double-precision host optimizer and the bfloat16 copy
// bit-exactly against a host round-to-nearest-even conversion of the float
// parameters. Prints PASS or FAIL.
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

__global__ void adamwStep(float *params, __nv_bfloat16 *paramsBF16,
                          const float *grads, float *m, float *v, size_t n,
                          float lr, float beta1, float beta2,
                          float beta1Correction, float beta2Correction,
                          float eps, float weightDecay) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float g = grads[i];
  float mi = beta1 * m[i] + (1.0f - beta1) * g;
  float vi = beta2 * v[i] + (1.0f - beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  float mHat = mi / beta1Correction, vHat = vi / beta2Correction;
  float p = params[i];
  p -= lr * (mHat / (sqrtf(vHat) + eps) + weightDecay * p);
  params[i] = p;
  if (paramsBF16) // the copy is optional, as for a run kept in float32
    paramsBF16[i] = __float2bfloat16_rn(p);
}

static uint16_t hostFloatToBF16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u); // round to nearest, ties to even
  return uint16_t(u >> 16);
}

int main() {
  const size_t n = 50000; // not a multiple of the block size
  const float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f,
              weightDecay = 0.01f;
  const int steps = 5;
  unsigned state = 4242u;
  auto frand = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1 << 24) * 2.0f - 1.0f;
  };
  std::vector<float> params(n), grads(n);
  for (auto &p : params)
    p = frand();
  std::vector<double> rP(params.begin(), params.end()), rM(n, 0.0), rV(n, 0.0),
      rMAbs(n, 0.0);

  float *dP, *dG, *dM, *dV;
  __nv_bfloat16 *dP16;
  CHECK(cudaMalloc(&dP, n * sizeof(float)));
  CHECK(cudaMalloc(&dG, n * sizeof(float)));
  CHECK(cudaMalloc(&dM, n * sizeof(float)));
  CHECK(cudaMalloc(&dV, n * sizeof(float)));
  CHECK(cudaMalloc(&dP16, n * sizeof(__nv_bfloat16)));
  CHECK(
      cudaMemcpy(dP, params.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dM, 0, n * sizeof(float)));
  CHECK(cudaMemset(dV, 0, n * sizeof(float)));
  CHECK(cudaMemset(dP16, 0xff, n * sizeof(__nv_bfloat16)));

  for (int t = 1; t <= steps; ++t) {
    for (size_t i = 0; i < n; ++i) // gradients spanning several decades
      grads[i] = frand() * std::ldexp(1.0f, -int(i % 12));
    CHECK(cudaMemcpy(dG, grads.data(), n * sizeof(float),
                     cudaMemcpyHostToDevice));
    float c1 = 1.0f - std::pow(beta1, float(t));
    float c2 = 1.0f - std::pow(beta2, float(t));
    // The bfloat16 copy is written on the last step only.
    adamwStep<<<(n + 255) / 256, 256>>>(dP, t == steps ? dP16 : nullptr, dG, dM,
                                        dV, n, lr, beta1, beta2, c1, c2, eps,
                                        weightDecay);
    CHECK(cudaGetLastError());
    for (size_t i = 0; i < n; ++i) {
      double g = grads[i];
      rM[i] = double(beta1) * rM[i] + (1.0 - double(beta1)) * g;
      rMAbs[i] =
          double(beta1) * rMAbs[i] + (1.0 - double(beta1)) * std::fabs(g);
      rV[i] = double(beta2) * rV[i] + (1.0 - double(beta2)) * g * g;
      double mHat = rM[i] / (1.0 - std::pow(double(beta1), t));
      double vHat = rV[i] / (1.0 - std::pow(double(beta2), t));
      rP[i] -= double(lr) *
               (mHat / (std::sqrt(vHat) + eps) + double(weightDecay) * rP[i]);
    }
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<float> p(n), m(n), v(n);
  std::vector<uint16_t> p16(n);
  CHECK(cudaMemcpy(p.data(), dP, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(m.data(), dM, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(v.data(), dV, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(p16.data(), dP16, n * 2, cudaMemcpyDeviceToHost));

  // Tolerances: each step changes a parameter by at most ~lr * (1 + wd), and
  // the float update carries a relative error of a few ulp, so after five
  // steps a parameter is within 1e-6 of the double result plus its own
  // rounding (2^-24 relative). The first moment mixes gradients of both
  // signs and may cancel, so its error is bounded relative to the same
  // average of |g| (rMAbs): 3 roundings per step, 5 steps, ~1e-6; the second
  // moment only adds positive terms: 1e-5 relative. m / (sqrt(v) + eps) is
  // of order 1 for t <= 5, so those errors reach the parameter only scaled
  // by lr.
  int bad = 0;
  for (size_t i = 0; i < n; ++i) {
    bool ok = std::fabs(p[i] - rP[i]) <= 1e-6 + 1e-7 * std::fabs(rP[i]) &&
              std::fabs(m[i] - rM[i]) <= 2e-6 * rMAbs[i] &&
              std::fabs(v[i] - rV[i]) <= 1e-5 * std::fabs(rV[i]) + 1e-15 &&
              p16[i] == hostFloatToBF16(p[i]);
    if (!ok && bad++ < 8)
      std::fprintf(stderr,
                   "[%zu]: p %.9g (want %.9g) m %.7g (want %.7g) v %.7g "
                   "(want %.7g) bf16 %#06x (want %#06x)\n",
                   i, p[i], rP[i], m[i], rM[i], v[i], rV[i], p16[i],
                   hostFloatToBF16(p[i]));
  }
  for (void *q : {(void *)dP, (void *)dG, (void *)dM, (void *)dV, (void *)dP16})
    CHECK(cudaFree(q));
  std::printf("adamw n=%zu steps=%d: %s\n", n, steps, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
