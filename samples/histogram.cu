// histogram: a 256-bin byte histogram, once with per-block bins in shared
// memory (shared-memory atomicAdd, then one global atomicAdd per bin) and
// once with global atomicAdd only; plus global atomicMax/atomicMin on
// integers and a float maximum built from an atomicCAS loop (float
// atomicMax does not exist), run over data with NaN-free negative and
// positive values. Integer results are exact; the float maximum is an
// element of the data, so everything is compared exactly with the host.
// Prints PASS or FAIL.
#include <algorithm>
#include <cfloat>
#include <climits>
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

__global__ void histogramShared(unsigned *bins, const unsigned char *data,
                                int n) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    if (local[i])
      atomicAdd(&bins[i], local[i]);
}

__global__ void histogramGlobal(unsigned *bins, const unsigned char *data,
                                int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
}

__device__ float atomicMaxFloat(float *address, float value) {
  int *word = (int *)address;
  int old = *word;
  while (__int_as_float(old) < value) {
    int assumed = old;
    old = atomicCAS(word, assumed, __float_as_int(value));
    if (old == assumed)
      break;
  }
  return __int_as_float(old);
}

__global__ void extremes(int *maxv, int *minv, float *fmax, const int *ints,
                         const float *floats, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    atomicMax(maxv, ints[i]);
    atomicMin(minv, ints[i]);
    atomicMaxFloat(fmax, floats[i]);
  }
}

int main() {
  const int n = 1 << 18;
  std::vector<unsigned char> bytes(n);
  std::vector<int> ints(n);
  std::vector<float> floats(n);
  unsigned state = 1234u;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int i = 0; i < n; ++i) {
    // Skewed: low byte values are much more frequent, so some bins see
    // heavy contention while others stay empty.
    unsigned r = next();
    bytes[i] = (unsigned char)((r & 0xff) * ((r >> 8) & 0xff) / 300);
    ints[i] = int(next()) - (1 << 23);
    floats[i] = (float(next()) - float(1 << 23)) / 3.0f;
  }
  std::vector<unsigned> rBins(256, 0);
  int rMax = INT_MIN, rMin = INT_MAX;
  float rFmax = -FLT_MAX;
  for (int i = 0; i < n; ++i) {
    ++rBins[bytes[i]];
    rMax = std::max(rMax, ints[i]);
    rMin = std::min(rMin, ints[i]);
    rFmax = std::max(rFmax, floats[i]);
  }

  unsigned char *dBytes;
  unsigned *dBinsShared, *dBinsGlobal;
  int *dInts, *dMax, *dMin;
  float *dFloats, *dFmax;
  CHECK(cudaMalloc(&dBytes, n));
  CHECK(cudaMalloc(&dInts, n * sizeof(int)));
  CHECK(cudaMalloc(&dFloats, n * sizeof(float)));
  CHECK(cudaMalloc(&dBinsShared, 256 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dBinsGlobal, 256 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dMax, sizeof(int)));
  CHECK(cudaMalloc(&dMin, sizeof(int)));
  CHECK(cudaMalloc(&dFmax, sizeof(float)));
  CHECK(cudaMemcpy(dBytes, bytes.data(), n, cudaMemcpyHostToDevice));
  CHECK(
      cudaMemcpy(dInts, ints.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dFloats, floats.data(), n * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dBinsShared, 0, 256 * sizeof(unsigned)));
  CHECK(cudaMemset(dBinsGlobal, 0, 256 * sizeof(unsigned)));
  int initMax = INT_MIN, initMin = INT_MAX;
  float initF = -FLT_MAX;
  CHECK(cudaMemcpy(dMax, &initMax, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dMin, &initMin, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dFmax, &initF, sizeof(float), cudaMemcpyHostToDevice));

  histogramShared<<<32, 256>>>(dBinsShared, dBytes, n);
  CHECK(cudaGetLastError());
  histogramGlobal<<<32, 256>>>(dBinsGlobal, dBytes, n);
  CHECK(cudaGetLastError());
  extremes<<<32, 256>>>(dMax, dMin, dFmax, dInts, dFloats, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> binsShared(256), binsGlobal(256);
  int maxv, minv;
  float fmax;
  CHECK(cudaMemcpy(binsShared.data(), dBinsShared, 256 * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(binsGlobal.data(), dBinsGlobal, 256 * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&maxv, dMax, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&minv, dMin, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&fmax, dFmax, sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int b = 0; b < 256; ++b)
    if ((binsShared[b] != rBins[b] || binsGlobal[b] != rBins[b]) && bad++ < 8)
      std::fprintf(stderr, "bin %d: shared %u, global %u, want %u\n", b,
                   binsShared[b], binsGlobal[b], rBins[b]);
  if (maxv != rMax && bad++ < 8)
    std::fprintf(stderr, "atomicMax: got %d, want %d\n", maxv, rMax);
  if (minv != rMin && bad++ < 8)
    std::fprintf(stderr, "atomicMin: got %d, want %d\n", minv, rMin);
  if (fmax != rFmax && bad++ < 8)
    std::fprintf(stderr, "float max: got %.9g, want %.9g\n", fmax, rFmax);

  CHECK(cudaFree(dBytes));
  for (void *p :
       {(void *)dInts, (void *)dFloats, (void *)dBinsShared,
        (void *)dBinsGlobal, (void *)dMax, (void *)dMin, (void *)dFmax})
    CHECK(cudaFree(p));
  std::printf("histogram n=%d: %s\n", n, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
