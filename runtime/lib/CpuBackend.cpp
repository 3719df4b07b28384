//===- CpuBackend.cpp - Running compiled kernels on host cores ------------===//
//
// A launch hands the grid's blocks to the thread pool in increasing linear
// order; each participant runs whole blocks through the kernel's block
// function with its own shared-memory arena and thread frames, so no OS
// thread is ever created per CUDA thread or per block. A memory fault in
// kernel code ends the faulting block with cudaErrorIllegalAddress
// (ptx::host::installFaultHandler) instead of the process.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"

#include "cuhip/runtime/Log.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cuhip::rt {

namespace {
unsigned defaultWorkers() {
  if (const char *E = std::getenv("CUHIP_CPU_THREADS")) {
    int N = std::atoi(E);
    if (N >= 1 && N <= 1024)
      return unsigned(N) - 1;
  }
  unsigned HW = std::thread::hardware_concurrency();
  return HW > 1 ? HW - 1 : 0;
}

bool grow(std::unique_ptr<uint8_t[], void (*)(void *)> &Buf, size_t &Size,
          size_t Want) {
  if (Want <= Size)
    return true;
  size_t Bytes = (Want + 63) & ~size_t(63);
  void *P = std::aligned_alloc(64, Bytes);
  if (!P)
    return false;
  Buf.reset(static_cast<uint8_t *>(P));
  Size = Bytes;
  return true;
}
} // namespace

CpuBackend::CpuBackend() : Pool(defaultWorkers()) {
  Scratches.resize(Pool.size());
}

CpuBackend::~CpuBackend() = default;

Status CpuBackend::launch(const ptx::host::CompiledKernel &K, Dim3 Grid,
                          Dim3 Block, const void *Params, size_t DynamicShared,
                          std::string &Message,
                          ptx::host::MemcheckLaunch *Memcheck) {
  std::lock_guard<std::mutex> Serial(LaunchLock);
  uint64_t Threads = uint64_t(Block.X) * Block.Y * Block.Z;
  uint64_t Blocks = uint64_t(Grid.X) * Grid.Y * Grid.Z;
  size_t SharedAlign = K.Layout.SharedAlign;
  size_t SharedBytes =
      ((K.Layout.StaticSharedBytes + SharedAlign - 1) & ~(SharedAlign - 1)) +
      DynamicShared;
  size_t FrameBytes = size_t(K.Layout.FrameBytesPerThread) * Threads;
  for (Scratch &S : Scratches)
    if (!grow(S.Shared, S.SharedSize, std::max<size_t>(SharedBytes, 64)) ||
        !grow(S.Frames, S.FramesSize, std::max<size_t>(FrameBytes, 64))) {
      Message = "cannot allocate " + std::to_string(SharedBytes + FrameBytes) +
                " bytes of per-worker block state";
      return cudaErrorMemoryAllocation;
    }

  if (Memcheck) {
    Memcheck->SharedBytes = SharedBytes;
    Memcheck->FrameBytes = FrameBytes;
    Memcheck->KernelName = K.Info.Name.c_str();
  }

  std::atomic<uint32_t> Failure{ptx::host::BlockOk};
  std::atomic<uint32_t> Trap{ptx::host::TrapNone};
  uint64_t TrapBlock = 0;
  ptx::host::BlockTrap TrapDetail;
  const uint64_t GX = Grid.X, GXY = uint64_t(Grid.X) * Grid.Y;
  ThreadPool::Body Run = [&](unsigned Worker, uint64_t Begin, uint64_t End) {
    Scratch &S = Scratches[Worker];
    ptx::host::BlockContext Ctx;
    std::memset(&Ctx, 0, sizeof(Ctx));
    Ctx.NCtaId[0] = Grid.X;
    Ctx.NCtaId[1] = Grid.Y;
    Ctx.NCtaId[2] = Grid.Z;
    Ctx.NTid[0] = Block.X;
    Ctx.NTid[1] = Block.Y;
    Ctx.NTid[2] = Block.Z;
    Ctx.DynamicSharedBytes = uint32_t(DynamicShared);
    Ctx.Shared = S.Shared.get();
    Ctx.Frames = S.Frames.get();
    Ctx.WorkerId = Worker;
    Ctx.NumWorkers = Pool.size();
    Ctx.Memcheck = Memcheck;
    for (uint64_t B = Begin; B < End; ++B) {
      Ctx.CtaId[0] = uint32_t(B % GX);
      Ctx.CtaId[1] = uint32_t((B / GX) % Grid.Y);
      Ctx.CtaId[2] = uint32_t(B / GXY);
      if (Trap.load(std::memory_order_relaxed))
        return; // an earlier block trapped: the grid stops
      ptx::host::BlockTrap Detail;
      if (uint32_t Code =
              ptx::host::runBlockGuarded(K.Fn, Params, &Ctx, &Detail)) {
        uint32_t Expected = ptx::host::TrapNone;
        if (Trap.compare_exchange_strong(Expected, Code)) {
          TrapBlock = B;
          TrapDetail = Detail;
        }
        return;
      }
      if (Ctx.Status != ptx::host::BlockOk) {
        uint32_t Expected = ptx::host::BlockOk;
        Failure.compare_exchange_strong(Expected, Ctx.Status);
        Ctx.Status = ptx::host::BlockOk;
      }
    }
  };
  ptx::host::installFaultHandler();
  Pool.parallelFor(Blocks, Run);
  if (uint32_t Code = Trap.load()) {
    std::string Where = "kernel '" + K.Info.Name + "': block (" +
                        std::to_string(TrapBlock % GX) + "," +
                        std::to_string((TrapBlock / GX) % Grid.Y) + "," +
                        std::to_string(TrapBlock / GXY) + ")";
    if (Code == ptx::host::TrapIllegalAddress) {
      char Addr[32];
      std::snprintf(Addr, sizeof(Addr), "0x%llx",
                    static_cast<unsigned long long>(TrapDetail.Address));
      Message = Where +
                (TrapDetail.Signal
                     ? std::string(" accessed address ") + Addr +
                           " outside any mapping (" +
                           (TrapDetail.Signal == SIGBUS ? "SIGBUS" : "SIGSEGV") +
                           ")"
                     : std::string(" made an invalid memory access at ") +
                           Addr + " (see the memcheck report)");
      return cudaErrorIllegalAddress;
    }
    Message = "kernel '" + K.Info.Name + "': block " + std::to_string(TrapBlock) +
              (Code == ptx::host::TrapAssert ? " failed a device-side assert"
               : Code == ptx::host::TrapBreakpoint
                   ? " reached a breakpoint (brkpt) with no debugger attached"
                   : " executed a trap instruction");
    return Code == ptx::host::TrapAssert ? cudaErrorAssert : cudaErrorLaunchFailure;
  }
  if (Failure.load() == ptx::host::BlockDivergentBarrier) {
    Message = "kernel '" + K.Info.Name +
              "': threads of a block waited at different barriers "
              "(__syncthreads in divergent code)";
    return cudaErrorLaunchFailure;
  }
  return cudaSuccess;
}

} // namespace cuhip::rt
