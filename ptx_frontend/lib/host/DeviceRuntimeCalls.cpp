//===- DeviceRuntimeCalls.cpp - Dynamic parallelism's device-side API -----===//
//
// Device code that launches kernels calls the CUDA device runtime
// (DeviceRuntimeApi.h). On the CPU backend each call is a device library
// function: it unpacks the call's argument buffer (laid out as PTX lays out
// the callee's parameters, each at its natural alignment), forwards to the
// DeviceRuntime the runtime gave the running grid (BlockContext::Runtime),
// and packs the result. A grid with no device runtime gets
// cudaErrorNotSupported from every call.
//
//===----------------------------------------------------------------------===//
#include "DeviceLibrary.h"

#include "cuhip/ptx/DeviceRuntimeApi.h"
#include "cuhip/ptx/HostTarget.h"

#include <cstring>
#include <iterator>
#include <utility>
#include <string>

namespace cuhip::ptx::host {

DeviceRuntime::~DeviceRuntime() = default;

namespace {
constexpr int ErrorInvalidValue = 1;     // cudaErrorInvalidValue
constexpr int ErrorNotSupported = 801;   // cudaErrorNotSupported

/// The argument buffer of one call, read field by field at the offsets the
/// callee's parameter list gives them.
class ArgReader {
public:
  explicit ArgReader(const void *Args)
      : A(static_cast<const unsigned char *>(Args)) {}
  template <typename T> T at(size_t Offset) const {
    T V;
    std::memcpy(&V, A + Offset, sizeof(T));
    return V;
  }
  DeviceRuntime::Dim dim(size_t Offset) const {
    return {at<uint32_t>(Offset), at<uint32_t>(Offset + 4),
            at<uint32_t>(Offset + 8)};
  }

private:
  const unsigned char *A;
};

template <typename T> void put(void *Ret, T V) { std::memcpy(Ret, &V, sizeof(T)); }

/// The signature every call has; Runtime is the grid's (never null here).
using Call = int (*)(DeviceRuntime &R, void *Ret, ArgReader A,
                     const BlockContext *Ctx, uint32_t X, uint32_t Y,
                     uint32_t Z);

/// Writes Value through a pointer device code passed, unless it is null.
template <typename T> int store(uint64_t Ptr, T Value) {
  if (!Ptr)
    return ErrorInvalidValue;
  std::memcpy(reinterpret_cast<void *>(Ptr), &Value, sizeof(T));
  return 0;
}

// Each returns the cudaError_t the call returns, except the three that
// return pointers, which write their own result and return 0.
int getParameterBufferV2(DeviceRuntime &R, void *Ret, ArgReader A,
                         const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (const void *func, dim3 grid, dim3 block, unsigned sharedMem)
  int Error = 0;
  put(Ret, R.parameterBuffer(A.at<const void *>(0), A.dim(8), A.dim(20),
                             A.at<uint32_t>(32), Error));
  return Error;
}
int getParameterBuffer(DeviceRuntime &R, void *Ret, ArgReader A,
                       const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (size_t alignment, size_t size)
  int Error = 0;
  put(Ret, R.parameterBuffer(A.at<uint64_t>(0), A.at<uint64_t>(8), Error));
  return Error;
}
int launchDeviceV2(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                   uint32_t, uint32_t, uint32_t) {
  // (void *parameterBuffer, cudaStream_t stream)
  return R.launch(A.at<void *>(0), A.at<uint64_t>(8));
}
int launchDevice(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                 uint32_t, uint32_t, uint32_t) {
  // (const void *func, void *parameterBuffer, dim3 grid, dim3 block,
  //  unsigned sharedMem, cudaStream_t stream)
  return R.launch(A.at<const void *>(0), A.at<void *>(8), A.dim(16),
                  A.dim(28), A.at<uint32_t>(40), A.at<uint64_t>(48));
}
int streamCreateWithFlags(DeviceRuntime &R, void *, ArgReader A,
                          const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (cudaStream_t *stream, unsigned flags)
  uint64_t S = 0;
  if (!A.at<uint64_t>(0))
    return ErrorInvalidValue;
  if (int E = R.streamCreate(&S, A.at<uint32_t>(8)))
    return E;
  return store(A.at<uint64_t>(0), S);
}
int streamDestroy(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                  uint32_t, uint32_t, uint32_t) {
  return R.streamDestroy(A.at<uint64_t>(0));
}
int streamWaitEvent(DeviceRuntime &R, void *, ArgReader A,
                    const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (cudaStream_t stream, cudaEvent_t event, unsigned flags)
  return R.streamWaitEvent(A.at<uint64_t>(0), A.at<uint64_t>(8));
}
int eventCreateWithFlags(DeviceRuntime &R, void *, ArgReader A,
                         const BlockContext *, uint32_t, uint32_t, uint32_t) {
  uint64_t Ev = 0;
  if (!A.at<uint64_t>(0))
    return ErrorInvalidValue;
  if (int E = R.eventCreate(&Ev, A.at<uint32_t>(8)))
    return E;
  return store(A.at<uint64_t>(0), Ev);
}
int eventRecord(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                uint32_t, uint32_t, uint32_t) {
  // (cudaEvent_t event, cudaStream_t stream[, unsigned flags])
  return R.eventRecord(A.at<uint64_t>(0), A.at<uint64_t>(8));
}
int eventDestroy(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                 uint32_t, uint32_t, uint32_t) {
  return R.eventDestroy(A.at<uint64_t>(0));
}
int deviceMallocCall(DeviceRuntime &, void *, ArgReader A,
                     const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (void **ptr, size_t size): the in-kernel heap, as malloc.
  if (!A.at<uint64_t>(0))
    return ErrorInvalidValue;
  void *P = deviceHeapMalloc(A.at<uint64_t>(8));
  store(A.at<uint64_t>(0), P);
  return P ? 0 : 2; // cudaErrorMemoryAllocation
}
int deviceFreeCall(DeviceRuntime &, void *, ArgReader A, const BlockContext *,
                   uint32_t, uint32_t, uint32_t) {
  deviceHeapFree(A.at<void *>(0));
  return 0;
}
int memcpyAsync(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                uint32_t, uint32_t, uint32_t) {
  // (void *dst, const void *src, size_t count, cudaMemcpyKind, stream)
  return R.enqueueCopy(A.at<void *>(0), A.at<const void *>(8),
                       A.at<uint64_t>(16), A.at<uint64_t>(32));
}
int memcpy2DAsync(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                  uint32_t, uint32_t, uint32_t) {
  // (dst, dpitch, src, spitch, width, height, kind, stream)
  return R.enqueueCopy2D(A.at<void *>(0), A.at<uint64_t>(8),
                         A.at<const void *>(16), A.at<uint64_t>(24),
                         A.at<uint64_t>(32), A.at<uint64_t>(40),
                         A.at<uint64_t>(56));
}
int memcpy3DAsync(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                  uint32_t, uint32_t, uint32_t) {
  // (const cudaMemcpy3DParms *p, cudaStream_t stream). Between pitched
  // pointers only: device code has no CUDA arrays to name. The fields:
  // srcArray 0, srcPos 8 (x, y, z), srcPtr 32 (ptr, pitch, xsize, ysize),
  // dstArray 64, dstPos 72, dstPtr 96, extent 128 (width, height, depth),
  // kind 152.
  auto *P = A.at<const unsigned char *>(0);
  if (!P)
    return ErrorInvalidValue;
  ArgReader M(P);
  if (M.at<uint64_t>(0) || M.at<uint64_t>(64))
    return ErrorInvalidValue;
  uint64_t Width = M.at<uint64_t>(128), Height = M.at<uint64_t>(136),
           Depth = M.at<uint64_t>(144);
  uint64_t SPitch = M.at<uint64_t>(40), SSlice = SPitch * M.at<uint64_t>(56);
  uint64_t DPitch = M.at<uint64_t>(104), DSlice = DPitch * M.at<uint64_t>(120);
  auto *Src = M.at<const unsigned char *>(32) + M.at<uint64_t>(8) +
              M.at<uint64_t>(16) * SPitch + M.at<uint64_t>(24) * SSlice;
  auto *Dst = M.at<unsigned char *>(96) + M.at<uint64_t>(72) +
              M.at<uint64_t>(80) * DPitch + M.at<uint64_t>(88) * DSlice;
  for (uint64_t Z = 0; Z < Depth; ++Z)
    if (int E = R.enqueueCopy2D(Dst + Z * DSlice, DPitch, Src + Z * SSlice,
                                SPitch, Width, Height, A.at<uint64_t>(8)))
      return E;
  return 0;
}
int memsetAsync(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                uint32_t, uint32_t, uint32_t) {
  // (void *dst, int value, size_t count, cudaStream_t stream)
  uint64_t Count = A.at<uint64_t>(16);
  return R.enqueueFill(A.at<void *>(0), Count, A.at<uint32_t>(8), Count, 1,
                       A.at<uint64_t>(24));
}
int memset2DAsync(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                  uint32_t, uint32_t, uint32_t) {
  // (void *dst, size_t pitch, int value, size_t width, size_t height, stream)
  return R.enqueueFill(A.at<void *>(0), A.at<uint64_t>(8), A.at<uint32_t>(16),
                       A.at<uint64_t>(24), A.at<uint64_t>(32),
                       A.at<uint64_t>(40));
}
int memset3DAsync(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
                  uint32_t, uint32_t, uint32_t) {
  // (cudaPitchedPtr p {ptr, pitch, xsize, ysize}, int value,
  //  cudaExtent e {width, height, depth}, cudaStream_t stream)
  auto *Dst = A.at<unsigned char *>(0);
  uint64_t Pitch = A.at<uint64_t>(8), Slice = Pitch * A.at<uint64_t>(24);
  uint64_t Depth = A.at<uint64_t>(56);
  for (uint64_t Z = 0; Z < Depth; ++Z)
    if (int E = R.enqueueFill(Dst + Z * Slice, Pitch, A.at<uint32_t>(32),
                              A.at<uint64_t>(40), A.at<uint64_t>(48),
                              A.at<uint64_t>(64)))
      return E;
  return 0;
}
int deviceGetAttribute(DeviceRuntime &R, void *, ArgReader A,
                       const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (int *value, cudaDeviceAttr attr, int device)
  int V = 0;
  if (!A.at<uint64_t>(0))
    return ErrorInvalidValue;
  if (int E = R.deviceAttribute(&V, A.at<int>(8), A.at<int>(12)))
    return E;
  return store(A.at<uint64_t>(0), V);
}
int deviceGetLimit(DeviceRuntime &R, void *, ArgReader A,
                   const BlockContext *, uint32_t, uint32_t, uint32_t) {
  uint64_t V = 0;
  if (!A.at<uint64_t>(0))
    return ErrorInvalidValue;
  if (int E = R.limit(&V, A.at<int>(8)))
    return E;
  return store(A.at<uint64_t>(0), V);
}
int deviceGetCacheConfig(DeviceRuntime &, void *, ArgReader A,
                         const BlockContext *, uint32_t, uint32_t, uint32_t) {
  return store(A.at<uint64_t>(0), 0); // cudaFuncCachePreferNone
}
int deviceGetSharedMemConfig(DeviceRuntime &, void *, ArgReader A,
                             const BlockContext *, uint32_t, uint32_t,
                             uint32_t) {
  return store(A.at<uint64_t>(0), 1); // cudaSharedMemBankSizeFourByte
}
int getLastError(DeviceRuntime &R, void *, ArgReader, const BlockContext *Ctx,
                 uint32_t X, uint32_t Y, uint32_t Z) {
  return R.lastError(Ctx, X, Y, Z, /*Reset=*/true);
}
int peekAtLastError(DeviceRuntime &R, void *, ArgReader,
                    const BlockContext *Ctx, uint32_t X, uint32_t Y,
                    uint32_t Z) {
  return R.lastError(Ctx, X, Y, Z, /*Reset=*/false);
}
int getErrorString(DeviceRuntime &R, void *Ret, ArgReader A,
                   const BlockContext *, uint32_t, uint32_t, uint32_t) {
  put(Ret, R.errorString(A.at<int>(0)));
  return 0;
}
int getErrorName(DeviceRuntime &R, void *Ret, ArgReader A,
                 const BlockContext *, uint32_t, uint32_t, uint32_t) {
  put(Ret, R.errorName(A.at<int>(0)));
  return 0;
}
int getDeviceCount(DeviceRuntime &R, void *, ArgReader A,
                   const BlockContext *, uint32_t, uint32_t, uint32_t) {
  return store(A.at<uint64_t>(0), R.deviceCount());
}
int getDevice(DeviceRuntime &R, void *, ArgReader A, const BlockContext *,
              uint32_t, uint32_t, uint32_t) {
  return store(A.at<uint64_t>(0), R.device());
}
int funcGetAttributes(DeviceRuntime &R, void *, ArgReader A,
                      const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (cudaFuncAttributes *attr, const void *func)
  if (!A.at<uint64_t>(0))
    return ErrorInvalidValue;
  return R.funcAttributes(A.at<void *>(0), A.at<const void *>(8));
}
int runtimeGetVersion(DeviceRuntime &R, void *, ArgReader A,
                      const BlockContext *, uint32_t, uint32_t, uint32_t) {
  return store(A.at<uint64_t>(0), R.runtimeVersion());
}
int maxActiveBlocks(DeviceRuntime &R, void *, ArgReader A,
                    const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (int *numBlocks, const void *func, int blockSize, size_t dynamicSmem
  //  [, unsigned flags])
  int N = 0;
  if (!A.at<uint64_t>(0))
    return ErrorInvalidValue;
  if (int E = R.maxActiveBlocks(&N, A.at<const void *>(8), A.at<int>(16),
                                A.at<uint64_t>(24)))
    return E;
  return store(A.at<uint64_t>(0), N);
}
int graphSetConditional(DeviceRuntime &R, void *, ArgReader A,
                        const BlockContext *, uint32_t, uint32_t, uint32_t) {
  // (cudaGraphConditionalHandle handle, unsigned int value); returns void.
  R.setConditional(A.at<uint64_t>(0), A.at<uint32_t>(8));
  return 0;
}

/// The call of each entry of DeviceRuntimeFunctions, in its order.
struct Entry {
  std::string_view Name;
  Call Fn;
};
constexpr Entry Table[] = {
    {"GetParameterBuffer", getParameterBuffer},
    {"GetParameterBufferV2", getParameterBufferV2},
    {"LaunchDevice", launchDevice},
    {"LaunchDeviceV2", launchDeviceV2},
    {"StreamCreateWithFlags", streamCreateWithFlags},
    {"StreamDestroy", streamDestroy},
    {"StreamWaitEvent", streamWaitEvent},
    {"EventCreateWithFlags", eventCreateWithFlags},
    {"EventRecord", eventRecord},
    {"EventRecordWithFlags", eventRecord},
    {"EventDestroy", eventDestroy},
    {"Malloc", deviceMallocCall},
    {"Free", deviceFreeCall},
    {"MemcpyAsync", memcpyAsync},
    {"Memcpy2DAsync", memcpy2DAsync},
    {"Memcpy3DAsync", memcpy3DAsync},
    {"MemsetAsync", memsetAsync},
    {"Memset2DAsync", memset2DAsync},
    {"Memset3DAsync", memset3DAsync},
    {"DeviceGetAttribute", deviceGetAttribute},
    {"DeviceGetLimit", deviceGetLimit},
    {"DeviceGetCacheConfig", deviceGetCacheConfig},
    {"DeviceGetSharedMemConfig", deviceGetSharedMemConfig},
    {"GetLastError", getLastError},
    {"PeekAtLastError", peekAtLastError},
    {"GetErrorString", getErrorString},
    {"GetErrorName", getErrorName},
    {"GetDeviceCount", getDeviceCount},
    {"GetDevice", getDevice},
    {"FuncGetAttributes", funcGetAttributes},
    {"RuntimeGetVersion", runtimeGetVersion},
    {"OccupancyMaxActiveBlocksPerMultiprocessor", maxActiveBlocks},
    {"OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", maxActiveBlocks},
    {"GraphSetConditional", graphSetConditional},
};
constexpr bool tableFollowsTheNames() {
  if (std::size(Table) != std::size(DeviceRuntimeFunctions))
    return false;
  for (size_t I = 0; I < std::size(Table); ++I)
    if (Table[I].Name != DeviceRuntimeFunctions[I])
      return false;
  return true;
}
static_assert(tableFollowsTheNames(),
              "Table must list DeviceRuntimeFunctions in order");

/// The device library function of each call: one instantiation per entry,
/// so generated code calls a plain function pointer.
template <size_t Index>
void deviceRuntimeEntry(void *Ret, const void *Args, const BlockContext *Ctx,
                        uint32_t X, uint32_t Y, uint32_t Z) {
  constexpr std::string_view Name = Table[Index].Name;
  constexpr Call Fn = Table[Index].Fn;
  // The calls that return a pointer return null on failure.
  constexpr bool ReturnsPointer = Name == "GetParameterBuffer" ||
                                  Name == "GetParameterBufferV2" ||
                                  Name == "GetErrorString" ||
                                  Name == "GetErrorName";
  DeviceRuntime *R = Ctx ? Ctx->Runtime : nullptr;
  if (!R) {
    if (ReturnsPointer)
      put<const void *>(Ret, nullptr);
    else
      put(Ret, ErrorNotSupported);
    return;
  }
  int Error = Fn(*R, Ret, ArgReader(Args), Ctx, X, Y, Z);
  if (Error && Name != "GetLastError" && Name != "PeekAtLastError")
    R->setLastError(Ctx, X, Y, Z, Error);
  if (!ReturnsPointer)
    put(Ret, Error);
}

template <size_t... I>
DeviceLibraryFunction entryFor(std::string_view F, std::index_sequence<I...>) {
  DeviceLibraryFunction Fn = nullptr;
  ((F == DeviceRuntimeFunctions[I]
        ? (Fn = &deviceRuntimeEntry<I>, 0)
        : 0),
   ...);
  return Fn;
}
} // namespace

DeviceLibraryFunction deviceRuntimeCall(const std::string &Name) {
  std::string_view F = deviceRuntimeFunction(Name);
  if (F.empty())
    return nullptr;
  return entryFor(F, std::make_index_sequence<std::size(DeviceRuntimeFunctions)>());
}

} // namespace cuhip::ptx::host
