//===- DriverContext.cpp - Primary and explicit contexts ------------------===//
//
// cuhip has one device and one device state (the runtime core's); a context
// is a handle on it with its own flags (its limits are the device's). Contexts
// are tracked so that a destroyed one, still on some thread's stack or held by
// the program, is rejected with CUDA_ERROR_INVALID_CONTEXT instead of being
// used. Each host thread has its own context stack, as in CUDA; the primary
// context of a device is reference counted and keeps its handle across
// release and retain. Each context, and each time the primary context comes
// alive, gets a number no other context had (cuCtxGetId). The context a
// created stream belongs to is noted here too.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"
#include "ExportTables.h"

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <vector>

using namespace cuhip;
using namespace cuhip::cuda;

struct CUctx_st {
  CUdevice Device = 0;
  unsigned Flags = 0;
  bool Primary = false;
  unsigned long long Id = 0;
};

static CUresult primaryContext(CUcontext *Ctx, CUdevice Dev, bool Retain);

namespace {

struct PrimaryState {
  CUctx_st *Ctx = nullptr; // created on first retain, never freed
  unsigned Refs = 0;
  unsigned Flags = 0;
};

struct Registry {
  std::mutex Lock;
  std::set<CUctx_st *> Live;
  std::vector<PrimaryState> Primary;
  std::map<void *, CUctx_st *> StreamContexts; // created streams
};

std::atomic<unsigned long long> NextContextId{1};
unsigned long long newContextId() {
  return NextContextId.fetch_add(1, std::memory_order_relaxed);
}

Registry &registry() {
  static Registry *R = new Registry; // used from atexit handlers too
  return *R;
}

thread_local std::vector<CUctx_st *> ContextStack;

bool isPrimaryHandle(CUctx_st *C) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  for (const PrimaryState &P : R.Primary)
    if (P.Ctx == C)
      return true;
  return false;
}

bool isLive(CUctx_st *C) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  return R.Live.count(C) != 0;
}

PrimaryState &primary(Registry &R, CUdevice Dev) {
  if (R.Primary.size() <= size_t(Dev))
    R.Primary.resize(Dev + 1);
  return R.Primary[Dev];
}

CUresult createContext(CUcontext *Ctx, unsigned Flags, CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (Flags & ~unsigned(CU_CTX_FLAGS_MASK))
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  auto *C = new CUctx_st;
  C->Device = Dev;
  C->Flags = Flags;
  C->Id = newContextId();
  {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    R.Live.insert(C);
  }
  ContextStack.push_back(C);
  *Ctx = C;
  return CUDA_SUCCESS;
}

/// A thread that used the runtime API and has no context of its own has the
/// primary context of the runtime's current device, as NVIDIA's runtime
/// makes it current there: it goes on the thread's empty stack here. The
/// runtime holds one reference to it, taken the first time any thread
/// needs it.
void bindRuntimeContext() {
  if (!ContextStack.empty() || !rt::Runtime::runtimeApiUsedOnThisThread() ||
      !isInitialized())
    return;
  static std::once_flag RuntimeReference;
  int Dev = 0;
  if (runtime().getDevice(&Dev) != rt::cudaSuccess)
    return;
  CUcontext Ctx = nullptr;
  std::call_once(RuntimeReference,
                 [&] { primaryContext(&Ctx, Dev, /*Retain=*/true); });
  if (primaryContext(&Ctx, Dev, /*Retain=*/false) == CUDA_SUCCESS &&
      isLive(Ctx))
    ContextStack.push_back(Ctx);
}

/// The calling thread's current context if it is live; nullptr otherwise.
CUctx_st *current() {
  bindRuntimeContext();
  if (ContextStack.empty())
    return nullptr;
  CUctx_st *C = ContextStack.back();
  return isLive(C) ? C : nullptr;
}

/// Ctx, or the current context when Ctx is null; nullptr if that is not a
/// live context.
CUctx_st *contextOrCurrent(CUcontext Ctx) {
  if (!Ctx)
    return current();
  return isLive(Ctx) ? Ctx : nullptr;
}

} // namespace

namespace cuhip::cuda {
CUcontext currentContext() { return current(); }

CUresult checkContext() {
  if (CUresult R = checkInit())
    return R;
  return current() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult contextDevice(CUcontext Ctx, CUdevice *Dev) {
  CUctx_st *C = contextOrCurrent(Ctx);
  if (!C)
    return CUDA_ERROR_INVALID_CONTEXT;
  *Dev = C->Device;
  return CUDA_SUCCESS;
}

void noteStreamCreated(void *Stream) {
  CUctx_st *C = current();
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  R.StreamContexts[Stream] = C;
}

void noteStreamDestroyed(void *Stream) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  R.StreamContexts.erase(Stream);
}

CUresult streamContext(void *Stream, CUcontext *Ctx) {
  if (uintptr_t(Stream) <= 2) { // 0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD
    *Ctx = current();
    return *Ctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
  }
  if (!runtime().isStreamHandle(Stream))
    return CUDA_ERROR_INVALID_HANDLE;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = R.StreamContexts.find(Stream);
  // A stream the runtime API created belongs to the primary context of
  // its device, the runtime's only device.
  CUctx_st *C = It != R.StreamContexts.end() ? It->second
                : R.Primary.empty()          ? nullptr
                                             : R.Primary[0].Ctx;
  if (!C || !R.Live.count(C))
    return CUDA_ERROR_INVALID_CONTEXT;
  *Ctx = C;
  return CUDA_SUCCESS;
}
} // namespace cuhip::cuda

//===----------------------------------------------------------------------===//
// Explicit contexts
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuCtxCreate(CUcontext *Ctx, unsigned int Flags,
                                  CUdevice Dev) {
  return createContext(Ctx, Flags, Dev);
}

CUHIP_EXPORT CUresult cuCtxCreate_v2(CUcontext *Ctx, unsigned int Flags,
                                     CUdevice Dev) {
  return createContext(Ctx, Flags, Dev);
}

CUHIP_EXPORT CUresult cuCtxCreate_v3(CUcontext *Ctx,
                                     CUexecAffinityParam *Params,
                                     int NumParams, unsigned int Flags,
                                     CUdevice Dev) {
  // Execution affinity (SM partitioning) has nothing to partition here.
  if (NumParams < 0 || (NumParams > 0 && !Params))
    return CUDA_ERROR_INVALID_VALUE;
  if (NumParams > 0)
    return notSupported("cuCtxCreate_v3 with execution affinity");
  return createContext(Ctx, Flags, Dev);
}

CUHIP_EXPORT CUresult cuCtxCreate_v4(CUcontext *Ctx,
                                     CUctxCreateParams *Params,
                                     unsigned int Flags, CUdevice Dev) {
  if (Params && (Params->numExecAffinityParams > 0 || Params->cigParams))
    return notSupported("cuCtxCreate_v4 with affinity or CIG parameters");
  return createContext(Ctx, Flags, Dev);
}

static CUresult destroyContext(CUcontext Ctx) {
  if (CUresult R = checkInit())
    return R;
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    if (Ctx->Primary || !R.Live.erase(Ctx))
      return CUDA_ERROR_INVALID_CONTEXT;
  }
  runtime().synchronize();
  cuhipExportTablesContextDestroyed(Ctx);
  if (!ContextStack.empty() && ContextStack.back() == Ctx)
    ContextStack.pop_back();
  // The object stays allocated: other threads may still have it on their
  // stacks, where it must read as stale rather than as freed memory.
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxDestroy(CUcontext Ctx) { return destroyContext(Ctx); }
CUHIP_EXPORT CUresult cuCtxDestroy_v2(CUcontext Ctx) {
  return destroyContext(Ctx);
}

static CUresult pushCurrent(CUcontext Ctx) {
  if (CUresult R = checkInit())
    return R;
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isLive(Ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  bindRuntimeContext(); // popping Ctx later returns to the runtime's
  ContextStack.push_back(Ctx);
  return CUDA_SUCCESS;
}

static CUresult popCurrent(CUcontext *Ctx) {
  if (CUresult R = checkInit())
    return R;
  bindRuntimeContext();
  if (ContextStack.empty())
    return CUDA_ERROR_INVALID_CONTEXT;
  CUctx_st *C = ContextStack.back();
  ContextStack.pop_back();
  if (Ctx)
    *Ctx = C;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxPushCurrent(CUcontext Ctx) { return pushCurrent(Ctx); }
CUHIP_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext Ctx) {
  return pushCurrent(Ctx);
}
CUHIP_EXPORT CUresult cuCtxPopCurrent(CUcontext *Ctx) { return popCurrent(Ctx); }
CUHIP_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *Ctx) {
  return popCurrent(Ctx);
}

CUHIP_EXPORT CUresult cuCtxSetCurrent(CUcontext Ctx) {
  if (CUresult R = checkInit())
    return R;
  if (!Ctx) {
    if (!ContextStack.empty())
      ContextStack.pop_back();
    return CUDA_SUCCESS;
  }
  // A primary context may be made current before it is retained: the
  // static CUDA runtime does so with the handle its export table gave out.
  if (!isLive(Ctx) && !isPrimaryHandle(Ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  if (ContextStack.empty())
    ContextStack.push_back(Ctx);
  else
    ContextStack.back() = Ctx;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxGetCurrent(CUcontext *Ctx) {
  if (CUresult R = checkInit())
    return R;
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  bindRuntimeContext();
  *Ctx = ContextStack.empty() ? nullptr : ContextStack.back();
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxGetDevice(CUdevice *Dev) {
  if (CUresult R = checkContext())
    return R;
  if (!Dev)
    return CUDA_ERROR_INVALID_VALUE;
  *Dev = current()->Device;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxSynchronize() {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().synchronize());
}

// CUDA 13: the same for a given context, or the current one when Ctx is
// null.
CUHIP_EXPORT CUresult cuCtxGetDevice_v2(CUdevice *Dev, CUcontext Ctx) {
  if (CUresult R = checkInit())
    return R;
  if (!Dev)
    return CUDA_ERROR_INVALID_VALUE;
  CUctx_st *C = contextOrCurrent(Ctx);
  if (!C)
    return CUDA_ERROR_INVALID_CONTEXT;
  *Dev = C->Device;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxSynchronize_v2(CUcontext Ctx) {
  if (CUresult R = checkInit())
    return R;
  if (!contextOrCurrent(Ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  return toCU(runtime().synchronize());
}

CUHIP_EXPORT CUresult cuCtxGetApiVersion(CUcontext Ctx, unsigned int *Version) {
  if (CUresult R = checkInit())
    return R;
  if (!Version)
    return CUDA_ERROR_INVALID_VALUE;
  if (!contextOrCurrent(Ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  *Version = 3020; // every context has the 64-bit API of CUDA 3.2 on
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxGetFlags(unsigned int *Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!Flags)
    return CUDA_ERROR_INVALID_VALUE;
  *Flags = current()->Flags;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxSetFlags(unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (Flags & ~unsigned(CU_CTX_FLAGS_MASK))
    return CUDA_ERROR_INVALID_VALUE;
  current()->Flags = Flags;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuCtxGetLimit(size_t *Value, CUlimit Limit) {
  if (CUresult R = checkContext())
    return R;
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  if (Limit < 0 || Limit > CU_LIMIT_PERSISTING_L2_CACHE_SIZE)
    return CUDA_ERROR_UNSUPPORTED_LIMIT;
  // The limits are the device's (the runtime core's), as the runtime API
  // sees them, whichever context sets them.
  return toCU(runtime().getLimit(static_cast<rt::DeviceLimit>(Limit), Value));
}

CUHIP_EXPORT CUresult cuCtxSetLimit(CUlimit Limit, size_t Value) {
  if (CUresult R = checkContext())
    return R;
  if (Limit < 0 || Limit > CU_LIMIT_PERSISTING_L2_CACHE_SIZE)
    return CUDA_ERROR_UNSUPPORTED_LIMIT;
  return toCU(runtime().setLimit(static_cast<rt::DeviceLimit>(Limit), Value));
}

CUHIP_EXPORT CUresult cuCtxGetStreamPriorityRange(int *Least, int *Greatest) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().streamPriorityRange(Least, Greatest));
}

CUHIP_EXPORT CUresult cuCtxGetId(CUcontext Ctx, unsigned long long *Id) {
  if (CUresult R = checkInit())
    return R;
  if (!Id)
    return CUDA_ERROR_INVALID_VALUE;
  CUctx_st *C = contextOrCurrent(Ctx);
  if (!C)
    return CUDA_ERROR_INVALID_CONTEXT;
  *Id = C->Id;
  return CUDA_SUCCESS;
}

// The cache and shared memory bank preferences are the device's (the
// runtime core's, as cudaDeviceSetCacheConfig sets them), like the limits;
// CUfunc_cache and CUsharedconfig number them as the runtime API does.
CUHIP_EXPORT CUresult cuCtxGetCacheConfig(CUfunc_cache *Config) {
  if (CUresult R = checkContext())
    return R;
  if (!Config)
    return CUDA_ERROR_INVALID_VALUE;
  return toCU(runtime().getCacheConfig(Config));
}

CUHIP_EXPORT CUresult cuCtxSetCacheConfig(CUfunc_cache Config) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().setCacheConfig(Config));
}

CUHIP_EXPORT CUresult cuCtxGetSharedMemConfig(CUsharedconfig *Config) {
  if (CUresult R = checkContext())
    return R;
  if (!Config)
    return CUDA_ERROR_INVALID_VALUE;
  return toCU(runtime().getSharedMemConfig(Config));
}

CUHIP_EXPORT CUresult cuCtxSetSharedMemConfig(CUsharedconfig Config) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().setSharedMemConfig(Config));
}

//===----------------------------------------------------------------------===//
// Peer access
//===----------------------------------------------------------------------===//

// Every context is on the one device, which cannot be its own peer
// (cuDeviceCanAccessPeer answers 0): peer access is never possible, so
// never enabled. The errors are the ones CUDA documents for each case.
CUHIP_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext Peer,
                                            unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Peer || !isLive(Peer) || Peer == current())
    return CUDA_ERROR_INVALID_CONTEXT;
  return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
}

CUHIP_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext Peer) {
  if (CUresult R = checkContext())
    return R;
  if (!Peer || !isLive(Peer))
    return CUDA_ERROR_INVALID_CONTEXT;
  return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

//===----------------------------------------------------------------------===//
// Primary contexts
//===----------------------------------------------------------------------===//

/// The device's primary context, created on first use. Retain takes a
/// reference, making it live (cuDevicePrimaryCtxRetain); the export tables'
/// primary-context slot (cuhipDevicePrimaryContext) takes none, since the
/// runtime that asks retains and releases the handle itself.
static CUresult primaryContext(CUcontext *Ctx, CUdevice Dev, bool Retain) {
  if (CUresult R = checkInit())
    return R;
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  PrimaryState &P = primary(R, Dev);
  if (!P.Ctx) {
    P.Ctx = new CUctx_st;
    P.Ctx->Device = Dev;
    P.Ctx->Primary = true;
  }
  if (Retain && P.Refs++ == 0) {
    P.Ctx->Flags = P.Flags;
    P.Ctx->Id = newContextId(); // a context that is alive again is a new one
    R.Live.insert(P.Ctx);
  }
  *Ctx = P.Ctx;
  return CUDA_SUCCESS;
}

extern "C" int cuhipDevicePrimaryContext(void **Ctx, int Dev) {
  return primaryContext(reinterpret_cast<CUcontext *>(Ctx), Dev,
                        /*Retain=*/false);
}

CUHIP_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *Ctx, CUdevice Dev) {
  return primaryContext(Ctx, Dev, /*Retain=*/true);
}

static CUresult primaryRelease(CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  PrimaryState &P = primary(R, Dev);
  if (P.Refs == 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (--P.Refs == 0)
    R.Live.erase(P.Ctx);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice Dev) {
  return primaryRelease(Dev);
}
CUHIP_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice Dev) {
  return primaryRelease(Dev);
}

static CUresult primaryReset(CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  runtime().synchronize();
  Registry &R = registry();
  CUctx_st *Ctx = nullptr;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    PrimaryState &P = primary(R, Dev);
    if (P.Ctx)
      R.Live.erase(P.Ctx);
    P.Refs = 0;
    P.Flags = 0;
    Ctx = P.Ctx;
  }
  // What the runtime stored for the context goes with it, destructors run.
  if (Ctx)
    cuhipExportTablesContextDestroyed(Ctx);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice Dev) {
  return primaryReset(Dev);
}
CUHIP_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice Dev) {
  return primaryReset(Dev);
}

CUHIP_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice Dev,
                                                 unsigned int *Flags,
                                                 int *Active) {
  if (CUresult R = checkInit())
    return R;
  if (!Flags || !Active)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  PrimaryState &P = primary(R, Dev);
  *Flags = P.Flags;
  *Active = P.Refs > 0;
  return CUDA_SUCCESS;
}

static CUresult primarySetFlags(CUdevice Dev, unsigned Flags) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  if (Flags & ~unsigned(CU_CTX_FLAGS_MASK))
    return CUDA_ERROR_INVALID_VALUE;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  PrimaryState &P = primary(R, Dev);
  P.Flags = Flags;
  if (P.Ctx)
    P.Ctx->Flags = Flags;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice Dev,
                                                 unsigned int Flags) {
  return primarySetFlags(Dev, Flags);
}
CUHIP_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice Dev,
                                                    unsigned int Flags) {
  return primarySetFlags(Dev, Flags);
}

//===----------------------------------------------------------------------===//
// Profiler control
//===----------------------------------------------------------------------===//

// No profiling tool attaches to cuhip, so enabling or disabling collection
// has nothing to switch; CUDA answers the same when no tool is active.
// cuProfilerInitialize stays unsupported, as CUDA 12 and later define it.
CUHIP_EXPORT CUresult cuProfilerStart() { return checkContext(); }

CUHIP_EXPORT CUresult cuProfilerStop() { return checkContext(); }
