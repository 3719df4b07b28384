// Device memory and events shared between processes (cudaIpc*), pools
// shared through POSIX file descriptors (cudaMemPoolExport*/Import*), and
// cuMemCreate allocations shared the same way.
//
// The parent allocates a buffer, and another from a shareable pool, fills
// them, and passes the buffer's memory handle, an interprocess event's
// handle, the pool's descriptor (inherited) and the pool allocation's
// export data to a child (itself, run again with them on the command line;
// /proc/self/exe). The child maps both, waits on the event in a stream,
// runs a kernel that spins for 50 ms and kernels that add 1000 to every
// element of each, records the event, tells the parent through a pipe, and
// exits. The parent's stream waits on the event and copies the buffers back: it
// must see the child's kernels, however long they ran. Both sides check
// the error cases too. Prints PASS.
#include "Expect.h"

#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

constexpr int N = 4096;

__global__ void spin(long long Cycles) {
  long long Start = clock64();
  while (clock64() - Start < Cycles) {
  }
}

__global__ void add1000(int *Buf) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Buf[I] += 1000;
}

__global__ void fill(int *Buf) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Buf[I] = I;
}

static std::string toHex(const void *P, size_t Bytes) {
  static const char *Digits = "0123456789abcdef";
  std::string S;
  for (size_t I = 0; I < Bytes; ++I) {
    unsigned char C = static_cast<const unsigned char *>(P)[I];
    S += Digits[C >> 4];
    S += Digits[C & 15];
  }
  return S;
}

static bool fromHex(const char *S, void *P, size_t Bytes) {
  if (std::strlen(S) != 2 * Bytes)
    return false;
  for (size_t I = 0; I < Bytes; ++I) {
    unsigned V;
    if (std::sscanf(S + 2 * I, "%2x", &V) != 1)
      return false;
    static_cast<unsigned char *>(P)[I] = (unsigned char)V;
  }
  return true;
}

static int child(const char *MemHex, const char *EventHex, int NotifyFd,
                 int PoolFd, const char *PoolPtrHex) {
  cudaIpcMemHandle_t MemHandle;
  cudaIpcEventHandle_t EventHandle;
  cudaMemPoolPtrExportData PoolPtr;
  if (!fromHex(MemHex, &MemHandle, sizeof(MemHandle)) ||
      !fromHex(EventHex, &EventHandle, sizeof(EventHandle)) ||
      !fromHex(PoolPtrHex, &PoolPtr, sizeof(PoolPtr))) {
    std::printf("child: bad arguments\n");
    return 1;
  }
  cudaMemPool_t Pool;
  CHECK(cudaMemPoolImportFromShareableHandle(
      &Pool, (void *)(uintptr_t)PoolFd, cudaMemHandleTypePosixFileDescriptor,
      0));
  close(PoolFd);
  int *FromPool = nullptr;
  CHECK(cudaMemPoolImportPointer((void **)&FromPool, Pool, &PoolPtr));
  // A plain IPC handle is no pointer of the pool; an imported pool only
  // imports.
  void *NotOfPool = nullptr;
  cudaMemPoolPtrExportData Plain;
  std::memcpy(&Plain, &MemHandle, sizeof(Plain));
  EXPECT_ERR(cudaMemPoolImportPointer(&NotOfPool, Pool, &Plain),
             cudaErrorInvalidValue);
  EXPECT_ERR(cudaMallocFromPoolAsync(&NotOfPool, 256, Pool, 0),
             cudaErrorInvalidValue);
  int *Buf = nullptr, *Again = nullptr;
  CHECK(cudaIpcOpenMemHandle((void **)&Buf, MemHandle,
                             cudaIpcMemLazyEnablePeerAccess));
  // The same handle again: the same address, and one more close.
  CHECK(cudaIpcOpenMemHandle((void **)&Again, MemHandle,
                             cudaIpcMemLazyEnablePeerAccess));
  EXPECT(Again == Buf);
  cudaPointerAttributes Attr;
  CHECK(cudaPointerGetAttributes(&Attr, Buf + 10));
  EXPECT(Attr.type == cudaMemoryTypeDevice);
  cudaEvent_t Event;
  CHECK(cudaIpcOpenEventHandle(&Event, EventHandle));
  // A handle that no cudaIpc call made.
  cudaIpcMemHandle_t Junk;
  std::memset(&Junk, 0x5a, sizeof(Junk));
  void *Nothing = nullptr;
  EXPECT_ERR(
      cudaIpcOpenMemHandle(&Nothing, Junk, cudaIpcMemLazyEnablePeerAccess),
      cudaErrorInvalidResourceHandle);

  cudaStream_t S;
  CHECK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  CHECK(cudaStreamWaitEvent(S, Event, 0));
  int Rate = 0;
  CHECK(cudaDeviceGetAttribute(&Rate, cudaDevAttrClockRate, 0));
  // About 50 ms: the parent is waiting on the event by then.
  spin<<<1, 1, 0, S>>>((long long)Rate * 50);
  add1000<<<N / 256, 256, 0, S>>>(Buf);
  add1000<<<N / 256, 256, 0, S>>>(FromPool);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(Event, S));
  char Byte = 'r';
  EXPECT(write(NotifyFd, &Byte, 1) == 1);
  CHECK(cudaStreamSynchronize(S));
  CHECK(cudaIpcCloseMemHandle(Again));
  CHECK(cudaIpcCloseMemHandle(Buf));
  EXPECT_ERR(cudaIpcCloseMemHandle(Buf), cudaErrorInvalidValue);
  CHECK(cudaFreeAsync(FromPool, S));
  CHECK(cudaStreamSynchronize(S));
  CHECK(cudaMemPoolDestroy(Pool));
  CHECK(cudaEventDestroy(Event));
  CHECK(cudaStreamDestroy(S));
  std::printf("child: %s\n", failures ? "FAIL" : "ok");
  return failures ? 1 : 0;
}

// cuMemCreate memory exported as a file descriptor and imported again (in
// this process, as another process would after receiving the descriptor):
// two mappings of the same pages.
static void sharedPhysicalMemory() {
  CHECK(cudaFree(nullptr)); // the primary context
  int Supported = 0;
  EXPECT(cuDeviceGetAttribute(
             &Supported,
             CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
             0) == CUDA_SUCCESS &&
         Supported == 1);
  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = 0;
  Prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t Gran = 0;
  EXPECT(cuMemGetAllocationGranularity(
             &Gran, &Prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) == CUDA_SUCCESS);
  CUmemGenericAllocationHandle H, Imported, Plain;
  EXPECT(cuMemCreate(&H, Gran, &Prop, 0) == CUDA_SUCCESS);
  int Fd = -1;
  EXPECT(cuMemExportToShareableHandle(&Fd, H,
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                      0) == CUDA_SUCCESS &&
         Fd >= 0);
  EXPECT(cuMemImportFromShareableHandle(
             &Imported, (void *)(uintptr_t)Fd,
             CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) == CUDA_SUCCESS);
  close(Fd); // the import keeps its own
  // An allocation not created for export cannot be exported.
  Prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;
  EXPECT(cuMemCreate(&Plain, Gran, &Prop, 0) == CUDA_SUCCESS);
  int NoFd = -1;
  EXPECT(cuMemExportToShareableHandle(&NoFd, Plain,
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                      0) == CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr A = 0, B = 0;
  EXPECT(cuMemAddressReserve(&A, Gran, 0, 0, 0) == CUDA_SUCCESS);
  EXPECT(cuMemAddressReserve(&B, Gran, 0, 0, 0) == CUDA_SUCCESS);
  EXPECT(cuMemMap(A, Gran, 0, H, 0) == CUDA_SUCCESS);
  EXPECT(cuMemMap(B, Gran, 0, Imported, 0) == CUDA_SUCCESS);
  CUmemAccessDesc Access = {};
  Access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Access.location.id = 0;
  Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  EXPECT(cuMemSetAccess(A, Gran, &Access, 1) == CUDA_SUCCESS);
  EXPECT(cuMemSetAccess(B, Gran, &Access, 1) == CUDA_SUCCESS);
  fill<<<N / 256, 256>>>((int *)A);
  CHECK(cudaDeviceSynchronize());
  int Host[N];
  CHECK(cudaMemcpy(Host, (void *)B, sizeof(Host), cudaMemcpyDeviceToHost));
  int Bad = 0;
  for (int I = 0; I < N; ++I)
    Bad += Host[I] != I;
  EXPECT(Bad == 0);
  EXPECT(cuMemUnmap(A, Gran) == CUDA_SUCCESS);
  EXPECT(cuMemUnmap(B, Gran) == CUDA_SUCCESS);
  EXPECT(cuMemAddressFree(A, Gran) == CUDA_SUCCESS);
  EXPECT(cuMemAddressFree(B, Gran) == CUDA_SUCCESS);
  EXPECT(cuMemRelease(H) == CUDA_SUCCESS);
  EXPECT(cuMemRelease(Imported) == CUDA_SUCCESS);
  EXPECT(cuMemRelease(Plain) == CUDA_SUCCESS);
}

int main(int argc, char **argv) {
  if (argc == 7 && std::strcmp(argv[1], "child") == 0)
    return child(argv[2], argv[3], std::atoi(argv[4]), std::atoi(argv[5]),
                 argv[6]);

  int Value = 0;
  CHECK(cudaDeviceGetAttribute(&Value, cudaDevAttrIpcEventSupport, 0));
  EXPECT(Value == 1);
  int *Buf = nullptr;
  CHECK(cudaMalloc(&Buf, N * sizeof(int)));
  fill<<<N / 256, 256>>>(Buf);
  CHECK(cudaDeviceSynchronize());
  cudaIpcMemHandle_t MemHandle, Inner;
  CHECK(cudaIpcGetMemHandle(&MemHandle, Buf));
  // Any address in the allocation names the whole allocation.
  CHECK(cudaIpcGetMemHandle(&Inner, Buf + 100));
  EXPECT(std::memcmp(&MemHandle, &Inner, sizeof(Inner)) == 0);
  // Host memory and this process's own handles are refused.
  int HostInt = 0;
  EXPECT_ERR(cudaIpcGetMemHandle(&Inner, &HostInt), cudaErrorInvalidValue);
  void *Own = nullptr;
  EXPECT_ERR(
      cudaIpcOpenMemHandle(&Own, MemHandle, cudaIpcMemLazyEnablePeerAccess),
      cudaErrorDeviceUninitialized);
  // Only interprocess events have handles, and those cannot time.
  cudaEvent_t Plain, Event;
  cudaIpcEventHandle_t EventHandle;
  CHECK(cudaEventCreate(&Plain));
  EXPECT_ERR(cudaIpcGetEventHandle(&EventHandle, Plain),
             cudaErrorInvalidResourceHandle);
  EXPECT_ERR(cudaEventCreateWithFlags(&Event, cudaEventInterprocess),
             cudaErrorInvalidValue);
  CHECK(cudaEventCreateWithFlags(&Event, cudaEventInterprocess |
                                             cudaEventDisableTiming));
  CHECK(cudaIpcGetEventHandle(&EventHandle, Event));
  // A pool other processes may import, and one allocation from it.
  int PoolTypes = 0;
  CHECK(cudaDeviceGetAttribute(&PoolTypes,
                               cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
  EXPECT(PoolTypes & cudaMemHandleTypePosixFileDescriptor);
  cudaMemPoolProps Props = {};
  Props.allocType = cudaMemAllocationTypePinned;
  Props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  Props.location.type = cudaMemLocationTypeDevice;
  Props.location.id = 0;
  cudaMemPool_t Pool, PrivatePool;
  CHECK(cudaMemPoolCreate(&Pool, &Props));
  int *PoolBuf = nullptr;
  CHECK(cudaMallocFromPoolAsync((void **)&PoolBuf, N * sizeof(int), Pool, 0));
  fill<<<N / 256, 256>>>(PoolBuf);
  int PoolFd = -1;
  CHECK(cudaMemPoolExportToShareableHandle(
      &PoolFd, Pool, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaMemPoolPtrExportData PoolPtr;
  CHECK(cudaMemPoolExportPointer(&PoolPtr, PoolBuf));
  // A pool made without a handle type exports nothing.
  Props.handleTypes = cudaMemHandleTypeNone;
  CHECK(cudaMemPoolCreate(&PrivatePool, &Props));
  int NoFd = -1;
  EXPECT_ERR(cudaMemPoolExportToShareableHandle(
                 &NoFd, PrivatePool, cudaMemHandleTypePosixFileDescriptor, 0),
             cudaErrorInvalidValue);
  CHECK(cudaMemPoolDestroy(PrivatePool));
  // The child's stream waits for this record before its kernels run.
  CHECK(cudaEventRecord(Event, 0));

  int Pipe[2];
  EXPECT(pipe(Pipe) == 0);
  std::fflush(stdout);
  pid_t Pid = fork();
  if (Pid == 0) {
    close(Pipe[0]);
    std::string MemHex = toHex(&MemHandle, sizeof(MemHandle));
    std::string EventHex = toHex(&EventHandle, sizeof(EventHandle));
    std::string FdArg = std::to_string(Pipe[1]);
    std::string PoolFdArg = std::to_string(PoolFd);
    std::string PoolPtrHex = toHex(&PoolPtr, sizeof(PoolPtr));
    char *ChildArgv[] = {argv[0],
                         (char *)"child",
                         (char *)MemHex.c_str(),
                         (char *)EventHex.c_str(),
                         (char *)FdArg.c_str(),
                         (char *)PoolFdArg.c_str(),
                         (char *)PoolPtrHex.c_str(),
                         nullptr};
    execv("/proc/self/exe", ChildArgv);
    _exit(127);
  }
  close(Pipe[1]);
  close(PoolFd);
  char Byte = 0;
  EXPECT(read(Pipe[0], &Byte, 1) == 1 && Byte == 'r');
  // The child has recorded the event after its kernel, which may still
  // run: this stream's copy waits for it.
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  CHECK(cudaStreamWaitEvent(S, Event, 0));
  static int Host[N];
  CHECK(cudaMemcpyAsync(Host, Buf, sizeof(Host), cudaMemcpyDeviceToHost, S));
  CHECK(cudaStreamSynchronize(S));
  int Bad = 0;
  for (int I = 0; I < N; ++I)
    Bad += Host[I] != I + 1000;
  EXPECT(Bad == 0);
  CHECK(
      cudaMemcpyAsync(Host, PoolBuf, sizeof(Host), cudaMemcpyDeviceToHost, S));
  CHECK(cudaStreamSynchronize(S));
  Bad = 0;
  for (int I = 0; I < N; ++I)
    Bad += Host[I] != I + 1000;
  EXPECT(Bad == 0);
  int Status = 0;
  EXPECT(waitpid(Pid, &Status, 0) == Pid && WIFEXITED(Status) &&
         WEXITSTATUS(Status) == 0);
  CHECK(cudaEventSynchronize(Event));
  CHECK(cudaEventQuery(Event));
  CHECK(cudaEventDestroy(Event));
  CHECK(cudaEventDestroy(Plain));
  CHECK(cudaStreamDestroy(S));
  CHECK(cudaFree(Buf));
  CHECK(cudaFreeAsync(PoolBuf, 0));
  CHECK(cudaMemPoolDestroy(Pool));

  sharedPhysicalMemory();
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
