// A kernel that writes outside every mapping ends the launch with
// cudaErrorIllegalAddress instead of crashing the process; the error
// surfaces when the host synchronises (the launch itself is asynchronous)
// and is sticky, as on a GPU. The program's own SIGSEGV handler is left in
// place: a fault in host code after the launch still reaches it. Prints PASS
// when all of that holds.
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wild(int *bad, int *ok) {
  // Every block but the first faults, so the fault is taken on the thread
  // that runs the launch and on pool workers alike.
  if (blockIdx.x > 0)
    bad[threadIdx.x] = 1;
  ok[threadIdx.x] = 2;
}

static sigjmp_buf HostFault;
static volatile sig_atomic_t HostFaults = 0;
static void onHostFault(int) {
  HostFaults = HostFaults + 1;
  siglongjmp(HostFault, 1);
}

int main() {
  struct sigaction A = {};
  A.sa_handler = onHostFault;
  sigemptyset(&A.sa_mask);
  sigaction(SIGSEGV, &A, nullptr);

  int *ok = nullptr;
  cudaMalloc(&ok, 64 * sizeof(int));
  int *bad = reinterpret_cast<int *>(0x1000); // never mapped
  wild<<<64, 32>>>(bad, ok);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t later = cudaMemset(ok, 0, 64 * sizeof(int));
  wild<<<1, 32>>>(ok, ok);
  cudaError_t relaunch = cudaGetLastError();
  std::printf("launch: %s, sync: %s, memset: %s, relaunch: %s\n",
              cudaGetErrorName(launch), cudaGetErrorName(sync),
              cudaGetErrorName(later), cudaGetErrorName(relaunch));

  // The program's handler still gets its own faults.
  if (sigsetjmp(HostFault, 1) == 0)
    *reinterpret_cast<volatile int *>(0x1000) = 3;
  std::printf("host faults seen by the program's handler: %d\n",
              int(HostFaults));

  // Right after the launch the kernel may or may not have faulted yet.
  bool pass = (launch == cudaSuccess || launch == cudaErrorIllegalAddress) &&
              sync == cudaErrorIllegalAddress &&
              later == cudaErrorIllegalAddress &&
              relaunch == cudaErrorIllegalAddress && HostFaults == 1;
  std::printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
