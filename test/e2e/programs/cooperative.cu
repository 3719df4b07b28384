// Cooperative launches: grid-wide phases separated by grid.sync(), run with
// the largest grid that can be resident and with a small one. Each block
// writes its slot, then reads its neighbours' slots after a grid.sync(); a
// grid-wide sum is reduced in two phases; a grid-wide counter is bumped by
// every block once per round over several rounds. A grid one block larger
// than the limit is refused with cudaErrorCooperativeLaunchTooLarge, and a
// block that traps while the others wait at grid.sync() fails the launch.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int Threads = 64;
constexpr int Rounds = 5;

__global__ void phases(int *Slots, int *Neighbours, long long *Partial,
                       long long *Total, int *Counter, int *RoundSeen) {
  cg::grid_group Grid = cg::this_grid();
  unsigned Block = blockIdx.x, Blocks = gridDim.x;
  // Phase 1: every block publishes a value.
  if (threadIdx.x == 0)
    Slots[Block] = int(Block) * 7 + 3;
  Grid.sync();
  // Phase 2: every block reads the slots of its two neighbours, written by
  // other blocks before the sync.
  if (threadIdx.x == 0)
    Neighbours[Block] = Slots[(Block + 1) % Blocks] +
                        Slots[(Block + Blocks - 1) % Blocks];
  // Phase 3: a grid-wide sum of all thread ranks, block partials first.
  __shared__ long long Sum[Threads];
  Sum[threadIdx.x] = (long long)Grid.thread_rank();
  __syncthreads();
  for (int S = Threads / 2; S > 0; S /= 2) {
    if (threadIdx.x < S)
      Sum[threadIdx.x] += Sum[threadIdx.x + S];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Partial[Block] = Sum[0];
  Grid.sync();
  if (Grid.thread_rank() == 0) {
    long long T = 0;
    for (unsigned B = 0; B < Blocks; ++B)
      T += Partial[B];
    *Total = T;
  }
  // Rounds: each block adds one per round; after each sync every block
  // must see exactly Blocks * (round + 1).
  for (int R = 0; R < Rounds; ++R) {
    if (threadIdx.x == 0)
      atomicAdd(Counter, 1);
    Grid.sync();
    if (threadIdx.x == 0 && *(volatile int *)Counter != int(Blocks) * (R + 1))
      atomicAdd(&RoundSeen[R], 1);
    Grid.sync();
  }
}

// Block 0 traps while the others wait for it at grid.sync(): the launch
// fails instead of waiting forever.
__global__ void trapBeforeSync(int *Out) {
  cg::grid_group Grid = cg::this_grid();
  if (blockIdx.x == 0 && threadIdx.x == 0)
    __trap();
  Grid.sync();
  Out[blockIdx.x] = 1;
}

static bool runGrid(int Blocks) {
  int *Slots, *Neighbours, *Counter, *RoundSeen;
  long long *Partial, *Total;
  cudaMalloc(&Slots, Blocks * sizeof(int));
  cudaMalloc(&Neighbours, Blocks * sizeof(int));
  cudaMalloc(&Partial, Blocks * sizeof(long long));
  cudaMalloc(&Total, sizeof(long long));
  cudaMalloc(&Counter, sizeof(int));
  cudaMalloc(&RoundSeen, Rounds * sizeof(int));
  cudaMemset(Slots, 0, Blocks * sizeof(int));
  cudaMemset(Counter, 0, sizeof(int));
  cudaMemset(RoundSeen, 0, Rounds * sizeof(int));
  cudaMemset(Total, 0, sizeof(long long));
  void *Args[] = {&Slots, &Neighbours, &Partial, &Total, &Counter, &RoundSeen};
  cudaError_t E = cudaLaunchCooperativeKernel((void *)phases, dim3(Blocks),
                                              dim3(Threads), Args, 0, 0);
  if (E == cudaSuccess)
    E = cudaDeviceSynchronize();
  bool Ok = E == cudaSuccess;
  if (!Ok)
    std::printf("FAIL: %d blocks: %s\n", Blocks, cudaGetErrorName(E));
  std::vector<int> N(Blocks), Seen(Rounds);
  long long T = 0;
  int C = 0;
  cudaMemcpy(N.data(), Neighbours, Blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(Seen.data(), RoundSeen, Rounds * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&T, Total, sizeof(T), cudaMemcpyDeviceToHost);
  cudaMemcpy(&C, Counter, sizeof(C), cudaMemcpyDeviceToHost);
  for (int B = 0; Ok && B < Blocks; ++B) {
    int Want = ((B + 1) % Blocks) * 7 + 3 + ((B + Blocks - 1) % Blocks) * 7 + 3;
    if (N[B] != Want) {
      std::printf("FAIL: %d blocks: block %d read %d from its neighbours, "
                  "want %d\n", Blocks, B, N[B], Want);
      Ok = false;
    }
  }
  long long All = (long long)Blocks * Threads;
  if (Ok && T != All * (All - 1) / 2) {
    std::printf("FAIL: %d blocks: grid sum %lld, want %lld\n", Blocks, T,
                All * (All - 1) / 2);
    Ok = false;
  }
  if (Ok && C != Blocks * Rounds) {
    std::printf("FAIL: %d blocks: counter %d, want %d\n", Blocks, C,
                Blocks * Rounds);
    Ok = false;
  }
  for (int R = 0; Ok && R < Rounds; ++R)
    if (Seen[R]) {
      std::printf("FAIL: %d blocks: %d blocks passed grid.sync() of round %d "
                  "early\n", Blocks, Seen[R], R);
      Ok = false;
    }
  cudaFree(Slots);
  cudaFree(Neighbours);
  cudaFree(Partial);
  cudaFree(Total);
  cudaFree(Counter);
  cudaFree(RoundSeen);
  return Ok;
}

int main() {
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) != cudaSuccess) {
    std::printf("FAIL: cudaGetDeviceProperties\n");
    return 1;
  }
  if (Prop.cooperativeLaunch != 1) {
    std::printf("FAIL: cooperativeLaunch is %d\n", Prop.cooperativeLaunch);
    return 1;
  }
  int PerSm = 0;
  cudaError_t E = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &PerSm, (void *)phases, Threads, 0);
  if (E != cudaSuccess || PerSm < 1 ||
      PerSm > Prop.maxBlocksPerMultiProcessor) {
    std::printf("FAIL: occupancy %s, %d blocks per multiprocessor\n",
                cudaGetErrorName(E), PerSm);
    return 1;
  }
  int Max = PerSm * Prop.multiProcessorCount;
  std::printf("%d multiprocessors x %d blocks of %d threads\n",
              Prop.multiProcessorCount, PerSm, Threads);
  bool Ok = runGrid(Max) && runGrid(3) && runGrid(1);

  // One block more than can be resident is refused, and not sticky.
  int *NoInts = nullptr;
  long long *NoLongs = nullptr;
  void *Args[] = {&NoInts, &NoInts, &NoLongs, &NoLongs, &NoInts, &NoInts};
  E = cudaLaunchCooperativeKernel((void *)phases, dim3(Max + 1), dim3(Threads),
                                  Args, 0, 0);
  if (E != cudaErrorCooperativeLaunchTooLarge) {
    std::printf("FAIL: %d blocks gave %s, want "
                "cudaErrorCooperativeLaunchTooLarge\n",
                Max + 1, cudaGetErrorName(E));
    Ok = false;
  }
  cudaGetLastError();
  Ok = Ok && runGrid(Max);

  // Last: a fault leaves the context unusable.
  int *Out;
  cudaMalloc(&Out, Max * sizeof(int));
  void *TrapArgs[] = {&Out};
  E = cudaLaunchCooperativeKernel((void *)trapBeforeSync, dim3(Max),
                                  dim3(Threads), TrapArgs, 0, 0);
  if (E == cudaSuccess)
    E = cudaDeviceSynchronize();
  if (E != cudaErrorLaunchFailure) {
    std::printf("FAIL: a trap in a cooperative grid gave %s\n",
                cudaGetErrorName(E));
    Ok = false;
  }
  if (!Ok)
    return 1;
  std::printf("PASS\n");
  return 0;
}
