// cublaslt_matmul: llm.c's matmul forward through cuBLASLt:
// out = GELU(inp @ weight^T + bias) for a (B*T) x C input and an OC x C
// weight, both row-major. In cuBLASLt's column-major terms D (OC x B*T) =
// op(A) B with A the weight seen as C x OC and TRANSA=T, B the input seen as
// C x B*T, the bias broadcast along D's columns (one value per output
// channel) and the GELU_AUX_BIAS epilogue keeping the pre-activation in a
// separate buffer. Done once in float32 and once in bfloat16 with float32
// compute, on a stream, with the algorithm the heuristic picks and a
// workspace; checked against a double-precision host computation. Prints
// PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, cudaGetErrorString(err_));                           \
      return 1;                                                                \
    }                                                                          \
  } while (0)
#define CHECK_LT(call)                                                         \
  do {                                                                         \
    cublasStatus_t st_ = (call);                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, cublasLtGetStatusName(st_));                         \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static uint16_t toBF16(float f) { // round to nearest even
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
static float fromBF16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static double gelu(double x) {
  const double s = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(s * (x + 0.044715 * x * x * x)));
}

// One forward matmul in `type` (CUDA_R_32F or CUDA_R_16BF); inputs are
// given as floats already representable in that type.
static int forward(cublasLtHandle_t lt, cudaStream_t stream, cudaDataType type,
                   int BT, int C, int OC, const std::vector<float> &inp,
                   const std::vector<float> &weight,
                   const std::vector<float> &bias, std::vector<float> &out,
                   std::vector<float> &preGelu) {
  size_t es = type == CUDA_R_32F ? 4 : 2;
  auto upload = [&](const std::vector<float> &v, void **d) -> cudaError_t {
    std::vector<unsigned char> bytes(v.size() * es);
    for (size_t i = 0; i < v.size(); ++i) {
      if (es == 4)
        std::memcpy(&bytes[i * 4], &v[i], 4);
      else {
        uint16_t h = toBF16(v[i]);
        std::memcpy(&bytes[i * 2], &h, 2);
      }
    }
    cudaError_t e = cudaMalloc(d, bytes.size());
    if (e == cudaSuccess)
      e = cudaMemcpyAsync(*d, bytes.data(), bytes.size(),
                          cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess)
      e = cudaStreamSynchronize(stream);
    return e;
  };
  void *dInp, *dWeight, *dBias, *dOut, *dPre, *workspace;
  CHECK(upload(inp, &dInp));
  CHECK(upload(weight, &dWeight));
  CHECK(upload(bias, &dBias));
  CHECK(cudaMalloc(&dOut, size_t(BT) * OC * es));
  CHECK(cudaMalloc(&dPre, size_t(BT) * OC * es));
  size_t workspaceSize = 32 << 20;
  CHECK(cudaMalloc(&workspace, workspaceSize));

  cublasLtMatmulDesc_t desc;
  CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                          &opT, sizeof(opT)));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                          &opN, sizeof(opN)));
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                          &epilogue, sizeof(epilogue)));
  CHECK_LT(cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dBias, sizeof(dBias)));
  int32_t biasType = type;
  CHECK_LT(cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &biasType, sizeof(biasType)));
  int64_t auxLd = OC;
  CHECK_LT(cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &dPre, sizeof(dPre)));
  CHECK_LT(cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &auxLd, sizeof(auxLd)));

  // Column-major views of the row-major tensors: weight is C x OC, inp is
  // C x BT, out is OC x BT.
  cublasLtMatrixLayout_t aLayout, bLayout, cLayout, dLayout;
  CHECK_LT(cublasLtMatrixLayoutCreate(&aLayout, type, C, OC, C));
  CHECK_LT(cublasLtMatrixLayoutCreate(&bLayout, type, C, BT, C));
  CHECK_LT(cublasLtMatrixLayoutCreate(&cLayout, type, OC, BT, OC));
  CHECK_LT(cublasLtMatrixLayoutCreate(&dLayout, type, OC, BT, OC));

  cublasLtMatmulPreference_t pref;
  CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
  CHECK_LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceSize,
      sizeof(workspaceSize)));
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  CHECK_LT(cublasLtMatmulAlgoGetHeuristic(lt, desc, aLayout, bLayout, cLayout,
                                          dLayout, pref, 1, &heuristic,
                                          &found));
  if (found != 1 || heuristic.state != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "no cuBLASLt algorithm for the forward matmul\n");
    return 1;
  }
  float alpha = 1.0f, beta = 0.0f;
  CHECK_LT(cublasLtMatmul(lt, desc, &alpha, dWeight, aLayout, dInp, bLayout,
                          &beta, dOut, cLayout, dOut, dLayout,
                          &heuristic.algo, workspace, workspaceSize, stream));

  std::vector<unsigned char> outBytes(size_t(BT) * OC * es),
      preBytes(outBytes.size());
  CHECK(cudaMemcpyAsync(outBytes.data(), dOut, outBytes.size(),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(preBytes.data(), dPre, preBytes.size(),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  out.resize(size_t(BT) * OC);
  preGelu.resize(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    if (es == 4) {
      std::memcpy(&out[i], &outBytes[i * 4], 4);
      std::memcpy(&preGelu[i], &preBytes[i * 4], 4);
    } else {
      uint16_t h;
      std::memcpy(&h, &outBytes[i * 2], 2);
      out[i] = fromBF16(h);
      std::memcpy(&h, &preBytes[i * 2], 2);
      preGelu[i] = fromBF16(h);
    }
  }
  CHECK_LT(cublasLtMatmulPreferenceDestroy(pref));
  for (cublasLtMatrixLayout_t l : {aLayout, bLayout, cLayout, dLayout})
    CHECK_LT(cublasLtMatrixLayoutDestroy(l));
  CHECK_LT(cublasLtMatmulDescDestroy(desc));
  for (void *p : {dInp, dWeight, dBias, dOut, dPre, workspace})
    CHECK(cudaFree(p));
  return 0;
}

int main() {
  const int B = 4, T = 16, C = 96, OC = 4 * C, BT = B * T;
  cublasLtHandle_t lt;
  CHECK_LT(cublasLtCreate(&lt));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  int bad = 0;
  for (cudaDataType type : {CUDA_R_32F, CUDA_R_16BF}) {
    bool bf16 = type == CUDA_R_16BF;
    auto value = [&](unsigned i, unsigned salt) {
      float v = float(int((i * 2654435761u + salt * 40503u) % 2001u) - 1000) /
                1000.0f;
      return bf16 ? fromBF16(toBF16(v)) : v;
    };
    std::vector<float> inp(size_t(BT) * C), weight(size_t(OC) * C), bias(OC);
    for (size_t i = 0; i < inp.size(); ++i)
      inp[i] = value(unsigned(i), 1);
    for (size_t i = 0; i < weight.size(); ++i)
      weight[i] = value(unsigned(i), 2) * 0.2f;
    for (int i = 0; i < OC; ++i)
      bias[i] = value(unsigned(i), 3);
    std::vector<float> out, pre;
    if (forward(lt, stream, type, BT, C, OC, inp, weight, bias, out, pre))
      return 1;
    // Relative to the sizes of the terms; bf16 outputs keep 8 bits.
    double unit = bf16 ? std::ldexp(1.0, -8) : 1e-6;
    for (int t = 0; t < BT; ++t)
      for (int o = 0; o < OC; ++o) {
        double x = bias[o], mag = std::fabs(bias[o]);
        for (int c = 0; c < C; ++c) {
          x += double(inp[size_t(t) * C + c]) * weight[size_t(o) * C + c];
          mag += std::fabs(double(inp[size_t(t) * C + c]) *
                           weight[size_t(o) * C + c]);
        }
        double tol = 2 * unit * (mag + 1);
        float gotPre = pre[size_t(t) * OC + o], got = out[size_t(t) * OC + o];
        if (std::fabs(gotPre - x) > tol || std::fabs(got - gelu(x)) > tol) {
          if (++bad <= 5)
            std::printf("%s: out[%d][%d] = %g (pre %g), expected %g (pre %g)\n",
                        bf16 ? "bf16" : "f32", t, o, got, gotPre, gelu(x), x);
        }
      }
  }
  CHECK(cudaStreamDestroy(stream));
  CHECK_LT(cublasLtDestroy(lt));
  std::printf("cublaslt_matmul %dx%dx%d bias+GELU: %s\n", BT, OC, C,
              bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
