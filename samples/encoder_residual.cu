// encoder_residual: the embedding layer and a residual connection of a
// GPT-2 style model. The encoder forward adds token embeddings (wte, gathered
// by token id) and position embeddings (wpe) with float4 vectorized loads and
// stores; the residual forward adds two activations the same way; the
// encoder backward scatters the output gradient into both tables with
// atomicAdd, where many (b, t) positions hit the same token row. Values are
// multiples of 2^-8 small enough that every float sum is exact whatever the
// atomic order, so all results are compared bit-exactly with a host
// computation. Prints PASS or FAIL.
#include <cstdio>
#include <cstdlib>
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

__device__ float4 add4(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// One thread per 4 channels of one (b, t); C must be a multiple of 4.
__global__ void encoderForward(float4 *__restrict__ out,
                               const int *__restrict__ tokens,
                               const float4 *__restrict__ wte,
                               const float4 *__restrict__ wpe, int BT, int T,
                               int C4) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= BT * C4)
    return;
  int bt = idx / C4, c4 = idx % C4, t = bt % T;
  out[idx] = add4(wte[tokens[bt] * C4 + c4], wpe[t * C4 + c4]);
}

__global__ void residualForward(float4 *__restrict__ out,
                                const float4 *__restrict__ a,
                                const float4 *__restrict__ b, int n4) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n4)
    out[idx] = add4(a[idx], b[idx]);
}

__global__ void encoderBackward(float *dwte, float *dwpe,
                                const float *__restrict__ dout,
                                const int *__restrict__ tokens, int BT, int T,
                                int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= BT * C)
    return;
  int bt = idx / C, c = idx % C, t = bt % T;
  float d = dout[idx];
  atomicAdd(&dwte[tokens[bt] * C + c], d);
  atomicAdd(&dwpe[t * C + c], d);
}

int main() {
  const int B = 4, T = 64, C = 128, V = 50, BT = B * T;
  unsigned state = 5u;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  // k / 256 with |k| < 256: at most 256 such terms sum to less than 2^16 in
  // units of 2^-8, which float represents exactly.
  auto value = [&] { return float(int(next() % 511) - 255) / 256.0f; };
  std::vector<int> tokens(BT);
  for (auto &t : tokens)
    t = int(next() % V);
  std::vector<float> wte(V * C), wpe(T * C), resid(BT * C), dout(BT * C),
      dwte(V * C), dwpe(T * C);
  for (auto *vec : {&wte, &wpe, &resid, &dout, &dwte, &dwpe})
    for (auto &x : *vec)
      x = value();

  std::vector<float> rEnc(BT * C), rRes(BT * C), rDwte(dwte), rDwpe(dwpe);
  for (int bt = 0; bt < BT; ++bt)
    for (int c = 0; c < C; ++c) {
      int t = bt % T, i = bt * C + c;
      rEnc[i] = wte[tokens[bt] * C + c] + wpe[t * C + c];
      rRes[i] = rEnc[i] + resid[i];
      rDwte[tokens[bt] * C + c] += dout[i];
      rDwpe[t * C + c] += dout[i];
    }

  int *dTokens;
  float *dWte, *dWpe, *dEnc, *dResid, *dRes, *dDout, *dDwte, *dDwpe;
  CHECK(cudaMalloc(&dTokens, BT * sizeof(int)));
  CHECK(cudaMalloc(&dWte, V * C * sizeof(float)));
  CHECK(cudaMalloc(&dWpe, T * C * sizeof(float)));
  CHECK(cudaMalloc(&dEnc, BT * C * sizeof(float)));
  CHECK(cudaMalloc(&dResid, BT * C * sizeof(float)));
  CHECK(cudaMalloc(&dRes, BT * C * sizeof(float)));
  CHECK(cudaMalloc(&dDout, BT * C * sizeof(float)));
  CHECK(cudaMalloc(&dDwte, V * C * sizeof(float)));
  CHECK(cudaMalloc(&dDwpe, T * C * sizeof(float)));
  CHECK(cudaMemcpy(dTokens, tokens.data(), BT * sizeof(int),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dWte, wte.data(), V * C * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dWpe, wpe.data(), T * C * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dResid, resid.data(), BT * C * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDout, dout.data(), BT * C * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDwte, dwte.data(), V * C * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDwpe, dwpe.data(), T * C * sizeof(float),
                   cudaMemcpyHostToDevice));

  const int threads = 128, n4 = BT * C / 4;
  encoderForward<<<(n4 + threads - 1) / threads, threads>>>(
      (float4 *)dEnc, dTokens, (const float4 *)dWte, (const float4 *)dWpe, BT,
      T, C / 4);
  CHECK(cudaGetLastError());
  residualForward<<<(n4 + threads - 1) / threads, threads>>>(
      (float4 *)dRes, (const float4 *)dEnc, (const float4 *)dResid, n4);
  CHECK(cudaGetLastError());
  encoderBackward<<<(BT * C + threads - 1) / threads, threads>>>(
      dDwte, dDwpe, dDout, dTokens, BT, T, C);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> enc(BT * C), res(BT * C), gotDwte(V * C), gotDwpe(T * C);
  CHECK(cudaMemcpy(enc.data(), dEnc, BT * C * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res.data(), dRes, BT * C * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotDwte.data(), dDwte, V * C * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotDwpe.data(), dDwpe, T * C * sizeof(float),
                   cudaMemcpyDeviceToHost));

  int bad = 0;
  auto compare = [&](const char *what, const std::vector<float> &got,
                     const std::vector<float> &want) {
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != want[i] && bad++ < 8)
        std::fprintf(stderr, "%s[%zu]: got %.9g, want %.9g\n", what, i, got[i],
                     want[i]);
  };
  compare("encoder", enc, rEnc);
  compare("residual", res, rRes);
  compare("dwte", gotDwte, rDwte);
  compare("dwpe", gotDwpe, rDwpe);
  CHECK(cudaFree(dTokens));
  for (float *p : {dWte, dWpe, dEnc, dResid, dRes, dDout, dDwte, dDwpe})
    CHECK(cudaFree(p));
  std::printf("encoder_residual B=%d T=%d C=%d V=%d: %s\n", B, T, C, V,
              bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
