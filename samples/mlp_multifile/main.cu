// mlp_multifile, file 4 of 4: a transformer MLP block split over four files
// (x + proj(gelu(fc(x)))), built with relocatable device code. The host code
// launches kernels defined in other files, sets a __constant__ array of
// another file with cudaMemcpyToSymbol, reads a __device__ counter of another
// file with cudaMemcpyFromSymbol and cudaGetSymbolAddress, and runs a kernel
// of its own that calls a device function of residual.cu. Checked against a
// double-precision host computation; prints PASS or FAIL.
#include "mlp.h"

#include <cmath>
#include <cstdio>
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

// Adds a scaled copy of the input in place, through residual.cu's function:
// a kernel of this file calling a device function of another.
__global__ void addScaledInPlace(float *Y, const float *X, float Alpha, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = residualScale(Y[I], X[I], Alpha);
}

static double hostGelu(double X) {
  const double Pi = 3.14159265358979323846;
  return 0.5 * X * (1.0 + std::tanh(std::sqrt(2.0 / Pi) * (X + 0.044715 * X * X * X)));
}

static void hostLinearGelu(std::vector<double> &Out, const std::vector<double> &In,
                           const std::vector<float> &W, const std::vector<float> &B,
                           int Rows, int InDim, int OutDim) {
  Out.assign((size_t)Rows * OutDim, 0.0);
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < OutDim; ++C) {
      double Acc = B[C];
      for (int K = 0; K < InDim; ++K)
        Acc += In[(size_t)R * InDim + K] * W[(size_t)C * InDim + K];
      Out[(size_t)R * OutDim + C] = hostGelu(Acc);
    }
}

int main() {
  const int Rows = 16, Embed = 64, Hidden = 256;
  const float Alpha = 0.5f;
  unsigned Seed = 12345;
  auto Next = [&Seed] {
    Seed = Seed * 1664525u + 1013904223u;
    return ((Seed >> 8) & 0xffff) / 65536.0f - 0.5f;
  };
  std::vector<float> X((size_t)Rows * Embed), W1((size_t)Hidden * Embed),
      B1(Hidden), W2((size_t)Embed * Hidden), B2(Embed);
  for (float &V : X) V = 2.0f * Next();
  for (float &V : W1) V = 0.25f * Next();
  for (float &V : B1) V = 0.1f * Next();
  for (float &V : W2) V = 0.125f * Next();
  for (float &V : B2) V = 0.1f * Next();

  const float Coeff[2] = {0.7978845608028654f, 0.044715f};
  CHECK(cudaMemcpyToSymbol(GeluCoeff, Coeff, sizeof(Coeff)));
  unsigned long long Zero = 0;
  CHECK(cudaMemcpyToSymbol(MacCount, &Zero, sizeof(Zero)));

  float *DX, *DW1, *DB1, *DH, *DW2, *DB2, *DP, *DOut;
  CHECK(cudaMalloc(&DX, X.size() * sizeof(float)));
  CHECK(cudaMalloc(&DW1, W1.size() * sizeof(float)));
  CHECK(cudaMalloc(&DB1, B1.size() * sizeof(float)));
  CHECK(cudaMalloc(&DH, (size_t)Rows * Hidden * sizeof(float)));
  CHECK(cudaMalloc(&DW2, W2.size() * sizeof(float)));
  CHECK(cudaMalloc(&DB2, B2.size() * sizeof(float)));
  CHECK(cudaMalloc(&DP, X.size() * sizeof(float)));
  CHECK(cudaMalloc(&DOut, X.size() * sizeof(float)));
  CHECK(cudaMemcpy(DX, X.data(), X.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DW1, W1.data(), W1.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DB1, B1.data(), B1.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DW2, W2.data(), W2.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DB2, B2.data(), B2.size() * sizeof(float), cudaMemcpyHostToDevice));

  // fc + gelu, then proj + gelu (the second activation keeps one kernel for
  // both layers), then the residual; then the in-place variant once more.
  linearGelu<<<dim3((Hidden + 63) / 64, Rows), 64>>>(DH, DX, DW1, DB1, Rows, Embed, Hidden);
  CHECK(cudaGetLastError());
  linearGelu<<<dim3((Embed + 63) / 64, Rows), 64>>>(DP, DH, DW2, DB2, Rows, Hidden, Embed);
  CHECK(cudaGetLastError());
  const int N = Rows * Embed;
  residualAdd<<<(N + 127) / 128, 128>>>(DOut, DX, DP, Alpha, N);
  CHECK(cudaGetLastError());
  addScaledInPlace<<<(N + 127) / 128, 128>>>(DOut, DX, 1.0f, N);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> Out(N);
  CHECK(cudaMemcpy(Out.data(), DOut, N * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned long long Macs = 0;
  CHECK(cudaMemcpyFromSymbol(&Macs, MacCount, sizeof(Macs)));
  void *CounterAddr = nullptr;
  size_t CounterSize = 0;
  CHECK(cudaGetSymbolAddress(&CounterAddr, MacCount));
  CHECK(cudaGetSymbolSize(&CounterSize, MacCount));
  unsigned long long MacsByAddress = 0;
  CHECK(cudaMemcpy(&MacsByAddress, CounterAddr, sizeof(MacsByAddress),
                   cudaMemcpyDeviceToHost));

  std::vector<double> XD(X.begin(), X.end()), H, P;
  hostLinearGelu(H, XD, W1, B1, Rows, Embed, Hidden);
  hostLinearGelu(P, H, W2, B2, Rows, Hidden, Embed);
  int Bad = 0;
  double MaxErr = 0;
  for (int I = 0; I < N; ++I) {
    double Want = XD[I] + Alpha * P[I] + XD[I];
    double Err = std::fabs(Out[I] - Want);
    MaxErr = std::fmax(MaxErr, Err);
    if (Err > 1e-4 + 1e-4 * std::fabs(Want)) {
      if (Bad++ < 5)
        std::printf("mismatch at %d: got %.7f, want %.7f\n", I, Out[I], Want);
    }
  }
  const unsigned long long WantMacs =
      (unsigned long long)Rows * Hidden * Embed * 2;
  if (Macs != WantMacs || MacsByAddress != WantMacs) {
    std::printf("MacCount = %llu (by address %llu), want %llu\n", Macs,
                MacsByAddress, WantMacs);
    ++Bad;
  }
  if (CounterSize != sizeof(unsigned long long)) {
    std::printf("cudaGetSymbolSize(MacCount) = %zu\n", CounterSize);
    ++Bad;
  }
  for (float *P : {DX, DW1, DB1, DH, DW2, DB2, DP, DOut})
    CHECK(cudaFree(P));
  std::printf("mlp_multifile: %d rows, %d -> %d -> %d, max error %.2e, %llu "
              "multiply-adds\n",
              Rows, Embed, Hidden, Embed, MaxErr, Macs);
  std::printf(Bad ? "FAIL\n" : "PASS\n");
  return Bad ? 1 : 0;
}
