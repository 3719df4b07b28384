// Warp-level CUDA intrinsics the way LLM kernels use them: a block sum via
// __shfl_down_sync per warp and a final reduction done by warp 0 only (a
// branch the other warps skip), softmax-style max/sum with __shfl_xor_sync,
// __ballot_sync/__popc counting, __match_any_sync grouping, __reduce_add_sync
// and __syncwarp-ordered shared-memory exchange. Checks against the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int failures = 0;
static void expect(bool ok, const char *what) {
  std::printf("%-56s %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  v = warpSum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x + 31) / 32 ? partial[lane] : 0.0f;
    v = warpSum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void rowMaxSum(const float *x, float *maxOut, float *sumOut, int cols) {
  // one warp per row
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  float m = -1e30f;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[row * cols + c]);
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0;
  for (int c = lane; c < cols; c += 32)
    s += x[row * cols + c] - m;
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) {
    maxOut[row] = m;
    sumOut[row] = s;
  }
}

__global__ void votes(const int *v, int *count, unsigned *groups, int *sums) {
  __shared__ int buf[64];
  int t = threadIdx.x, lane = t & 31;
  unsigned b = __ballot_sync(0xffffffffu, v[t] > 0);
  if (lane == 0)
    count[t / 32] = __popc(b);
  groups[t] = __match_any_sync(0xffffffffu, v[t] & 7);
  sums[t] = __reduce_add_sync(0xffffffffu, (unsigned)v[t]);
  // Lanes exchange through shared memory ordered by __syncwarp.
  buf[t] = v[t] * 2;
  __syncwarp();
  sums[64 + t] = buf[(t & ~31) | ((lane + 1) & 31)];
}

int main() {
  // Block sums, warp 0 finishing the reduction.
  {
    const int n = 10000, blocks = 5, threads = 256;
    float *h = (float *)std::malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
      h[i] = float(i % 17);
    float *d, *dout, hout[blocks];
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&dout, sizeof(hout));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    blockSum<<<blocks, threads>>>(d, dout, n);
    expect(cudaGetLastError() == cudaSuccess, "blockSum launch");
    cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
    double total = 0, want = 0;
    for (int b = 0; b < blocks; ++b)
      total += hout[b];
    for (int i = 0; i < n; ++i)
      want += h[i];
    expect(total == want, "block sum via __shfl_down_sync, warp 0 finishes");
    cudaFree(d);
    cudaFree(dout);
    std::free(h);
  }
  // Per-row max and sum with butterfly shuffles.
  {
    const int rows = 8, cols = 100;
    float h[rows * cols], hm[rows], hs[rows];
    for (int i = 0; i < rows * cols; ++i)
      h[i] = float((i * 37) % 101) - 50.0f;
    float *d, *dm, *ds;
    cudaMalloc(&d, sizeof(h));
    cudaMalloc(&dm, sizeof(hm));
    cudaMalloc(&ds, sizeof(hs));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    rowMaxSum<<<2, 128>>>(d, dm, ds, cols);
    expect(cudaGetLastError() == cudaSuccess, "rowMaxSum launch");
    cudaMemcpy(hm, dm, sizeof(hm), cudaMemcpyDeviceToHost);
    cudaMemcpy(hs, ds, sizeof(hs), cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int r = 0; r < rows; ++r) {
      float m = -1e30f;
      for (int c = 0; c < cols; ++c)
        m = h[r * cols + c] > m ? h[r * cols + c] : m;
      double s = 0;
      for (int c = 0; c < cols; ++c)
        s += h[r * cols + c] - m;
      ok = ok && hm[r] == m && hs[r] == (float)s;
    }
    expect(ok, "row max and sum via __shfl_xor_sync");
    cudaFree(d);
    cudaFree(dm);
    cudaFree(ds);
  }
  // Ballot, match, reduce, __syncwarp.
  {
    int h[64], hc[2], hsums[128];
    unsigned hg[64];
    for (int i = 0; i < 64; ++i)
      h[i] = (i * 13) % 11 - 4;
    int *d, *dc, *dsums;
    unsigned *dg;
    cudaMalloc(&d, sizeof(h));
    cudaMalloc(&dc, sizeof(hc));
    cudaMalloc(&dg, sizeof(hg));
    cudaMalloc(&dsums, sizeof(hsums));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    votes<<<1, 64>>>(d, dc, dg, dsums);
    expect(cudaGetLastError() == cudaSuccess, "votes launch");
    cudaMemcpy(hc, dc, sizeof(hc), cudaMemcpyDeviceToHost);
    cudaMemcpy(hg, dg, sizeof(hg), cudaMemcpyDeviceToHost);
    cudaMemcpy(hsums, dsums, sizeof(hsums), cudaMemcpyDeviceToHost);
    bool ballotOk = true, matchOk = true, reduceOk = true, syncOk = true;
    for (int w = 0; w < 2; ++w) {
      int cnt = 0;
      unsigned sum = 0;
      for (int l = 0; l < 32; ++l) {
        cnt += h[w * 32 + l] > 0;
        sum += (unsigned)h[w * 32 + l];
      }
      ballotOk = ballotOk && hc[w] == cnt;
      for (int l = 0; l < 32; ++l) {
        unsigned g = 0;
        for (int j = 0; j < 32; ++j)
          if ((h[w * 32 + j] & 7) == (h[w * 32 + l] & 7))
            g |= 1u << j;
        matchOk = matchOk && hg[w * 32 + l] == g;
        reduceOk = reduceOk && (unsigned)hsums[w * 32 + l] == sum;
        syncOk = syncOk && hsums[64 + w * 32 + l] == 2 * h[w * 32 + ((l + 1) & 31)];
      }
    }
    expect(ballotOk, "__ballot_sync with __popc");
    expect(matchOk, "__match_any_sync groups");
    expect(reduceOk, "__reduce_add_sync");
    expect(syncOk, "__syncwarp orders shared-memory exchange");
    cudaFree(d);
    cudaFree(dc);
    cudaFree(dg);
    cudaFree(dsums);
  }
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
