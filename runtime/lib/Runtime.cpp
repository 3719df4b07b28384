//===- Runtime.cpp - The runtime core -------------------------------------===//
//
// Registration records which fatbins and kernels a program has; the PTX of a
// fatbin is compiled the first time one of its kernels is launched (as the
// CUDA driver does with lazy loading), so a module that cannot be compiled
// fails the launch with a CUDA error and a log line instead of failing the
// program at start-up. On the CPU backend launches, copies and the other
// stream operations go into their stream's queue (StreamQueue.h) and run on
// its dispatcher thread, so the host continues until it synchronises, as
// with CUDA; arguments are checked, and kernel arguments copied, before an
// operation is queued, and faults of queued work surface at the next call
// that waits for it. On the HIP backend they go to HIP's streams. In
// memcheck mode (CUHIP_MEMCHECK=1) kernels are compiled with a check before
// each access, and every launch publishes, when it starts, a sorted
// snapshot of the live allocations (and of recently freed ones) that the
// checks search.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include "CoreAccess.h"
#include "cuhip/runtime/Graph.h"

#include "CpuBackend.h"
#include "DeviceArena.h"
#include "DeviceLaunch.h"
#include "HipBackend.h"
#include "Ipc.h"
#include "StreamQueue.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/Link.h"
#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"
#include "cuhip/runtime/Fatbin.h"
#include "cuhip/runtime/Log.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace cuhip::rt {

const char *statusName(int S) {
  switch (S) {
#define CUHIP_CUDA_ERROR(Name, Value, Desc)                                    \
  case Value:                                                                  \
    return #Name;
#include "cuhip/runtime/CudaErrors.def"
#undef CUHIP_CUDA_ERROR
  }
  return nullptr;
}

const char *statusDescription(int S) {
  switch (S) {
#define CUHIP_CUDA_ERROR(Name, Value, Desc)                                    \
  case Value:                                                                  \
    return Desc;
#include "cuhip/runtime/CudaErrors.def"
#undef CUHIP_CUDA_ERROR
  }
  return nullptr;
}

struct Kernel {
  std::string Name;
  const void *HostFun = nullptr;
  Module *Mod = nullptr;
  const ptx::host::CompiledKernel *Compiled = nullptr;
  const HipKernel *Hip = nullptr; // set instead when the HIP backend runs it
  // Set by cudaFuncSetAttribute / cudaFuncSetCacheConfig; guarded by
  // Impl::RegLock, except MaxDynamicShared, which every launch reads.
  std::atomic<int> MaxDynamicShared{-1}; // -1: SharedMemPerBlock - static
  int PreferredCarveout = -1;
  int ClusterDimMustBeSet = 0;
  int RequiredClusterDim[3] = {0, 0, 0};
  int NonPortableClusterSizeAllowed = 0;
  int ClusterSchedulingPolicy = 0;
  int CacheConfig = 0;
};

struct Module {
  void *Handle = nullptr; // what registerFatBinary returns points here
  unsigned Index = 0;
  std::string DisplayName; // used as the file name in diagnostics
  std::string RegistrationError;
  Status RegistrationStatus = cudaSuccess; // what launches fail with
  std::string PtxText;
  unsigned Sm = 0;
  unsigned TargetSm = 0; // the PTX's .target sm_NN, read when it is loaded
  std::vector<Kernel *> Kernels;
  /// An -rdc program's linked files: only the units its registered kernels
  /// and variables need are linked (ptx::parseAndLower's Roots).
  bool LinkRegisteredOnly = false;
  /// Files of such a program left out because they do not lower (with the
  /// first error of each), for the error of a launch of one of their kernels.
  std::string LeftOut;

  std::mutex LoadLock;
  /// Where the CPU backend's JIT placed the module's variables; filled when
  /// the module is loaded.
  std::vector<ptx::host::ModuleVariable> Variables;
  enum { NotLoaded, Loaded, Failed } State = NotLoaded;
  Status FailStatus = cudaSuccess;
  std::vector<ptx::host::CompiledKernel> Compiled;
  std::vector<HipKernel> HipKernels;
  void *HipModule = nullptr; // hipModule_t of the loaded code object
  /// Where ensureLoaded also writes the frontend's messages (set while an
  /// explicit load runs, for cuModuleLoadDataEx's error log).
  std::string *Diagnostics = nullptr;
};

namespace {
thread_local Status LastError = cudaSuccess;
// Set while loadLinkedModule loads an -rdc program's image through
// loadModuleData: its units are linked as an archive's members are.
thread_local bool LoadingLinkedImage = false;
// The current device belongs to the calling host thread, as in CUDA, so
// threads that select it at the same time do not race.
thread_local int CurrentDevice = 0;

struct CallConfig {
  Dim3 Grid, Block;
  size_t SharedMem;
  void *Stream;
};
thread_local std::vector<CallConfig> ConfigStack;

std::string programName() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0)
    return "program";
  Buf[N] = 0;
  std::string S(Buf);
  size_t Slash = S.rfind('/');
  return Slash == std::string::npos ? S : S.substr(Slash + 1);
}

/// The file that holds Addr (a shared library registers its own fatbins).
std::string objectNameFor(const void *Addr) {
  Dl_info Info;
  if (dladdr(Addr, &Info) && Info.dli_fname && *Info.dli_fname) {
    std::string S(Info.dli_fname);
    size_t Slash = S.rfind('/');
    S = Slash == std::string::npos ? S : S.substr(Slash + 1);
    if (!S.empty())
      return S;
  }
  return programName();
}

bool isDefaultStream(void *S) {
  uintptr_t V = reinterpret_cast<uintptr_t>(S);
  return V == 0 || V == 1 /*cudaStreamLegacy*/ || V == 2 /*PerThread*/;
}

// cudaStreamNonBlocking; cudaEventBlockingSync, DisableTiming, Interprocess.
constexpr unsigned StreamFlagsMask = 0x1;
constexpr unsigned EventDisableTiming = 0x2, EventInterprocess = 0x4,
                   EventFlagsMask = 0x7;

// Stream ids: the legacy stream's is fixed; created and per-thread streams
// draw theirs from one counter, so no two streams share one.
constexpr uint64_t LegacyStreamId = 1;
std::atomic<uint64_t> NextStreamId{16};
} // namespace

/// A stream created by streamCreate; its handle is its address.
struct StreamObj {
  uint64_t Id = 0; // cudaStreamGetId
  unsigned Flags = 0;
  int Priority = 0;
  void *Hip = nullptr; // hipStream_t on the HIP backend
  std::shared_ptr<WorkQueue> Queue; // the CPU backend's
};

/// What cudaStreamSetAttribute stored, by cudaLaunchAttributeID; guarded by
/// Impl::StreamLock.
using StreamAttrMap =
    std::map<int, std::array<unsigned char, Runtime::StreamAttrBytes>>;

/// One cudaEventRecord on the CPU backend: the point of its stream the
/// event waits for, and the time the stream reached it, stamped by the
/// marker operation the record enqueued (valid once Point is reached).
struct EventMark {
  QueuePoint Point;
  std::atomic<int64_t> WhenNs{0}; // steady_clock, since its epoch
};

/// An event created by eventCreate; its handle is its address. On the CPU
/// backend recording enqueues a marker on the stream, and the event is
/// complete when the stream has run it; the HIP backend keeps all of that in
/// the HIP event.
struct EventObj {
  unsigned Flags = 0;
  void *Hip = nullptr; // hipEvent_t on the HIP backend
  // Set by eventRecord on any host thread: guarded by Impl::StreamLock.
  bool Recorded = false;
  std::shared_ptr<EventMark> Mark; // the latest record (CPU backend)
  /// An interprocess event's counters (CPU backend): records and waits go
  /// through them instead of Mark, as other processes record it too.
  std::shared_ptr<ipc::SharedEvent> Shared;
};

namespace {
} // namespace

struct Runtime::Impl {
  std::mutex RegLock;
  std::vector<std::unique_ptr<Module>> Modules;
  std::vector<std::unique_ptr<Kernel>> Kernels;
  std::unordered_map<const void *, Kernel *> ByHostFun;
  std::set<const void *> KernelHandles;
  std::set<const Module *> LoadedModules; // loadModuleData's, until unloaded
  unsigned NextModule = 0;
  /// __device__ and __constant__ variables by host shadow address.
  struct Variable {
    Module *Mod;
    std::string Name;
    size_t Size;
    bool Constant;
  };
  std::unordered_map<const void *, Variable> ByHostVar;
  /// Host pointers of `__managed__` variables, by module.
  std::unordered_map<const Module *, std::vector<void **>> ManagedVars;

  std::mutex MemLock;
  std::map<uintptr_t, size_t> Allocations; // base -> size asked for
  std::set<uintptr_t> External; // registerDeviceRange's: free() refuses them
  /// Memory of other processes that ipcOpenMemHandle mapped, by the
  /// address it returned (also in Allocations and External). Guarded by
  /// MemLock.
  struct IpcMapping {
    ipc::FdRef Ref;
    uint64_t Offset = 0, Bytes = 0;
    unsigned Opens = 0; // each open of the same handle counts once
  };
  std::map<uintptr_t, IpcMapping> IpcMappings;
  /// Module variables (__device__, __constant__): device memory that copies
  /// may name (cudaGetSymbolAddress) but that nobody frees.
  std::map<uintptr_t, size_t> Statics;
  /// Adds a module variable that hipModuleGetGlobal found to Statics, so
  /// that copies to and from it pass the device-range checks.
  void noteHipVariable(void *Addr, size_t Bytes) {
    std::lock_guard<std::mutex> G(MemLock);
    Statics[reinterpret_cast<uintptr_t>(Addr)] = Bytes;
  }
  /// The live allocation (or module variable) that contains A, if any.
  const std::pair<const uintptr_t, size_t> *rangeOf(uintptr_t A) {
    for (const auto *Map : {&Allocations, &Statics}) {
      auto It = Map->upper_bound(A);
      if (It == Map->begin())
        continue;
      --It;
      // A zero-byte range still owns its first address.
      if (A - It->first < std::max<size_t>(It->second, 1))
        return &*It;
    }
    return nullptr;
  }

  /// Memcheck mode (CUHIP_MEMCHECK=1, read once at start-up).
  const bool Memcheck = memcheckRequested();
  /// The allocations a launch's checks search. A launch holds its snapshot
  /// until it ends, so a host thread that allocates or frees meanwhile
  /// builds a new one and never changes what a running kernel reads.
  struct MemSnapshot {
    std::vector<ptx::host::MemRange> Live, Freed;
  };
  std::shared_ptr<const MemSnapshot> Snapshot; // guarded by MemLock
  uint64_t MemGeneration = 0;                  // bumped by malloc and free
  uint64_t SnapshotGeneration = ~uint64_t(0);
  /// The most recent frees, oldest first, for reports of use after free.
  std::deque<ptx::host::MemRange> RecentlyFreed;
  static constexpr size_t MaxRecentlyFreed = 4096;
  static bool memcheckRequested() {
    const char *E = std::getenv("CUHIP_MEMCHECK");
    return E && *E && std::string(E) != "0" && std::string(E) != "off";
  }
  /// The snapshot for a launch starting now.
  std::shared_ptr<const MemSnapshot> memSnapshot() {
    std::lock_guard<std::mutex> G(MemLock);
    if (SnapshotGeneration != MemGeneration || !Snapshot) {
      auto S = std::make_shared<MemSnapshot>();
      S->Live.reserve(Allocations.size());
      for (const auto &[Base, Size] : Allocations)
        S->Live.push_back({Base, Size});
      // A range freed and then reused reports as live; otherwise the most
      // recent free of an address wins.
      for (auto It = RecentlyFreed.rbegin(); It != RecentlyFreed.rend(); ++It)
        S->Freed.push_back(*It);
      std::stable_sort(S->Freed.begin(), S->Freed.end(),
                       [](const ptx::host::MemRange &A,
                          const ptx::host::MemRange &B) { return A.Base < B.Base; });
      S->Freed.erase(std::unique(S->Freed.begin(), S->Freed.end(),
                                 [](const ptx::host::MemRange &A,
                                    const ptx::host::MemRange &B) {
                                   return A.Base == B.Base;
                                 }),
                     S->Freed.end());
      Snapshot = std::move(S);
      SnapshotGeneration = MemGeneration;
    }
    return Snapshot;
  }

  std::once_flag BackendOnce;
  std::unique_ptr<CpuBackend> Backend;
  // Which backend runs kernels, chosen once from CUHIP_BACKEND.
  enum class Selected { Cpu, Hip, NoDevice };
  std::once_flag SelectOnce;
  Selected Kind = Selected::Cpu;
  std::unique_ptr<HipBackend> Hip;

  Selected selected() {
    std::call_once(SelectOnce, [&] { selectBackend(); });
    return Kind;
  }
  HipBackend *hip() { return selected() == Selected::Hip ? Hip.get() : nullptr; }
  /// cudaErrorNoDevice when CUHIP_BACKEND=hip found no usable AMD GPU.
  Status noDeviceStatus() {
    return selected() == Selected::NoDevice ? cudaErrorNoDevice : cudaSuccess;
  }
  /// What every call that uses the device answers before doing anything:
  /// no device, or the context's sticky error (a kernel fault), which CUDA
  /// returns from every such call until cudaDeviceReset.
  Status deviceStatus() {
    if (Status S = noDeviceStatus())
      return S;
    return static_cast<Status>(Sticky.load(std::memory_order_relaxed));
  }
  void selectBackend();
  std::once_flag CompilerOnce;
  std::unique_ptr<ptx::host::HostCompiler> Compiler;
  std::string CompilerError;

  std::mutex StreamLock;
  std::unordered_map<void *, std::unique_ptr<StreamObj>> Streams;
  std::unordered_map<void *, std::unique_ptr<EventObj>> Events;
  /// Attributes set on streams, by handle (the legacy stream under 0x1);
  /// a destroyed stream's go with it.
  std::unordered_map<void *, StreamAttrMap> StreamAttrs;
  /// The HIP stream for a cudaStream_t, or cudaErrorInvalidResourceHandle;
  /// with Queue, also its queue on the CPU backend.
  Status resolveStream(void *Handle, void **HipStream,
                       std::shared_ptr<WorkQueue> *Queue = nullptr);
  EventObj *findEvent(void *Handle);
  /// Removes the stream or event Handle from Map and hands it over; null
  /// if Handle is not in it.
  template <typename T>
  std::unique_ptr<T> take(std::unordered_map<void *, std::unique_ptr<T>> &Map,
                          void *Handle) {
    std::lock_guard<std::mutex> G(StreamLock);
    auto It = Map.find(Handle);
    if (It == Map.end())
      return nullptr;
    std::unique_ptr<T> Obj = std::move(It->second);
    Map.erase(It);
    return Obj;
  }
  /// Puts a new stream or event into Map; returns its handle.
  template <typename T>
  void *keep(std::unordered_map<void *, std::unique_ptr<T>> &Map,
             std::unique_ptr<T> Obj) {
    std::lock_guard<std::mutex> G(StreamLock);
    void *Handle = Obj.get();
    Map[Handle] = std::move(Obj);
    return Handle;
  }
  /// A HIP status of an operation that waited for kernels: a kernel fault
  /// found there leaves the context unusable (sticky), as on a GPU.
  Status deviceResult(Status S) {
    if (S == cudaErrorLaunchFailure || S == cudaErrorIllegalAddress ||
        S == cudaErrorAssert || S == cudaErrorIllegalInstruction ||
        S == cudaErrorMisalignedAddress)
      Sticky.store(S);
    return S;
  }

  std::atomic<int> Sticky{cudaSuccess};
  DeviceInfo Device;

  // --- the CPU backend's stream queues (StreamQueue.h) ----------------------
  QueueSet Queues;
  /// An error of queued work that is not a fault (a launch the backend could
  /// not start): the next call that waits for work reports it, once.
  std::atomic<int> AsyncError{cudaSuccess};
  std::once_flag ExitHandlerOnce;
  struct LaunchWork;
  /// The queue of the legacy (0, 0x1) or per-thread (0x2) default stream.
  std::shared_ptr<WorkQueue> defaultQueue(uintptr_t Handle);
  /// Appends W to Q after the points in After and returns its ticket; the
  /// first call arranges for the queues to stop at process exit.
  uint64_t enqueue(const std::shared_ptr<WorkQueue> &Q,
                   std::unique_ptr<QueuedWork> W,
                   std::vector<QueuePoint> After = {});
  /// Enqueues Fn on Q. RunsAfterFault: it runs even once a kernel faulted
  /// (stream callbacks, which are told the error); Wait: the call returns
  /// when Fn has run, with waitOutcome().
  Status enqueueFunction(const std::shared_ptr<WorkQueue> &Q,
                         std::function<void()> Fn, bool Wait,
                         bool RunsAfterFault = false);
  /// An asynchronous copy in Q's order (see its definition for pageable
  /// memory).
  Status copyAsync(Runtime &R, const std::shared_ptr<WorkQueue> &Q, void *Dst,
                   const void *Src, size_t Bytes);
  /// Records the failure of work that ran on a stream: a fault is sticky,
  /// another error waits for the next synchronising call.
  void workFailed(Status S);
  /// What a call that waited for queued work reports: the sticky fault, or
  /// the error of queued work not reported yet.
  Status waitOutcome() {
    if (int S = Sticky.load(std::memory_order_acquire))
      return static_cast<Status>(S);
    // Read first: an exchange would write the shared line on every wait.
    if (!AsyncError.load(std::memory_order_relaxed))
      return cudaSuccess;
    return static_cast<Status>(AsyncError.exchange(cudaSuccess));
  }
  /// Waits for what a synchronous operation of the legacy stream waits for
  /// (cudaMemcpy): the legacy stream's earlier work and the blocking
  /// streams'.
  Status waitForLegacy() {
    QueueSet::waitForAll(Queues.legacyBarrier());
    return waitOutcome();
  }
  static void stopQueuesAtExit();

  /// What cudaSetDeviceFlags, cudaDeviceSetLimit and the cache preferences
  /// set; cudaDeviceReset restores the defaults. Guarded by DeviceLock.
  struct DeviceSettings {
    unsigned Flags = 0;
    // CUDA's defaults on sm_80: 1 KiB stack, 1 MiB printf FIFO, 8 MiB heap.
    size_t StackSize = 1024;
    size_t PrintfFifoSize = 1 << 20;
    size_t MaxL2FetchGranularity = 64;
    size_t PersistingL2CacheSize = 0;
    int CacheConfig = 0;     // cudaFuncCachePreferNone
    int SharedMemConfig = 0; // cudaSharedMemBankSizeDefault
    // Dynamic parallelism (CPU backend): CUDA's defaults.
    size_t DevRuntimeSyncDepth = 2;
    size_t DevRuntimePendingLaunchCount = 2048;
  };
  std::mutex DeviceLock;
  DeviceSettings Settings;

  CpuBackend &backend() {
    std::call_once(BackendOnce, [&] { Backend = std::make_unique<CpuBackend>(); });
    return *Backend;
  }
  ptx::host::HostCompiler *compiler() {
    std::call_once(CompilerOnce, [&] {
      ptx::host::HostCompileOptions Options;
      Options.Memcheck = Memcheck;
      auto C = ptx::host::HostCompiler::create(Options);
      if (!C) {
        CompilerError = llvm::toString(C.takeError());
        return;
      }
      Compiler = std::move(*C);
      CUHIP_DEBUG("host JIT targets %s", Compiler->targetDescription().c_str());
      if (Memcheck) {
        ptx::host::setMemcheckDeviceHeapTracking(true);
        CUHIP_INFO("memcheck: kernels check every global, generic and shared "
                   "access");
      }
      Compiler->enableCompileCache(
          ptx::host::compileCacheDirectory(),
          [](bool Warning, const std::string &Msg) {
            if (Warning)
              CUHIP_WARN("%s", Msg.c_str());
            else
              CUHIP_DEBUG("%s", Msg.c_str());
          });
    });
    return Compiler.get();
  }
  Status ensureLoaded(Module &M);
  Status loadedKernelInfo(Kernel *K, const ptx::KernelInfo **Info);
};

/// CUHIP_BACKEND: `cpu`, `hip` (an AMD GPU or cudaErrorNoDevice), or `auto`
/// (the default: an AMD GPU that cuhip compiles for if HIP finds one, the
/// CPU otherwise). The reason a GPU is not used is logged once.
void Runtime::Impl::selectBackend() {
  const char *Env = std::getenv("CUHIP_BACKEND");
  std::string Want = Env && *Env ? Env : "auto";
  if (Want != "cpu" && Want != "hip" && Want != "auto") {
    CUHIP_WARN("CUHIP_BACKEND='%s' is not cpu, hip or auto; using auto",
               Want.c_str());
    Want = "auto";
  }
  if (Want == "cpu") {
    Kind = Selected::Cpu;
    return;
  }
  std::string Reason;
  std::unique_ptr<HipBackend> B = HipBackend::open(Reason);
  if (B && !B->isSupportedDevice()) {
    Reason = "the AMD GPU " +
             (B->arch().empty() ? std::string("(architecture unknown)")
                                : B->arch()) +
             " is not a target cuhip compiles for (see docs/amdgpu.md)";
    B.reset();
  }
  if (B) {
    CUHIP_INFO("running kernels on %s through %s", B->deviceInfo().Name.c_str(),
               B->libraryPath().c_str());
    Hip = std::move(B);
    Kind = Selected::Hip;
  } else if (Want == "hip") {
    CUHIP_ERROR("CUHIP_BACKEND=hip: %s; CUDA calls fail with "
                "cudaErrorNoDevice (use CUHIP_BACKEND=cpu or auto to run "
                "kernels on the CPU)",
                Reason.c_str());
    Kind = Selected::NoDevice;
  } else {
    CUHIP_INFO("no AMD GPU (%s): running kernels on the CPU backend",
               Reason.c_str());
    Kind = Selected::Cpu;
  }
}

Runtime::Runtime() : P(new Impl) {
  DeviceInfo &D = P->Device;
  std::string Cpu = "host CPU";
  std::ifstream Info("/proc/cpuinfo");
  for (std::string Line; std::getline(Info, Line);)
    if (Line.rfind("model name", 0) == 0) {
      size_t Colon = Line.find(':');
      if (Colon != std::string::npos && Colon + 2 <= Line.size())
        Cpu = Line.substr(Colon + 2);
      break;
    }
  D.Name = "cuhip CPU (" + Cpu + ")";
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  D.TotalGlobalMem = Pages > 0 && PageSize > 0 ? size_t(Pages) * PageSize : 0;
  long L2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  D.L2CacheSize = L2 > 0 ? int(L2) : 1 << 20;
  unsigned HW = std::thread::hardware_concurrency();
  D.MultiProcessorCount = HW ? int(HW) : 1;
  // Cooperative grids run with every block as a fiber (CpuBackend.cpp), up
  // to MaxBlocksPerMultiProcessor (32, as on sm_80 and later) per core.
  D.CooperativeLaunch = true;
  // The host caches keep what is used most without being told, so the
  // set-aside and the policy windows are accepted as the hints they are:
  // three quarters of L2 may be set aside, as on NVIDIA's data-centre
  // parts, and a window spans up to 128 MiB less one 4 KiB page (A100's).
  D.MaxPersistingL2CacheSize = D.L2CacheSize / 4 * 3;
  D.MaxAccessPolicyWindowSize = 128 * 1024 * 1024 - 4096;
}

Runtime::~Runtime() {
  // Deliberately leaked: program destructors may still call into the
  // runtime (__cudaUnregisterFatBinary runs from atexit handlers).
}

Runtime &Runtime::get() {
  static Runtime *R = new Runtime();
  return *R;
}

namespace {
std::atomic<bool> RuntimeApiUsed{false};
thread_local bool RuntimeApiThread = false;
} // namespace

void Runtime::noteRuntimeApiCall() {
  if (RuntimeApiThread)
    return;
  RuntimeApiThread = true;
  RuntimeApiUsed.store(true, std::memory_order_release);
}

bool Runtime::runtimeApiUsed() {
  return RuntimeApiUsed.load(std::memory_order_acquire);
}

bool Runtime::runtimeApiUsedOnThisThread() { return RuntimeApiThread; }

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

Status joinPrelinkedPtx(const std::vector<fatbin::Container> &Units,
                        const std::string &Name, std::string &Ptx,
                        unsigned &Sm, std::string &Why) {
  std::vector<std::string> Texts(Units.size());
  std::vector<ptx::LinkUnit> LinkUnits;
  for (size_t I = 0; I < Units.size(); ++I) {
    std::string UnitName = Name + ".unit" + std::to_string(I);
    const fatbin::Entry *E =
        fatbin::choosePtx(
            Units[I],
            [](const fatbin::Entry &E) {
              return ptx::isSupportedPtxVersion(E.IsaMajor, E.IsaMinor);
            },
            ReportedSm);
    if (!E) {
      Why = UnitName + " of the device-linked program holds no PTX that "
                       "cuhip accepts; rebuild with PTX, e.g. "
                       "-gencode arch=compute_XX,code=compute_XX";
      return cudaErrorNoKernelImageForDevice;
    }
    std::string Err;
    if (!fatbin::decompressPayload(*E, Texts[I], Err)) {
      Why = "corrupt " + UnitName + ": " + Err;
      return cudaErrorInvalidKernelImage;
    }
    if (I == 0 || E->Sm < Sm)
      Sm = E->Sm;
    LinkUnits.push_back({UnitName, Texts[I]});
  }
  Ptx = ptx::joinLinkUnits(LinkUnits);
  return cudaSuccess;
}

void **Runtime::registerFatBinary(void *Wrapper) {
  std::lock_guard<std::mutex> G(P->RegLock);
  auto M = std::make_unique<Module>();
  M->Index = P->NextModule++;
  M->Handle = M.get();
  std::string Base = objectNameFor(Wrapper);
  fatbin::Container C;
  std::string Err;
  if (!fatbin::parseWrapper(Wrapper, C, Err)) {
    M->RegistrationError = "corrupt fatbin #" + std::to_string(M->Index) +
                           " in " + Base + ": " + Err;
    M->RegistrationStatus = cudaErrorInvalidKernelImage;
    M->DisplayName = Base + ".fatbin" + std::to_string(M->Index);
    CUHIP_ERROR("%s", M->RegistrationError.c_str());
  } else if (std::vector<fatbin::Container> Units;
             !fatbin::parsePrelinkedContainers(C, Units, Err)) {
    M->RegistrationError = "corrupt device-linked fatbin #" +
                           std::to_string(M->Index) + " in " + Base + ": " +
                           Err;
    M->RegistrationStatus = cudaErrorInvalidKernelImage;
    M->DisplayName = Base + ".fatbin" + std::to_string(M->Index);
    CUHIP_ERROR("%s", M->RegistrationError.c_str());
  } else if (!Units.empty()) {
    // An -rdc program: the linked image holds NVIDIA's device-linked code;
    // the PTX of every translation unit is linked here instead.
    M->DisplayName = Base + ".fatbin" + std::to_string(M->Index) + ".linked.ptx";
    M->LinkRegisteredOnly = true;
    std::string Why;
    if (Status S = joinPrelinkedPtx(Units, Base + ".fatbin" +
                                               std::to_string(M->Index),
                                    M->PtxText, M->Sm, Why)) {
      M->RegistrationError = Why;
      M->RegistrationStatus = S;
      CUHIP_ERROR("%s", Why.c_str());
    } else {
      CUHIP_DEBUG("registered %s (%zu units, %zu bytes of PTX)",
                  M->DisplayName.c_str(), Units.size(), M->PtxText.size());
    }
  } else {
    const fatbin::Entry *E = fatbin::choosePtx(
        C,
        [](const fatbin::Entry &E) {
          return ptx::isSupportedPtxVersion(E.IsaMajor, E.IsaMinor);
        },
        ReportedSm);
    if (!E) {
      M->RegistrationError = "fatbin #" + std::to_string(M->Index) + " in " +
                             Base +
                             " holds no PTX that cuhip accepts (only "
                             "machine code for NVIDIA GPUs); rebuild with "
                             "PTX, e.g. -gencode arch=compute_XX,code=compute_XX";
      M->RegistrationStatus = cudaErrorNoKernelImageForDevice;
      M->DisplayName = Base + ".fatbin" + std::to_string(M->Index);
      CUHIP_DEBUG("%s", M->RegistrationError.c_str());
    } else {
      M->Sm = E->Sm;
      M->DisplayName = Base + ".fatbin" + std::to_string(M->Index) + ".sm_" +
                       std::to_string(E->Sm) + ".ptx";
      if (!fatbin::decompressPayload(*E, M->PtxText, Err)) {
        M->RegistrationError = "corrupt fatbin #" + std::to_string(M->Index) +
                               " in " + Base + ": " + Err;
        M->RegistrationStatus = cudaErrorInvalidKernelImage;
        CUHIP_ERROR("%s", M->RegistrationError.c_str());
      } else {
        CUHIP_DEBUG("registered %s (%zu bytes of PTX, ISA %u.%u)",
                    M->DisplayName.c_str(), M->PtxText.size(), E->IsaMajor,
                    E->IsaMinor);
      }
    }
  }
  void **H = &M->Handle;
  P->Modules.push_back(std::move(M));
  return H;
}

static Module *moduleOf(void **Handle) {
  return Handle ? static_cast<Module *>(*Handle) : nullptr;
}

void Runtime::registerFunction(void **Handle, const void *HostFun,
                               const char *DeviceName) {
  Module *M = moduleOf(Handle);
  if (!M || !HostFun || !DeviceName) {
    CUHIP_ERROR("__cudaRegisterFunction called with an invalid handle");
    return;
  }
  std::lock_guard<std::mutex> G(P->RegLock);
  auto K = std::make_unique<Kernel>();
  K->Name = DeviceName;
  K->HostFun = HostFun;
  K->Mod = M;
  M->Kernels.push_back(K.get());
  P->ByHostFun[HostFun] = K.get();
  P->KernelHandles.insert(K.get());
  P->Kernels.push_back(std::move(K));
}

void Runtime::registerVar(void **Handle, const void *HostVar,
                          const char *DeviceName, size_t Size, bool Constant) {
  Module *M = moduleOf(Handle);
  if (!M || !HostVar || !DeviceName) {
    CUHIP_ERROR("__cudaRegisterVar called with an invalid handle");
    return;
  }
  std::lock_guard<std::mutex> G(P->RegLock);
  P->ByHostVar[HostVar] = {M, DeviceName, Size, Constant};
}

void Runtime::registerManagedVar(void **Handle, void **HostVarPtr,
                                 const char *DeviceName, size_t Size) {
  registerVar(Handle, HostVarPtr, DeviceName, Size, /*Constant=*/false);
  if (Module *M = moduleOf(Handle); M && HostVarPtr && DeviceName) {
    std::lock_guard<std::mutex> G(P->RegLock);
    P->ManagedVars[M].push_back(HostVarPtr);
  }
}

Status Runtime::initModule(void **Handle) {
  Module *M = moduleOf(Handle);
  if (!M)
    return record(cudaErrorInvalidResourceHandle);
  std::vector<void **> Managed;
  {
    std::lock_guard<std::mutex> G(P->RegLock);
    auto It = P->ManagedVars.find(M);
    if (It != P->ManagedVars.end())
      Managed = It->second;
  }
  // Device memory is host memory on the CPU backend, so the host pointer
  // is the variable itself; symbolAddress loads the module first.
  for (void **HostVarPtr : Managed) {
    void *Address = nullptr;
    if (Status S = symbolAddress(HostVarPtr, &Address, nullptr))
      return S;
    *HostVarPtr = Address;
  }
  return cudaSuccess;
}

Status Runtime::symbolAddress(const void *Symbol, void **DevPtr, size_t *Size) {
  if (Status S = P->deviceStatus())
    return record(S);
  Impl::Variable V;
  bool Managed = false;
  {
    std::lock_guard<std::mutex> G(P->RegLock);
    auto It = P->ByHostVar.find(Symbol);
    if (!Symbol || It == P->ByHostVar.end())
      return record(cudaErrorInvalidSymbol);
    V = It->second;
    auto M = P->ManagedVars.find(V.Mod);
    if (M != P->ManagedVars.end())
      for (void **HostVarPtr : M->second)
        Managed |= HostVarPtr == Symbol;
  }
  if (Status S = P->ensureLoaded(*V.Mod)) {
    CUHIP_ERROR("device variable '%s': its module %s does not load: %s",
                V.Name.c_str(), V.Mod->DisplayName.c_str(), statusName(S));
    return record(S);
  }
  if (HipBackend *Hip = P->hip()) {
    if (Managed) {
      // The kernels address a __managed__ variable in place, in the code
      // object's device memory, which the host cannot dereference; CUDA's
      // managed semantics would need the variable lowered to a pointer to
      // hipMallocManaged memory, which the AMDGPU target does not do.
      CUHIP_ERROR("__managed__ variable '%s' is not supported on the HIP "
                  "backend (use CUHIP_BACKEND=cpu)",
                  V.Name.c_str());
      return record(cudaErrorNotSupported);
    }
    void *Addr = nullptr;
    size_t Bytes = 0;
    Status S =
        Hip->moduleGetGlobal(V.Mod->HipModule, V.Name.c_str(), &Addr, &Bytes);
    if (S == cudaErrorSymbolNotFound) {
      CUHIP_ERROR("device variable '%s' is not defined in %s", V.Name.c_str(),
                  V.Mod->DisplayName.c_str());
      return record(cudaErrorInvalidSymbol);
    }
    if (S)
      return record(S);
    P->noteHipVariable(Addr, Bytes);
    if (DevPtr)
      *DevPtr = Addr;
    if (Size)
      *Size = V.Size;
    return cudaSuccess;
  }
  for (const ptx::host::ModuleVariable &MV : V.Mod->Variables)
    if (MV.Name == V.Name) {
      if (DevPtr)
        *DevPtr = MV.Address;
      if (Size)
        *Size = V.Size;
      return cudaSuccess;
    }
  CUHIP_ERROR("device variable '%s' is not defined in %s", V.Name.c_str(),
              V.Mod->DisplayName.c_str());
  return record(cudaErrorInvalidSymbol);
}

void Runtime::registerFatBinaryEnd(void **Handle) {
  if (Module *M = moduleOf(Handle))
    CUHIP_TRACE("%s: %zu kernels registered", M->DisplayName.c_str(),
                M->Kernels.size());
}

void Runtime::unregisterFatBinary(void **Handle) {
  // Compiled code stays mapped until exit: kernels of other modules may
  // still be running in destructors, and the JIT owns the memory anyway.
  if (Module *M = moduleOf(Handle))
    CUHIP_TRACE("unregistered %s", M->DisplayName.c_str());
}

//===----------------------------------------------------------------------===//
// Module loading
//===----------------------------------------------------------------------===//

static void dumpFile(const std::string &Dir, const std::string &Name,
                     const std::string &Text) {
  std::string Path = Dir + "/" + Name;
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
  if (!Out)
    CUHIP_WARN("CUHIP_DUMP_DIR: cannot write %s", Path.c_str());
  else
    CUHIP_INFO("wrote %s", Path.c_str());
}

/// The NN of the PTX's `.target sm_NN[a|f]` directive, 0 if there is none.
static unsigned ptxTargetSm(const std::string &Ptx) {
  size_t At = Ptx.find(".target");
  if (At == std::string::npos)
    return 0;
  At = Ptx.find("sm_", At);
  if (At == std::string::npos)
    return 0;
  return unsigned(std::strtoul(Ptx.c_str() + At + 3, nullptr, 10));
}

Status Runtime::Impl::ensureLoaded(Module &M) {
  std::lock_guard<std::mutex> G(M.LoadLock);
  if (M.State == Module::Loaded)
    return cudaSuccess;
  if (M.State == Module::Failed)
    return M.FailStatus;
  auto fail = [&](Status S) {
    M.State = Module::Failed;
    M.FailStatus = S;
    M.PtxText.clear();
    M.PtxText.shrink_to_fit();
    return S;
  };
  if (!M.RegistrationError.empty()) {
    // A corrupt fatbin was reported when it was registered; a fatbin without
    // usable PTX only matters now that one of its kernels is launched.
    if (M.RegistrationStatus != cudaErrorInvalidKernelImage)
      CUHIP_ERROR("%s", M.RegistrationError.c_str());
    return fail(M.RegistrationStatus);
  }
  M.TargetSm = ptxTargetSm(M.PtxText);
  const char *DumpDir = std::getenv("CUHIP_DUMP_DIR");
  if (DumpDir && *DumpDir)
    dumpFile(DumpDir, M.DisplayName, M.PtxText);

  HipBackend *Hip = hip();
  auto installHost = [&](std::vector<ptx::host::CompiledKernel> Compiled) {
    M.Compiled = std::move(Compiled);
    {
      std::lock_guard<std::mutex> G(MemLock);
      for (const ptx::host::ModuleVariable &V : M.Variables)
        Statics[reinterpret_cast<uintptr_t>(V.Address)] = V.Size;
    }
    for (Kernel *K : M.Kernels)
      for (const auto &C : M.Compiled)
        if (C.Info.Name == K->Name)
          K->Compiled = &C;
    M.PtxText.clear();
    M.PtxText.shrink_to_fit();
    M.State = Module::Loaded;
  };
  // The compile cache skips parsing, so only a miss reports PTX errors (a
  // module that failed is never cached). With CUHIP_DUMP_DIR the IR is
  // wanted, so the module is compiled.
  if (!Hip && !(DumpDir && *DumpDir))
    if (ptx::host::HostCompiler *HC = compiler())
      if (auto Cached =
              HC->loadCached(M.PtxText, M.DisplayName, &M.Variables)) {
        CUHIP_INFO("%s: %zu kernels loaded from the compile cache",
                   M.DisplayName.c_str(), Cached->size());
        installHost(std::move(*Cached));
        return cudaSuccess;
      }
  if (Hip) {
    // The AMDGPU pipeline parses and lowers the PTX itself, and keeps code
    // objects in the compile cache.
    CUHIP_INFO("compiling %s for %s", M.DisplayName.c_str(),
               Hip->arch().c_str());
    static std::once_flag MemcheckWarning;
    if (Memcheck)
      std::call_once(MemcheckWarning, [] {
        CUHIP_WARN("CUHIP_MEMCHECK: memcheck mode is only available on the "
                   "CPU backend (CUHIP_BACKEND=cpu); kernels run unchecked");
      });
    std::string Msg;
    if (Status S = Hip->loadModule(M.PtxText, M.DisplayName,
                                   ptx::host::compileCacheDirectory(),
                                   M.HipKernels, &M.HipModule, Msg)) {
      CUHIP_ERROR("%s", Msg.c_str());
      return fail(S);
    }
    for (Kernel *K : M.Kernels)
      for (const HipKernel &HK : M.HipKernels)
        if (HK.Info.Name == K->Name)
          K->Hip = &HK;
    M.PtxText.clear();
    M.PtxText.shrink_to_fit();
    M.State = Module::Loaded;
    return cudaSuccess;
  }
  CUHIP_INFO("compiling %s for the CPU backend", M.DisplayName.c_str());
  ptx::DiagnosticEngine Diags(M.DisplayName);
  auto report = [&] {
    for (const auto &D : Diags.diagnostics()) {
      if (D.Sev == ptx::Severity::Note &&
          D.Message.find(" is left out: ") != std::string::npos)
        M.LeftOut += (M.LeftOut.empty() ? "" : "; ") + D.Message;
      if (D.Sev == ptx::Severity::Error)
        CUHIP_ERROR("%s", Diags.format(D).c_str());
      else
        CUHIP_DEBUG("%s", Diags.format(D).c_str());
      if (M.Diagnostics)
        *M.Diagnostics += Diags.format(D) + "\n";
    }
  };
  auto Ctx = std::make_unique<llvm::LLVMContext>();
  ptx::LowerOptions LowerOpts;
  LowerOpts.SourceLines = Memcheck; // memcheck reports name the PTX line
  // One module, or the units of an -rdc program or cuLink* linked together.
  std::vector<std::string> Roots;
  if (M.LinkRegisteredOnly) {
    std::lock_guard<std::mutex> G(RegLock);
    for (const Kernel *K : M.Kernels)
      Roots.push_back(K->Name);
    for (const auto &[HostVar, V] : ByHostVar)
      if (V.Mod == &M)
        Roots.push_back(V.Name);
  }
  std::optional<ptx::LoweredModule> Lowered = ptx::parseAndLower(
      M.PtxText, M.DisplayName, *Ctx, Diags, LowerOpts,
      M.LinkRegisteredOnly ? &Roots : nullptr);
  report();
  if (!Lowered)
    return fail(cudaErrorInvalidPtx);
  if (DumpDir && *DumpDir) {
    std::string IR;
    llvm::raw_string_ostream OS(IR);
    Lowered->IR->print(OS, nullptr);
    dumpFile(DumpDir, M.DisplayName + ".ll", OS.str());
  }
  ptx::host::HostCompiler *HC = compiler();
  if (!HC) {
    CUHIP_ERROR("%s: cannot start the JIT: %s", M.DisplayName.c_str(),
                CompilerError.c_str());
    return fail(cudaErrorJitCompilerNotFound);
  }
  auto CompileStart = std::chrono::steady_clock::now();
  M.Variables.clear(); // what a compile cache entry that did not load left
  auto Compiled = HC->compile(std::move(Ctx), std::move(*Lowered),
                              M.DisplayName, M.PtxText, &M.Variables);
  if (!Compiled) {
    CUHIP_ERROR("%s: %s", M.DisplayName.c_str(),
                llvm::toString(Compiled.takeError()).c_str());
    return fail(cudaErrorInvalidPtx);
  }
  installHost(std::move(*Compiled));
  CUHIP_INFO("%s: %zu kernels compiled in %.1f ms", M.DisplayName.c_str(),
             M.Compiled.size(),
             std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - CompileStart)
                 .count());
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Explicitly loaded modules
//===----------------------------------------------------------------------===//

Status Runtime::loadModuleData(const void *Image, size_t Size,
                               const std::string &Name, Module **Out,
                               std::string *Diagnostics) {
  if (!Image || !Out)
    return record(cudaErrorInvalidValue);
  *Out = nullptr;
  if (Status S = P->deviceStatus())
    return record(S);
  auto M = std::make_unique<Module>();
  const uint8_t *Bytes = static_cast<const uint8_t *>(Image);
  uint32_t Magic = 0;
  if (Size == 0 || Size >= 4)
    std::memcpy(&Magic, Bytes, 4);
  if (Magic == fatbin::ContainerMagic) {
    fatbin::Container C;
    std::string Err;
    if (!fatbin::parseContainer(Image, Size ? Size : SIZE_MAX, C, Err)) {
      CUHIP_ERROR("%s: %s", Name.c_str(), Err.c_str());
      return record(cudaErrorInvalidKernelImage);
    }
    const fatbin::Entry *E = fatbin::choosePtx(
        C,
        [](const fatbin::Entry &E) {
          return ptx::isSupportedPtxVersion(E.IsaMajor, E.IsaMinor);
        },
        ReportedSm);
    if (!E) {
      CUHIP_ERROR("%s: the fatbin holds no PTX that cuhip accepts", Name.c_str());
      return record(cudaErrorNoKernelImageForDevice);
    }
    if (!fatbin::decompressPayload(*E, M->PtxText, Err)) {
      CUHIP_ERROR("%s: %s", Name.c_str(), Err.c_str());
      return record(cudaErrorInvalidKernelImage);
    }
    M->Sm = E->Sm;
  } else {
    size_t Len = Size;
    if (Len == 0)
      Len = std::strlen(static_cast<const char *>(Image));
    M->PtxText.assign(static_cast<const char *>(Image), Len);
    while (!M->PtxText.empty() && M->PtxText.back() == 0)
      M->PtxText.pop_back();
  }
  M->DisplayName = Name;
  M->Handle = M.get();
  M->LinkRegisteredOnly = LoadingLinkedImage;
  M->Diagnostics = Diagnostics;
  Status Loaded = P->ensureLoaded(*M);
  M->Diagnostics = nullptr;
  if (Loaded)
    return record(Loaded);
  std::lock_guard<std::mutex> G(P->RegLock);
  P->LoadedModules.insert(M.get());
  M->Index = P->NextModule++;
  for (const auto &C : M->Compiled) {
    auto K = std::make_unique<Kernel>();
    K->Name = C.Info.Name;
    K->Mod = M.get();
    K->Compiled = &C;
    M->Kernels.push_back(K.get());
    P->KernelHandles.insert(K.get());
    P->Kernels.push_back(std::move(K));
  }
  for (const HipKernel &HK : M->HipKernels) {
    auto K = std::make_unique<Kernel>();
    K->Name = HK.Info.Name;
    K->Mod = M.get();
    K->Hip = &HK;
    M->Kernels.push_back(K.get());
    P->KernelHandles.insert(K.get());
    P->Kernels.push_back(std::move(K));
  }
  *Out = M.get();
  P->Modules.push_back(std::move(M));
  return cudaSuccess;
}

Status Runtime::loadLinkedModule(const std::vector<fatbin::Container> &Units,
                                 const std::string &Name, Module **Out,
                                 std::string *Diagnostics) {
  if (!Out)
    return record(cudaErrorInvalidValue);
  *Out = nullptr;
  std::string Ptx, Why;
  unsigned Sm = 0;
  if (Status S = joinPrelinkedPtx(Units, Name, Ptx, Sm, Why)) {
    CUHIP_ERROR("%s: %s", Name.c_str(), Why.c_str());
    if (Diagnostics)
      *Diagnostics += Why + "\n";
    return record(S);
  }
  LoadingLinkedImage = true;
  Status S = loadModuleData(Ptx.data(), Ptx.size(), Name, Out, Diagnostics);
  LoadingLinkedImage = false;
  return S;
}

Status Runtime::linkPtx(
    const std::vector<std::pair<std::string, std::string>> &Units,
    std::string &Image, std::string &Log) {
  std::vector<ptx::LinkUnit> LinkUnits;
  for (const auto &[Name, Text] : Units)
    LinkUnits.push_back({Name, Text});
  std::string Joined = ptx::joinLinkUnits(LinkUnits);
  // Lowering is what finds link errors; the module itself is built again
  // when the image is loaded.
  llvm::LLVMContext Ctx;
  ptx::DiagnosticEngine Diags("linked PTX");
  std::optional<ptx::LoweredModule> Lowered =
      ptx::parseAndLower(Joined, "linked PTX", Ctx, Diags);
  for (const auto &D : Diags.diagnostics())
    if (D.Sev == ptx::Severity::Error)
      Log += Diags.format(D) + "\n";
  if (!Lowered)
    return record(cudaErrorInvalidPtx);
  Image = std::move(Joined);
  return cudaSuccess;
}

Status Runtime::moduleGetFunction(Module *M, const char *Name, Kernel **Out) {
  if (!M || !Name || !Out)
    return record(cudaErrorInvalidValue);
  if (!isModuleHandle(M))
    return record(cudaErrorInvalidResourceHandle);
  for (Kernel *K : M->Kernels)
    if (K->Name == Name) {
      *Out = K;
      return cudaSuccess;
    }
  *Out = nullptr;
  return record(cudaErrorSymbolNotFound);
}

Status Runtime::moduleGetGlobal(Module *M, const char *Name, void **DevPtr,
                                size_t *Size, bool Managed) {
  if (!M || !Name)
    return record(cudaErrorInvalidValue);
  if (!isModuleHandle(M))
    return record(cudaErrorInvalidResourceHandle);
  // loadModuleData compiled the module, which placed its variables; a
  // module that failed to compile was never handed out.
  if (Status S = P->ensureLoaded(*M))
    return record(S);
  if (HipBackend *Hip = P->hip()) {
    if (Managed) {
      // As in symbolAddress: the host cannot reach the code object's copy.
      CUHIP_ERROR("__managed__ variable '%s' is not supported on the HIP "
                  "backend (use CUHIP_BACKEND=cpu)",
                  Name);
      return record(cudaErrorNotSupported);
    }
    void *Addr = nullptr;
    size_t Bytes = 0;
    if (Status S = Hip->moduleGetGlobal(M->HipModule, Name, &Addr, &Bytes))
      return record(S);
    P->noteHipVariable(Addr, Bytes);
    if (DevPtr)
      *DevPtr = Addr;
    if (Size)
      *Size = Bytes;
    return cudaSuccess;
  }
  for (const ptx::host::ModuleVariable &MV : M->Variables)
    if (MV.Name == Name) {
      if (DevPtr)
        *DevPtr = MV.Address;
      if (Size)
        *Size = size_t(MV.Size);
      return cudaSuccess;
    }
  return record(cudaErrorSymbolNotFound);
}

bool Runtime::isModuleHandle(const Module *M) {
  std::lock_guard<std::mutex> G(P->RegLock);
  return P->LoadedModules.count(M) != 0;
}

Status Runtime::unloadModule(Module *M) {
  std::lock_guard<std::mutex> G(P->RegLock);
  if (!P->LoadedModules.erase(M))
    return record(cudaErrorInvalidResourceHandle);
  // The compiled code stays: a launch already enqueued on another thread may
  // still run it. Only the handles die.
  for (Kernel *K : M->Kernels)
    P->KernelHandles.erase(K);
  return cudaSuccess;
}

Status Runtime::moduleKernels(Module *M, std::vector<Kernel *> *Out) {
  if (!M || !Out)
    return record(cudaErrorInvalidValue);
  if (!isModuleHandle(M))
    return record(cudaErrorInvalidResourceHandle);
  *Out = M->Kernels;
  return cudaSuccess;
}

Status Runtime::kernelSummary(Kernel *K, KernelSummary *Out) {
  if (!K || !Out)
    return record(cudaErrorInvalidValue);
  if (!isKernelHandle(K))
    return record(cudaErrorInvalidResourceHandle);
  if (Status S = P->ensureLoaded(*K->Mod))
    return record(S);
  const ptx::KernelInfo *Info = K->Hip ? &K->Hip->Info
                                : K->Compiled ? &K->Compiled->Info
                                              : nullptr;
  if (!Info)
    return record(cudaErrorInvalidDeviceFunction);
  Out->Name = K->Name;
  Out->StaticSharedBytes = Info->StaticSharedBytes;
  Out->ParamBufferSize = Info->ParamBufferSize;
  Out->Params.clear();
  for (const ptx::KernelParamInfo &PI : Info->Params)
    Out->Params.push_back({uint32_t(PI.Offset), uint32_t(PI.Size)});
  unsigned Max = unsigned(P->Device.MaxThreadsPerBlock);
  for (const unsigned *Dims : {Info->ReqNTid, Info->MaxNTid})
    if (Dims[0]) {
      unsigned N = Dims[0] * (Dims[1] ? Dims[1] : 1) * (Dims[2] ? Dims[2] : 1);
      Max = std::min(Max, N);
    }
  Out->MaxThreadsPerBlock = Max;
  Out->PtxSm = K->Mod->Sm;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Stream queues (CPU backend)
//===----------------------------------------------------------------------===//

namespace {
/// Errors of a kernel that leave the context unusable, as on a GPU.
bool isKernelFault(Status S) {
  return S == cudaErrorLaunchFailure || S == cudaErrorIllegalAddress ||
         S == cudaErrorAssert || S == cudaErrorIllegalInstruction ||
         S == cudaErrorMisalignedAddress;
}

/// The calling thread's default stream (cudaStreamPerThread): a blocking
/// stream of its own, whose queue ends with the thread.
struct PerThreadQueue {
  std::shared_ptr<WorkQueue> Queue;
  QueueSet *Owner = nullptr;
  ~PerThreadQueue() {
    if (Queue)
      Owner->retire(Queue);
  }
};
thread_local PerThreadQueue PerThreadStream;

/// Work given as a function: copies, memsets, host functions, markers.
struct FunctionWork final : QueuedWork {
  std::function<void()> Fn;
  bool RunsAfterFault = false;
  void run() override {
    // After a fault the device runs nothing more, except the stream
    // callbacks that are told about it.
    if (Fn && (RunsAfterFault || !Runtime::get().stickyError()))
      Fn();
  }
};

/// An event record's marker: stamps the time its stream reaches it. It
/// completes even after a fault, as the event would on a GPU.
struct MarkerWork final : QueuedWork {
  std::shared_ptr<EventMark> Mark;
  void run() override {
    Mark->WhenNs.store(std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count(),
                       std::memory_order_relaxed);
  }
};

/// A copy whose pageable source was copied aside when it was enqueued.
struct StagedCopyWork final : QueuedWork {
  void *Dst = nullptr;
  std::unique_ptr<uint8_t[]> Staged;
  size_t Bytes = 0;
  void run() override {
    if (!Runtime::get().stickyError())
      std::memcpy(Dst, Staged.get(), Bytes);
  }
};

// Larger pageable sources are copied in stream order with the host waiting,
// rather than doubling the memory they take.
constexpr size_t MaxStagedCopy = size_t(64) << 20;
} // namespace

/// A kernel launch whose arguments were checked and packed at the call.
struct Runtime::Impl::LaunchWork final : QueuedWork {
  explicit LaunchWork(Impl &P) : P(P) {}
  void run() override;

  Impl &P;
  const Kernel *K = nullptr;
  const ptx::host::CompiledKernel *C = nullptr;
  Dim3 Grid, Block;
  size_t SharedMem = 0;
  bool Cooperative = false;
  std::vector<uint8_t> Params; // the packed .param buffer, the launch's own
};

void Runtime::Impl::LaunchWork::run() {
  if (P.Sticky.load(std::memory_order_acquire))
    return; // an earlier kernel faulted: the context runs nothing more
  // Memcheck: the allocations live when the kernel starts, kept alive for
  // as long as it runs.
  std::shared_ptr<const MemSnapshot> Snapshot;
  ptx::host::MemcheckLaunch Check;
  if (P.Memcheck) {
    Snapshot = P.memSnapshot();
    Check.Live = Snapshot->Live.data();
    Check.NumLive = Snapshot->Live.size();
    Check.Freed = Snapshot->Freed.data();
    Check.NumFreed = Snapshot->Freed.size();
    Check.Params = Params.data();
    Check.ParamBytes = Params.size();
  }
  std::string Msg;
  // Timed only for the debug log: reading the clock is a good part of an
  // empty launch.
  bool Timed = logEnabled(LogLevel::Debug);
  std::chrono::steady_clock::time_point Start;
  if (Timed)
    Start = std::chrono::steady_clock::now();
  // Dynamic parallelism: what the grid's threads launch runs after it.
  DeviceLaunchEnv Env;
  Env.Resolve = [Mod = K->Mod](const void *Fn, Kernel **Out)
      -> const ptx::host::CompiledKernel * {
    for (const ptx::host::CompiledKernel &CK : Mod->Compiled)
      if (reinterpret_cast<const void *>(CK.Fn) == Fn) {
        *Out = nullptr;
        for (Kernel *KR : Mod->Kernels)
          if (KR->Compiled == &CK)
            *Out = KR;
        return &CK;
      }
    return nullptr;
  };
  // One pointer captured, so that making the launcher allocates nothing
  // (this runs on every launch, device-side ones or not).
  struct ParentGrid {
    Impl &P;
    const ptx::host::MemcheckLaunch *Check; // null outside memcheck mode
  } Parent{P, Snapshot ? &Check : nullptr};
  Env.Launch = [G = &Parent](const ptx::host::CompiledKernel &CK, Dim3 ChildGrid,
                             Dim3 ChildBlock, const void *Prm, size_t Shared,
                             ptx::host::DeviceRuntime *Runtime, std::string &M) {
    if (int S = G->P.Sticky.load(std::memory_order_acquire))
      return Status(S);
    ptx::host::MemcheckLaunch ChildCheck;
    if (G->Check) {
      ChildCheck.Live = G->Check->Live;
      ChildCheck.NumLive = G->Check->NumLive;
      ChildCheck.Freed = G->Check->Freed;
      ChildCheck.NumFreed = G->Check->NumFreed;
      ChildCheck.Params = Prm;
      ChildCheck.ParamBytes = CK.Info.ParamBufferSize;
    }
    return G->P.backend().launch(CK, ChildGrid, ChildBlock, Prm, Shared, false, M,
                                 G->Check ? &ChildCheck : nullptr, Runtime);
  };
  GridRuntime Device(Env, 0);
  Status S = P.backend().launch(*C, Grid, Block, Params.data(), SharedMem,
                                Cooperative, Msg, Snapshot ? &Check : nullptr,
                                &Device);
  if (S == cudaSuccess)
    S = Device.runQueued(Msg);
  if (S != cudaSuccess) {
    CUHIP_ERROR("%s", Msg.c_str());
    P.workFailed(S);
    return;
  }
  if (Timed)
    CUHIP_DEBUG("ran %s grid (%u,%u,%u) block (%u,%u,%u) in %.3f ms",
                K->Name.c_str(), Grid.X, Grid.Y, Grid.Z, Block.X, Block.Y,
                Block.Z,
                std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - Start)
                    .count());
}

std::shared_ptr<WorkQueue> Runtime::Impl::defaultQueue(uintptr_t Handle) {
  if (Handle != 2)
    return Queues.legacy();
  PerThreadQueue &T = PerThreadStream;
  if (!T.Queue) {
    T.Owner = &Queues;
    T.Queue = Queues.create(QueueKind::Blocking);
  }
  return T.Queue;
}

uint64_t Runtime::Impl::enqueue(const std::shared_ptr<WorkQueue> &Q,
                                std::unique_ptr<QueuedWork> W,
                                std::vector<QueuePoint> After) {
  // Registered at the first operation, after the program's start-up
  // registrations, so it runs before their exit handlers.
  std::call_once(ExitHandlerOnce, [] { std::atexit(&stopQueuesAtExit); });
  return Queues.enqueue(Q, std::move(W), std::move(After));
}

Status Runtime::Impl::enqueueFunction(const std::shared_ptr<WorkQueue> &Q,
                                      std::function<void()> Fn, bool Wait,
                                      bool RunsAfterFault) {
  auto W = std::make_unique<FunctionWork>();
  W->Fn = std::move(Fn);
  W->RunsAfterFault = RunsAfterFault;
  uint64_t Ticket = enqueue(Q, std::move(W));
  if (!Wait)
    return cudaSuccess;
  Q->waitFor(Ticket);
  return waitOutcome();
}

/// CUDA copies pageable host memory through a staging buffer: a pageable
/// source may be reused as soon as the call returns, and a pageable
/// destination holds the data when it returns. So a pageable source is
/// copied aside at the call and the copy queued; a pageable destination
/// (or a very large pageable source) is copied in the stream's order while
/// the host waits. Copies between device, page-locked and managed memory
/// are asynchronous.
Status Runtime::Impl::copyAsync(Runtime &R, const std::shared_ptr<WorkQueue> &Q,
                                void *Dst, const void *Src, size_t Bytes) {
  bool SrcPageable = !R.isDeviceRange(Src, Bytes);
  bool DstPageable = !R.isDeviceRange(Dst, Bytes);
  if (SrcPageable && !DstPageable && Bytes <= MaxStagedCopy) {
    auto W = std::make_unique<StagedCopyWork>();
    W->Staged.reset(new (std::nothrow) uint8_t[Bytes]);
    if (W->Staged) {
      std::memcpy(W->Staged.get(), Src, Bytes);
      W->Dst = Dst;
      W->Bytes = Bytes;
      enqueue(Q, std::move(W));
      return cudaSuccess;
    }
  }
  return enqueueFunction(
      Q, [=] { std::memmove(Dst, Src, Bytes); }, SrcPageable || DstPageable);
}

void Runtime::Impl::workFailed(Status S) {
  std::atomic<int> &Slot = isKernelFault(S) ? Sticky : AsyncError;
  int Expected = cudaSuccess;
  Slot.compare_exchange_strong(Expected, S);
}

void Runtime::Impl::stopQueuesAtExit() {
  // CUDA finishes nothing at exit that the program did not wait for: work
  // not started is dropped, running kernels stop after their current
  // blocks, and exit goes on after a short grace even if one does not (a
  // kernel still waiting for a flag the program never set).
  Impl *P = Runtime::get().P;
  P->Queues.stop();
  CpuBackend::cancelRunningLaunches();
  P->Queues.awaitRunning(std::chrono::milliseconds(1000));
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

Status Runtime::pushCallConfiguration(Dim3 Grid, Dim3 Block, size_t SharedMem,
                                      void *Stream) {
  ConfigStack.push_back({Grid, Block, SharedMem, Stream});
  return cudaSuccess;
}

Status Runtime::popCallConfiguration(Dim3 *Grid, Dim3 *Block,
                                     size_t *SharedMem, void **Stream) {
  if (ConfigStack.empty())
    return record(cudaErrorMissingConfiguration);
  CallConfig C = ConfigStack.back();
  ConfigStack.pop_back();
  if (Grid)
    *Grid = C.Grid;
  if (Block)
    *Block = C.Block;
  if (SharedMem)
    *SharedMem = C.SharedMem;
  if (Stream)
    *Stream = C.Stream;
  return cudaSuccess;
}

Kernel *Runtime::kernelForHostFunction(const void *HostFun) {
  std::lock_guard<std::mutex> G(P->RegLock);
  auto It = P->ByHostFun.find(HostFun);
  return It == P->ByHostFun.end() ? nullptr : It->second;
}

bool Runtime::isKernelHandle(const void *K) {
  std::lock_guard<std::mutex> G(P->RegLock);
  return P->KernelHandles.count(K) != 0;
}

/// Blocks of Threads threads using SharedBytes of shared memory that one
/// multiprocessor of the CPU backend keeps resident, by CUDA's rules for
/// block count, threads (in whole warps) and shared memory. Registers do not
/// limit it: a resident block is a fiber whose thread state lives in memory.
static int cpuResidentBlocks(const DeviceInfo &D, uint64_t Threads,
                             size_t SharedBytes) {
  if (!Threads || Threads > uint64_t(D.MaxThreadsPerBlock) ||
      SharedBytes > D.SharedMemPerBlockOptin)
    return 0;
  uint64_t Warps = (Threads + D.WarpSize - 1) / D.WarpSize;
  uint64_t N =
      std::min<uint64_t>(D.MaxBlocksPerMultiProcessor,
                         D.MaxThreadsPerMultiProcessor / (Warps * D.WarpSize));
  if (SharedBytes)
    N = std::min<uint64_t>(N, D.SharedMemPerMultiprocessor / SharedBytes);
  return int(N);
}

Status Runtime::maxActiveBlocksPerMultiprocessor(Kernel *K, int BlockSize,
                                                 size_t DynamicShared,
                                                 int *Blocks) {
  if (Status S = P->deviceStatus())
    return record(S);
  if (!Blocks || BlockSize <= 0)
    return record(cudaErrorInvalidValue);
  if (!K)
    return record(cudaErrorInvalidDeviceFunction);
  if (P->hip()) {
    CUHIP_ERROR("occupancy of '%s': not implemented for the HIP backend",
                K->Name.c_str());
    return record(cudaErrorNotSupported);
  }
  if (Status S = P->ensureLoaded(*K->Mod))
    return record(S);
  if (!K->Compiled)
    return record(cudaErrorInvalidDeviceFunction);
  *Blocks =
      cpuResidentBlocks(P->Device, uint64_t(BlockSize),
                        K->Compiled->Info.StaticSharedBytes + DynamicShared);
  return cudaSuccess;
}

Status Runtime::maxPotentialBlockSize(Kernel *K, size_t (*SharedForBlock)(int),
                                      size_t DynamicShared, int BlockSizeLimit,
                                      int *MinGridSize, int *BlockSize) {
  if (!MinGridSize || !BlockSize || BlockSizeLimit < 0)
    return record(cudaErrorInvalidValue);
  KernelAttributes A;
  if (Status S = kernelAttributes(K, &A))
    return S;
  const DeviceInfo &D = deviceInfo(0);
  int Limit = A.MaxThreadsPerBlock > 0 ? A.MaxThreadsPerBlock
                                       : D.MaxThreadsPerBlock;
  if (BlockSizeLimit > 0)
    Limit = std::min(Limit, BlockSizeLimit);
  int Warp = D.WarpSize > 0 ? D.WarpSize : 32;
  int BestBlocks = 0, BestSize = 0;
  long BestThreads = 0;
  // From the limit rounded up to a whole warp, down a warp at a time; the
  // first size tried is the limit itself.
  for (int Aligned = (Limit + Warp - 1) / Warp * Warp; Aligned > 0;
       Aligned -= Warp) {
    int Size = std::min(Limit, Aligned);
    size_t Shared = SharedForBlock ? SharedForBlock(Size) : DynamicShared;
    int Blocks = 0;
    if (Status S = maxActiveBlocksPerMultiprocessor(K, Size, Shared, &Blocks))
      return S;
    if (long(Blocks) * Size > BestThreads) {
      BestThreads = long(Blocks) * Size;
      BestBlocks = Blocks;
      BestSize = Size;
    }
    if (BestThreads >= D.MaxThreadsPerMultiProcessor)
      break; // nothing smaller can keep more threads resident
  }
  *BlockSize = BestSize;
  *MinGridSize = BestBlocks * D.MultiProcessorCount;
  return cudaSuccess;
}

/// The dynamic shared memory a launch of K may ask for: SharedMemPerBlock
/// less the static part, unless cudaFuncSetAttribute raised it.
static int maxDynamicShared(const Kernel &K, const ptx::KernelInfo &Info,
                            const DeviceInfo &D) {
  int Set = K.MaxDynamicShared.load(std::memory_order_relaxed);
  if (Set >= 0)
    return Set;
  return int(D.SharedMemPerBlock > Info.StaticSharedBytes
                 ? D.SharedMemPerBlock - Info.StaticSharedBytes
                 : 0);
}

Status Runtime::launch(Kernel *K, Dim3 Grid, Dim3 Block, void **Args,
                       size_t SharedMem, void *Stream, bool Cooperative) {
  if (Status S = P->deviceStatus())
    return record(S);
  if (Status S = stickyError())
    return record(S);
  if (!K)
    return record(cudaErrorInvalidDeviceFunction);
  void *HipStream = nullptr;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue)) {
    CUHIP_ERROR("launch of '%s': %p is not a stream", K->Name.c_str(), Stream);
    return record(S);
  }
  const DeviceInfo &D = deviceInfo(0);
  uint64_t Threads = uint64_t(Block.X) * Block.Y * Block.Z;
  if (!Grid.X || !Grid.Y || !Grid.Z || !Block.X || !Block.Y || !Block.Z ||
      Threads > uint64_t(D.MaxThreadsPerBlock) ||
      Block.X > unsigned(D.MaxThreadsDim[0]) ||
      Block.Y > unsigned(D.MaxThreadsDim[1]) ||
      Block.Z > unsigned(D.MaxThreadsDim[2]) ||
      Grid.X > unsigned(D.MaxGridSize[0]) ||
      Grid.Y > unsigned(D.MaxGridSize[1]) ||
      Grid.Z > unsigned(D.MaxGridSize[2])) {
    CUHIP_DEBUG("launch of '%s': invalid configuration grid (%u,%u,%u) block "
                "(%u,%u,%u)",
                K->Name.c_str(), Grid.X, Grid.Y, Grid.Z, Block.X, Block.Y,
                Block.Z);
    return record(cudaErrorInvalidConfiguration);
  }
  if (Status S = P->ensureLoaded(*K->Mod)) {
    CUHIP_ERROR("launch of '%s' failed: %s (module %s)", K->Name.c_str(),
                statusName(S), K->Mod->DisplayName.c_str());
    return record(S);
  }
  HipBackend *Hip = P->hip();
  const ptx::host::CompiledKernel *C = K->Compiled;
  const ptx::KernelInfo *Info =
      Hip ? (K->Hip ? &K->Hip->Info : nullptr) : (C ? &C->Info : nullptr);
  if (!Info) {
    CUHIP_ERROR("kernel '%s' is not defined in %s%s%s", K->Name.c_str(),
                K->Mod->DisplayName.c_str(),
                K->Mod->LeftOut.empty() ? "" : ": ",
                K->Mod->LeftOut.c_str());
    return record(cudaErrorInvalidDeviceFunction);
  }
  if (SharedMem > size_t(maxDynamicShared(*K, *Info, D))) {
    CUHIP_ERROR("launch of '%s': %zu bytes of dynamic shared memory exceed "
                "the kernel's limit of %d (raise it with cudaFuncSetAttribute"
                "(cudaFuncAttributeMaxDynamicSharedMemorySize), up to %zu "
                "bytes in all)",
                K->Name.c_str(), SharedMem, maxDynamicShared(*K, *Info, D),
                D.SharedMemPerBlockOptin);
    return record(cudaErrorInvalidValue);
  }
  if (Info->StaticSharedBytes + SharedMem > D.SharedMemPerBlockOptin) {
    CUHIP_ERROR("launch of '%s': %zu bytes of shared memory exceed the limit "
                "of %zu",
                K->Name.c_str(), Info->StaticSharedBytes + SharedMem,
                D.SharedMemPerBlockOptin);
    return record(cudaErrorInvalidValue);
  }
  std::vector<uint8_t> Params(std::max<uint32_t>(Info->ParamBufferSize, 8));
  if (!Info->Params.empty() && !Args)
    return record(cudaErrorInvalidValue);
  for (size_t I = 0; I < Info->Params.size(); ++I) {
    const ptx::KernelParamInfo &PI = Info->Params[I];
    if (!Args[I])
      return record(cudaErrorInvalidValue);
    std::memcpy(Params.data() + PI.Offset, Args[I], PI.Size);
  }
  if (capture::anyActive() && !Cooperative) {
    NodeOp Op;
    Op.K = NodeOp::KernelLaunch;
    Op.Fn = K;
    Op.Grid = Grid;
    Op.Block = Block;
    Op.SharedMem = SharedMem;
    for (const ptx::KernelParamInfo &PI : Info->Params)
      Op.ParamOffsets.push_back(PI.Offset);
    Op.ParamBuffer = std::move(Params);
    bool Captured;
    Status S = capture::enqueue(Stream, std::move(Op), Captured);
    if (Captured)
      return record(S);
    Params = std::move(Op.ParamBuffer);
  }
  std::string Msg;
  if (Cooperative && !Hip) {
    // All blocks of a cooperative grid must be resident at once.
    uint64_t Blocks = uint64_t(Grid.X) * Grid.Y * Grid.Z;
    int PerMultiprocessor =
        cpuResidentBlocks(D, Threads, Info->StaticSharedBytes + SharedMem);
    uint64_t Limit = uint64_t(D.MultiProcessorCount) * PerMultiprocessor;
    if (Blocks > Limit) {
      CUHIP_ERROR("cooperative launch of '%s': %llu blocks, but at most %llu "
                  "can be resident (%d multiprocessors x %d blocks of %llu "
                  "threads and %zu bytes of shared memory); size the grid "
                  "with cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                  K->Name.c_str(), (unsigned long long)Blocks,
                  (unsigned long long)Limit, D.MultiProcessorCount,
                  PerMultiprocessor, (unsigned long long)Threads,
                  size_t(Info->StaticSharedBytes + SharedMem));
      return record(cudaErrorCooperativeLaunchTooLarge);
    }
  }
  if (!Hip) {
    // The arguments are the launch's own from here: the caller may change
    // its argument storage as soon as the call returns.
    auto W = std::make_unique<Impl::LaunchWork>(*P);
    W->K = K;
    W->C = C;
    W->Grid = Grid;
    W->Block = Block;
    W->SharedMem = SharedMem;
    W->Cooperative = Cooperative;
    W->Params = std::move(Params);
    P->enqueue(Queue, std::move(W));
    return cudaSuccess;
  }
  Status S = Hip->launch(*K->Hip, Grid, Block, Params.data(),
                         Info->ParamBufferSize, SharedMem, HipStream,
                         Cooperative, Msg);
  if (S != cudaSuccess) {
    CUHIP_ERROR("%s", Msg.c_str());
    // Faults inside a kernel leave the context unusable, as on a GPU.
    if (isKernelFault(S))
      P->Sticky.store(S);
    return record(S);
  }
  CUHIP_DEBUG("enqueued %s grid (%u,%u,%u) block (%u,%u,%u)", K->Name.c_str(),
              Grid.X, Grid.Y, Grid.Z, Block.X, Block.Y, Block.Z);
  return cudaSuccess;
}

Status Runtime::packKernelArgs(Kernel *K, void **Args,
                               std::vector<uint8_t> &Buffer,
                               std::vector<uint32_t> &Offsets) {
  if (Status S = P->deviceStatus())
    return record(S);
  if (!K || !isKernelHandle(K))
    return record(cudaErrorInvalidDeviceFunction);
  if (Status S = P->ensureLoaded(*K->Mod))
    return record(S);
  const ptx::KernelInfo *Info =
      P->hip() ? (K->Hip ? &K->Hip->Info : nullptr)
               : (K->Compiled ? &K->Compiled->Info : nullptr);
  if (!Info)
    return record(cudaErrorInvalidDeviceFunction);
  if (!Info->Params.empty() && !Args)
    return record(cudaErrorInvalidValue);
  Buffer.assign(std::max<uint32_t>(Info->ParamBufferSize, 8), 0);
  Offsets.clear();
  for (size_t I = 0; I < Info->Params.size(); ++I) {
    const ptx::KernelParamInfo &PI = Info->Params[I];
    if (!Args[I])
      return record(cudaErrorInvalidValue);
    std::memcpy(Buffer.data() + PI.Offset, Args[I], PI.Size);
    Offsets.push_back(PI.Offset);
  }
  return cudaSuccess;
}

Status packKernelArgs(Kernel *K, void **Args, NodeOp &Op) {
  Op.Fn = K;
  return Runtime::get().packKernelArgs(K, Args, Op.ParamBuffer,
                                       Op.ParamOffsets);
}

const char *kernelName(const Kernel *K) {
  return K ? K->Name.c_str() : "(null)";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Status Runtime::malloc(void **Ptr, size_t Bytes) {
  if (!Ptr)
    return record(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Status S = P->deviceStatus())
    return record(S);
  if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/false))
    return record(S);
  if (Bytes == 0)
    return cudaSuccess;
  if (Status S = stickyError())
    return record(S);
  if (HipBackend *Hip = P->hip()) {
    if (Status S = Hip->malloc(Ptr, Bytes))
      return record(S);
    std::lock_guard<std::mutex> G(P->MemLock);
    P->Allocations[reinterpret_cast<uintptr_t>(*Ptr)] = Bytes;
    return cudaSuccess;
  }
  // From the device arena, never the C heap: a kernel that writes past its
  // buffer must not reach the heap's bookkeeping or the program's memory.
  void *Mem = deviceArena().allocate(Bytes);
  if (!Mem)
    return record(cudaErrorMemoryAllocation);
  {
    std::lock_guard<std::mutex> G(P->MemLock);
    P->Allocations[reinterpret_cast<uintptr_t>(Mem)] = Bytes;
    ++P->MemGeneration;
  }
  *Ptr = Mem;
  return cudaSuccess;
}

Status Runtime::free(void *Ptr) {
  if (!Ptr)
    return cudaSuccess;
  if (Status S = P->deviceStatus())
    return record(S);
  // cudaFree waits for the device, so it is unsafe during capture.
  if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/false))
    return record(S);
  // Queued work may still use the memory; a fault it makes is reported
  // instead of freeing, as before any other use of a faulted context.
  if (!P->hip()) {
    P->Queues.waitAll();
    if (Status S = stickyError())
      return record(S);
  }
  switch (decideFree(*this, Ptr)) {
  case FreeDecision::Refuse:
    CUHIP_DEBUG("cudaFree(%p): host memory, not a device allocation", Ptr);
    return record(cudaErrorInvalidValue);
  case FreeDecision::Done:
    return cudaSuccess;
  case FreeDecision::CloseShared:
    return ipcCloseMemHandle(Ptr);
  case FreeDecision::Release:
    break;
  }
  return CoreAccess::release(*this, Ptr);
}

Status CoreAccess::release(Runtime &R, void *Ptr) {
  Runtime::Impl *P = R.P;
  size_t Bytes;
  {
    std::lock_guard<std::mutex> G(P->MemLock);
    auto It = P->Allocations.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It == P->Allocations.end()) {
      CUHIP_DEBUG("cudaFree(%p): not the start of an allocation", Ptr);
      return R.record(cudaErrorInvalidValue);
    }
    if (P->External.count(It->first)) {
      CUHIP_DEBUG("cudaFree(%p): memory the driver API mapped", Ptr);
      return R.record(cudaErrorInvalidValue);
    }
    Bytes = It->second;
    P->Allocations.erase(It);
    ++P->MemGeneration;
    if (P->Memcheck) {
      P->RecentlyFreed.push_back({reinterpret_cast<uint64_t>(Ptr), Bytes});
      if (P->RecentlyFreed.size() > Runtime::Impl::MaxRecentlyFreed)
        P->RecentlyFreed.pop_front();
    }
  }
  if (HipBackend *Hip = P->hip())
    return R.record(Hip->free(Ptr));
  if (!deviceArena().release(Ptr)) {
    CUHIP_ERROR("cudaFree(%p): the allocation table and the device arena "
                "disagree",
                Ptr);
    return R.record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

HipBackend *CoreAccess::hip(Runtime &R) { return R.P->hip(); }

Status CoreAccess::resolveStream(Runtime &R, void *Stream, void **HipStream) {
  return R.P->resolveStream(Stream, HipStream);
}

Status CoreAccess::deviceResult(Runtime &R, Status S) {
  return R.P->deviceResult(S);
}

void CoreAccess::waitIdle(Runtime &R) {
  if (!R.P->hip())
    R.P->Queues.waitAll();
}

void CoreAccess::waitForStream(Runtime &R, void *Stream) {
  void *HipStream;
  std::shared_ptr<WorkQueue> Queue;
  if (R.P->hip() || R.P->resolveStream(Stream, &HipStream, &Queue))
    return;
  Queue->waitFor(Queue->enqueued());
}

Status CoreAccess::waitForLegacy(Runtime &R) {
  return R.P->hip() ? cudaSuccess : R.P->waitForLegacy();
}

Status CoreAccess::enqueueFunction(Runtime &R, void *Stream,
                                   std::function<void()> Fn, bool Wait) {
  void *HipStream;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = R.P->resolveStream(Stream, &HipStream, &Queue))
    return S;
  return R.P->enqueueFunction(Queue, std::move(Fn), Wait);
}

void CoreAccess::trackRange(Runtime &R, void *Ptr, size_t Bytes) {
  std::lock_guard<std::mutex> G(R.P->MemLock);
  R.P->Allocations[reinterpret_cast<uintptr_t>(Ptr)] = Bytes;
  ++R.P->MemGeneration;
}

void CoreAccess::untrackRange(Runtime &R, void *Ptr) {
  std::lock_guard<std::mutex> G(R.P->MemLock);
  R.P->Allocations.erase(reinterpret_cast<uintptr_t>(Ptr));
  ++R.P->MemGeneration;
}

bool CoreAccess::findAllocation(Runtime &R, const void *Ptr, void **Base,
                                size_t *Bytes) {
  std::lock_guard<std::mutex> G(R.P->MemLock);
  const auto *Range = R.P->rangeOf(reinterpret_cast<uintptr_t>(Ptr));
  if (!Range)
    return false;
  *Base = reinterpret_cast<void *>(Range->first);
  *Bytes = Range->second;
  return true;
}

size_t CoreAccess::trackedBytes(Runtime &R) {
  std::lock_guard<std::mutex> G(R.P->MemLock);
  size_t Sum = 0;
  for (const auto &[Base, Size] : R.P->Allocations)
    Sum += Size;
  return Sum;
}

bool Runtime::isDeviceRange(const void *Ptr, size_t Bytes) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> G(P->MemLock);
  const auto *Range = P->rangeOf(A);
  if (!Range)
    return false;
  uintptr_t End = Range->first + Range->second;
  // Virtual-memory mappings side by side (cuMemMap of adjacent pieces of
  // one reservation, as growing memory pools make them) are one run of
  // device memory: a copy may cross from one into the next.
  while (Bytes > End - A && P->External.count(Range->first)) {
    auto Next = P->Allocations.find(End);
    if (Next == P->Allocations.end() || !P->External.count(End))
      break;
    Range = &*Next;
    End += Next->second;
  }
  return Bytes <= End - A;
}

Status Runtime::registerDeviceRange(void *Base, size_t Bytes) {
  if (!Base || !Bytes)
    return record(cudaErrorInvalidValue);
  // The HIP backend registers what hipMemMap mapped (VirtualMemory.cpp).
  if (!P->hip() && !P->Device.Integrated)
    return record(cudaErrorNotSupported);
  std::lock_guard<std::mutex> G(P->MemLock);
  uintptr_t A = reinterpret_cast<uintptr_t>(Base);
  auto It = P->Allocations.lower_bound(A);
  if ((It != P->Allocations.end() && It->first < A + Bytes) ||
      (It != P->Allocations.begin() &&
       std::prev(It)->first + std::prev(It)->second > A))
    return record(cudaErrorInvalidValue); // overlaps an allocation
  P->Allocations[A] = Bytes;
  P->External.insert(A);
  ++P->MemGeneration;
  return cudaSuccess;
}

Status Runtime::unregisterDeviceRange(void *Base) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Base);
  std::lock_guard<std::mutex> G(P->MemLock);
  if (!P->External.erase(A))
    return record(cudaErrorInvalidValue);
  if (P->Memcheck) {
    P->RecentlyFreed.push_back({A, P->Allocations[A]});
    if (P->RecentlyFreed.size() > Impl::MaxRecentlyFreed)
      P->RecentlyFreed.pop_front();
  }
  P->Allocations.erase(A);
  ++P->MemGeneration;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Interprocess sharing (cudaIpc*): see Ipc.h
//===----------------------------------------------------------------------===//

Status Runtime::ipcGetMemHandle(void *Handle, void *Ptr) {
  if (!Handle || !Ptr)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  if (P->hip())
    return notOnHip(*this, "cudaIpcGetMemHandle");
  return CoreAccess::shareAllocation(*this, Ptr, Handle, 0);
}

Status CoreAccess::shareAllocation(Runtime &R, void *Ptr, void *Handle,
                                   uint64_t Owner) {
  Runtime::Impl *P = R.P;
  // The handle is the whole allocation's, whichever address in it is given
  // (cudaMalloc's only: registered or imported memory is not ours to give).
  uintptr_t Base = 0;
  size_t Bytes = 0;
  {
    std::lock_guard<std::mutex> G(P->MemLock);
    const auto *Range = P->rangeOf(reinterpret_cast<uintptr_t>(Ptr));
    if (!Range || P->External.count(Range->first) ||
        !deviceArena().owns(reinterpret_cast<void *>(Range->first))) {
      CUHIP_DEBUG("cudaIpcGetMemHandle(%p): not in a cudaMalloc allocation",
                  Ptr);
      return R.record(cudaErrorInvalidValue);
    }
    Base = Range->first;
    Bytes = Range->second;
  }
  // Moving the pages onto a memfd copies them: nothing may write them
  // meanwhile.
  P->Queues.waitAll();
  int Fd = -1;
  size_t Offset = 0;
  ipc::Handle H;
  H.Kind = ipc::HandleKind::Memory;
  if (!deviceArena().share(reinterpret_cast<void *>(Base), &Fd, &Offset) ||
      !ipc::describe(Fd, &H.Ref)) {
    CUHIP_ERROR("cannot share the device allocation at %p with other "
                "processes: %s",
                Ptr, std::strerror(errno));
    return R.record(cudaErrorMemoryAllocation);
  }
  H.Offset = Offset;
  H.Bytes = Bytes;
  H.Owner = Owner;
  ipc::encode(H, Handle);
  return cudaSuccess;
}

Status Runtime::ipcOpenMemHandle(void **Ptr, const void *Handle,
                                 unsigned Flags) {
  if (!Ptr || !Handle || (Flags & ~1u)) // cudaIpcMemLazyEnablePeerAccess
    return record(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Status S = P->deviceStatus())
    return record(S);
  if (P->hip())
    return notOnHip(*this, "cudaIpcOpenMemHandle");
  return CoreAccess::openShared(*this, Ptr, Handle, 0);
}

Status CoreAccess::openShared(Runtime &R, void **Ptr, const void *Handle,
                              uint64_t Owner, size_t *Bytes) {
  Runtime::Impl *P = R.P;
  ipc::Handle H;
  if (!ipc::decode(Handle, ipc::HandleKind::Memory, &H) || H.Bytes == 0 ||
      H.Owner != Owner) {
    CUHIP_ERROR("%s", Owner ? "cudaMemPoolImportPointer: the export data is "
                              "not a pointer of this pool"
                            : "cudaIpcOpenMemHandle: the handle is not one "
                              "cudaIpcGetMemHandle made");
    return R.record(Owner ? cudaErrorInvalidValue
                          : cudaErrorInvalidResourceHandle);
  }
  if (H.Ref.Pid == int32_t(getpid())) {
    CUHIP_ERROR("the memory handle was made by this process; CUDA opens "
                "handles of other processes only");
    return R.record(cudaErrorDeviceUninitialized); // CUDA's invalid context
  }
  std::lock_guard<std::mutex> G(P->MemLock);
  // Opened before: the same address, one more open to close.
  for (auto &[Addr, M] : P->IpcMappings)
    if (M.Ref.Pid == H.Ref.Pid && M.Ref.Dev == H.Ref.Dev &&
        M.Ref.Ino == H.Ref.Ino && M.Offset == H.Offset) {
      ++M.Opens;
      *Ptr = reinterpret_cast<void *>(Addr);
      if (Bytes)
        *Bytes = M.Bytes;
      return cudaSuccess;
    }
  std::string Why;
  int Fd = ipc::open(H.Ref, Why);
  void *Mem = nullptr;
  if (Fd >= 0) {
    Mem = ipc::mapShared(Fd, H.Offset, H.Bytes);
    if (!Mem)
      Why = std::strerror(errno);
    close(Fd); // the mapping keeps the pages
  }
  if (!Mem) {
    CUHIP_ERROR("cannot map %llu bytes of device memory of process %d: %s",
                (unsigned long long)H.Bytes, int(H.Ref.Pid), Why.c_str());
    return R.record(cudaErrorMapBufferObjectFailed);
  }
  uintptr_t A = reinterpret_cast<uintptr_t>(Mem);
  P->Allocations[A] = H.Bytes;
  P->External.insert(A);
  ++P->MemGeneration;
  P->IpcMappings[A] = {H.Ref, H.Offset, H.Bytes, 1};
  *Ptr = Mem;
  if (Bytes)
    *Bytes = H.Bytes;
  return cudaSuccess;
}

Status Runtime::ipcCloseMemHandle(void *Ptr) {
  if (!Ptr)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  if (P->hip())
    return notOnHip(*this, "cudaIpcCloseMemHandle");
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  {
    std::lock_guard<std::mutex> G(P->MemLock);
    auto It = P->IpcMappings.find(A);
    if (It == P->IpcMappings.end()) {
      CUHIP_DEBUG("cudaIpcCloseMemHandle(%p): not an address "
                  "cudaIpcOpenMemHandle returned",
                  Ptr);
      return record(cudaErrorInvalidValue);
    }
    if (--It->second.Opens > 0)
      return cudaSuccess;
  }
  // Queued work may still use the mapping.
  P->Queues.waitAll();
  std::lock_guard<std::mutex> G(P->MemLock);
  auto It = P->IpcMappings.find(A);
  if (It == P->IpcMappings.end() || It->second.Opens > 0)
    return cudaSuccess; // opened again meanwhile
  uint64_t Bytes = It->second.Bytes;
  P->IpcMappings.erase(It);
  P->External.erase(A);
  P->Allocations.erase(A);
  ++P->MemGeneration;
  ipc::unmapShared(Ptr, Bytes);
  return cudaSuccess;
}

Status Runtime::ipcGetEventHandle(void *Handle, void *Event) {
  if (!Handle)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  EventObj *E = P->findEvent(Event);
  if (!E)
    return record(cudaErrorInvalidResourceHandle);
  if (P->hip())
    return notOnHip(*this, "cudaIpcGetEventHandle");
  ipc::Handle H;
  H.Kind = ipc::HandleKind::Event;
  // Only events made with cudaEventInterprocess, and only by this process
  // (an opened event's page has no descriptor here to name).
  if (!E->Shared || E->Shared->fd() < 0 ||
      !ipc::describe(E->Shared->fd(), &H.Ref)) {
    CUHIP_DEBUG("cudaIpcGetEventHandle: the event was not created with "
                "cudaEventInterprocess in this process");
    return record(cudaErrorInvalidResourceHandle);
  }
  ipc::encode(H, Handle);
  return cudaSuccess;
}

Status Runtime::ipcOpenEventHandle(void **Event, const void *Handle) {
  if (!Event || !Handle)
    return record(cudaErrorInvalidValue);
  *Event = nullptr;
  if (Status S = P->deviceStatus())
    return record(S);
  if (P->hip())
    return notOnHip(*this, "cudaIpcOpenEventHandle");
  ipc::Handle H;
  if (!ipc::decode(Handle, ipc::HandleKind::Event, &H)) {
    CUHIP_ERROR("cudaIpcOpenEventHandle: the handle is not one "
                "cudaIpcGetEventHandle made");
    return record(cudaErrorInvalidResourceHandle);
  }
  if (H.Ref.Pid == int32_t(getpid())) {
    CUHIP_ERROR("cudaIpcOpenEventHandle: the handle was made by this "
                "process; CUDA opens handles of other processes only");
    return record(cudaErrorDeviceUninitialized);
  }
  std::string Why;
  auto Obj = std::make_unique<EventObj>();
  Obj->Flags = EventDisableTiming | EventInterprocess;
  Obj->Shared = ipc::SharedEvent::open(H.Ref, Why);
  if (!Obj->Shared) {
    CUHIP_ERROR("cudaIpcOpenEventHandle: cannot open the event of process "
                "%d: %s",
                int(H.Ref.Pid), Why.c_str());
    return record(cudaErrorMapBufferObjectFailed);
  }
  *Event = P->keep(P->Events, std::move(Obj));
  return cudaSuccess;
}

Status Runtime::allocationRange(const void *Ptr, void **Base, size_t *Size) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> G(P->MemLock);
  auto It = P->Allocations.upper_bound(A);
  if (It == P->Allocations.begin())
    return record(cudaErrorInvalidValue);
  --It;
  if (A - It->first >= std::max<size_t>(It->second, 1))
    return record(cudaErrorInvalidValue);
  if (Base)
    *Base = reinterpret_cast<void *>(It->first);
  if (Size)
    *Size = It->second;
  return cudaSuccess;
}

/// The checks every copy makes before it is enqueued; Empty is set for a
/// copy of 0 bytes, which succeeds without doing anything.
static Status checkCopy(Runtime &R, void *Dst, const void *Src, size_t Bytes,
                        CopyKind Kind, bool &Empty) {
  Empty = false;
  int K = static_cast<int>(Kind);
  if (K < 0 || K > 4)
    return cudaErrorInvalidMemcpyDirection;
  if (Status S = R.deviceStatus())
    return S;
  if (Bytes == 0) {
    Empty = true;
    return cudaSuccess;
  }
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  if (Status S = R.stickyError())
    return S;
  bool DstDev = Kind == CopyKind::HostToDevice || Kind == CopyKind::DeviceToDevice;
  bool SrcDev = Kind == CopyKind::DeviceToHost || Kind == CopyKind::DeviceToDevice;
  bool BadDst = DstDev && !R.isDeviceRange(Dst, Bytes);
  if (BadDst || (SrcDev && !R.isDeviceRange(Src, Bytes))) {
    CUHIP_DEBUG("cudaMemcpy: %zu bytes at %s %p are not inside one device "
                "allocation",
                Bytes, BadDst ? "dst" : "src", BadDst ? Dst : Src);
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

/// The same for memset.
static Status checkSet(Runtime &R, void *Ptr, size_t Bytes, bool &Empty) {
  Empty = false;
  if (Status S = R.deviceStatus())
    return S;
  if (Bytes == 0) {
    Empty = true;
    return cudaSuccess;
  }
  if (Status S = R.stickyError())
    return S;
  if (!Ptr || !R.isDeviceRange(Ptr, Bytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

Status Runtime::memcpy(void *Dst, const void *Src, size_t Bytes,
                       CopyKind Kind) {
  if (Status S = P->deviceStatus())
    return record(S);
  bool Empty;
  if (Status S = checkCopy(*this, Dst, Src, Bytes, Kind, Empty))
    return record(S);
  // Synchronous copies go through the legacy stream.
  if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/true))
    return record(S);
  if (Empty)
    return cudaSuccess;
  if (HipBackend *Hip = P->hip())
    return record(P->deviceResult(Hip->memcpy(Dst, Src, Bytes, Kind)));
  // A synchronous copy is an operation of the legacy stream that the host
  // performs once the work it is ordered after has finished.
  if (Status S = P->waitForLegacy())
    return record(S);
  std::memmove(Dst, Src, Bytes);
  return cudaSuccess;
}

Status Runtime::memcpyAsync(void *Dst, const void *Src, size_t Bytes,
                            CopyKind Kind, void *Stream) {
  if (Status S = P->deviceStatus())
    return record(S);
  bool Empty;
  if (Status S = checkCopy(*this, Dst, Src, Bytes, Kind, Empty))
    return record(S);
  void *HipStream = nullptr;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue))
    return record(S);
  if (Empty)
    return cudaSuccess;
  if (capture::anyActive()) {
    NodeOp Op;
    Op.K = NodeOp::Memcpy;
    Op.Dst = Dst;
    Op.Src = Src;
    Op.Bytes = Bytes;
    Op.Copy = Kind;
    bool Captured;
    Status S = capture::enqueue(Stream, std::move(Op), Captured);
    if (Captured)
      return record(S);
  }
  if (HipBackend *Hip = P->hip())
    return record(Hip->memcpyAsync(Dst, Src, Bytes, Kind, HipStream));
  return record(P->copyAsync(*this, Queue, Dst, Src, Bytes));
}

Status Runtime::memset(void *Ptr, int Value, size_t Bytes) {
  if (Status S = P->deviceStatus())
    return record(S);
  bool Empty;
  if (Status S = checkSet(*this, Ptr, Bytes, Empty))
    return record(S);
  if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/true))
    return record(S);
  if (Empty)
    return cudaSuccess;
  if (HipBackend *Hip = P->hip())
    return record(P->deviceResult(Hip->memset(Ptr, Value, Bytes)));
  if (Status S = P->waitForLegacy())
    return record(S);
  std::memset(Ptr, Value, Bytes);
  return cudaSuccess;
}

Status Runtime::memsetAsync(void *Ptr, int Value, size_t Bytes, void *Stream) {
  if (Status S = P->deviceStatus())
    return record(S);
  bool Empty;
  if (Status S = checkSet(*this, Ptr, Bytes, Empty))
    return record(S);
  void *HipStream = nullptr;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue))
    return record(S);
  if (Empty)
    return cudaSuccess;
  if (capture::anyActive()) {
    NodeOp Op;
    Op.K = NodeOp::Memset;
    Op.Dst = Ptr;
    Op.Value = unsigned(Value) & 0xff;
    Op.Width = Bytes;
    Op.Pitch = Bytes;
    bool Captured;
    Status S = capture::enqueue(Stream, std::move(Op), Captured);
    if (Captured)
      return record(S);
  }
  if (HipBackend *Hip = P->hip())
    return record(Hip->memsetAsync(Ptr, Value, Bytes, HipStream));
  return record(P->enqueueFunction(
      Queue, [=] { std::memset(Ptr, Value, Bytes); }, /*Wait=*/false));
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

Status Runtime::Impl::resolveStream(void *Handle, void **HipStream,
                                    std::shared_ptr<WorkQueue> *Queue) {
  uintptr_t V = reinterpret_cast<uintptr_t>(Handle);
  if (isDefaultStream(Handle)) {
    // HIP's null stream is its legacy default stream; hipStreamPerThread
    // has cudaStreamPerThread's value, 0x2.
    *HipStream = V == 2 ? Handle : nullptr;
    if (Queue)
      *Queue = defaultQueue(V);
    return cudaSuccess;
  }
  std::lock_guard<std::mutex> G(StreamLock);
  auto It = Streams.find(Handle);
  if (It == Streams.end())
    return cudaErrorInvalidResourceHandle;
  *HipStream = It->second->Hip;
  if (Queue)
    *Queue = It->second->Queue;
  return cudaSuccess;
}

EventObj *Runtime::Impl::findEvent(void *Handle) {
  std::lock_guard<std::mutex> G(StreamLock);
  auto It = Events.find(Handle);
  return It == Events.end() ? nullptr : It->second.get();
}

bool CoreAccess::isEvent(Runtime &R, void *Event) {
  return R.P->findEvent(Event) != nullptr;
}

bool Runtime::isStreamHandle(void *S) {
  void *Ignored;
  return P->resolveStream(S, &Ignored) == cudaSuccess;
}

Status Runtime::streamPriorityRange(int *Least, int *Greatest) {
  if (Status S = P->deviceStatus())
    return record(S);
  int L = 0, G = 0;
  // CUDA reports 0 for both where priorities make no difference, as on the
  // CPU backend, whose streams each run on a thread of their own.
  if (HipBackend *Hip = P->hip())
    if (Status S = Hip->streamPriorityRange(&L, &G))
      return record(S);
  if (Least)
    *Least = L;
  if (Greatest)
    *Greatest = G;
  return cudaSuccess;
}

Status Runtime::streamCreate(void **Stream, unsigned Flags, int Priority) {
  if (!Stream || (Flags & ~StreamFlagsMask))
    return record(cudaErrorInvalidValue);
  *Stream = nullptr;
  if (Status S = P->deviceStatus())
    return record(S);
  // Priorities outside the range are clamped to it, as CUDA does.
  int Least = 0, Greatest = 0;
  if (Status S = streamPriorityRange(&Least, &Greatest))
    return S;
  Priority = std::clamp(Priority, std::min(Least, Greatest),
                        std::max(Least, Greatest));
  auto Obj = std::make_unique<StreamObj>();
  Obj->Id = NextStreamId.fetch_add(1, std::memory_order_relaxed);
  Obj->Flags = Flags;
  Obj->Priority = Priority;
  if (HipBackend *Hip = P->hip()) {
    if (Status S = Hip->streamCreate(&Obj->Hip, Flags, Priority))
      return record(S);
  } else {
    Obj->Queue = P->Queues.create((Flags & 0x1) ? QueueKind::NonBlocking
                                                : QueueKind::Blocking);
  }
  *Stream = P->keep(P->Streams, std::move(Obj));
  return cudaSuccess;
}

Status Runtime::streamDestroy(void *Stream) {
  if (Status S = P->deviceStatus())
    return record(S);
  std::unique_ptr<StreamObj> Obj = P->take(P->Streams, Stream);
  if (!Obj)
    return record(cudaErrorInvalidResourceHandle);
  capture::forgetStream(Stream);
  {
    std::lock_guard<std::mutex> G(P->StreamLock);
    P->StreamAttrs.erase(Stream);
  }
  // CUDA lets the stream's pending work finish after the call returns;
  // hipStreamDestroy and a retired queue do the same.
  if (HipBackend *Hip = P->hip())
    return record(Hip->streamDestroy(Obj->Hip));
  P->Queues.retire(Obj->Queue);
  return cudaSuccess;
}

Status Runtime::streamSynchronize(void *Stream) {
  if (Status S = P->deviceStatus())
    return record(S);
  void *HipStream;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue))
    return record(S);
  if (Status S = capture::checkWaitOn(Stream))
    return record(S);
  if (Status S = stickyError())
    return record(S);
  if (HipBackend *Hip = P->hip())
    return record(P->deviceResult(Hip->streamSynchronize(HipStream)));
  // The stream's last operation waits for whatever its predecessors wait
  // for on other streams, so its tail is enough.
  Queue->waitFor(Queue->enqueued());
  return record(P->waitOutcome());
}

Status Runtime::streamQuery(void *Stream) {
  if (Status S = P->deviceStatus())
    return record(S);
  void *HipStream;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue))
    return record(S);
  if (Status S = capture::checkWaitOn(Stream))
    return record(S);
  if (Status S = stickyError())
    return record(S);
  if (HipBackend *Hip = P->hip()) {
    // cudaErrorNotReady is an answer, not an error: it is not recorded.
    Status S = P->deviceResult(Hip->streamQuery(HipStream));
    return S == cudaErrorNotReady ? S : record(S);
  }
  return Queue->idle() ? cudaSuccess : cudaErrorNotReady;
}

Status Runtime::streamGetFlags(void *Stream, unsigned *Flags) {
  if (!Flags)
    return record(cudaErrorInvalidValue);
  void *HipStream;
  if (Status S = P->resolveStream(Stream, &HipStream))
    return record(S);
  std::lock_guard<std::mutex> G(P->StreamLock);
  auto It = P->Streams.find(Stream);
  *Flags = It == P->Streams.end() ? 0 : It->second->Flags;
  return cudaSuccess;
}

Status Runtime::streamAttachMem(void *Stream, void *Ptr, size_t Length,
                                unsigned Flags) {
  (void)Length;
  if (Flags != 1 && Flags != 2 && Flags != 4)
    return record(cudaErrorInvalidValue);
  if (!isStreamHandle(Stream))
    return record(cudaErrorInvalidResourceHandle);
  if (!Ptr)
    return record(cudaErrorInvalidValue);
  return cudaSuccess;
}

Status Runtime::streamGetId(void *Stream, unsigned long long *Id) {
  if (!Id)
    return record(cudaErrorInvalidValue);
  void *HipStream;
  if (Status S = P->resolveStream(Stream, &HipStream))
    return record(S);
  uintptr_t V = reinterpret_cast<uintptr_t>(Stream);
  if (V == 0 || V == 1) {
    *Id = LegacyStreamId;
    return cudaSuccess;
  }
  if (V == 2) {
    // Each host thread's default stream is a stream of its own.
    thread_local uint64_t PerThreadId =
        NextStreamId.fetch_add(1, std::memory_order_relaxed);
    *Id = PerThreadId;
    return cudaSuccess;
  }
  std::lock_guard<std::mutex> G(P->StreamLock);
  auto It = P->Streams.find(Stream);
  if (It == P->Streams.end())
    return record(cudaErrorInvalidResourceHandle);
  *Id = It->second->Id;
  return cudaSuccess;
}

Status Runtime::streamGetPriority(void *Stream, int *Priority) {
  if (!Priority)
    return record(cudaErrorInvalidValue);
  void *HipStream;
  if (Status S = P->resolveStream(Stream, &HipStream))
    return record(S);
  std::lock_guard<std::mutex> G(P->StreamLock);
  auto It = P->Streams.find(Stream);
  *Priority = It == P->Streams.end() ? 0 : It->second->Priority;
  return cudaSuccess;
}

namespace {
// cudaLaunchAttributeID values a stream takes.
constexpr int LaunchAttributeAccessPolicyWindow = 1;
constexpr int LaunchAttributeSynchronizationPolicy = 3;
constexpr int LaunchAttributePriority = 8;
constexpr int LaunchAttributeMemSyncDomainMap = 9;
constexpr int LaunchAttributeMemSyncDomain = 10;

/// cudaAccessPolicyWindow's layout.
struct AccessPolicyWindow {
  void *BasePtr;
  size_t NumBytes;
  float HitRatio;
  int HitProp, MissProp; // cudaAccessProperty: normal 0, streaming 1,
                         // persisting 2 (not for misses)
};

/// The key a stream's attributes are kept under: the null stream and
/// cudaStreamLegacy are one stream.
void *attrKey(void *Stream) {
  return Stream ? Stream : reinterpret_cast<void *>(uintptr_t(1));
}
} // namespace

Status Runtime::streamSetAttribute(void *Stream, int Attr, const void *Value) {
  if (!Value)
    return record(cudaErrorInvalidValue);
  std::array<unsigned char, StreamAttrBytes> Bytes;
  std::memcpy(Bytes.data(), Value, StreamAttrBytes);
  int Int;
  std::memcpy(&Int, Value, sizeof(Int));
  switch (Attr) {
  case LaunchAttributeAccessPolicyWindow: {
    AccessPolicyWindow W;
    std::memcpy(&W, Value, sizeof(W));
    if (W.NumBytes > size_t(deviceInfo(0).MaxAccessPolicyWindowSize) ||
        !(W.HitRatio >= 0.0f && W.HitRatio <= 1.0f) || W.HitProp < 0 ||
        W.HitProp > 2 || W.MissProp < 0 || W.MissProp > 1)
      return record(cudaErrorInvalidValue);
    break;
  }
  case LaunchAttributeSynchronizationPolicy:
    // cudaSyncPolicyAuto, Spin, Yield, BlockingSync.
    if (Int < 1 || Int > 4)
      return record(cudaErrorInvalidValue);
    break;
  case LaunchAttributeMemSyncDomain:
    // cudaLaunchMemSyncDomainDefault or Remote.
    if (Int < 0 || Int > 1)
      return record(cudaErrorInvalidValue);
    break;
  case LaunchAttributePriority:
  case LaunchAttributeMemSyncDomainMap:
    break;
  default:
    return record(cudaErrorInvalidValue);
  }
  if (Status S = P->deviceStatus())
    return record(S);
  void *HipStream;
  if (Status S = P->resolveStream(Stream, &HipStream))
    return record(S);
  if (Attr == LaunchAttributePriority) {
    int Least = 0, Greatest = 0;
    streamPriorityRange(&Least, &Greatest);
    Int = std::clamp(Int, std::min(Least, Greatest), std::max(Least, Greatest));
    std::memcpy(Bytes.data(), &Int, sizeof(Int));
  }
  std::lock_guard<std::mutex> G(P->StreamLock);
  if (Attr == LaunchAttributePriority) {
    auto It = P->Streams.find(Stream);
    if (It != P->Streams.end())
      It->second->Priority = Int;
  }
  P->StreamAttrs[attrKey(Stream)][Attr] = Bytes;
  return cudaSuccess;
}

Status Runtime::streamGetAttribute(void *Stream, int Attr, void *Value) {
  if (!Value)
    return record(cudaErrorInvalidValue);
  if (Attr != LaunchAttributeAccessPolicyWindow &&
      Attr != LaunchAttributeSynchronizationPolicy &&
      Attr != LaunchAttributePriority &&
      Attr != LaunchAttributeMemSyncDomainMap &&
      Attr != LaunchAttributeMemSyncDomain)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  void *HipStream;
  if (Status S = P->resolveStream(Stream, &HipStream))
    return record(S);
  std::lock_guard<std::mutex> G(P->StreamLock);
  auto It = P->StreamAttrs.find(attrKey(Stream));
  if (It != P->StreamAttrs.end()) {
    auto A = It->second.find(Attr);
    if (A != It->second.end()) {
      std::memcpy(Value, A->second.data(), StreamAttrBytes);
      return cudaSuccess;
    }
  }
  // CUDA's defaults: no window, the automatic policy, the stream's
  // priority, the default domain with remote work in domain 1.
  std::memset(Value, 0, StreamAttrBytes);
  int Int = 0;
  if (Attr == LaunchAttributeSynchronizationPolicy) {
    Int = 1;
  } else if (Attr == LaunchAttributePriority) {
    auto S = P->Streams.find(Stream);
    Int = S == P->Streams.end() ? 0 : S->second->Priority;
  } else if (Attr == LaunchAttributeMemSyncDomainMap) {
    static_cast<unsigned char *>(Value)[1] = 1;
    return cudaSuccess;
  }
  std::memcpy(Value, &Int, sizeof(Int));
  return cudaSuccess;
}

Status Runtime::streamCopyAttributes(void *Dst, void *Src) {
  if (Status S = P->deviceStatus())
    return record(S);
  void *HipStream;
  if (Status S = P->resolveStream(Dst, &HipStream))
    return record(S);
  if (Status S = P->resolveStream(Src, &HipStream))
    return record(S);
  StreamAttrMap Attrs;
  {
    std::lock_guard<std::mutex> G(P->StreamLock);
    auto It = P->StreamAttrs.find(attrKey(Src));
    if (It != P->StreamAttrs.end())
      Attrs = It->second;
  }
  for (const auto &[Attr, Bytes] : Attrs)
    if (Status S = streamSetAttribute(Dst, Attr, Bytes.data()))
      return S;
  return cudaSuccess;
}

Status Runtime::streamWaitEvent(void *Stream, void *Event, unsigned Flags) {
  // cudaEventWaitDefault (0) and cudaEventWaitExternal (0x1, which only
  // matters inside graph capture) are the flags CUDA defines.
  if (Flags & ~1u)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  void *HipStream;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue))
    return record(S);
  EventObj *E = P->findEvent(Event);
  if (!E)
    return record(cudaErrorInvalidResourceHandle);
  if (capture::anyActive()) {
    bool Handled;
    Status S = capture::waitEvent(Stream, Event, Handled);
    if (Handled)
      return record(S);
  }
  if (HipBackend *Hip = P->hip())
    return record(Hip->streamWaitEvent(HipStream, E->Hip));
  if (E->Shared) {
    // The latest record may be another process's: the stream's worker
    // waits for its number when it gets there.
    uint64_t N = E->Shared->latest();
    if (E->Shared->reached(N))
      return cudaSuccess;
    auto W = std::make_unique<FunctionWork>();
    W->Fn = [Ev = E->Shared, N] { Ev->wait(N); };
    P->enqueue(Queue, std::move(W));
    return cudaSuccess;
  }
  // The stream's later work waits for the point of the event's latest
  // record; an event never recorded, or complete, adds nothing.
  QueuePoint Point;
  {
    std::lock_guard<std::mutex> G(P->StreamLock);
    if (E->Mark)
      Point = E->Mark->Point;
  }
  if (Point.reached())
    return cudaSuccess;
  auto W = std::make_unique<FunctionWork>();
  P->enqueue(Queue, std::move(W), {std::move(Point)});
  return cudaSuccess;
}

Status Runtime::streamAddHostFunc(void *Stream, void (*Fn)(void *),
                                  void *Data, bool RunsAfterFault) {
  if (!Fn)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  void *HipStream;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue))
    return record(S);
  if (capture::anyActive()) {
    NodeOp Op;
    Op.K = NodeOp::Host;
    Op.HostFn = Fn;
    Op.HostData = Data;
    bool Captured;
    Status S = capture::enqueue(Stream, std::move(Op), Captured);
    if (Captured)
      return record(S);
  }
  if (HipBackend *Hip = P->hip())
    return record(Hip->streamAddHostFunc(HipStream, Fn, Data));
  auto W = std::make_unique<FunctionWork>();
  W->Fn = [Fn, Data] { Fn(Data); };
  W->RunsAfterFault = RunsAfterFault;
  // CUDA runs host functions on a thread of its own, never on the thread
  // that synchronises.
  W->DispatcherOnly = true;
  P->enqueue(Queue, std::move(W));
  return cudaSuccess;
}

bool Runtime::onHipBackend() { return P->hip() != nullptr; }

unsigned Runtime::cpuThreads() { return P->backend().workers(); }

Status Runtime::nativeStream(void *Stream, void **HipStream) {
  if (!HipStream)
    return cudaErrorInvalidValue;
  *HipStream = nullptr;
  if (Status S = P->deviceStatus())
    return S;
  return P->resolveStream(Stream, HipStream);
}

Status Runtime::eventCreate(void **Event, unsigned Flags) {
  if (!Event || (Flags & ~EventFlagsMask))
    return record(cudaErrorInvalidValue);
  *Event = nullptr;
  if (Status S = P->deviceStatus())
    return record(S);
  // CUDA requires interprocess events to be created without timing.
  if ((Flags & EventInterprocess) && !(Flags & EventDisableTiming))
    return record(cudaErrorInvalidValue);
  auto Obj = std::make_unique<EventObj>();
  Obj->Flags = Flags;
  if (HipBackend *Hip = P->hip()) {
    if (Status S = Hip->eventCreate(&Obj->Hip, Flags))
      return record(S);
  } else if (Flags & EventInterprocess) {
    Obj->Shared = ipc::SharedEvent::create();
    if (!Obj->Shared) {
      CUHIP_ERROR("cudaEventCreate: no shared page for an interprocess "
                  "event: %s",
                  std::strerror(errno));
      return record(cudaErrorMemoryAllocation);
    }
  }
  *Event = P->keep(P->Events, std::move(Obj));
  return cudaSuccess;
}

Status Runtime::eventDestroy(void *Event) {
  if (Status S = P->deviceStatus())
    return record(S);
  std::unique_ptr<EventObj> Obj = P->take(P->Events, Event);
  if (!Obj)
    return record(cudaErrorInvalidResourceHandle);
  capture::forgetEvent(Event);
  if (HipBackend *Hip = P->hip())
    return record(Hip->eventDestroy(Obj->Hip));
  return cudaSuccess;
}

Status Runtime::eventRecord(void *Event, void *Stream) {
  if (Status S = P->deviceStatus())
    return record(S);
  EventObj *E = P->findEvent(Event);
  if (!E)
    return record(cudaErrorInvalidResourceHandle);
  void *HipStream;
  std::shared_ptr<WorkQueue> Queue;
  if (Status S = P->resolveStream(Stream, &HipStream, &Queue))
    return record(S);
  if (capture::anyActive()) {
    bool Handled;
    Status S = capture::recordEvent(Event, Stream, Handled);
    if (Handled)
      return record(S);
  }
  std::shared_ptr<EventMark> Mark;
  if (HipBackend *Hip = P->hip()) {
    if (Status S = Hip->eventRecord(E->Hip, HipStream))
      return record(S);
  } else if (E->Shared) {
    // The record's number is taken now; the stream completes it when it
    // gets there, for every process that waits on the event.
    uint64_t N = E->Shared->issue();
    auto W = std::make_unique<FunctionWork>();
    W->Fn = [Ev = E->Shared, N] { Ev->complete(N); };
    W->RunsAfterFault = true;
    P->enqueue(Queue, std::move(W));
  } else {
    Mark = std::make_shared<EventMark>();
    auto W = std::make_unique<MarkerWork>();
    W->Mark = Mark;
    Mark->Point = {Queue, P->enqueue(Queue, std::move(W))};
  }
  // Other host threads may record or time the same event meanwhile.
  std::lock_guard<std::mutex> G(P->StreamLock);
  if (Mark)
    E->Mark = std::move(Mark);
  E->Recorded = true;
  return cudaSuccess;
}

Status Runtime::eventQuery(void *Event) {
  if (Status S = P->deviceStatus())
    return record(S);
  EventObj *E = P->findEvent(Event);
  if (!E)
    return record(cudaErrorInvalidResourceHandle);
  if (HipBackend *Hip = P->hip()) {
    Status S = P->deviceResult(Hip->eventQuery(E->Hip));
    return S == cudaErrorNotReady ? S : record(S);
  }
  if (E->Shared)
    return E->Shared->reached(E->Shared->latest()) ? cudaSuccess
                                                   : cudaErrorNotReady;
  std::shared_ptr<EventMark> Mark;
  {
    std::lock_guard<std::mutex> G(P->StreamLock);
    Mark = E->Mark;
  }
  // Complete: never recorded, or its stream has run the marker.
  return !Mark || Mark->Point.reached() ? cudaSuccess : cudaErrorNotReady;
}

Status Runtime::eventSynchronize(void *Event) {
  if (Status S = P->deviceStatus())
    return record(S);
  EventObj *E = P->findEvent(Event);
  if (!E)
    return record(cudaErrorInvalidResourceHandle);
  if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/false))
    return record(S);
  if (HipBackend *Hip = P->hip())
    return record(P->deviceResult(Hip->eventSynchronize(E->Hip)));
  if (E->Shared) {
    E->Shared->wait(E->Shared->latest());
    return record(P->waitOutcome());
  }
  std::shared_ptr<EventMark> Mark;
  {
    std::lock_guard<std::mutex> G(P->StreamLock);
    Mark = E->Mark;
  }
  if (!Mark || !Mark->Point.Queue)
    return cudaSuccess;
  Mark->Point.Queue->waitFor(Mark->Point.Ticket);
  return record(P->waitOutcome());
}

Status Runtime::eventElapsedTime(float *Ms, void *Start, void *End) {
  if (!Ms)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  EventObj *A = P->findEvent(Start), *B = P->findEvent(End);
  if (!A || !B)
    return record(cudaErrorInvalidResourceHandle);
  bool Recorded;
  std::shared_ptr<EventMark> AMark, BMark;
  {
    // eventRecord may record either event on another host thread meanwhile.
    std::lock_guard<std::mutex> G(P->StreamLock);
    Recorded = A->Recorded && B->Recorded;
    AMark = A->Mark;
    BMark = B->Mark;
  }
  // CUDA: events without timing, and events never recorded, are invalid
  // resource handles for this call.
  if ((A->Flags | B->Flags) & EventDisableTiming || !Recorded)
    return record(cudaErrorInvalidResourceHandle);
  if (HipBackend *Hip = P->hip()) {
    Status S = Hip->eventElapsedTime(Ms, A->Hip, B->Hip);
    return S == cudaErrorNotReady ? S : record(S);
  }
  // A time exists once the stream has reached the marker; cudaErrorNotReady
  // is an answer, not an error.
  if (!AMark->Point.reached() || !BMark->Point.reached())
    return cudaErrorNotReady;
  *Ms = float(double(BMark->WhenNs.load(std::memory_order_relaxed) -
                     AMark->WhenNs.load(std::memory_order_relaxed)) /
              1e6);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Devices and errors
//===----------------------------------------------------------------------===//

int Runtime::deviceCount() {
  return P->selected() == Impl::Selected::NoDevice ? 0 : 1;
}

Status Runtime::deviceStatus() { return P->deviceStatus(); }

Status Runtime::setDevice(int Device) {
  // Only selects the thread's device: a sticky error is reported by the
  // calls that use it.
  if (Status S = P->noDeviceStatus())
    return record(S);
  if (Device < 0 || Device >= deviceCount())
    return record(cudaErrorInvalidDevice);
  CurrentDevice = Device;
  return cudaSuccess;
}

Status Runtime::getDevice(int *Device) {
  if (!Device)
    return record(cudaErrorInvalidValue);
  *Device = CurrentDevice;
  return cudaSuccess;
}

const DeviceInfo &Runtime::deviceInfo(int) const {
  // The AMD GPU when HIP runs the kernels, else the host as the CPU backend sees it.
  if (HipBackend *Hip = P->hip())
    return Hip->deviceInfo();
  return P->Device;
}

Status Runtime::synchronize() {
  if (Status S = P->deviceStatus())
    return record(S);
  if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/true))
    return record(S);
  if (Status S = stickyError())
    return record(S);
  if (HipBackend *Hip = P->hip())
    return record(P->deviceResult(Hip->synchronize()));
  P->Queues.waitAll();
  return record(P->waitOutcome());
}

Status Runtime::record(Status S) {
  if (S != cudaSuccess)
    LastError = S;
  return S;
}

Status Runtime::getLastError() {
  Status S = LastError;
  LastError = cudaSuccess;
  if (S == cudaSuccess)
    S = stickyError();
  return S;
}

Status Runtime::peekLastError() {
  Status S = LastError;
  return S == cudaSuccess ? stickyError() : S;
}

Status Runtime::stickyError() const {
  return static_cast<Status>(P->Sticky.load(std::memory_order_relaxed));
}

//===----------------------------------------------------------------------===//
// Device settings and kernel attributes
//===----------------------------------------------------------------------===//

/// K's module compiled; its KernelInfo (and, on the CPU backend, its
/// compiled form) or the status a launch would fail with.
Status Runtime::Impl::loadedKernelInfo(Kernel *K,
                                       const ptx::KernelInfo **Info) {
  if (!K)
    return cudaErrorInvalidDeviceFunction;
  if (Status S = deviceStatus())
    return S;
  // A context with a sticky error answers every call with it.
  if (Status S = static_cast<Status>(Sticky.load()))
    return S;
  if (Status S = ensureLoaded(*K->Mod))
    return S;
  if (hip())
    *Info = K->Hip ? &K->Hip->Info : nullptr;
  else
    *Info = K->Compiled ? &K->Compiled->Info : nullptr;
  return *Info ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

Status Runtime::kernelAttributes(Kernel *K, KernelAttributes *Out) {
  if (!Out)
    return record(cudaErrorInvalidValue);
  const ptx::KernelInfo *Info = nullptr;
  if (Status S = P->loadedKernelInfo(K, &Info))
    return record(S);
  const DeviceInfo &D = deviceInfo(0);
  KernelAttributes A;
  A.StaticSharedBytes = Info->StaticSharedBytes;
  // __constant__ variables are not placed yet (see __cudaRegisterVar), so
  // no kernel uses constant memory.
  A.ConstBytes = 0;
  // On the CPU backend a thread's registers and local variables live in a
  // frame of this size; the HIP backend does not report it.
  A.LocalBytesPerThread =
      K->Compiled ? K->Compiled->Layout.FrameBytesPerThread : 0;
  // .maxntid and .reqntid bound the block as __launch_bounds__ does.
  uint64_t Max = uint64_t(D.MaxThreadsPerBlock);
  for (const unsigned *Dims : {Info->MaxNTid, Info->ReqNTid})
    if (Dims[0])
      Max = std::min<uint64_t>(Max, uint64_t(Dims[0]) *
                                        std::max(Dims[1], 1u) *
                                        std::max(Dims[2], 1u));
  A.MaxThreadsPerBlock = int(Max);
  // Registers do not limit residency on either backend's accounting; 32 per
  // thread is what lets a full multiprocessor's threads be resident
  // (RegsPerBlock / MaxThreadsPerMultiProcessor), which keeps occupancy
  // calculators that read numRegs consistent with ours.
  A.NumRegs = D.RegsPerBlock / std::max(D.MaxThreadsPerMultiProcessor, 1);
  A.PtxVersion = int(K->Mod->TargetSm ? K->Mod->TargetSm : K->Mod->Sm);
  A.BinaryVersion = D.Major * 10 + D.Minor;
  A.MaxDynamicSharedBytes = maxDynamicShared(*K, *Info, D);
  std::lock_guard<std::mutex> G(P->RegLock);
  A.PreferredShmemCarveout = K->PreferredCarveout;
  A.ClusterDimMustBeSet = K->ClusterDimMustBeSet;
  std::copy(K->RequiredClusterDim, K->RequiredClusterDim + 3,
            A.RequiredClusterDim);
  A.ClusterSchedulingPolicy = K->ClusterSchedulingPolicy;
  A.NonPortableClusterSizeAllowed = K->NonPortableClusterSizeAllowed;
  A.CacheConfig = K->CacheConfig;
  *Out = A;
  return cudaSuccess;
}

Status Runtime::setKernelAttribute(Kernel *K, KernelAttr Attr, int Value) {
  const ptx::KernelInfo *Info = nullptr;
  if (Status S = P->loadedKernelInfo(K, &Info))
    return record(S);
  const DeviceInfo &D = deviceInfo(0);
  std::lock_guard<std::mutex> G(P->RegLock);
  switch (Attr) {
  case KernelAttr::MaxDynamicSharedMemorySize:
    // Static and dynamic shared memory together stay within the opt-in
    // limit of one block.
    if (Value < 0 ||
        uint64_t(Value) + Info->StaticSharedBytes > D.SharedMemPerBlockOptin)
      return record(cudaErrorInvalidValue);
    K->MaxDynamicShared.store(Value);
    return cudaSuccess;
  case KernelAttr::PreferredSharedMemoryCarveout:
    // A percentage of the shared/L1 split, or -1 for no preference.
    if (Value < -1 || Value > 100)
      return record(cudaErrorInvalidValue);
    K->PreferredCarveout = Value;
    return cudaSuccess;
  case KernelAttr::ClusterDimMustBeSet:
    // Read-only: set by __cluster_dims__ at compile time.
    return record(cudaErrorInvalidValue);
  case KernelAttr::RequiredClusterWidth:
  case KernelAttr::RequiredClusterHeight:
  case KernelAttr::RequiredClusterDepth:
    // Clusters of more than one block do not exist on these backends.
    if (Value < 0 || Value > 1)
      return record(cudaErrorInvalidValue);
    K->RequiredClusterDim[int(Attr) - int(KernelAttr::RequiredClusterWidth)] =
        Value;
    return cudaSuccess;
  case KernelAttr::NonPortableClusterSizeAllowed:
    if (Value != 0 && Value != 1)
      return record(cudaErrorInvalidValue);
    K->NonPortableClusterSizeAllowed = Value;
    return cudaSuccess;
  case KernelAttr::ClusterSchedulingPolicyPreference:
    // cudaClusterSchedulingPolicyDefault, Spread, LoadBalancing.
    if (Value < 0 || Value > 2)
      return record(cudaErrorInvalidValue);
    K->ClusterSchedulingPolicy = Value;
    return cudaSuccess;
  }
  return record(cudaErrorInvalidValue);
}

Status Runtime::setKernelCacheConfig(Kernel *K, int Config) {
  if (!K)
    return record(cudaErrorInvalidDeviceFunction);
  if (Config < 0 || Config > 3)
    return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(P->RegLock);
  K->CacheConfig = Config;
  return cudaSuccess;
}

Status Runtime::kernelParamInfo(Kernel *K, size_t Index, size_t *Offset,
                                size_t *Size) {
  if (!Offset || !Size)
    return record(cudaErrorInvalidValue);
  const ptx::KernelInfo *Info = nullptr;
  if (Status S = P->loadedKernelInfo(K, &Info))
    return record(S);
  if (Index >= Info->Params.size())
    return record(cudaErrorInvalidValue);
  *Offset = Info->Params[Index].Offset;
  *Size = Info->Params[Index].Size;
  return cudaSuccess;
}

const char *Runtime::kernelName(Kernel *K) {
  return K ? K->Name.c_str() : nullptr;
}

Status Runtime::availableDynamicShared(Kernel *K, int NumBlocks,
                                       int BlockSize, size_t *Bytes) {
  if (!Bytes || NumBlocks <= 0 || BlockSize <= 0)
    return record(cudaErrorInvalidValue);
  const ptx::KernelInfo *Info = nullptr;
  if (Status S = P->loadedKernelInfo(K, &Info))
    return record(S);
  const DeviceInfo &D = deviceInfo(0);
  // The blocks must fit by threads and count before shared memory matters.
  if (cpuResidentBlocks(D, uint64_t(BlockSize), Info->StaticSharedBytes) <
      NumBlocks) {
    *Bytes = 0;
    return cudaSuccess;
  }
  size_t PerBlock = D.SharedMemPerMultiprocessor / size_t(NumBlocks);
  PerBlock = std::min<size_t>(PerBlock, D.SharedMemPerBlockOptin);
  *Bytes = PerBlock > Info->StaticSharedBytes
               ? PerBlock - Info->StaticSharedBytes
               : 0;
  return cudaSuccess;
}

Status Runtime::deviceReset() {
  if (Status S = P->noDeviceStatus())
    return record(S);
  // Outstanding work finishes (or faults) before its memory goes.
  if (HipBackend *Hip = P->hip())
    (void)Hip->synchronize();
  else
    P->Queues.waitAll();
  // The fault ends here: the teardown below uses the ordinary entry points,
  // which a sticky error would refuse.
  P->Sticky.store(cudaSuccess);
  P->AsyncError.store(cudaSuccess);
  resetMemoryTables(*this);
  resetTextureTables(*this);
  std::vector<void *> Bases;
  {
    std::lock_guard<std::mutex> G(P->MemLock);
    for (const auto &[Base, Size] : P->Allocations)
      Bases.push_back(reinterpret_cast<void *>(Base));
  }
  for (void *Base : Bases)
    (void)free(Base);
  std::unordered_map<void *, std::unique_ptr<StreamObj>> Streams;
  std::unordered_map<void *, std::unique_ptr<EventObj>> Events;
  {
    std::lock_guard<std::mutex> G(P->StreamLock);
    Streams.swap(P->Streams);
    Events.swap(P->Events);
  }
  for (auto &[Handle, S] : Streams)
    if (S->Queue)
      P->Queues.retire(S->Queue);
  if (HipBackend *Hip = P->hip()) {
    for (auto &[Handle, S] : Streams)
      (void)Hip->streamDestroy(S->Hip);
    for (auto &[Handle, E] : Events)
      (void)Hip->eventDestroy(E->Hip);
  }
  {
    std::lock_guard<std::mutex> G(P->RegLock);
    for (const auto &K : P->Kernels) {
      K->MaxDynamicShared.store(-1);
      K->PreferredCarveout = -1;
      K->RequiredClusterDim[0] = K->RequiredClusterDim[1] =
          K->RequiredClusterDim[2] = 0;
      K->NonPortableClusterSizeAllowed = 0;
      K->ClusterSchedulingPolicy = 0;
      K->CacheConfig = 0;
    }
  }
  {
    std::lock_guard<std::mutex> G(P->DeviceLock);
    P->Settings = Impl::DeviceSettings();
  }
  ptx::host::setDeviceHeapLimit(8u << 20);
  LastError = cudaSuccess;
  return cudaSuccess;
}

// cudaDeviceScheduleMask | MapHost | LmemResizeToMax | SyncMemops.
constexpr unsigned DeviceFlagsMask = 0x07 | 0x08 | 0x10 | 0x80;
constexpr unsigned DeviceMapHost = 0x08;

Status Runtime::setDeviceFlags(unsigned Flags) {
  if (Status S = P->deviceStatus())
    return record(S);
  if (Status S = stickyError())
    return record(S);
  // One scheduling policy at most: Spin (1), Yield (2) or BlockingSync (4).
  unsigned Schedule = Flags & 0x07;
  if ((Flags & ~DeviceFlagsMask) || (Schedule & (Schedule - 1)))
    return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  P->Settings.Flags = Flags;
  return cudaSuccess;
}

Status Runtime::getDeviceFlags(unsigned *Flags) {
  if (!Flags)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  if (Status S = stickyError())
    return record(S);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  // Host memory is always mapped: device memory is host memory on the CPU
  // backend, and HIP maps pinned memory by default.
  *Flags = P->Settings.Flags | DeviceMapHost;
  return cudaSuccess;
}

Status Runtime::getLimit(DeviceLimit L, size_t *Value) {
  if (!Value)
    return record(cudaErrorInvalidValue);
  if (Status S = P->deviceStatus())
    return record(S);
  if (Status S = stickyError())
    return record(S);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  const Impl::DeviceSettings &D = P->Settings;
  switch (L) {
  case DeviceLimit::StackSize:
    *Value = D.StackSize;
    return cudaSuccess;
  case DeviceLimit::PrintfFifoSize:
    *Value = D.PrintfFifoSize;
    return cudaSuccess;
  case DeviceLimit::MallocHeapSize:
    *Value = size_t(ptx::host::deviceHeapLimit());
    return cudaSuccess;
  case DeviceLimit::MaxL2FetchGranularity:
    *Value = D.MaxL2FetchGranularity;
    return cudaSuccess;
  case DeviceLimit::PersistingL2CacheSize:
    *Value = D.PersistingL2CacheSize;
    return cudaSuccess;
  case DeviceLimit::DevRuntimeSyncDepth:
  case DeviceLimit::DevRuntimePendingLaunchCount:
    // Kernels launch kernels on the CPU backend only (DeviceLaunch.h).
    if (P->hip())
      return record(cudaErrorUnsupportedLimit);
    *Value = L == DeviceLimit::DevRuntimeSyncDepth
                 ? D.DevRuntimeSyncDepth
                 : D.DevRuntimePendingLaunchCount;
    return cudaSuccess;
  }
  return record(cudaErrorUnsupportedLimit);
}

Status Runtime::setLimit(DeviceLimit L, size_t Value) {
  if (Status S = P->deviceStatus())
    return record(S);
  if (Status S = stickyError())
    return record(S);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  Impl::DeviceSettings &D = P->Settings;
  switch (L) {
  case DeviceLimit::StackSize:
    // Kept and reported: a thread's frame is sized from its kernel's PTX,
    // so no kernel runs short of stack because of this value.
    D.StackSize = Value;
    return cudaSuccess;
  case DeviceLimit::PrintfFifoSize:
    // Kept and reported: device printf writes each line as it is called,
    // so no output is ever dropped for want of buffer space.
    D.PrintfFifoSize = Value;
    return cudaSuccess;
  case DeviceLimit::MallocHeapSize:
    ptx::host::setDeviceHeapLimit(Value);
    return cudaSuccess;
  case DeviceLimit::MaxL2FetchGranularity:
    // CUDA takes a power of two from 0 to 128 bytes.
    if (Value > 128 || (Value & (Value - 1)))
      return record(cudaErrorInvalidValue);
    D.MaxL2FetchGranularity = Value;
    return cudaSuccess;
  case DeviceLimit::PersistingL2CacheSize:
    // A request above persistingL2CacheMaxSize gets the maximum, as the
    // driver rounds any request to what the cache can set aside.
    D.PersistingL2CacheSize =
        std::min(Value, size_t(deviceInfo(0).MaxPersistingL2CacheSize));
    return cudaSuccess;
  case DeviceLimit::DevRuntimeSyncDepth:
    // Kept and reported: CUDA 12's device runtime has no device-side
    // synchronisation for the depth to bound.
    if (P->hip())
      return record(cudaErrorUnsupportedLimit);
    if (Value > GridRuntime::MaxDepth)
      return record(cudaErrorInvalidValue);
    D.DevRuntimeSyncDepth = Value;
    return cudaSuccess;
  case DeviceLimit::DevRuntimePendingLaunchCount:
    if (P->hip())
      return record(cudaErrorUnsupportedLimit);
    if (!Value)
      return record(cudaErrorInvalidValue);
    D.DevRuntimePendingLaunchCount = Value;
    return cudaSuccess;
  }
  return record(cudaErrorUnsupportedLimit);
}

Status Runtime::getCacheConfig(int *Config) {
  if (!Config)
    return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  *Config = P->Settings.CacheConfig;
  return cudaSuccess;
}

Status Runtime::setCacheConfig(int Config) {
  // cudaFuncCachePreferNone, Shared, L1, Equal.
  if (Config < 0 || Config > 3)
    return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  P->Settings.CacheConfig = Config;
  return cudaSuccess;
}

Status Runtime::getSharedMemConfig(int *Config) {
  if (!Config)
    return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  *Config = P->Settings.SharedMemConfig;
  return cudaSuccess;
}

Status Runtime::setSharedMemConfig(int Config) {
  // cudaSharedMemBankSizeDefault, FourByte, EightByte.
  if (Config < 0 || Config > 2)
    return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(P->DeviceLock);
  P->Settings.SharedMemConfig = Config;
  return cudaSuccess;
}

} // namespace cuhip::rt
