// reductions: the reduction idioms of CUDA code. Warp shuffles
// (__shfl_down_sync for a sum, __shfl_xor_sync for a max and for an argmax
// carrying (value, index) pairs) under a two-pass block/grid scheme;
// cooperative groups (tiled_partition<16> with cg::reduce, and
// coalesced_threads() inside a data-dependent branch to count and sum the
// selected elements); a one-pass grid-wide reduction that finishes with
// atomicAdd/atomicMax; and a cooperative launch (cudaLaunchCooperativeKernel
// with grid.sync() between phases), skipped with a note on devices without
// cooperative launch. Integer data keeps every sum exact, so results are
// compared exactly with a host computation; the float sum uses a stated
// tolerance. Prints PASS or FAIL.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorName(err_), cudaGetErrorString(err_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 256;

__device__ float warpSumDown(float x) {
  for (int offset = 16; offset > 0; offset /= 2)
    x += __shfl_down_sync(kFull, x, offset);
  return x; // valid in lane 0
}

__device__ int warpMaxXor(int x) {
  for (int offset = 16; offset > 0; offset /= 2)
    x = max(x, __shfl_xor_sync(kFull, x, offset));
  return x; // valid in every lane
}

// Largest value, lowest index among equal values.
__device__ void warpArgmaxXor(int &value, int &index) {
  for (int offset = 16; offset > 0; offset /= 2) {
    int v = __shfl_xor_sync(kFull, value, offset);
    int i = __shfl_xor_sync(kFull, index, offset);
    if (v > value || (v == value && i < index)) {
      value = v;
      index = i;
    }
  }
}

// Per-block partials: float sum, int max, argmax (value, index).
__global__ void blockPartials(float *sums, int *maxes, int2 *argmaxes,
                              const int *data, int n) {
  __shared__ float warpSums[kThreads / 32];
  __shared__ int warpMaxes[kThreads / 32];
  __shared__ int2 warpArg[kThreads / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float s = 0.0f;
  int m = INT_MIN, av = INT_MIN, ai = INT_MAX;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int x = data[i];
    s += float(x) * 0.5f;
    m = max(m, x);
    if (x > av) { // grid-stride order visits indices increasingly
      av = x;
      ai = i;
    }
  }
  s = warpSumDown(s);
  m = warpMaxXor(m);
  warpArgmaxXor(av, ai);
  if (lane == 0) {
    warpSums[warp] = s;
    warpMaxes[warp] = m;
    warpArg[warp] = make_int2(av, ai);
  }
  __syncthreads();
  if (warp == 0) {
    int nw = blockDim.x / 32;
    s = lane < nw ? warpSums[lane] : 0.0f;
    m = lane < nw ? warpMaxes[lane] : INT_MIN;
    av = lane < nw ? warpArg[lane].x : INT_MIN;
    ai = lane < nw ? warpArg[lane].y : INT_MAX;
    s = warpSumDown(s);
    m = warpMaxXor(m);
    warpArgmaxXor(av, ai);
    if (lane == 0) {
      sums[blockIdx.x] = s;
      maxes[blockIdx.x] = m;
      argmaxes[blockIdx.x] = make_int2(av, ai);
    }
  }
}

// Second pass: one block folds the partials of the first.
__global__ void finishPartials(float *sum, int *maxv, int2 *argmax,
                               const float *sums, const int *maxes,
                               const int2 *argmaxes, int blocks) {
  __shared__ float warpSums[kThreads / 32];
  __shared__ int warpMaxes[kThreads / 32];
  __shared__ int2 warpArg[kThreads / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float s = 0.0f;
  int m = INT_MIN, av = INT_MIN, ai = INT_MAX;
  for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
    s += sums[b];
    m = max(m, maxes[b]);
    int2 a = argmaxes[b];
    if (a.x > av || (a.x == av && a.y < ai)) {
      av = a.x;
      ai = a.y;
    }
  }
  s = warpSumDown(s);
  m = warpMaxXor(m);
  warpArgmaxXor(av, ai);
  if (lane == 0) {
    warpSums[warp] = s;
    warpMaxes[warp] = m;
    warpArg[warp] = make_int2(av, ai);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < int(blockDim.x / 32); ++w) {
      s += warpSums[w];
      m = max(m, warpMaxes[w]);
      if (warpArg[w].x > av || (warpArg[w].x == av && warpArg[w].y < ai)) {
        av = warpArg[w].x;
        ai = warpArg[w].y;
      }
    }
    *sum = s;
    *maxv = m;
    *argmax = make_int2(av, ai);
  }
}

// Cooperative groups: per-16-thread-tile sums and maxima with cg::reduce,
// plus, inside a data-dependent branch, coalesced_threads() counting and
// summing the elements above a threshold (one atomic per coalesced group).
__global__ void cgReductions(int *tileSums, int *tileMaxes, int *aboveCount,
                             long long *aboveSum, const int *data, int n,
                             int threshold) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? data[i] : 0;
  int tileSum = cg::reduce(tile, x, cg::plus<int>());
  int tileMax = cg::reduce(tile, i < n ? x : INT_MIN, cg::greater<int>());
  int tileIndex = i / 16;
  if (tile.thread_rank() == 0 && i < n) {
    tileSums[tileIndex] = tileSum;
    tileMaxes[tileIndex] = tileMax;
  }
  if (i < n && x > threshold) {
    cg::coalesced_group active = cg::coalesced_threads();
    long long groupSum =
        cg::reduce(active, (long long)x, cg::plus<long long>());
    if (active.thread_rank() == 0) {
      atomicAdd(aboveCount, int(active.size()));
      atomicAdd((unsigned long long *)aboveSum, (unsigned long long)groupSum);
    }
  }
}

// One pass: every block reduces its share and folds it into the result
// with atomics; *sum and *maxv must start at 0 and INT_MIN.
__global__ void atomicGridReduce(unsigned long long *sum, int *maxv,
                                 const int *data, int n) {
  __shared__ long long blockSum[kThreads / 32];
  __shared__ int blockMax[kThreads / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  long long s = 0;
  int m = INT_MIN;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    s += data[i];
    m = max(m, data[i]);
  }
  s = cg::reduce(warp, s, cg::plus<long long>());
  m = cg::reduce(warp, m, cg::greater<int>());
  if (warp.thread_rank() == 0) {
    blockSum[warp.meta_group_rank()] = s;
    blockMax[warp.meta_group_rank()] = m;
  }
  block.sync();
  if (threadIdx.x == 0) {
    for (int w = 1; w < int(warp.meta_group_size()); ++w) {
      s += blockSum[w];
      m = max(m, blockMax[w]);
    }
    atomicAdd(sum, (unsigned long long)s);
    atomicMax(maxv, m);
  }
}

// Cooperative: phase 1 writes per-block sums, grid.sync(), phase 2 has
// block 0 fold them; a second grid.sync() then lets every block read the
// total and scale its share of the data by it (a normalisation).
__global__ void cooperativeNormalize(long long *partials, long long *total,
                                     double *scaled, const int *data, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ long long blockSum[kThreads];
  long long s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    s += data[i];
  blockSum[threadIdx.x] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      blockSum[threadIdx.x] += blockSum[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partials[blockIdx.x] = blockSum[0];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      t += partials[b];
    *total = t;
  }
  grid.sync();
  long long t = *total;
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    scaled[i] = double(data[i]) / double(t);
}

int main() {
  const int n = 100003; // prime: no block or tile divides it
  std::vector<int> data(n);
  unsigned state = 8u;
  for (auto &x : data) {
    state = state * 1664525u + 1013904223u;
    x = int(state >> 12) % 20001 - 5000; // mostly positive, no overflow
  }
  data[n / 3] = 90000; // the maximum appears twice: argmax takes the first
  data[2 * n / 3] = 90000;

  long long rSum = 0;
  int rMax = INT_MIN, rArg = -1;
  for (int i = 0; i < n; ++i) {
    rSum += data[i];
    if (data[i] > rMax) {
      rMax = data[i];
      rArg = i;
    }
  }
  const int threshold = 9000;
  int rAboveCount = 0;
  long long rAboveSum = 0;
  for (int x : data)
    if (x > threshold) {
      ++rAboveCount;
      rAboveSum += x;
    }

  int *dData;
  CHECK(cudaMalloc(&dData, n * sizeof(int)));
  CHECK(
      cudaMemcpy(dData, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int bad = 0;
  auto expect = [&](const char *what, long long got, long long want) {
    if (got != want && bad++ < 8)
      std::fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
  };

  // Two-pass shuffle reductions.
  {
    const int blocks = 40;
    float *dSums, *dSum;
    int *dMaxes, *dMax;
    int2 *dArgs, *dArg;
    CHECK(cudaMalloc(&dSums, blocks * sizeof(float)));
    CHECK(cudaMalloc(&dMaxes, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dArgs, blocks * sizeof(int2)));
    CHECK(cudaMalloc(&dSum, sizeof(float)));
    CHECK(cudaMalloc(&dMax, sizeof(int)));
    CHECK(cudaMalloc(&dArg, sizeof(int2)));
    blockPartials<<<blocks, kThreads>>>(dSums, dMaxes, dArgs, dData, n);
    CHECK(cudaGetLastError());
    finishPartials<<<1, kThreads>>>(dSum, dMax, dArg, dSums, dMaxes, dArgs,
                                    blocks);
    CHECK(cudaGetLastError());
    float sum;
    int maxv;
    int2 arg;
    CHECK(cudaMemcpy(&sum, dSum, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&maxv, dMax, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&arg, dArg, sizeof(int2), cudaMemcpyDeviceToHost));
    // The float sum of n half-integers: per-thread, per-warp and per-block
    // partial sums stay below 2^23 and are exact; only the final fold of 40
    // block sums (total ~2.5e8 < 2^28) rounds, by at most 16 per addition,
    // so the error is below 40 * 16 = 640, i.e. under 1e-5 relative.
    double want = double(rSum) * 0.5;
    if (std::fabs(sum - want) > 1e-5 * std::fabs(want) && bad++ < 8)
      std::fprintf(stderr, "shuffle sum: got %.1f, want %.1f\n", sum, want);
    expect("shuffle max", maxv, rMax);
    expect("shuffle argmax value", arg.x, rMax);
    expect("shuffle argmax index", arg.y, rArg);
    for (void *p : {(void *)dSums, (void *)dMaxes, (void *)dArgs, (void *)dSum,
                    (void *)dMax, (void *)dArg})
      CHECK(cudaFree(p));
  }

  // Cooperative groups: tiles and coalesced groups.
  {
    const int tiles = (n + 15) / 16;
    int *dTileSums, *dTileMaxes, *dCount;
    long long *dAboveSum;
    CHECK(cudaMalloc(&dTileSums, tiles * sizeof(int)));
    CHECK(cudaMalloc(&dTileMaxes, tiles * sizeof(int)));
    CHECK(cudaMalloc(&dCount, sizeof(int)));
    CHECK(cudaMalloc(&dAboveSum, sizeof(long long)));
    CHECK(cudaMemset(dCount, 0, sizeof(int)));
    CHECK(cudaMemset(dAboveSum, 0, sizeof(long long)));
    cgReductions<<<(n + kThreads - 1) / kThreads, kThreads>>>(
        dTileSums, dTileMaxes, dCount, dAboveSum, dData, n, threshold);
    CHECK(cudaGetLastError());
    std::vector<int> tileSums(tiles), tileMaxes(tiles);
    int count;
    long long aboveSum;
    CHECK(cudaMemcpy(tileSums.data(), dTileSums, tiles * sizeof(int),
                     cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(tileMaxes.data(), dTileMaxes, tiles * sizeof(int),
                     cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&aboveSum, dAboveSum, sizeof(long long),
                     cudaMemcpyDeviceToHost));
    for (int t = 0; t < tiles; ++t) {
      int s = 0, m = INT_MIN;
      for (int i = t * 16; i < std::min(n, t * 16 + 16); ++i) {
        s += data[i];
        m = std::max(m, data[i]);
      }
      if ((tileSums[t] != s || tileMaxes[t] != m) && bad++ < 8)
        std::fprintf(stderr, "tile %d: sum %d max %d, want %d %d\n", t,
                     tileSums[t], tileMaxes[t], s, m);
    }
    expect("coalesced count", count, rAboveCount);
    expect("coalesced sum", aboveSum, rAboveSum);
    for (void *p : {(void *)dTileSums, (void *)dTileMaxes, (void *)dCount,
                    (void *)dAboveSum})
      CHECK(cudaFree(p));
  }

  // One-pass grid reduction with atomics.
  {
    unsigned long long *dSum;
    int *dMax;
    CHECK(cudaMalloc(&dSum, sizeof(unsigned long long)));
    CHECK(cudaMalloc(&dMax, sizeof(int)));
    CHECK(cudaMemset(dSum, 0, sizeof(unsigned long long)));
    int minInit = INT_MIN;
    CHECK(cudaMemcpy(dMax, &minInit, sizeof(int), cudaMemcpyHostToDevice));
    atomicGridReduce<<<48, kThreads>>>(dSum, dMax, dData, n);
    CHECK(cudaGetLastError());
    unsigned long long sum;
    int maxv;
    CHECK(cudaMemcpy(&sum, dSum, sizeof(sum), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&maxv, dMax, sizeof(int), cudaMemcpyDeviceToHost));
    expect("atomic sum", (long long)sum, rSum);
    expect("atomic max", maxv, rMax);
    CHECK(cudaFree(dSum));
    CHECK(cudaFree(dMax));
  }

  // Cooperative launch: every block must be resident at once, so the grid
  // is sized from the occupancy query.
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int cooperative = 0;
  CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0));
  if (cooperative != prop.cooperativeLaunch) {
    std::printf("FAIL: cudaDevAttrCooperativeLaunch %d, property %d\n",
                cooperative, prop.cooperativeLaunch);
    return 1;
  }
  if (!cooperative) {
    std::printf("note: device has no cooperative launch; skipping that part\n");
  } else {
    int perSM = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perSM, cooperativeNormalize, kThreads, 0));
    int blocks = std::min(perSM * prop.multiProcessorCount, 32);
    if (blocks < 1) {
      std::fprintf(stderr, "occupancy query gave no resident block\n");
      return 1;
    }
    long long *dPartials, *dTotal;
    double *dScaled;
    CHECK(cudaMalloc(&dPartials, blocks * sizeof(long long)));
    CHECK(cudaMalloc(&dTotal, sizeof(long long)));
    CHECK(cudaMalloc(&dScaled, n * sizeof(double)));
    int nArg = n;
    void *args[] = {&dPartials, &dTotal, &dScaled, &dData, &nArg};
    CHECK(cudaLaunchCooperativeKernel((void *)cooperativeNormalize,
                                      dim3(blocks), dim3(kThreads), args, 0,
                                      nullptr));
    CHECK(cudaDeviceSynchronize());
    long long total;
    std::vector<double> scaled(n);
    CHECK(cudaMemcpy(&total, dTotal, sizeof(total), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(scaled.data(), dScaled, n * sizeof(double),
                     cudaMemcpyDeviceToHost));
    expect("cooperative total", total, rSum);
    // One correctly rounded double division of the same operands: exact.
    for (int i = 0; i < n; ++i)
      if (scaled[i] != double(data[i]) / double(rSum) && bad++ < 8)
        std::fprintf(stderr, "scaled[%d]: got %.17g, want %.17g\n", i,
                     scaled[i], double(data[i]) / double(rSum));
    CHECK(cudaFree(dPartials));
    CHECK(cudaFree(dTotal));
    CHECK(cudaFree(dScaled));
  }

  CHECK(cudaFree(dData));
  std::printf("reductions n=%d: %s\n", n, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
