// cublaslt_bias_gelu: a GPT-2 MLP's first matrix multiply through
// cublasLtMatmul with fused epilogues, as llm.c's matmul_forward and
// matmul_backward use them. Forward: out = GELU(inp @ weight^T + bias) with
// CUBLASLT_EPILOGUE_GELU_BIAS in float32 and in bfloat16, and with
// CUBLASLT_EPILOGUE_GELU_AUX_BIAS, which also stores the pre-GELU values for
// the backward pass. Backward: dpre = (dout @ weight) * GELU'(pre) with
// CUBLASLT_EPILOGUE_DGELU reading those values back, and dweight = dout^T @
// inp with CUBLASLT_EPILOGUE_BGRADB, which also sums dout over the tokens into
// the bias gradient. Each goes through a matmul descriptor, matrix layouts, a
// workspace preference and cublasLtMatmulAlgoGetHeuristic like llm.c does.
// GELU is the tanh approximation. Checked against double-precision host
// computations; prints PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cublasLt.h>
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

#define CHECK_LT(call)                                                         \
  do {                                                                         \
    cublasStatus_t st_ = (call);                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
      std::fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__,          \
                   __LINE__, #call, int(st_));                                 \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr int BT = 64, C = 96, OC = 4 * C; // tokens, channels, MLP width
constexpr size_t kWorkspaceBytes = 32 << 20;

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

static unsigned state = 31337u;
static std::vector<float> randomVector(size_t n, bool bf16Values) {
  std::vector<float> v(n);
  for (float &x : v) {
    state = state * 1664525u + 1013904223u;
    x = float(state >> 8) / float(1 << 24) * 2.0f - 1.0f;
    if (bf16Values)
      x = hostBF16ToFloat(hostFloatToBF16(x));
  }
  return v;
}

template <typename T> static T *upload(const std::vector<T> &v) {
  T *d = nullptr;
  if (cudaMalloc(&d, v.size() * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) !=
          cudaSuccess)
    return nullptr;
  return d;
}

template <typename T> static bool download(std::vector<T> &v, const void *d) {
  return cudaMemcpy(v.data(), d, v.size() * sizeof(T),
                    cudaMemcpyDeviceToHost) == cudaSuccess;
}

// One cublasLtMatmul, D = epilogue(op(A) op(B)) with alpha = 1, beta = 0,
// column-major layouts of type `type`, as llm.c's matmul_cublaslt sets it up.
struct LtGemm {
  cublasOperation_t transA, transB;
  int m, n, k;
  cudaDataType_t type;
  const void *a, *b;
  void *d;
  cublasLtEpilogue_t epilogue;
  void *bias = nullptr; // read (BIAS epilogues) or written (BGRAD ones)
  void *aux = nullptr;  // pre-GELU values, written or read
};

static int ltMatmul(cublasLtHandle_t lt, const LtGemm &g, void *workspace,
                    cudaStream_t stream) {
  cublasLtMatmulDesc_t desc;
  CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                          &g.transA, sizeof g.transA));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                          &g.transB, sizeof g.transB));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                          &g.epilogue, sizeof g.epilogue));
  if (g.bias) {
    CHECK_LT(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &g.bias, sizeof g.bias));
    CHECK_LT(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &g.type, sizeof g.type));
  }
  if (g.aux) {
    int64_t auxLd = g.m;
    CHECK_LT(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &g.aux, sizeof g.aux));
    CHECK_LT(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &auxLd, sizeof auxLd));
  }
  // Layouts as stored: op(A) is m x k, so A is k x m when transposed.
  bool ta = g.transA == CUBLAS_OP_T, tb = g.transB == CUBLAS_OP_T;
  cublasLtMatrixLayout_t aLayout, bLayout, dLayout;
  CHECK_LT(cublasLtMatrixLayoutCreate(&aLayout, g.type, ta ? g.k : g.m,
                                      ta ? g.m : g.k, ta ? g.k : g.m));
  CHECK_LT(cublasLtMatrixLayoutCreate(&bLayout, g.type, tb ? g.n : g.k,
                                      tb ? g.k : g.n, tb ? g.n : g.k));
  CHECK_LT(cublasLtMatrixLayoutCreate(&dLayout, g.type, g.m, g.n, g.m));
  cublasLtMatmulPreference_t pref;
  CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
  size_t wsBytes = kWorkspaceBytes;
  CHECK_LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
      sizeof wsBytes));
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  CHECK_LT(cublasLtMatmulAlgoGetHeuristic(lt, desc, aLayout, bLayout, dLayout,
                                          dLayout, pref, 1, &heuristic,
                                          &found));
  if (found == 0) {
    std::fprintf(stderr, "no cuBLASLt algorithm for epilogue %d\n",
                 int(g.epilogue));
    return 1;
  }
  const float alpha = 1.0f, beta = 0.0f;
  CHECK_LT(cublasLtMatmul(lt, desc, &alpha, g.a, aLayout, g.b, bLayout, &beta,
                          g.d, dLayout, g.d, dLayout, &heuristic.algo,
                          workspace, kWorkspaceBytes, stream));
  CHECK_LT(cublasLtMatmulPreferenceDestroy(pref));
  CHECK_LT(cublasLtMatrixLayoutDestroy(aLayout));
  CHECK_LT(cublasLtMatrixLayoutDestroy(bLayout));
  CHECK_LT(cublasLtMatrixLayoutDestroy(dLayout));
  CHECK_LT(cublasLtMatmulDescDestroy(desc));
  return 0;
}

static int bad = 0;
static void expectNear(const char *what, size_t i, double got, double want,
                       double tol) {
  if (!(std::fabs(got - want) <= tol) && bad++ < 8)
    std::fprintf(stderr, "%s[%zu] = %.8g, want %.8g (tolerance %.3g)\n", what,
                 i, got, want, tol);
}

int main() {
  cublasLtHandle_t lt;
  CHECK_LT(cublasLtCreate(&lt));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  void *workspace;
  CHECK(cudaMalloc(&workspace, kWorkspaceBytes));

  // Row-major tensors as llm.c keeps them: inp (BT, C), weight (OC, C),
  // bias (OC), out/pre (BT, OC). The values are bfloat16-exact, so the float32
  // and bfloat16 runs multiply the same numbers.
  std::vector<float> inp = randomVector(size_t(BT) * C, true);
  std::vector<float> weight = randomVector(size_t(OC) * C, true);
  std::vector<float> bias = randomVector(OC, true);
  // Host reference: pre[t][o] = sum_c inp[t][c] weight[o][c] + bias[o].
  std::vector<double> pre(size_t(BT) * OC), preMag(pre.size());
  for (int t = 0; t < BT; ++t)
    for (int o = 0; o < OC; ++o) {
      double acc = bias[o], mag = std::fabs(bias[o]);
      for (int c = 0; c < C; ++c) {
        double p = double(inp[size_t(t) * C + c]) * weight[size_t(o) * C + c];
        acc += p;
        mag += std::fabs(p);
      }
      pre[size_t(t) * OC + o] = acc;
      preMag[size_t(t) * OC + o] = mag;
    }
  // float32 accumulation over C terms; GELU's own float error on top.
  auto f32Tol = [&](size_t i, double want) {
    return preMag[i] * (C + 2) * std::ldexp(1.0, -23) + 1e-6 +
           1e-5 * std::fabs(want);
  };

  float *dInp = upload(inp), *dWeight = upload(weight), *dBias = upload(bias);
  float *dOut, *dPre;
  CHECK(cudaMalloc(&dOut, pre.size() * sizeof(float)));
  CHECK(cudaMalloc(&dPre, pre.size() * sizeof(float)));
  if (!dInp || !dWeight || !dBias)
    return 1;

  // Column-major: out^T (OC x BT) = op_T(weight stored as C x OC) times
  // inp^T (C x BT).
  LtGemm fwd{CUBLAS_OP_T, CUBLAS_OP_N, OC, BT, C, CUDA_R_32F,
             dWeight,     dInp,        dOut, CUBLASLT_EPILOGUE_GELU_BIAS};
  fwd.bias = dBias;
  if (ltMatmul(lt, fwd, workspace, stream))
    return 1;
  std::vector<float> out(pre.size());
  CHECK(cudaStreamSynchronize(stream));
  if (!download(out, dOut))
    return 1;
  for (size_t i = 0; i < out.size(); ++i) {
    double want = refGelu(pre[i]);
    expectNear("GELU_BIAS f32 out", i, out[i], want, 1.2 * f32Tol(i, want));
  }

  // The same in bfloat16 (bias in bfloat16 too): inputs exact, one rounding
  // of the pre-GELU value and one of the output, 2^-8 relative each.
  {
    std::vector<uint16_t> in16(inp.size()), w16(weight.size()),
        b16(bias.size()), out16(pre.size());
    for (size_t i = 0; i < inp.size(); ++i)
      in16[i] = hostFloatToBF16(inp[i]);
    for (size_t i = 0; i < weight.size(); ++i)
      w16[i] = hostFloatToBF16(weight[i]);
    for (size_t i = 0; i < bias.size(); ++i)
      b16[i] = hostFloatToBF16(bias[i]);
    uint16_t *dIn16 = upload(in16), *dW16 = upload(w16), *dB16 = upload(b16),
             *dOut16 = upload(out16);
    if (!dIn16 || !dW16 || !dB16 || !dOut16)
      return 1;
    LtGemm g{CUBLAS_OP_T, CUBLAS_OP_N, OC, BT, C, CUDA_R_16BF,
             dW16,        dIn16,       dOut16, CUBLASLT_EPILOGUE_GELU_BIAS};
    g.bias = dB16;
    if (ltMatmul(lt, g, workspace, stream))
      return 1;
    CHECK(cudaStreamSynchronize(stream));
    if (!download(out16, dOut16))
      return 1;
    for (size_t i = 0; i < out16.size(); ++i) {
      double want = refGelu(pre[i]);
      // GELU' is at most about 1.13, so a pre-GELU rounding moves the
      // output by at most 1.13 * 2^-8 |pre|.
      double tol = std::ldexp(std::fabs(want) + 1.2 * std::fabs(pre[i]), -8) +
                   f32Tol(i, want);
      expectNear("GELU_BIAS bf16 out", i, hostBF16ToFloat(out16[i]), want, tol);
    }
    for (void *p : {(void *)dIn16, (void *)dW16, (void *)dB16, (void *)dOut16})
      CHECK(cudaFree(p));
  }

  // Training forward: GELU_AUX_BIAS stores pre = inp @ weight^T + bias in
  // the aux buffer besides out = GELU(pre).
  LtGemm train = fwd;
  train.epilogue = CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  train.aux = dPre;
  CHECK(cudaMemset(dOut, 0, out.size() * sizeof(float)));
  if (ltMatmul(lt, train, workspace, stream))
    return 1;
  std::vector<float> preGot(pre.size());
  CHECK(cudaStreamSynchronize(stream));
  if (!download(out, dOut) || !download(preGot, dPre))
    return 1;
  for (size_t i = 0; i < out.size(); ++i) {
    double want = refGelu(pre[i]);
    expectNear("GELU_AUX_BIAS out", i, out[i], want, 1.2 * f32Tol(i, want));
    expectNear("GELU_AUX_BIAS pre", i, preGot[i], pre[i], f32Tol(i, pre[i]));
  }

  // Backward through the GELU: the gradient dh (BT, C) of the next layer's
  // output comes back through its weight wproj (C, OC) and then GELU':
  // dpre (BT, OC) = (dh @ wproj) * GELU'(pre). Column-major, dpre^T
  // (OC x BT) = wproj stored as OC x C (no transpose) times dh^T (C x BT),
  // with DGELU reading pre from the aux buffer.
  std::vector<float> dh = randomVector(size_t(BT) * C, false);
  std::vector<float> wproj = randomVector(size_t(C) * OC, false);
  float *dDh = upload(dh), *dWproj = upload(wproj), *dDpre;
  CHECK(cudaMalloc(&dDpre, pre.size() * sizeof(float)));
  if (!dDh || !dWproj)
    return 1;
  LtGemm dgelu{CUBLAS_OP_N, CUBLAS_OP_N, OC, BT, C, CUDA_R_32F,
               dWproj,      dDh,         dDpre, CUBLASLT_EPILOGUE_DGELU};
  dgelu.aux = dPre;
  if (ltMatmul(lt, dgelu, workspace, stream))
    return 1;
  std::vector<float> dpre(pre.size());
  CHECK(cudaStreamSynchronize(stream));
  if (!download(dpre, dDpre))
    return 1;
  std::vector<double> dpreRef(pre.size());
  for (int t = 0; t < BT; ++t)
    for (int o = 0; o < OC; ++o) {
      double acc = 0.0, mag = 0.0;
      for (int c = 0; c < C; ++c) {
        double p = double(dh[size_t(t) * C + c]) * wproj[size_t(c) * OC + o];
        acc += p;
        mag += std::fabs(p);
      }
      size_t i = size_t(t) * OC + o;
      // GELU' of the float pre value the device stored.
      double g = refGeluGrad(preGot[i]);
      dpreRef[i] = acc * g;
      // GELU' in float cancels where tanh saturates (1 + t, 1 - t^2): an
      // absolute error of a few float ulps times the terms' size.
      double x = std::fabs(preGot[i]);
      double gErr = 2e-7 * (2.0 + x * (1.0 + 0.134 * x * x));
      double tol = std::fabs(g) * mag * (C + 2) * std::ldexp(1.0, -23) +
                   std::fabs(acc) * gErr + 1e-5 * std::fabs(dpreRef[i]) + 1e-6;
      expectNear("DGELU dpre", i, dpre[i], dpreRef[i], tol);
    }

  // Weight and bias gradients of the first layer from dpre: dweight (OC, C)
  // = dpre^T (OC, BT) @ inp (BT, C), i.e. column-major dweight^T (C x OC) =
  // inp^T (C x BT) times (dpre^T (OC x BT))^T; BGRADB sums op(B) = dpre over
  // the tokens (the GEMM's k) into dbias (OC).
  float *dDweight, *dDbias;
  CHECK(cudaMalloc(&dDweight, weight.size() * sizeof(float)));
  CHECK(cudaMalloc(&dDbias, OC * sizeof(float)));
  LtGemm wgrad{CUBLAS_OP_N, CUBLAS_OP_T, C, OC, BT, CUDA_R_32F,
               dInp,        dDpre,       dDweight, CUBLASLT_EPILOGUE_BGRADB};
  wgrad.bias = dDbias;
  if (ltMatmul(lt, wgrad, workspace, stream))
    return 1;
  std::vector<float> dweight(weight.size()), dbias(OC);
  CHECK(cudaStreamSynchronize(stream));
  if (!download(dweight, dDweight) || !download(dbias, dDbias))
    return 1;
  for (int o = 0; o < OC; ++o) {
    double sum = 0.0, mag = 0.0;
    for (int t = 0; t < BT; ++t) {
      sum += dpre[size_t(t) * OC + o];
      mag += std::fabs(dpre[size_t(t) * OC + o]);
    }
    expectNear("BGRADB dbias", o, dbias[o], sum,
               mag * (BT + 2) * std::ldexp(1.0, -23) + 1e-6);
    for (int c = 0; c < C; ++c) {
      double acc = 0.0, m = 0.0;
      for (int t = 0; t < BT; ++t) {
        double p = double(dpre[size_t(t) * OC + o]) * inp[size_t(t) * C + c];
        acc += p;
        m += std::fabs(p);
      }
      expectNear("BGRADB dweight", size_t(o) * C + c,
                 dweight[size_t(o) * C + c], acc,
                 m * (BT + 2) * std::ldexp(1.0, -23) + 1e-6);
    }
  }

  for (void *p : {(void *)dInp, (void *)dWeight, (void *)dBias, (void *)dOut,
                  (void *)dPre, (void *)dDh, (void *)dWproj, (void *)dDpre,
                  (void *)dDweight, (void *)dDbias, workspace})
    CHECK(cudaFree(p));
  CHECK(cudaStreamDestroy(stream));
  CHECK_LT(cublasLtDestroy(lt));
  std::printf("cublaslt_bias_gelu BT=%d C=%d OC=%d: %s\n", BT, C, OC,
              bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
