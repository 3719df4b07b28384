//===- DeviceLaunch.cpp - Dynamic parallelism on the CPU backend ----------===//
//
// See DeviceLaunch.h for the order queued work runs in. Device streams and
// events are handles of the launch tree: every queued piece of work runs in
// one order, which satisfies any stream, event or tail-launch ordering a
// program can ask for, so they carry no state beyond being valid.
//
//===----------------------------------------------------------------------===//
#include "DeviceLaunch.h"

#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cuhip::rt {

namespace {
// The stream handles device code may name without creating them: the NULL
// stream, cudaStreamPerThread, cudaStreamTailLaunch and
// cudaStreamFireAndForget.
bool isSpecialStream(uint64_t S) { return S == 0 || (S >= 2 && S <= 4); }

std::unique_ptr<uint8_t[], void (*)(void *)> alignedBytes(size_t Size,
                                                         size_t Align) {
  size_t Bytes = (std::max<size_t>(Size, 1) + Align - 1) & ~(Align - 1);
  void *P = std::aligned_alloc(Align, Bytes);
  if (P)
    std::memset(P, 0, Bytes);
  return {static_cast<uint8_t *>(P), ::free};
}

Dim3 dim3Of(ptx::host::DeviceRuntime::Dim D) { return {D.X, D.Y, D.Z}; }

/// Runs a queued copy or fill (Params: its std::function) as kernel code
/// runs: under the fault guard, so that a bad address device code passed
/// becomes cudaErrorIllegalAddress rather than the end of the process.
void runQueuedFunction(const void *Params, ptx::host::BlockContext *) {
  (*static_cast<const std::function<void()> *>(Params))();
}
} // namespace

GridRuntime::~GridRuntime() {
  // Launches the grid set up but never made, or queued and never ran (an
  // earlier grid failed), no longer count as pending.
  size_t Launches = std::count_if(Queue.begin(), Queue.end(),
                                  [](const Work &W) { return W.Kernel; });
  Env.Pending.fetch_sub(Launches, std::memory_order_relaxed);
}

bool GridRuntime::validStream(uint64_t Stream) {
  if (isSpecialStream(Stream))
    return true;
  std::lock_guard<std::mutex> G(Env.Lock);
  return Env.Streams.count(Stream) != 0;
}

void *GridRuntime::parameterBuffer(const void *Fn, Dim Grid, Dim Block,
                                   uint32_t SharedBytes, int &Error) {
  Kernel *K = nullptr;
  const ptx::host::CompiledKernel *C = Env.Resolve(Fn, &K);
  if (!C) {
    CUHIP_ERROR("device-side launch: %p is not a kernel of the launching "
                "module",
                Fn);
    Error = cudaErrorInvalidDeviceFunction;
    return nullptr;
  }
  auto B = std::make_unique<Buffer>();
  B->Size = std::max<uint32_t>(C->Info.ParamBufferSize, 8);
  B->Bytes = alignedBytes(B->Size, 64);
  if (!B->Bytes) {
    Error = cudaErrorMemoryAllocation;
    return nullptr;
  }
  ptx::host::trackDeviceBuffer(B->Bytes.get(), B->Size);
  B->Kernel = C;
  B->Grid = Grid;
  B->Block = Block;
  B->Shared = SharedBytes;
  void *P = B->Bytes.get();
  std::lock_guard<std::mutex> G(Lock);
  Buffers[P] = std::move(B);
  return P;
}

void *GridRuntime::parameterBuffer(uint64_t Alignment, uint64_t Size,
                                   int &Error) {
  if (Alignment > 4096 || (Alignment & (Alignment - 1)) ||
      Size > (uint64_t(1) << 20)) {
    Error = cudaErrorInvalidValue;
    return nullptr;
  }
  auto B = std::make_unique<Buffer>();
  B->Size = Size;
  B->Bytes = alignedBytes(Size, std::max<uint64_t>(Alignment, 64));
  if (!B->Bytes) {
    Error = cudaErrorMemoryAllocation;
    return nullptr;
  }
  ptx::host::trackDeviceBuffer(B->Bytes.get(), B->Size);
  void *P = B->Bytes.get();
  std::lock_guard<std::mutex> G(Lock);
  Buffers[P] = std::move(B);
  return P;
}

int GridRuntime::queueLaunch(std::unique_ptr<Buffer> B,
                             const ptx::host::CompiledKernel *K, Dim Grid,
                             Dim Block, uint32_t Shared, uint64_t Stream) {
  if (!validStream(Stream))
    return cudaErrorInvalidResourceHandle;
  if (Depth + 1 > MaxDepth) {
    CUHIP_ERROR("device-side launch of '%s': grids nest at most %u deep",
                K->Info.Name.c_str(), MaxDepth);
    return cudaErrorLaunchMaxDepthExceeded;
  }
  uint64_t Threads = uint64_t(Block.X) * Block.Y * Block.Z;
  // The device's limits (DeviceAttributes.cpp), as a host launch checks.
  if (!Grid.X || !Grid.Y || !Grid.Z || !Threads || Threads > 1024 ||
      Block.X > 1024 || Block.Y > 1024 || Block.Z > 64 ||
      Grid.X > 0x7fffffffu || Grid.Y > 65535 || Grid.Z > 65535)
    return cudaErrorInvalidConfiguration;
  size_t Limit = Env.PendingLimit.load(std::memory_order_relaxed);
  if (!Limit) {
    Limit = 2048;
    Runtime::get().getLimit(DeviceLimit::DevRuntimePendingLaunchCount, &Limit);
    Env.PendingLimit.store(Limit, std::memory_order_relaxed);
  }
  if (Env.Pending.fetch_add(1, std::memory_order_relaxed) >= Limit) {
    Env.Pending.fetch_sub(1, std::memory_order_relaxed);
    CUHIP_ERROR("device-side launch of '%s': %zu launches are already "
                "pending (cudaLimitDevRuntimePendingLaunchCount)",
                K->Info.Name.c_str(), Limit);
    return cudaErrorLaunchPendingCountExceeded;
  }
  Work W;
  W.Kernel = K;
  W.Params = std::move(B);
  W.Grid = Grid;
  W.Block = Block;
  W.Shared = Shared;
  std::lock_guard<std::mutex> G(Lock);
  Queue.push_back(std::move(W));
  return cudaSuccess;
}

int GridRuntime::launch(void *ParamBuffer, uint64_t Stream) {
  std::unique_ptr<Buffer> B;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Buffers.find(ParamBuffer);
    if (It == Buffers.end() || !It->second->Kernel)
      return cudaErrorInvalidValue; // not from cudaGetParameterBufferV2
    B = std::move(It->second);
    Buffers.erase(It);
  }
  const ptx::host::CompiledKernel *K = B->Kernel;
  Dim Grid = B->Grid, Block = B->Block;
  uint32_t Shared = B->Shared;
  return queueLaunch(std::move(B), K, Grid, Block, Shared, Stream);
}

int GridRuntime::launch(const void *Fn, void *ParamBuffer, Dim Grid, Dim Block,
                        uint32_t SharedBytes, uint64_t Stream) {
  Kernel *KR = nullptr;
  const ptx::host::CompiledKernel *K = Env.Resolve(Fn, &KR);
  if (!K)
    return cudaErrorInvalidDeviceFunction;
  std::unique_ptr<Buffer> B;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Buffers.find(ParamBuffer);
    if (It == Buffers.end())
      return cudaErrorInvalidValue;
    B = std::move(It->second);
    Buffers.erase(It);
  }
  if (B->Size < K->Info.ParamBufferSize)
    return cudaErrorInvalidValue; // the buffer cannot hold the parameters
  return queueLaunch(std::move(B), K, Grid, Block, SharedBytes, Stream);
}

int GridRuntime::queueFunction(std::function<void()> Fn, uint64_t Stream) {
  if (!validStream(Stream))
    return cudaErrorInvalidResourceHandle;
  Work W;
  W.Fn = std::move(Fn);
  std::lock_guard<std::mutex> G(Lock);
  Queue.push_back(std::move(W));
  return cudaSuccess;
}

int GridRuntime::streamCreate(uint64_t *Stream, uint32_t Flags) {
  // Device streams must be created non-blocking (cudaStreamNonBlocking).
  if (Flags != 1)
    return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> G(Env.Lock);
  *Stream = Env.NextHandle++;
  Env.Streams.insert(*Stream);
  return cudaSuccess;
}

int GridRuntime::streamDestroy(uint64_t Stream) {
  std::lock_guard<std::mutex> G(Env.Lock);
  // Its queued work still runs, as a destroyed stream's does in CUDA.
  return Env.Streams.erase(Stream) ? cudaSuccess
                                   : cudaErrorInvalidResourceHandle;
}

int GridRuntime::eventCreate(uint64_t *Event, uint32_t Flags) {
  // Device events must disable timing (cudaEventDisableTiming).
  if (!(Flags & 2))
    return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> G(Env.Lock);
  *Event = Env.NextHandle++;
  Env.Events.insert(*Event);
  return cudaSuccess;
}

int GridRuntime::eventRecord(uint64_t Event, uint64_t Stream) {
  if (!validStream(Stream))
    return cudaErrorInvalidResourceHandle;
  std::lock_guard<std::mutex> G(Env.Lock);
  return Env.Events.count(Event) ? cudaSuccess
                                 : cudaErrorInvalidResourceHandle;
}

int GridRuntime::eventDestroy(uint64_t Event) {
  std::lock_guard<std::mutex> G(Env.Lock);
  return Env.Events.erase(Event) ? cudaSuccess
                                 : cudaErrorInvalidResourceHandle;
}

int GridRuntime::streamWaitEvent(uint64_t Stream, uint64_t Event) {
  if (!validStream(Stream))
    return cudaErrorInvalidResourceHandle;
  std::lock_guard<std::mutex> G(Env.Lock);
  return Env.Events.count(Event) ? cudaSuccess
                                 : cudaErrorInvalidResourceHandle;
}

int GridRuntime::enqueueCopy(void *Dst, const void *Src, uint64_t Bytes,
                             uint64_t Stream) {
  if (!Bytes)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  return queueFunction([=] { std::memmove(Dst, Src, Bytes); }, Stream);
}

int GridRuntime::enqueueCopy2D(void *Dst, uint64_t DPitch, const void *Src,
                               uint64_t SPitch, uint64_t Width,
                               uint64_t Height, uint64_t Stream) {
  if (!Width || !Height)
    return cudaSuccess;
  if (!Dst || !Src || Width > DPitch || Width > SPitch)
    return cudaErrorInvalidValue;
  return queueFunction(
      [=] {
        for (uint64_t R = 0; R < Height; ++R)
          std::memmove(static_cast<uint8_t *>(Dst) + R * DPitch,
                       static_cast<const uint8_t *>(Src) + R * SPitch, Width);
      },
      Stream);
}

int GridRuntime::enqueueFill(void *Dst, uint64_t Pitch, uint32_t Value,
                             uint64_t Width, uint64_t Height,
                             uint64_t Stream) {
  if (!Width || !Height)
    return cudaSuccess;
  if (!Dst || Width > Pitch)
    return cudaErrorInvalidValue;
  return queueFunction(
      [=] {
        for (uint64_t R = 0; R < Height; ++R)
          std::memset(static_cast<uint8_t *>(Dst) + R * Pitch,
                      int(Value & 0xff), Width);
      },
      Stream);
}

int GridRuntime::deviceAttribute(int *Value, int Attribute, int Device) {
  return Runtime::get().deviceAttribute(Attribute, Device, Value);
}

int GridRuntime::limit(uint64_t *Value, int Limit) {
  size_t V = 0;
  Status S = Runtime::get().getLimit(static_cast<DeviceLimit>(Limit), &V);
  *Value = V;
  return S;
}

int GridRuntime::maxActiveBlocks(int *Blocks, const void *Fn, int BlockSize,
                                 uint64_t DynamicShared) {
  Kernel *K = nullptr;
  if (!Env.Resolve(Fn, &K) || !K)
    return cudaErrorInvalidDeviceFunction;
  return Runtime::get().maxActiveBlocksPerMultiprocessor(K, BlockSize,
                                                         DynamicShared, Blocks);
}

int GridRuntime::funcAttributes(void *Attributes, const void *Fn) {
  Kernel *K = nullptr;
  if (!Env.Resolve(Fn, &K) || !K)
    return cudaErrorInvalidDeviceFunction;
  KernelAttributes A;
  if (Status S = Runtime::get().kernelAttributes(K, &A))
    return S;
  // cudaFuncAttributes: three size_t, then ints from maxThreadsPerBlock to
  // nonPortableClusterSizeAllowed, then int reserved[16].
  uint8_t Out[140] = {};
  uint64_t Sizes[3] = {A.StaticSharedBytes, A.ConstBytes,
                       A.LocalBytesPerThread};
  int Ints[13] = {A.MaxThreadsPerBlock,
                  A.NumRegs,
                  A.PtxVersion,
                  A.BinaryVersion,
                  0, // cacheModeCA
                  A.MaxDynamicSharedBytes,
                  A.PreferredShmemCarveout,
                  A.ClusterDimMustBeSet,
                  A.RequiredClusterDim[0],
                  A.RequiredClusterDim[1],
                  A.RequiredClusterDim[2],
                  A.ClusterSchedulingPolicy,
                  A.NonPortableClusterSizeAllowed};
  std::memcpy(Out, Sizes, sizeof(Sizes));
  std::memcpy(Out + sizeof(Sizes), Ints, sizeof(Ints));
  std::memcpy(Attributes, Out, sizeof(Out));
  return cudaSuccess;
}

// The CPU backend presents one device.
int GridRuntime::device() { return 0; }
int GridRuntime::deviceCount() { return Runtime::get().deviceCount(); }
int GridRuntime::runtimeVersion() { return Runtime::get().driverVersion(); }

const char *GridRuntime::errorString(int Error) {
  const char *D = statusDescription(Error);
  return D ? D : "unrecognized error code";
}

const char *GridRuntime::errorName(int Error) {
  const char *N = statusName(Error);
  return N ? N : "cudaErrorUnknown";
}

uint64_t GridRuntime::threadKey(const ptx::host::BlockContext *Ctx,
                                uint32_t X, uint32_t Y, uint32_t Z) {
  if (!Ctx)
    return 0;
  uint64_t Block = Ctx->CtaId[0] +
                   uint64_t(Ctx->NCtaId[0]) *
                       (Ctx->CtaId[1] + uint64_t(Ctx->NCtaId[1]) * Ctx->CtaId[2]);
  uint64_t Thread = X + uint64_t(Ctx->NTid[0]) * (Y + uint64_t(Ctx->NTid[1]) * Z);
  return (Block << 11) | Thread; // at most 1024 threads per block
}

int GridRuntime::lastError(const ptx::host::BlockContext *Ctx, uint32_t X,
                           uint32_t Y, uint32_t Z, bool Reset) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = LastErrors.find(threadKey(Ctx, X, Y, Z));
  if (It == LastErrors.end())
    return cudaSuccess;
  int E = It->second;
  if (Reset)
    LastErrors.erase(It);
  return E;
}

void GridRuntime::setLastError(const ptx::host::BlockContext *Ctx, uint32_t X,
                               uint32_t Y, uint32_t Z, int Error) {
  std::lock_guard<std::mutex> G(Lock);
  LastErrors[threadKey(Ctx, X, Y, Z)] = Error;
}

void GridRuntime::setConditional(uint64_t Handle, uint32_t Value) {
  // Every thread of a grid may make the same bad call: one report a grid.
  if (!graphSetConditional(Handle, Value) &&
      !ReportedBadConditional.exchange(true))
    CUHIP_ERROR("cudaGraphSetConditional: 0x%llx is no live conditional "
                "handle (cudaGraphConditionalHandleCreate); the value %u is "
                "dropped",
                (unsigned long long)Handle, Value);
}

Status GridRuntime::runQueued(std::string &Msg) {
  // The grid has finished: nothing adds to Queue any more.
  std::vector<Work> Run = std::move(Queue);
  Queue.clear();
  Buffers.clear();
  size_t Next = 0;
  Status Result = cudaSuccess;
  for (; Next < Run.size(); ++Next) {
    Work &W = Run[Next];
    if (!W.Kernel) {
      ptx::host::BlockContext Ctx{};
      ptx::host::BlockTrap Trap;
      if (ptx::host::runBlockGuarded(&runQueuedFunction, &W.Fn, &Ctx,
                                     &Trap) == ptx::host::TrapNone)
        continue;
      char Addr[32];
      std::snprintf(Addr, sizeof(Addr), "0x%llx",
                    static_cast<unsigned long long>(Trap.Address));
      Msg = std::string("a copy or fill that device code queued accessed "
                        "address ") +
            Addr + " outside any mapping";
      Result = cudaErrorIllegalAddress;
      ++Next;
      break;
    }
    Env.Pending.fetch_sub(1, std::memory_order_relaxed);
    GridRuntime Child(Env, Depth + 1);
    Status S = Env.Launch(*W.Kernel, dim3Of(W.Grid), dim3Of(W.Block),
                          W.Params->Bytes.get(), W.Shared, &Child, Msg);
    if (S == cudaSuccess)
      S = Child.runQueued(Msg);
    if (S != cudaSuccess) {
      Result = S;
      ++Next;
      break;
    }
  }
  // After a failure nothing more runs; the rest no longer counts as pending.
  for (; Next < Run.size(); ++Next)
    if (Run[Next].Kernel)
      Env.Pending.fetch_sub(1, std::memory_order_relaxed);
  return Result;
}

} // namespace cuhip::rt
