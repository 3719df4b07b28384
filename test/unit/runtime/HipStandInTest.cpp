//===- HipStandInTest.cpp - The HIP backend against a recording stand-in --===//
//
// What the HIP backend does once HIP reports a device, checked against the
// stand-in libamdhip64 of StandInHip.cpp (there is no AMD GPU here): which
// HIP calls each core operation makes and with what arguments, the device
// properties it reports, code objects that are real AMDGPU ELF files with
// the kernels' descriptors, the kernarg buffer of a launch byte for byte,
// stream and event handles, error translation and sticky faults, cooperative
// launches with and without the entry point, the code-object compile
// cache across processes, module variables found through hipModuleGetGlobal,
// stream-ordered allocation and pools, virtual memory management, and
// cudaErrorNotSupported from each of those where the library lacks the
// entry point. Each case runs in a child process, since the backend is
// chosen once per process. Nothing here runs a kernel.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/FatbinWriter.h"
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace cuhip::rt;

namespace {

// out[i] = a * out[i] for i < n.
const char *ScalePtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry scale(.param .u64 out, .param .u32 n, .param .f32 a)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  ld.param.f32 %f1, [a];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.f32 %f2, [%rd2];
  mul.f32 %f2, %f2, %f1;
  st.global.f32 [%rd2], %f2;
DONE:
  ret;
}
.visible .entry sizes(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %dynamic_smem_size;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

std::string standInLog(const char *Library) {
  void *H = dlopen(Library, RTLD_NOW | RTLD_NOLOAD);
  if (!H)
    return "";
  auto Fn = reinterpret_cast<const char *(*)()>(dlsym(H, "standInHipLog"));
  return Fn ? Fn() : "";
}

bool logHas(const char *Library, const std::string &Line) {
  std::string Log = standInLog(Library);
  bool Found = Log.find(Line) != std::string::npos;
  if (!Found)
    std::fprintf(stderr, "missing in the HIP call log: %s\nlog:\n%s\n",
                 Line.c_str(), Log.c_str());
  return Found;
}

std::string hexBytes(const void *P, size_t N) {
  std::string S;
  char B[4];
  for (size_t I = 0; I < N; ++I) {
    std::snprintf(B, sizeof(B), "%02x", static_cast<const uint8_t *>(P)[I]);
    S += B;
  }
  return S;
}

void setEnvironment(const char *Library, const std::string &CacheDir) {
  setenv("CUHIP_BACKEND", "hip", 1);
  setenv("CUHIP_HIP_LIBRARY", Library, 1);
  setenv("CUHIP_CACHE_DIR", CacheDir.c_str(), 1);
  setenv("CUHIP_LOG", "info", 1);
}

/// Loads ScalePtx and returns its kernel, or null.
Kernel *loadScale() {
  Runtime &R = Runtime::get();
  Module *M = nullptr;
  Kernel *K = nullptr;
  if (R.loadModuleData(ScalePtx, 0, "scale.ptx", &M) != cudaSuccess ||
      R.moduleGetFunction(M, "scale", &K) != cudaSuccess)
    return nullptr;
  return K;
}

/// Device properties, module loading, a launch on a created stream, copies,
/// events and host functions. Returns a bit per failed check.
int checkOperations(const char *Lib) {
  Runtime &R = Runtime::get();
  int Failed = 0;
  const DeviceInfo &D = R.deviceInfo(0);
  if (R.deviceCount() != 1 || D.Name != "Stand-in Instinct (gfx942)" ||
      D.WarpSize != 32 || D.MultiProcessorCount != 304 ||
      D.SharedMemPerBlock != 65536 || D.SharedMemPerBlockOptin != 65536 ||
      D.ClockRateKHz != 2100000 || D.L2CacheSize != (4 << 20) ||
      D.TotalGlobalMem != (size_t(192) << 30) || D.Integrated ||
      !D.ConcurrentKernels || D.AsyncEngineCount != 2 ||
      D.MemoryBusWidth != 8192 || D.MaxThreadsPerBlock != 1024 ||
      // No hipModuleLaunchCooperativeKernel in this library.
      D.CooperativeLaunch ||
      // Host memory as HIP reports it: managed memory, nothing concurrent
      // or pageable (attributes it does not answer), and no texture objects
      // (the CPU backend's sampler).
      !D.ManagedMemory || !D.MemoryPools || D.ConcurrentManagedAccess ||
      D.PageableMemoryAccess || D.TextureObjects ||
      D.MaxPersistingL2CacheSize != 0)
    Failed |= 1 << 0;
  Kernel *K = loadScale();
  if (!K || !logHas(Lib, "hipModuleGetFunction scale"))
    Failed |= 1 << 1;
  void *Buf = nullptr;
  if (R.malloc(&Buf, 256) != cudaSuccess || !logHas(Lib, "hipMalloc 256"))
    Failed |= 1 << 2;
  // Priorities are clamped to HIP's range [0, -1].
  void *S = nullptr;
  int Priority = 0;
  if (R.streamCreate(&S, 1, -5) != cudaSuccess ||
      R.streamGetPriority(S, &Priority) != cudaSuccess || Priority != -1 ||
      !logHas(Lib, "hipStreamCreateWithPriority 0x5010 flags 1 priority -1"))
    Failed |= 1 << 3;
  // The kernarg buffer is the PTX parameter buffer: out at 0, n at 8, a at
  // 12, 16 bytes in all.
  uint32_t N = 7;
  float A = 2.0f;
  void *Args[] = {&Buf, &N, &A};
  uint8_t Expect[16] = {};
  std::memcpy(Expect, &Buf, 8);
  std::memcpy(Expect + 8, &N, 4);
  std::memcpy(Expect + 12, &A, 4);
  if (K && (R.launch(K, Dim3{2, 1, 1}, Dim3{64, 1, 1}, Args, 128, S) !=
                cudaSuccess ||
            !logHas(Lib, "hipModuleLaunchKernel scale grid 2,1,1 block "
                         "64,1,1 shared 128 stream 0x5010 params " +
                             hexBytes(Expect, 16))))
    Failed |= 1 << 4;
  // Default streams: the legacy one is HIP's null stream, the per-thread
  // one keeps its value 0x2.
  float Host[4] = {1, 2, 3, 4};
  if (R.memcpyAsync(Buf, Host, 16, CopyKind::HostToDevice, nullptr) !=
          cudaSuccess ||
      !logHas(Lib, "hipMemcpyAsync 16 kind 1 stream (nil)") ||
      R.memsetAsync(Buf, 0, 8, reinterpret_cast<void *>(2)) != cudaSuccess ||
      !logHas(Lib, "hipMemsetAsync 8 value 0 stream 0x2"))
    Failed |= 1 << 5;
  // Events map to HIP events; the elapsed time is HIP's.
  void *E1 = nullptr, *E2 = nullptr;
  float Ms = 0;
  if (R.eventCreate(&E1, 0) != cudaSuccess ||
      R.eventCreate(&E2, 1) != cudaSuccess ||
      R.eventRecord(E1, S) != cudaSuccess ||
      R.eventRecord(E2, S) != cudaSuccess ||
      R.streamWaitEvent(nullptr, E2, 0) != cudaSuccess ||
      R.eventElapsedTime(&Ms, E1, E2) != cudaSuccess || Ms != 1.5f ||
      !logHas(Lib, "hipEventCreateWithFlags 0x9020 flags 1") ||
      !logHas(Lib, "hipEventRecord 0x9010 stream 0x5010") ||
      !logHas(Lib, "hipStreamWaitEvent (nil) 0x9020 0"))
    Failed |= 1 << 6;
  // A query that finds work pending answers cudaErrorNotReady without
  // making it the last error.
  if (R.streamQuery(S) != cudaErrorNotReady ||
      R.getLastError() != cudaSuccess)
    Failed |= 1 << 7;
  // A kernel that reads %dynamic_smem_size gets the launch's dynamic size
  // as a u32 after its parameters: here at offset 8, 12 bytes in all.
  Module *SM = nullptr;
  Kernel *Sizes = nullptr;
  uint8_t SizesArgs[12] = {};
  uint32_t Dyn = 96;
  std::memcpy(SizesArgs, &Buf, 8);
  std::memcpy(SizesArgs + 8, &Dyn, 4);
  void *SArgs[] = {&Buf};
  if (R.loadModuleData(ScalePtx, 0, "sizes.ptx", &SM) != cudaSuccess ||
      R.moduleGetFunction(SM, "sizes", &Sizes) != cudaSuccess ||
      R.launch(Sizes, Dim3{1, 1, 1}, Dim3{32, 1, 1}, SArgs, Dyn, nullptr) !=
          cudaSuccess ||
      !logHas(Lib, "hipModuleLaunchKernel sizes grid 1,1,1 block 32,1,1 "
                   "shared 96 stream (nil) params " +
                       hexBytes(SizesArgs, 12)))
    Failed |= 1 << 12;
  static int Ran = 0;
  if (R.streamAddHostFunc(S, [](void *P) { *static_cast<int *>(P) += 1; },
                          &Ran) != cudaSuccess ||
      Ran != 1 || !logHas(Lib, "hipStreamAddCallback 0x5010 flags 0"))
    Failed |= 1 << 8;
  // Without the cooperative entry point (ROCm 5) a cooperative launch is
  // refused, not run as an ordinary one.
  if (K && R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, nullptr,
                    /*Cooperative=*/true) != cudaErrorNotSupported)
    Failed |= 1 << 9;
  if (R.streamDestroy(S) != cudaSuccess ||
      !logHas(Lib, "hipStreamDestroy 0x5010") ||
      R.streamSynchronize(S) != cudaErrorInvalidResourceHandle ||
      R.eventDestroy(E1) != cudaSuccess || R.eventDestroy(E2) != cudaSuccess)
    Failed |= 1 << 10;
  R.getLastError();
  // A kernel fault HIP reports at a synchronisation is sticky.
  setenv("STANDIN_HIP_SYNC_ERROR", "700", 1);
  void *Other = nullptr;
  if (R.synchronize() != cudaErrorIllegalAddress ||
      R.stickyError() != cudaErrorIllegalAddress ||
      R.malloc(&Other, 16) != cudaErrorIllegalAddress)
    Failed |= 1 << 11;
  return Failed;
}

/// A cooperative launch where HIP has hipModuleLaunchCooperativeKernel:
/// one pointer per argument, into the packed buffer.
int checkCooperative(const char *Lib) {
  Runtime &R = Runtime::get();
  Kernel *K = loadScale();
  if (!K)
    return 1;
  if (!R.deviceInfo(0).CooperativeLaunch)
    return 2;
  void *Buf = reinterpret_cast<void *>(uintptr_t(0x1122334455667788));
  uint32_t N = 7;
  float A = 2.0f;
  void *Args[] = {&Buf, &N, &A};
  uint8_t Second[8] = {};
  std::memcpy(Second, &N, 4);
  std::memcpy(Second + 4, &A, 4);
  if (R.launch(K, Dim3{4, 1, 1}, Dim3{128, 1, 1}, Args, 0, nullptr,
               /*Cooperative=*/true) != cudaSuccess)
    return 4;
  if (!logHas(Lib, "hipModuleLaunchCooperativeKernel scale grid 4,1,1 block "
                   "128,1,1 shared 0 stream (nil) args " +
                       hexBytes(&Buf, 8) + " " + hexBytes(Second, 8)))
    return 8;
  return 0;
}

/// The memory family beyond hipMalloc: which HIP call each operation makes.
/// Returns 1 + the number of the first failed check (an exit status keeps
/// only 8 bits, too few for a bit per check), 0 if all hold.
int checkMemoryFamily(const char *Lib) {
  Runtime &R = Runtime::get();
  int Failed = 0;
  auto check = [&](bool Ok, int Number) {
    if (!Ok && !Failed)
      Failed = Number + 1;
  };
  void *Pinned = nullptr, *Dev = nullptr;
  check(R.hostAlloc(&Pinned, 4096, /*Mapped*/ 2) == cudaSuccess &&
            logHas(Lib, "hipHostMalloc 4096 flags 2"),
        0);
  check(R.hostGetDevicePointer(&Dev, static_cast<char *>(Pinned) + 16, 0) ==
                cudaSuccess &&
            Dev == static_cast<char *>(Pinned) + 16 &&
            logHas(Lib, "hipHostGetDevicePointer flags 0"),
        1);
  check(R.free(Pinned) == cudaErrorInvalidValue, 2);
  check(R.freeHost(Pinned) == cudaSuccess && logHas(Lib, "hipHostFree"), 3);

  static char Buffer[8192];
  check(R.hostRegister(Buffer, sizeof Buffer, /*Portable*/ 1) == cudaSuccess &&
            logHas(Lib, "hipHostRegister 8192 flags 1"),
        4);
  check(R.hostRegister(Buffer, 16, 0) == cudaErrorHostMemoryAlreadyRegistered,
        5);
  check(R.hostUnregister(Buffer) == cudaSuccess &&
            logHas(Lib, "hipHostUnregister"),
        6);

  void *Managed = nullptr;
  check(R.mallocManaged(&Managed, 1000, /*Global*/ 1) == cudaSuccess &&
            logHas(Lib, "hipMallocManaged 1000 flags 1") &&
            R.isDeviceRange(Managed, 1000),
        7);
  check(R.free(Managed) == cudaSuccess, 8);

  size_t Free = 0, Total = 0;
  check(R.memGetInfo(&Free, &Total) == cudaSuccess &&
            Total == size_t(192) << 30 && Free == size_t(100) << 30,
        9);

  // A pitched image: 2D copies and sets are single HIP calls per slice.
  void *Img = nullptr;
  size_t Pitch = 0;
  check(R.mallocPitch(&Img, &Pitch, 100, 4) == cudaSuccess && Pitch == 256, 10);
  std::vector<unsigned char> Host(100 * 4, 7);
  PitchedSide D{Img, Pitch, 4}, S{Host.data(), 100, 4};
  check(R.memcpy3D(D, S, 100, 4, 1, CopyKind::HostToDevice, nullptr, false) ==
                cudaSuccess &&
            logHas(Lib, "hipMemcpy2D dpitch 256 spitch 100 width 100 height "
                        "4 kind 1"),
        11);
  // Two slices of two rows each.
  PitchedSide D2{Img, Pitch, 2}, S2{Host.data(), 100, 2};
  check(R.memcpy3D(S2, D2, 100, 2, 2, CopyKind::DeviceToHost, nullptr, true) ==
                cudaSuccess &&
            logHas(Lib, "hipMemcpy2DAsync dpitch 100 spitch 256 width 100 "
                        "height 2 kind 2 stream (nil)"),
        12);
  check(R.memset3D(D, 3, 50, 4, 1, nullptr, false) == cudaSuccess &&
            logHas(Lib, "hipMemset2D pitch 256 value 3 width 50 height 4") &&
            static_cast<unsigned char *>(Img)[3 * 256 + 49] == 3,
        13);
  check(R.free(Img) == cudaSuccess, 14);
  return Failed;
}

// Module variables as nvcc declares them in whole-program mode (no
// .visible), one of them __managed__; the kernel uses each.
const char *VariablesPtx = R"(.version 9.0
.target sm_80
.address_size 64
.const .align 4 .b8 coef[16];
.global .align 4 .u32 counter;
.global .align 4 .f32 scale = 0f40000000;
.global .attribute(.managed) .align 4 .u32 shared_count;
.visible .entry scaleCoef(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  mov.u64 %rd4, coef;
  add.s64 %rd5, %rd4, %rd3;
  ld.const.f32 %f1, [%rd5];
  ld.global.f32 %f2, [scale];
  mul.f32 %f3, %f1, %f2;
  add.s64 %rd6, %rd2, %rd3;
  st.global.f32 [%rd6], %f3;
  atom.global.add.u32 %r2, [counter], 1;
  atom.global.add.u32 %r3, [shared_count], 1;
  ret;
}
)";

// Host shadows: only their addresses matter.
float ShadowCoef[4];
unsigned ShadowCounter;
float ShadowScale;
unsigned *ShadowShared;
void stubScaleCoef() {}

/// Registers VariablesPtx as cudart does for an nvcc-built program.
void **registerVariables() {
  Runtime &R = Runtime::get();
  static cuhip::fatbin::RegistrableFatbin F(VariablesPtx);
  void **H = R.registerFatBinary(&F.Wrapper);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubScaleCoef),
                     "scaleCoef");
  R.registerVar(H, ShadowCoef, "coef", 16, true);
  R.registerVar(H, &ShadowCounter, "counter", 4, false);
  R.registerVar(H, &ShadowScale, "scale", 4, false);
  R.registerManagedVar(H, reinterpret_cast<void **>(&ShadowShared),
                       "shared_count", 4);
  R.registerFatBinaryEnd(H);
  return H;
}

/// Device variables by symbol and by module: the address is
/// hipModuleGetGlobal's, copies reach it with the right bytes. Returns 1 +
/// the number of the first failed check, 0 if all hold.
int checkModuleVariables(const char *Lib) {
  Runtime &R = Runtime::get();
  int Failed = 0;
  auto check = [&](bool Ok, int Number) {
    if (!Ok && !Failed)
      Failed = Number + 1;
  };
  registerVariables();
  void *Coef = nullptr;
  size_t Size = 0;
  check(R.symbolAddress(ShadowCoef, &Coef, &Size) == cudaSuccess &&
            Size == 16 && logHas(Lib, "hipModuleGetGlobal coef bytes 16"),
        0);
  const float Values[4] = {1.5f, 2.5f, 3.5f, 4.5f};
  check(R.memcpyToSymbol(ShadowCoef, Values + 1, 8, 4, CopyKind::HostToDevice,
                         nullptr, false) == cudaSuccess &&
            std::memcmp(static_cast<char *>(Coef) + 4, Values + 1, 8) == 0 &&
            logHas(Lib, "hipMemcpy 8 kind 1"),
        1);
  unsigned Count = 41;
  void *Counter = nullptr;
  check(R.symbolAddress(&ShadowCounter, &Counter, nullptr) == cudaSuccess &&
            (*static_cast<unsigned *>(Counter) = 42, true) &&
            R.memcpyFromSymbol(&Count, &ShadowCounter, 4, 0,
                               CopyKind::DeviceToHost, nullptr,
                               true) == cudaSuccess &&
            Count == 42 && logHas(Lib, "hipMemcpyAsync 4 kind 2 stream (nil)"),
        2);
  // cudaGetSymbolSize's answer, and copies past the end are refused.
  check(R.symbolAddress(&ShadowScale, nullptr, &Size) == cudaSuccess &&
            Size == 4 &&
            R.memcpyToSymbol(&ShadowScale, Values, 8, 0, CopyKind::HostToDevice,
                             nullptr, false) == cudaErrorInvalidValue,
        3);
  // A __managed__ variable lives in the code object, where the host cannot
  // reach it: refused, not handed out.
  check(R.symbolAddress(&ShadowShared, nullptr, &Size) == cudaErrorNotSupported,
        4);
  R.getLastError();
  // The driver API's cuModuleGetGlobal on a module it loaded.
  Module *M = nullptr;
  void *Addr = nullptr;
  check(R.loadModuleData(VariablesPtx, 0, "vars.ptx", &M) == cudaSuccess &&
            R.moduleGetGlobal(M, "counter", &Addr, &Size) == cudaSuccess &&
            Addr && Size == 4 &&
            R.moduleGetGlobal(M, "missing", &Addr, &Size) ==
                cudaErrorSymbolNotFound,
        5);
  return Failed;
}

/// Stream-ordered allocation and pools: HIP's calls, on the HIP stream,
/// with attributes that round-trip.
int checkPools(const char *Lib) {
  Runtime &R = Runtime::get();
  int Failed = 0;
  auto check = [&](bool Ok, int Number) {
    if (!Ok && !Failed)
      Failed = Number + 1;
  };
  void *S = nullptr;
  check(R.streamCreate(&S, 0, 0) == cudaSuccess, 0);
  void *Ptr = nullptr;
  check(R.mallocFromPoolAsync(&Ptr, 1000, nullptr, S) == cudaSuccess &&
            logHas(Lib, "hipMallocAsync 1000 stream 0x5010") &&
            R.isDeviceRange(Ptr, 1000),
        1);
  check(R.freeAsync(Ptr, S) == cudaSuccess &&
            logHas(Lib, "hipFreeAsync stream 0x5010") &&
            !R.isDeviceRange(Ptr, 1),
        2);
  check(R.freeAsync(Ptr, S) == cudaErrorInvalidValue, 3);
  void *Default = nullptr;
  check(R.deviceGetDefaultMemPool(&Default, 0) == cudaSuccess && Default &&
            logHas(Lib, "hipDeviceGetDefaultMemPool 0"),
        4);
  MemPoolProps Props;
  Props.MaxSize = 1 << 20;
  void *Pool = nullptr;
  check(R.memPoolCreate(&Pool, Props) == cudaSuccess &&
            logHas(Lib, "hipMemPoolCreate type 1 handles 0 location 1,0 "
                        "maxSize 1048576"),
        5);
  uint64_t Threshold = 123456, Read = 0;
  int Reuse = 0, ReadReuse = 1;
  check(R.memPoolSetAttribute(Pool, 4, &Threshold) == cudaSuccess &&
            R.memPoolGetAttribute(Pool, 4, &Read) == cudaSuccess &&
            Read == Threshold &&
            logHas(Lib, "hipMemPoolSetAttribute 4 u64 123456"),
        6);
  check(R.memPoolSetAttribute(Pool, 2, &Reuse) == cudaSuccess &&
            R.memPoolGetAttribute(Pool, 2, &ReadReuse) == cudaSuccess &&
            ReadReuse == 0 && logHas(Lib, "hipMemPoolSetAttribute 2 int 0"),
        7);
  check(R.mallocFromPoolAsync(&Ptr, 64, Pool, nullptr) == cudaSuccess &&
            logHas(Lib, "hipMallocFromPoolAsync 64 pool created stream "
                        "(nil)") &&
            R.free(Ptr) == cudaSuccess,
        8);
  check(R.deviceSetMemPool(0, Pool) == cudaSuccess &&
            R.deviceGetMemPool(&Ptr, 0) == cudaSuccess && Ptr == Pool &&
            logHas(Lib, "hipDeviceSetMemPool 0 created"),
        9);
  check(R.memPoolTrimTo(Pool, 4096) == cudaSuccess &&
            logHas(Lib, "hipMemPoolTrimTo 4096"),
        10);
  // Handles HIP never gave out, and attributes CUDA does not have.
  int Unknown = 0;
  check(R.memPoolGetAttribute(&Unknown, 4, &Read) == cudaErrorInvalidValue &&
            R.memPoolSetAttribute(Pool, 9, &Threshold) ==
                cudaErrorInvalidValue &&
            R.mallocFromPoolAsync(&Ptr, 64, &Unknown, nullptr) ==
                cudaErrorInvalidValue,
        11);
  check(R.memPoolDestroy(Pool) == cudaSuccess &&
            logHas(Lib, "hipMemPoolDestroy") &&
            R.memPoolTrimTo(Pool, 0) == cudaErrorInvalidValue,
        12);
  return Failed;
}

/// Virtual memory management: each call reaches HIP with the arguments
/// given, and an accessible mapping is a device range until it is unmapped.
int checkVirtualMemory(const char *Lib) {
  Runtime &R = Runtime::get();
  int Failed = 0;
  auto check = [&](bool Ok, int Number) {
    if (!Ok && !Failed)
      Failed = Number + 1;
  };
  check(R.virtualMemoryOnHip(), 0);
  size_t Gran = 0;
  check(R.vmGranularity(&Gran, 0, true) == cudaSuccess &&
            Gran == size_t(4) << 20 &&
            logHas(Lib, "hipMemGetAllocationGranularity type 1 location 1,0 "
                        "option 1"),
        1);
  uint64_t Handle = 0;
  size_t Bytes = size_t(4) << 20;
  check(R.vmCreate(&Handle, Bytes, 0, 0) == cudaSuccess && Handle == 0x701 &&
            logHas(Lib, "hipMemCreate 4194304 type 1 location 1,0 flags 0 -> "
                        "0x701"),
        2);
  void *Va = nullptr;
  check(R.vmReserve(&Va, 2 * Bytes, Bytes, nullptr, 0) == cudaSuccess && Va &&
            logHas(Lib, "hipMemAddressReserve 8388608 align 4194304 addr "
                        "(nil) flags 0"),
        3);
  char Line[128];
  std::snprintf(Line, sizeof Line,
                "hipMemMap %p 4194304 offset 0 handle "
                "0x701 flags 0",
                Va);
  check(R.vmMap(Va, Bytes, 0, Handle, 0) == cudaSuccess && logHas(Lib, Line),
        4);
  VirtualAccess Access{1, 0, 3};
  std::snprintf(Line, sizeof Line,
                "hipMemSetAccess %p 4194304 count 1 "
                "[location 1,0 flags 3]",
                Va);
  check(!R.isDeviceRange(Va, 16) &&
            R.vmSetAccess(Va, Bytes, &Access, 1) == cudaSuccess &&
            logHas(Lib, Line) && R.isDeviceRange(Va, Bytes) &&
            R.free(Va) == cudaErrorInvalidValue,
        5);
  R.getLastError();
  std::snprintf(Line, sizeof Line, "hipMemUnmap %p 4194304", Va);
  check(R.vmUnmap(Va, Bytes / 2) == cudaErrorInvalidValue &&
            R.vmUnmap(Va, Bytes) == cudaSuccess && logHas(Lib, Line) &&
            !R.isDeviceRange(Va, 16),
        6);
  R.getLastError();
  check(R.vmRelease(Handle) == cudaSuccess &&
            logHas(Lib, "hipMemRelease 0x701") &&
            R.vmFree(Va, 2 * Bytes) == cudaSuccess &&
            logHas(Lib, "hipMemAddressFree 8388608"),
        7);
  return Failed;
}

/// Without the entry points (a library that lacks them) each operation is
/// cudaErrorNotSupported, after the arguments are checked.
int checkMissingEntryPoints() {
  Runtime &R = Runtime::get();
  int Failed = 0;
  auto check = [&](Status Got, int Number) {
    if (Got != cudaErrorNotSupported && !Failed) {
      std::fprintf(stderr, "check %d: %s\n", Number, statusName(Got));
      Failed = Number + 1;
    }
  };
  registerVariables();
  void *Addr = nullptr;
  size_t Size = 0;
  float Value = 1;
  check(R.symbolAddress(ShadowCoef, &Addr, &Size), 0);
  check(R.memcpyToSymbol(&ShadowScale, &Value, 4, 0, CopyKind::HostToDevice,
                         nullptr, false),
        1);
  check(R.memcpyFromSymbol(&Value, &ShadowScale, 4, 0, CopyKind::DeviceToHost,
                           nullptr, false),
        2);
  Module *M = nullptr;
  if (R.loadModuleData(VariablesPtx, 0, "vars.ptx", &M) != cudaSuccess)
    return 100;
  check(R.moduleGetGlobal(M, "counter", &Addr, &Size), 3);
  void *Ptr = nullptr, *Pool = nullptr;
  check(R.mallocFromPoolAsync(&Ptr, 64, nullptr, nullptr), 4);
  check(R.deviceGetDefaultMemPool(&Pool, 0), 5);
  check(R.deviceGetMemPool(&Pool, 0), 6);
  check(R.memPoolCreate(&Pool, MemPoolProps()), 7);
  check(R.malloc(&Ptr, 64) == cudaSuccess ? R.freeAsync(Ptr, nullptr)
                                          : cudaErrorUnknown,
        8);
  // The allocation stays when HIP could not free it.
  if (!R.isDeviceRange(Ptr, 64) || R.free(Ptr) != cudaSuccess)
    return 101;
  uint64_t Handle = 0;
  size_t Gran = 0;
  VirtualAccess Access;
  check(R.vmGranularity(&Gran, 0, false), 9);
  check(R.vmCreate(&Handle, 1 << 21, 0, 0), 10);
  check(R.vmRelease(1), 11);
  check(R.vmReserve(&Addr, 1 << 21, 0, nullptr, 0), 12);
  check(R.vmFree(&Value, 1 << 21), 13);
  check(R.vmMap(&Value, 1 << 21, 0, 1, 0), 14);
  check(R.vmSetAccess(&Value, 1 << 21, &Access, 1), 15);
  return Failed;
}

class HipStandInTest : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // A "threadsafe" death test re-runs SetUp in each child: the children
    // find the parent's directory in the environment and share it.
    if (const char *D = std::getenv("STANDIN_HIP_CACHE_DIR")) {
      CacheDir = D;
      return;
    }
    char Template[] = "/tmp/cuhip-hip-cache-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    CacheDir = Template;
    setenv("STANDIN_HIP_CACHE_DIR", Template, 1);
  }
  void TearDown() override {
    unsetenv("STANDIN_HIP_CACHE_DIR");
    std::string Cmd = "rm -rf '" + CacheDir + "'";
    ASSERT_EQ(std::system(Cmd.c_str()), 0);
  }
  std::string CacheDir;
};

TEST_F(HipStandInTest, CoreOperationsMapOntoHip) {
  EXPECT_EXIT(
      {
        setEnvironment(STANDIN_HIP_PATH, CacheDir);
        std::exit(checkOperations(STANDIN_HIP_PATH));
      },
      ::testing::ExitedWithCode(0),
      "cuhip: info: running kernels on Stand-in Instinct \\(gfx942\\)"
      "[^\n]*\n(.*\n)*cuhip: info: compiling scale.ptx for gfx942"
      "(.*\n)*cuhip: error: cooperative launch of 'scale': [^\n]* has no "
      "hipModuleLaunchCooperativeKernel");
}

TEST_F(HipStandInTest, MemoryFamilyMapsOntoHip) {
  EXPECT_EXIT(
      {
        setEnvironment(STANDIN_HIP_PATH, CacheDir);
        std::exit(checkMemoryFamily(STANDIN_HIP_PATH));
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(HipStandInTest, CooperativeLaunchPassesArgumentPointers) {
  EXPECT_EXIT(
      {
        setEnvironment(STANDIN_HIP_COOPERATIVE_PATH, CacheDir);
        std::exit(checkCooperative(STANDIN_HIP_COOPERATIVE_PATH));
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(HipStandInTest, SecondProcessTakesCodeObjectFromCache) {
  auto run = [&] {
    setEnvironment(STANDIN_HIP_PATH, CacheDir);
    std::exit(loadScale() ? 0 : 1);
  };
  EXPECT_EXIT(run(), ::testing::ExitedWithCode(0),
              "compiling scale.ptx for gfx942");
  EXPECT_EXIT(run(), ::testing::ExitedWithCode(0),
              "scale.ptx: code object for gfx942 loaded from the compile "
              "cache");
}

TEST_F(HipStandInTest, ModuleVariablesComeFromHipModuleGetGlobal) {
  EXPECT_EXIT(
      {
        setEnvironment(STANDIN_HIP_PATH, CacheDir);
        std::exit(checkModuleVariables(STANDIN_HIP_PATH));
      },
      ::testing::ExitedWithCode(0),
      "__managed__ variable 'shared_count' is not supported on the HIP "
      "backend");
}

TEST_F(HipStandInTest, StreamOrderedAllocationAndPoolsMapOntoHip) {
  EXPECT_EXIT(
      {
        setEnvironment(STANDIN_HIP_PATH, CacheDir);
        std::exit(checkPools(STANDIN_HIP_PATH));
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(HipStandInTest, VirtualMemoryMapsOntoHip) {
  EXPECT_EXIT(
      {
        setEnvironment(STANDIN_HIP_PATH, CacheDir);
        std::exit(checkVirtualMemory(STANDIN_HIP_PATH));
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(HipStandInTest, MissingEntryPointsAreNotSupported) {
  EXPECT_EXIT(
      {
        setEnvironment(STANDIN_HIP_MINIMAL_PATH, CacheDir);
        std::exit(checkMissingEntryPoints());
      },
      ::testing::ExitedWithCode(0),
      "lacks hipModuleGetGlobal: the CUDA call that needs it is not "
      "supported(.*\n)*[^\n]*lacks hipMemCreate");
}

} // namespace
