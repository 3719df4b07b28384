//===- CpuBackend.cpp - Running compiled kernels on host cores ------------===//
//
// A launch hands the grid's blocks to the thread pool in increasing linear
// order; each participant runs whole blocks through the kernel's block
// function with its own shared-memory arena and thread frames, so no OS
// thread is ever created per CUDA thread or per block. A memory fault in
// kernel code ends the faulting block with cudaErrorIllegalAddress
// (ptx::host::installFaultHandler) instead of the process.
//
// A cooperative launch needs every block resident at once, since its
// blocks wait for each other at grid.sync(). There each block is a fiber
// with its own stack, arena and frames; a participant starts blocks while
// any are left and otherwise resumes its own in turn, and a block that
// polls memory (grid.sync()'s arrival counter) yields back to it. A block
// stays on the thread that started it, so thread-local state (the trap
// context) never moves under it.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"

#include "cuhip/runtime/Log.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include <csignal>
#include <cstdio>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

// ThreadSanitizer follows one stack per thread; a block fiber's stack
// switches must be announced to it (CUHIP_SANITIZE=thread).
#if defined(__SANITIZE_THREAD__)
#define CUHIP_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUHIP_TSAN_FIBERS 1
#endif
#endif
#ifdef CUHIP_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
#endif

namespace cuhip::rt {

namespace {
// Bumped by cancelRunningLaunches: a grid that started under another value
// starts no more blocks.
std::atomic<uint64_t> CancelEpoch{0};

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
/// A zeroed context for the blocks of one launch: grid and block shape,
/// dynamic shared size, worker count and memcheck state.
void initBlockContext(ptx::host::BlockContext &Ctx, Dim3 Grid, Dim3 Block,
                      size_t DynamicShared, unsigned NumWorkers,
                      ptx::host::MemcheckLaunch *Memcheck,
                      ptx::host::DeviceRuntime *Runtime) {
  std::memset(&Ctx, 0, sizeof(Ctx));
  Ctx.Runtime = Runtime;
  Ctx.NCtaId[0] = Grid.X;
  Ctx.NCtaId[1] = Grid.Y;
  Ctx.NCtaId[2] = Grid.Z;
  Ctx.NTid[0] = Block.X;
  Ctx.NTid[1] = Block.Y;
  Ctx.NTid[2] = Block.Z;
  Ctx.DynamicSharedBytes = uint32_t(DynamicShared);
  Ctx.NumWorkers = NumWorkers;
  Ctx.Memcheck = Memcheck;
}

/// %ctaid of the block with linear index Linear (x fastest).
void setBlockId(ptx::host::BlockContext &Ctx, Dim3 Grid, uint64_t Linear) {
  Ctx.CtaId[0] = uint32_t(Linear % Grid.X);
  Ctx.CtaId[1] = uint32_t((Linear / Grid.X) % Grid.Y);
  Ctx.CtaId[2] = uint32_t(Linear / (uint64_t(Grid.X) * Grid.Y));
}

/// The launch's result from the first trap (with the block that took it)
/// and the first failed block status.
Status blockOutcome(const ptx::host::CompiledKernel &K, uint32_t Code,
                    uint64_t TrapBlock, Dim3 Grid,
                    const ptx::host::BlockTrap &Detail, uint32_t Failure,
                    std::string &Message) {
  if (Code == ptx::host::TrapIllegalAddress) {
    const uint64_t GX = Grid.X, GXY = uint64_t(Grid.X) * Grid.Y;
    char Addr[32];
    std::snprintf(Addr, sizeof(Addr), "0x%llx",
                  static_cast<unsigned long long>(Detail.Address));
    Message = "kernel '" + K.Info.Name + "': block (" +
              std::to_string(TrapBlock % GX) + "," +
              std::to_string((TrapBlock / GX) % Grid.Y) + "," +
              std::to_string(TrapBlock / GXY) + ")" +
              (Detail.Signal
                   ? std::string(" accessed address ") + Addr +
                         " outside any mapping (" +
                         (Detail.Signal == SIGBUS ? "SIGBUS" : "SIGSEGV") + ")"
                   : std::string(" made an invalid memory access at ") +
                         Addr + " (see the memcheck report)");
    return cudaErrorIllegalAddress;
  }
  if (Code) {
    Message = "kernel '" + K.Info.Name + "': block " +
              std::to_string(TrapBlock) +
              (Code == ptx::host::TrapAssert ? " failed a device-side assert"
               : Code == ptx::host::TrapBreakpoint
                   ? " reached a breakpoint (brkpt) with no debugger attached"
                   : " executed a trap instruction");
    return Code == ptx::host::TrapAssert ? cudaErrorAssert
                                         : cudaErrorLaunchFailure;
  }
  if (Failure == ptx::host::BlockDivergentBarrier) {
    Message = "kernel '" + K.Info.Name +
              "': threads of a block waited at different barriers "
              "(__syncthreads in divergent code)";
    return cudaErrorLaunchFailure;
  }
  if (Failure == ptx::host::BlockMbarrierDeadlock) {
    Message = "kernel '" + K.Info.Name +
              "': threads of a block wait for mbarrier phases that no "
              "thread left can complete (too few arrivals; this would hang "
              "on a GPU)";
    return cudaErrorLaunchFailure;
  }
  return cudaSuccess;
}
} // namespace

CpuBackend::CpuBackend() : Pool(defaultWorkers()) {
  Scratches.resize(Pool.size());
}

CpuBackend::~CpuBackend() = default;

void CpuBackend::cancelRunningLaunches() {
  CancelEpoch.fetch_add(1, std::memory_order_relaxed);
}

Status CpuBackend::launch(const ptx::host::CompiledKernel &K, Dim3 Grid,
                          Dim3 Block, const void *Params, size_t DynamicShared,
                          bool Cooperative, std::string &Message,
                          ptx::host::MemcheckLaunch *Memcheck,
                          ptx::host::DeviceRuntime *Runtime) {
  std::lock_guard<std::mutex> Serial(LaunchLock);
  ptx::host::installFaultHandler();
  uint64_t Threads = uint64_t(Block.X) * Block.Y * Block.Z;
  uint64_t Blocks = uint64_t(Grid.X) * Grid.Y * Grid.Z;
  size_t SharedAlign = K.Layout.SharedAlign;
  size_t SharedBytes =
      ((K.Layout.StaticSharedBytes + SharedAlign - 1) & ~(SharedAlign - 1)) +
      DynamicShared;
  size_t FrameBytes = size_t(K.Layout.FrameBytesPerThread) * Threads;
  if (Memcheck) {
    Memcheck->SharedBytes = SharedBytes;
    Memcheck->FrameBytes = FrameBytes;
    Memcheck->KernelName = K.Info.Name.c_str();
  }
  if (Cooperative)
    return launchCooperative(K, Grid, Block, Params, DynamicShared, SharedBytes,
                             FrameBytes, Message, Memcheck, Runtime);
  for (Scratch &S : Scratches)
    if (!grow(S.Shared, S.SharedSize, std::max<size_t>(SharedBytes, 64)) ||
        !grow(S.Frames, S.FramesSize, std::max<size_t>(FrameBytes, 64))) {
      Message = "cannot allocate " + std::to_string(SharedBytes + FrameBytes) +
                " bytes of per-worker block state";
      return cudaErrorMemoryAllocation;
    }

  std::atomic<uint32_t> Failure{ptx::host::BlockOk};
  std::atomic<uint32_t> Trap{ptx::host::TrapNone};
  uint64_t TrapBlock = 0;
  ptx::host::BlockTrap TrapDetail;
  const uint64_t Epoch = CancelEpoch.load(std::memory_order_relaxed);
  ThreadPool::Body Run = [&](unsigned Worker, uint64_t Begin, uint64_t End) {
    Scratch &S = Scratches[Worker];
    ptx::host::BlockContext Ctx;
    initBlockContext(Ctx, Grid, Block, DynamicShared, Pool.size(), Memcheck,
                     Runtime);
    Ctx.Shared = S.Shared.get();
    Ctx.Frames = S.Frames.get();
    Ctx.WorkerId = Worker;
    for (uint64_t B = Begin; B < End; ++B) {
      setBlockId(Ctx, Grid, B);
      if (Trap.load(std::memory_order_relaxed) ||
          CancelEpoch.load(std::memory_order_relaxed) != Epoch)
        return; // an earlier block trapped, or the process exits
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
  Pool.parallelFor(Blocks, Run);
  return blockOutcome(K, Trap.load(), TrapBlock, Grid, TrapDetail,
                      Failure.load(), Message);
}

//===----------------------------------------------------------------------===//
// Cooperative launches
//===----------------------------------------------------------------------===//

namespace {

// Block fibers run the block function, device printf and nothing deeper:
// thread state lives in the frames, not on the stack.
constexpr size_t FiberStackBytes = 256 * 1024;

/// One block of a cooperative grid: its fiber, its stack and its memory.
struct CoopBlock : ptx::host::BlockFiber {
  ucontext_t Context;
  ucontext_t *Home = nullptr; // the scheduler of the thread running it
  void *StackMapping = nullptr;
  size_t MappingBytes = 0;
  std::unique_ptr<uint8_t[], void (*)(void *)> Shared{nullptr, ::free};
  std::unique_ptr<uint8_t[], void (*)(void *)> Frames{nullptr, ::free};
  ptx::host::BlockContext Ctx;
  ptx::host::BlockFunction Fn = nullptr;
  const void *Params = nullptr;
  uint32_t TrapCode = ptx::host::TrapNone;
  ptx::host::BlockTrap Detail;
  bool Finished = false;
#ifdef CUHIP_TSAN_FIBERS
  void *TsanFiber = nullptr;     // the block's own
  void *TsanHomeFiber = nullptr; // the scheduler's, while the block runs
#endif

  ~CoopBlock() {
    if (StackMapping)
      munmap(StackMapping, MappingBytes);
#ifdef CUHIP_TSAN_FIBERS
    if (TsanFiber)
      __tsan_destroy_fiber(TsanFiber);
#endif
  }
};

// Each stack switch is announced to ThreadSanitizer in the function that
// makes it: TSan keeps a call stack per fiber, and a helper function would
// be entered on one fiber and left on the other.

void yieldBlock(ptx::host::BlockFiber *F) {
  auto *B = static_cast<CoopBlock *>(F);
#ifdef CUHIP_TSAN_FIBERS
  __tsan_switch_to_fiber(B->TsanHomeFiber, 0);
#endif
  swapcontext(&B->Context, B->Home);
}

// makecontext passes int arguments only: the block's address in two halves.
void blockMain(unsigned High, unsigned Low) {
  auto *B = reinterpret_cast<CoopBlock *>((uintptr_t(High) << 32) | Low);
  B->TrapCode =
      ptx::host::runBlockGuarded(B->Fn, B->Params, &B->Ctx, &B->Detail);
  B->Finished = true;
#ifdef CUHIP_TSAN_FIBERS
  __tsan_switch_to_fiber(B->TsanHomeFiber, 0);
#endif
  setcontext(B->Home);
}

/// Gives B its stack and memory and prepares its fiber; false when memory
/// runs out.
bool prepareBlock(CoopBlock &B, size_t SharedBytes, size_t FrameBytes) {
  size_t Page = size_t(sysconf(_SC_PAGESIZE));
  size_t Bytes = FiberStackBytes + Page;
  void *M =
      mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (M == MAP_FAILED)
    return false;
  B.StackMapping = M;
  B.MappingBytes = Bytes;
  // The lowest page stays inaccessible: an overflow faults instead of
  // overwriting another block's stack.
  mprotect(M, Page, PROT_NONE);
  void *S = std::aligned_alloc(64, (std::max<size_t>(SharedBytes, 64) + 63) &
                                       ~size_t(63));
  void *F = std::aligned_alloc(64, (std::max<size_t>(FrameBytes, 64) + 63) &
                                       ~size_t(63));
  B.Shared.reset(static_cast<uint8_t *>(S));
  B.Frames.reset(static_cast<uint8_t *>(F));
  if (!S || !F || getcontext(&B.Context) != 0)
    return false;
  B.Ctx.Shared = B.Shared.get();
  B.Ctx.Frames = B.Frames.get();
  B.Context.uc_stack.ss_sp = static_cast<uint8_t *>(M) + Page;
  B.Context.uc_stack.ss_size = FiberStackBytes;
  B.Context.uc_link = nullptr;
  uintptr_t Address = reinterpret_cast<uintptr_t>(&B);
  makecontext(&B.Context, reinterpret_cast<void (*)()>(&blockMain), 2,
              unsigned(Address >> 32), unsigned(Address & 0xffffffffu));
#ifdef CUHIP_TSAN_FIBERS
  B.TsanFiber = __tsan_create_fiber(0);
#endif
  return true;
}

/// Switches from the scheduler to B until it yields or finishes. Each side
/// keeps its own trap context.
void resumeBlock(CoopBlock &B, ucontext_t &Home) {
  ptx::host::TrapContext *Saved = ptx::host::CurrentTrap;
  B.Home = &Home;
#ifdef CUHIP_TSAN_FIBERS
  // Switching synchronizes (flags 0): the block and its scheduler take
  // turns on one thread, so their accesses are ordered.
  B.TsanHomeFiber = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(B.TsanFiber, 0);
#endif
  swapcontext(&Home, &B.Context);
  ptx::host::CurrentTrap = Saved;
}

} // namespace

Status CpuBackend::launchCooperative(const ptx::host::CompiledKernel &K,
                                     Dim3 Grid, Dim3 Block, const void *Params,
                                     size_t DynamicShared, size_t SharedBytes,
                                     size_t FrameBytes, std::string &Message,
                                     ptx::host::MemcheckLaunch *Memcheck,
                                     ptx::host::DeviceRuntime *Runtime) {
  uint64_t Blocks = uint64_t(Grid.X) * Grid.Y * Grid.Z;
  // What grid.sync() finds through %envreg1:%envreg2; it lives as long as
  // this call, which returns when the grid has finished.
  ptx::host::GridWorkspace Workspace{sizeof(ptx::host::GridWorkspace), 0};
  uintptr_t WorkspaceAddress = reinterpret_cast<uintptr_t>(&Workspace);
  if (Memcheck) { // grid.sync()'s atomics on it are the kernel's own
    Memcheck->GridWorkspace = &Workspace;
    Memcheck->GridWorkspaceBytes = sizeof(Workspace);
  }
  std::vector<CoopBlock> All(Blocks);
  for (uint64_t I = 0; I < Blocks; ++I) {
    CoopBlock &B = All[I];
    B.Yield = &yieldBlock;
    B.Fn = K.Fn;
    B.Params = Params;
    ptx::host::BlockContext &Ctx = B.Ctx;
    initBlockContext(Ctx, Grid, Block, DynamicShared, Pool.size(), Memcheck,
                     Runtime);
    setBlockId(Ctx, Grid, I);
    Ctx.EnvReg[1] = uint32_t(WorkspaceAddress >> 32);
    Ctx.EnvReg[2] = uint32_t(WorkspaceAddress);
    Ctx.Fiber = &B;
  }

  std::atomic<uint64_t> NextBlock{0};
  // Set by a trap or by running out of memory: the grid stops, and blocks
  // still waiting for it (at grid.sync()) are abandoned, never resumed.
  std::atomic<bool> Stop{false};
  std::atomic<bool> OutOfMemory{false};
  std::atomic<uint32_t> Failure{ptx::host::BlockOk};
  std::atomic<uint32_t> Trap{ptx::host::TrapNone};
  uint64_t TrapBlock = 0;
  ptx::host::BlockTrap TrapDetail;
  const uint64_t Epoch = CancelEpoch.load(std::memory_order_relaxed);
  ThreadPool::Body Run = [&](unsigned Worker, uint64_t, uint64_t) {
    ucontext_t Home;
    std::vector<CoopBlock *> Mine;
    size_t Turn = 0;
    while (!Stop.load(std::memory_order_relaxed) &&
           CancelEpoch.load(std::memory_order_relaxed) == Epoch) {
      CoopBlock *B = nullptr;
      // Start blocks while any are left, so all become resident as early
      // as possible; then take turns among this thread's own.
      if (NextBlock.load(std::memory_order_relaxed) < Blocks) {
        uint64_t Id = NextBlock.fetch_add(1, std::memory_order_relaxed);
        if (Id < Blocks) {
          B = &All[Id];
          B->Ctx.WorkerId = Worker;
          if (!prepareBlock(*B, SharedBytes, FrameBytes)) {
            OutOfMemory.store(true);
            Stop.store(true);
            break;
          }
          Mine.push_back(B);
          Turn = Mine.size() - 1;
        }
      }
      if (!B) {
        if (Mine.empty())
          break;
        if (Turn >= Mine.size()) {
          // A full round without finishing: the blocks here wait for
          // blocks on other threads, which may share this core.
          Turn = 0;
          std::this_thread::yield();
        }
        B = Mine[Turn];
      }
      resumeBlock(*B, Home);
      if (!B->Finished) {
        ++Turn;
        continue;
      }
      uint64_t Id = uint64_t(B - All.data());
      if (B->TrapCode) {
        uint32_t Expected = ptx::host::TrapNone;
        if (Trap.compare_exchange_strong(Expected, B->TrapCode)) {
          TrapBlock = Id;
          TrapDetail = B->Detail;
        }
        Stop.store(true);
      } else if (B->Ctx.Status != ptx::host::BlockOk) {
        uint32_t Expected = ptx::host::BlockOk;
        Failure.compare_exchange_strong(Expected, B->Ctx.Status);
      }
      Mine[Turn] = Mine.back();
      Mine.pop_back();
    }
  };
  Pool.parallelFor(Pool.size(), Run);
  if (OutOfMemory.load() && !Trap.load()) {
    Message = "cooperative launch of kernel '" + K.Info.Name +
              "': cannot allocate the stacks and memory of " +
              std::to_string(Blocks) + " resident blocks";
    return cudaErrorLaunchOutOfResources;
  }
  return blockOutcome(K, Trap.load(), TrapBlock, Grid, TrapDetail,
                      Failure.load(), Message);
}

} // namespace cuhip::rt
