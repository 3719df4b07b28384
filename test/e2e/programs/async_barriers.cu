// Asynchronous barriers and copies as CUDA programs write them, which nvcc
// compiles to mbarrier and cp.async PTX (spin loops of test_wait/try_wait
// around arrive tokens or phase parities):
//  - cuda::barrier in shared memory: arrive_and_wait over several phases,
//    a split arrive/wait where one warp arrives at once and the others
//    only after some work, arrive with a count, and arrive_and_drop;
//  - a producer warp and consumer warps handing buffers back and forth
//    with "full" and "empty" barriers;
//  - cuda::memcpy_async of a whole block into shared memory completing on a
//    cuda::barrier, and cooperative_groups::memcpy_async with cg::wait;
//  - a block-scoped cuda::pipeline with two stages streaming tiles, and a
//    thread-scoped one (cp.async groups).
// Every block works on values of its own and writes its own part of the
// output (a block that read another's leftovers from the shared memory a
// worker reuses would be caught). Every result is compared with the
// host's. Prints PASS when all agree.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <cstdio>
#include <vector>

#include "Expect.h"

// Barriers in __shared__ memory are constructed by init(), not by their
// (trivial) constructor, as the CUDA programming guide shows.
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int Threads = 128;
constexpr int Blocks = 3;
constexpr int Rounds = 5;

// What block b adds to its values.
__host__ __device__ constexpr int salt(int b) { return 100000 * (b + 1); }

// out[r * Threads + t] (block b: after b * Rounds * Threads): in round r
// every thread writes salt + r * 1000 + t + its
// own work to buf[r % 2][t], arrives, waits, and reads its right
// neighbour's value. Warp 0 arrives first; the other warps first do work
// that grows with their thread index. After the rounds, the upper half of
// the block drops out and the lower half synchronises once more on its
// own (the expected count fell with each drop).
__global__ void phases(int *out, int *dropped) {
  __shared__ block_barrier bar;
  __shared__ int buf[2][Threads];
  int t = threadIdx.x, n = blockDim.x, s = salt(blockIdx.x);
  out += blockIdx.x * Rounds * n;
  dropped += blockIdx.x * (n / 2);
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  for (int r = 0; r < Rounds; ++r) {
    int work = 0;
    if (t >= 32)
      for (int k = 0; k <= t; ++k)
        work += k % 7;
    buf[r % 2][t] = s + r * 1000 + t + work;
    if (r % 2 == 0) {
      bar.arrive_and_wait();
    } else {
      block_barrier::arrival_token token = bar.arrive();
      bar.wait(std::move(token));
    }
    out[r * n + t] = buf[r % 2][(t + 1) % n];
  }
  if (t >= n / 2) {
    (void)bar.arrive_and_drop();
    return;
  }
  // Rounds is odd: round Rounds - 1 read buf[0] and buf[1] is free again.
  buf[1][t] = s + 7 * t;
  bar.arrive_and_wait();
  dropped[t] = buf[1][(t + 1) % (n / 2)];
}

// One lane per warp arrives for its whole warp (arrive with a count).
__global__ void warpCounts(int *out) {
  __shared__ block_barrier bar;
  __shared__ int buf[Threads];
  int t = threadIdx.x, n = blockDim.x;
  out += blockIdx.x * n;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  buf[t] = salt(blockIdx.x) + 3 * t + 1;
  __syncwarp();
  if (t % 32 == 0) {
    block_barrier::arrival_token token = bar.arrive(32);
    bar.wait(std::move(token));
  }
  __syncwarp();
  out[t] = buf[n - 1 - t];
}

// Warp 0 produces Tiles tiles of Threads - 32 values into two buffers; the
// other warps consume them. full[b] completes when the producer filled
// buffer b, empty[b] when every consumer has read it.
constexpr int Tiles = 8;
__global__ void producerConsumer(const int *in, int *out) {
  __shared__ block_barrier full[2], empty[2];
  __shared__ int tile[2][Threads - 32];
  int t = threadIdx.x, consumers = blockDim.x - 32;
  out += blockIdx.x * consumers;
  if (t == 0) {
    for (int b = 0; b < 2; ++b) {
      init(&full[b], blockDim.x);
      init(&empty[b], blockDim.x);
    }
  }
  __syncthreads();
  if (t < 32) {
    for (int i = 0; i < Tiles; ++i) {
      int b = i % 2;
      if (i >= 2)
        empty[b].arrive_and_wait(); // the consumers are done with it
      for (int k = t; k < consumers; k += 32)
        tile[b][k] = in[i * consumers + k] + salt(blockIdx.x);
      (void)full[b].arrive();
    }
    // Balance the consumers' last arrivals on empty.
    for (int i = Tiles; i < Tiles + 2; ++i)
      (void)empty[i % 2].arrive();
  } else {
    int c = t - 32, acc = 0;
    for (int i = 0; i < Tiles; ++i) {
      int b = i % 2;
      full[b].arrive_and_wait();
      acc += tile[b][c] * (i + 1);
      (void)empty[b].arrive();
    }
    out[c] = acc;
  }
}

// A block copies in[] to shared memory with cuda::memcpy_async, completing
// on a barrier, and with cooperative_groups::memcpy_async and cg::wait.
__global__ void blockCopies(const int *in, int *out) {
  __shared__ int a[Threads], b[Threads];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, a, in, sizeof(int) * Threads, bar);
  bar.arrive_and_wait();
  cg::memcpy_async(block, b, in + Threads, sizeof(int) * Threads);
  cg::wait(block);
  int t = block.thread_rank();
  out[blockIdx.x * Threads + t] =
      a[Threads - 1 - t] + 2 * b[(t + 5) % Threads] + salt(blockIdx.x);
}

// Stream PipeTiles tiles through a two-stage block pipeline: the block
// fetches tile i + 1 while it sums tile i.
constexpr int PipeTiles = 6;
__global__ void blockPipeline(const int *in, int *out) {
  constexpr int Stages = 2;
  __shared__ int stage[Stages][Threads];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  int t = block.thread_rank(), acc = 0;
  int fetched = 0;
  for (; fetched < Stages && fetched < PipeTiles; ++fetched) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, stage[fetched % Stages], in + fetched * Threads,
                       sizeof(int) * Threads, pipe);
    pipe.producer_commit();
  }
  for (int i = 0; i < PipeTiles; ++i) {
    pipe.consumer_wait();
    acc += stage[i % Stages][(t + i) % Threads] * (i + 1);
    pipe.consumer_release();
    if (fetched < PipeTiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, stage[fetched % Stages],
                         in + fetched * Threads, sizeof(int) * Threads, pipe);
      pipe.producer_commit();
      ++fetched;
    }
  }
  out[blockIdx.x * Threads + t] = acc + salt(blockIdx.x);
}

// Each thread runs its own pipeline (cp.async groups).
__global__ void threadPipeline(const int *in, int *out) {
  __shared__ int s[2][Threads];
  int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int k = 0; k < 2; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(&s[k][t], &in[k * Threads + t], sizeof(int), pipe);
    pipe.producer_commit();
  }
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  out[blockIdx.x * Threads + t] = s[0][t] - s[1][t] + salt(blockIdx.x);
}

template <typename Kernel, typename... Args>
static void launch(Kernel k, Args... args) {
  k<<<Blocks, Threads>>>(args...);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

static int *deviceCopy(const std::vector<int> &h) {
  int *d = nullptr;
  CHECK(cudaMalloc(&d, h.size() * sizeof(int)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
  return d;
}

static std::vector<int> hostCopy(const int *d, size_t n) {
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  return h;
}

static void expectEqual(const char *what, const std::vector<int> &got,
                        const std::vector<int> &want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      printf("%s: element %zu is %d, expected %d\n", what, i, got[i], want[i]);
      ++failures;
      return;
    }
}

int main() {
  const int n = Threads;
  std::vector<int> input(Tiles * (n - 32) + PipeTiles * n);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = int(i * 37 % 101) - 50;
  int *in = deviceCopy(input);

  {
    int *out = deviceCopy(std::vector<int>(Blocks * Rounds * n));
    int *dropped = deviceCopy(std::vector<int>(Blocks * n / 2));
    launch(phases, out, dropped);
    std::vector<int> want, wantDropped;
    for (int b = 0; b < Blocks; ++b) {
      for (int r = 0; r < Rounds; ++r)
        for (int t = 0; t < n; ++t) {
          int u = (t + 1) % n, work = 0;
          if (u >= 32)
            for (int k = 0; k <= u; ++k)
              work += k % 7;
          want.push_back(salt(b) + r * 1000 + u + work);
        }
      for (int t = 0; t < n / 2; ++t)
        wantDropped.push_back(salt(b) + 7 * ((t + 1) % (n / 2)));
    }
    expectEqual("phases", hostCopy(out, want.size()), want);
    expectEqual("arrive_and_drop", hostCopy(dropped, wantDropped.size()),
                wantDropped);
    CHECK(cudaFree(out));
    CHECK(cudaFree(dropped));
  }
  {
    int *out = deviceCopy(std::vector<int>(Blocks * n));
    launch(warpCounts, out);
    std::vector<int> want;
    for (int b = 0; b < Blocks; ++b)
      for (int t = 0; t < n; ++t)
        want.push_back(salt(b) + 3 * (n - 1 - t) + 1);
    expectEqual("warpCounts", hostCopy(out, want.size()), want);
    CHECK(cudaFree(out));
  }
  {
    int consumers = n - 32;
    int *out = deviceCopy(std::vector<int>(Blocks * consumers));
    launch(producerConsumer, in, out);
    std::vector<int> want(Blocks * consumers, 0);
    for (int b = 0; b < Blocks; ++b)
      for (int i = 0; i < Tiles; ++i)
        for (int c = 0; c < consumers; ++c)
          want[b * consumers + c] +=
              (input[i * consumers + c] + salt(b)) * (i + 1);
    expectEqual("producerConsumer", hostCopy(out, want.size()), want);
    CHECK(cudaFree(out));
  }
  {
    int *out = deviceCopy(std::vector<int>(Blocks * n));
    launch(blockCopies, in, out);
    std::vector<int> want;
    for (int b = 0; b < Blocks; ++b)
      for (int t = 0; t < n; ++t)
        want.push_back(input[n - 1 - t] + 2 * input[n + (t + 5) % n] + salt(b));
    expectEqual("blockCopies", hostCopy(out, want.size()), want);
    CHECK(cudaFree(out));
  }
  {
    int *out = deviceCopy(std::vector<int>(Blocks * n));
    launch(blockPipeline, in, out);
    std::vector<int> want(Blocks * n, 0);
    for (int b = 0; b < Blocks; ++b)
      for (int t = 0; t < n; ++t) {
        want[b * n + t] = salt(b);
        for (int i = 0; i < PipeTiles; ++i)
          want[b * n + t] += input[i * n + (t + i) % n] * (i + 1);
      }
    expectEqual("blockPipeline", hostCopy(out, want.size()), want);
    CHECK(cudaFree(out));
  }
  {
    int *out = deviceCopy(std::vector<int>(Blocks * n));
    launch(threadPipeline, in, out);
    std::vector<int> want;
    for (int b = 0; b < Blocks; ++b)
      for (int t = 0; t < n; ++t)
        want.push_back(input[t] - input[n + t] + salt(b));
    expectEqual("threadPipeline", hostCopy(out, want.size()), want);
    CHECK(cudaFree(out));
  }
  CHECK(cudaFree(in));
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
