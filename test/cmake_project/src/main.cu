// Runs GELU and bias+GELU on the GPU and checks them against the host.
#include "mlp.h"

#include <cmath>
#include <cstdio>
#include <vector>

static double hostGelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

int main() {
  const int rows = 37, cols = 300, n = rows * cols;
  std::vector<float> x(n), bias(cols), out(n);
  for (int i = 0; i < n; ++i)
    x[i] = std::sin(0.37f * i) * 4.0f;
  for (int c = 0; c < cols; ++c)
    bias[c] = 0.01f * (c % 17) - 0.08f;
  float *dx = deviceCopyOf(x.data(), n), *dbias = deviceCopyOf(bias.data(), cols);
  float *dout = nullptr;
  if (!dx || !dbias || cudaMalloc(&dout, n * sizeof(float)) != cudaSuccess) {
    std::printf("FAIL: allocation\n");
    return 1;
  }
  int bad = 0;
  geluForward<<<(n + 255) / 256, 256>>>(dout, dx, n);
  if (cudaGetLastError() != cudaSuccess || !hostCopyOf(out.data(), dout, n)) {
    std::printf("FAIL: geluForward launch\n");
    return 1;
  }
  for (int i = 0; i < n; ++i)
    if (std::fabs(out[i] - hostGelu(x[i])) > 1e-5 * (1 + std::fabs(hostGelu(x[i]))))
      ++bad;
  dim3 grid((cols + 127) / 128, rows);
  biasGelu<<<grid, 128>>>(dout, dx, dbias, rows, cols);
  if (cudaGetLastError() != cudaSuccess || !hostCopyOf(out.data(), dout, n)) {
    std::printf("FAIL: biasGelu launch\n");
    return 1;
  }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      double want = hostGelu(x[r * cols + c] + bias[c]);
      if (std::fabs(out[r * cols + c] - want) > 1e-5 * (1 + std::fabs(want)))
        ++bad;
    }
  cudaFree(dx);
  cudaFree(dbias);
  cudaFree(dout);
  std::printf("%s: %d of %d values off\n", bad ? "FAIL" : "PASS", bad, 2 * n);
  return bad ? 1 : 0;
}
