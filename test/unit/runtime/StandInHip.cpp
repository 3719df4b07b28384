//===- StandInHip.cpp - A recording stand-in for libamdhip64 --------------===//
//
// No machine here has an AMD GPU, and ROCm's libamdhip64 without one only
// says "no device". To exercise what the HIP backend does with a device, the
// tests load this library instead (CUHIP_HIP_LIBRARY): it exports the HIP
// entry points the backend resolves, with HIP's signatures, reports one
// gfx942 device, serves memory from the host heap, runs stream callbacks at
// once, and records every call in a text log the tests read back through
// `standInHipLog`. It runs no kernel. What it checks itself is what it can
// know without a GPU: a module image must be an AMDGPU ELF (EM_AMDGPU)
// holding the kernel descriptor symbol `<name>.kd` of each function looked
// up, and launches must pass their arguments the way the backend promises
// (a parameter buffer through `extra`, or per-argument pointers for
// cooperative launches). With STANDIN_HIP_COOPERATIVE defined it also
// exports hipModuleLaunchCooperativeKernel, as ROCm 6 does. Module
// variables (hipModuleGetGlobal) are found by name and size in the code
// object's dynamic symbol table and backed by host memory; pools,
// stream-ordered allocation and virtual memory calls keep what they are
// given and log it. With STANDIN_HIP_MINIMAL defined those entry points are
// left out, as a library that lacks them would.
//
// Environment: STANDIN_HIP_SYNC_ERROR=N makes the next synchronisation
// return hipError_t N once (a kernel fault as HIP reports it).
//
//===----------------------------------------------------------------------===//
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#define STANDIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
std::mutex Lock;
std::string Log;
std::map<void *, std::string> Images; // module -> code object bytes
struct Function {
  std::string Name;
};
int Streams = 0, Events = 0;

void logf(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
void logf(const char *Fmt, ...) {
  char Buf[1024];
  va_list Ap;
  va_start(Ap, Fmt);
  vsnprintf(Buf, sizeof(Buf), Fmt, Ap);
  va_end(Ap);
  std::lock_guard<std::mutex> G(Lock);
  Log += Buf;
  Log += '\n';
}

std::string hex(const void *P, size_t N) {
  std::string S;
  char B[4];
  for (size_t I = 0; I < N; ++I) {
    std::snprintf(B, sizeof(B), "%02x", static_cast<const uint8_t *>(P)[I]);
    S += B;
  }
  return S;
}

int syncResult() {
  const char *E = std::getenv("STANDIN_HIP_SYNC_ERROR");
  if (!E || !*E)
    return 0;
  int V = std::atoi(E);
  unsetenv("STANDIN_HIP_SYNC_ERROR");
  return V;
}

// hipError_t values used here.
constexpr int Success = 0, InvalidValue = 1, InvalidImage = 200,
              NotFound = 500;
} // namespace

STANDIN_EXPORT const char *standInHipLog() { return Log.c_str(); }

STANDIN_EXPORT int hipInit(unsigned) { return Success; }
STANDIN_EXPORT int hipGetDeviceCount(int *N) {
  *N = 1;
  return Success;
}
STANDIN_EXPORT const char *hipGetErrorString(int E) {
  switch (E) {
  case 700:
    return "hipErrorIllegalAddress";
  case 200:
    return "hipErrorInvalidImage";
  case 500:
    return "hipErrorNotFound";
  }
  return "hipErrorUnknown";
}
STANDIN_EXPORT int hipSetDevice(int D) {
  logf("hipSetDevice %d", D);
  return D == 0 ? Success : 101;
}
STANDIN_EXPORT int hipGetDeviceProperties(void *Props, int) {
  // hipDeviceProp_t starts with the name; gcnArchName is further in (its
  // offset differs between ROCm releases, which is why cuhip searches).
  std::strcpy(static_cast<char *>(Props), "Stand-in Instinct");
  std::strcpy(static_cast<char *>(Props) + 1160, "gfx942:sramecc+:xnack-");
  return Success;
}
STANDIN_EXPORT int hipDeviceGet(int *D, int Ordinal) {
  *D = Ordinal;
  return Success;
}
STANDIN_EXPORT int hipDeviceGetName(char *Name, int Len, int) {
  std::snprintf(Name, Len, "Stand-in Instinct");
  return Success;
}
STANDIN_EXPORT int hipDeviceTotalMem(size_t *Bytes, int) {
  *Bytes = size_t(192) << 30;
  return Success;
}
STANDIN_EXPORT int hipDeviceGetAttribute(int *V, int Attr, int) {
  // hipDeviceAttribute_t numbers (the CUDA-compatible block).
  switch (Attr) {
  case 2: // AsyncEngineCount
    *V = 2;
    return Success;
  case 5: // ClockRate, kHz
    *V = 2100000;
    return Success;
  case 8: // ConcurrentKernels
    *V = 1;
    return Success;
  case 10: // CooperativeLaunch
    *V = 1;
    return Success;
  case 19: // L2CacheSize
    *V = 4 << 20;
    return Success;
  case 24: // ManagedMemory (ConcurrentManagedAccess, 9, is not answered)
    *V = 1;
    return Success;
  case 25: // MaxBlocksPerMultiProcessor
    *V = 32;
    return Success;
  case 56: // MaxThreadsPerBlock
    *V = 1024;
    return Success;
  case 57: // MaxThreadsPerMultiProcessor
    *V = 2048;
    return Success;
  case 59: // MemoryBusWidth
    *V = 8192;
    return Success;
  case 60: // MemoryClockRate
    *V = 2600000;
    return Success;
  case 63: // MultiprocessorCount
    *V = 304;
    return Success;
  case 71: // MaxRegistersPerBlock
    *V = 65536;
    return Success;
  case 83: // TotalConstantMemory
    *V = 2147483647;
    return Success;
  case 88: // MemoryPoolsSupported
    *V = 1;
    return Success;
  }
  return InvalidValue;
}
STANDIN_EXPORT int hipDeviceSynchronize() {
  int E = syncResult();
  logf("hipDeviceSynchronize -> %d", E);
  return E;
}

STANDIN_EXPORT int hipMalloc(void **P, size_t N) {
  *P = std::aligned_alloc(256, (N + 255) & ~size_t(255));
  logf("hipMalloc %zu", N);
  return *P ? Success : 2;
}
STANDIN_EXPORT int hipFree(void *P) {
  std::free(P);
  logf("hipFree");
  return Success;
}
STANDIN_EXPORT int hipMemcpy(void *D, const void *S, size_t N, int Kind) {
  std::memmove(D, S, N);
  int E = syncResult();
  logf("hipMemcpy %zu kind %d -> %d", N, Kind, E);
  return E;
}
STANDIN_EXPORT int hipMemset(void *D, int V, size_t N) {
  std::memset(D, V, N);
  logf("hipMemset %zu", N);
  return Success;
}
STANDIN_EXPORT int hipMemcpyAsync(void *D, const void *S, size_t N, int Kind,
                                  void *Stream) {
  std::memmove(D, S, N);
  logf("hipMemcpyAsync %zu kind %d stream %p", N, Kind, Stream);
  return Success;
}
STANDIN_EXPORT int hipMemsetAsync(void *D, int V, size_t N, void *Stream) {
  std::memset(D, V, N);
  logf("hipMemsetAsync %zu value %d stream %p", N, V, Stream);
  return Success;
}

// The memory family beyond hipMalloc: host memory serves every kind.
STANDIN_EXPORT int hipHostMalloc(void **P, size_t N, unsigned Flags) {
  *P = std::aligned_alloc(4096, (N + 4095) & ~size_t(4095));
  logf("hipHostMalloc %zu flags %u", N, Flags);
  return *P ? Success : 2;
}
STANDIN_EXPORT int hipHostFree(void *P) {
  std::free(P);
  logf("hipHostFree");
  return Success;
}
STANDIN_EXPORT int hipHostRegister(void *, size_t N, unsigned Flags) {
  logf("hipHostRegister %zu flags %u", N, Flags);
  return Success;
}
STANDIN_EXPORT int hipHostUnregister(void *) {
  logf("hipHostUnregister");
  return Success;
}
STANDIN_EXPORT int hipHostGetDevicePointer(void **Dev, void *Host,
                                           unsigned Flags) {
  *Dev = Host;
  logf("hipHostGetDevicePointer flags %u", Flags);
  return Success;
}
STANDIN_EXPORT int hipMallocManaged(void **P, size_t N, unsigned Flags) {
  *P = std::aligned_alloc(256, (N + 255) & ~size_t(255));
  logf("hipMallocManaged %zu flags %u", N, Flags);
  return *P ? Success : 2;
}
STANDIN_EXPORT int hipMemGetInfo(size_t *Free, size_t *Total) {
  *Total = size_t(192) << 30;
  *Free = size_t(100) << 30;
  logf("hipMemGetInfo");
  return Success;
}
static void copyRows(void *D, size_t DPitch, const void *S, size_t SPitch,
                     size_t W, size_t H) {
  for (size_t Y = 0; Y < H; ++Y)
    std::memmove(static_cast<char *>(D) + Y * DPitch,
                 static_cast<const char *>(S) + Y * SPitch, W);
}
STANDIN_EXPORT int hipMemcpy2D(void *D, size_t DPitch, const void *S,
                               size_t SPitch, size_t W, size_t H, int Kind) {
  copyRows(D, DPitch, S, SPitch, W, H);
  logf("hipMemcpy2D dpitch %zu spitch %zu width %zu height %zu kind %d",
       DPitch, SPitch, W, H, Kind);
  return Success;
}
STANDIN_EXPORT int hipMemcpy2DAsync(void *D, size_t DPitch, const void *S,
                                    size_t SPitch, size_t W, size_t H,
                                    int Kind, void *Stream) {
  copyRows(D, DPitch, S, SPitch, W, H);
  logf("hipMemcpy2DAsync dpitch %zu spitch %zu width %zu height %zu kind %d "
       "stream %p",
       DPitch, SPitch, W, H, Kind, Stream);
  return Success;
}
STANDIN_EXPORT int hipMemset2D(void *D, size_t Pitch, int V, size_t W,
                               size_t H) {
  for (size_t Y = 0; Y < H; ++Y)
    std::memset(static_cast<char *>(D) + Y * Pitch, V, W);
  logf("hipMemset2D pitch %zu value %d width %zu height %zu", Pitch, V, W, H);
  return Success;
}
STANDIN_EXPORT int hipMemset2DAsync(void *D, size_t Pitch, int V, size_t W,
                                    size_t H, void *Stream) {
  for (size_t Y = 0; Y < H; ++Y)
    std::memset(static_cast<char *>(D) + Y * Pitch, V, W);
  logf("hipMemset2DAsync pitch %zu value %d width %zu height %zu stream %p",
       Pitch, V, W, H, Stream);
  return Success;
}

STANDIN_EXPORT int hipStreamCreateWithPriority(void **S, unsigned Flags,
                                               int Priority) {
  *S = reinterpret_cast<void *>(uintptr_t(0x5000 + 16 * ++Streams));
  logf("hipStreamCreateWithPriority %p flags %u priority %d", *S, Flags,
       Priority);
  return Success;
}
STANDIN_EXPORT int hipStreamDestroy(void *S) {
  logf("hipStreamDestroy %p", S);
  return Success;
}
STANDIN_EXPORT int hipStreamSynchronize(void *S) {
  int E = syncResult();
  logf("hipStreamSynchronize %p -> %d", S, E);
  return E;
}
STANDIN_EXPORT int hipStreamQuery(void *S) {
  logf("hipStreamQuery %p", S);
  return 600; // hipErrorNotReady: work is "still running"
}
STANDIN_EXPORT int hipStreamWaitEvent(void *S, void *E, unsigned Flags) {
  logf("hipStreamWaitEvent %p %p %u", S, E, Flags);
  return Success;
}
STANDIN_EXPORT int hipStreamAddCallback(void *S,
                                        void (*Fn)(void *, int, void *),
                                        void *Data, unsigned Flags) {
  logf("hipStreamAddCallback %p flags %u", S, Flags);
  Fn(S, Success, Data);
  return Success;
}
STANDIN_EXPORT int hipDeviceGetStreamPriorityRange(int *Least, int *Greatest) {
  *Least = 0;
  *Greatest = -1;
  return Success;
}
STANDIN_EXPORT int hipEventCreateWithFlags(void **E, unsigned Flags) {
  *E = reinterpret_cast<void *>(uintptr_t(0x9000 + 16 * ++Events));
  logf("hipEventCreateWithFlags %p flags %u", *E, Flags);
  return Success;
}
STANDIN_EXPORT int hipEventDestroy(void *E) {
  logf("hipEventDestroy %p", E);
  return Success;
}
STANDIN_EXPORT int hipEventRecord(void *E, void *S) {
  logf("hipEventRecord %p stream %p", E, S);
  return Success;
}
STANDIN_EXPORT int hipEventQuery(void *E) {
  logf("hipEventQuery %p", E);
  return Success;
}
STANDIN_EXPORT int hipEventSynchronize(void *E) {
  logf("hipEventSynchronize %p", E);
  return Success;
}
STANDIN_EXPORT int hipEventElapsedTime(float *Ms, void *A, void *B) {
  *Ms = 1.5f;
  logf("hipEventElapsedTime %p %p", A, B);
  return Success;
}

STANDIN_EXPORT int hipModuleLoadData(void **Mod, const void *Image) {
  // An ELF header: magic, 64-bit class, e_machine EM_AMDGPU (224) at 18.
  const auto *B = static_cast<const uint8_t *>(Image);
  uint16_t Machine;
  std::memcpy(&Machine, B + 18, 2);
  if (std::memcmp(B, "\177ELF", 4) != 0 || B[4] != 2 || Machine != 224) {
    logf("hipModuleLoadData: not an AMDGPU ELF");
    return InvalidImage;
  }
  // The section header table ends the file: its end is the image size.
  uint64_t ShOff;
  uint16_t ShEntSize, ShNum;
  std::memcpy(&ShOff, B + 0x28, 8);
  std::memcpy(&ShEntSize, B + 0x3a, 2);
  std::memcpy(&ShNum, B + 0x3c, 2);
  size_t Size = ShOff + size_t(ShEntSize) * ShNum;
  auto *M = new int(0);
  *Mod = M;
  Images[M].assign(reinterpret_cast<const char *>(B), Size);
  logf("hipModuleLoadData %zu bytes", Size);
  return Success;
}
STANDIN_EXPORT int hipModuleGetFunction(void **F, void *Mod, const char *Name) {
  auto It = Images.find(Mod);
  if (It == Images.end())
    return 400;
  // The kernel descriptor symbol's name is in the dynamic string table.
  std::string Kd = std::string(Name) + ".kd";
  if (It->second.find(std::string(1, '\0') + Kd + '\0') == std::string::npos) {
    logf("hipModuleGetFunction %s: no %s", Name, Kd.c_str());
    return NotFound;
  }
  *F = new Function{Name};
  logf("hipModuleGetFunction %s", Name);
  return Success;
}
#ifndef STANDIN_HIP_MINIMAL
namespace {
/// The size of the dynamic symbol Name in an ELF64 image, or -1.
long dynamicSymbolSize(const std::string &Image, const char *Name) {
  const char *B = Image.data();
  uint64_t ShOff;
  uint16_t ShEntSize, ShNum;
  std::memcpy(&ShOff, B + 0x28, 8);
  std::memcpy(&ShEntSize, B + 0x3a, 2);
  std::memcpy(&ShNum, B + 0x3c, 2);
  auto field = [&](uint64_t Off, auto &V) {
    std::memcpy(&V, B + Off, sizeof V);
  };
  for (uint16_t I = 0; I < ShNum; ++I) {
    uint64_t Sh = ShOff + uint64_t(I) * ShEntSize;
    uint32_t Type;
    field(Sh + 4, Type);
    if (Type != 11) // SHT_DYNSYM
      continue;
    uint64_t Off, Size, EntSize;
    uint32_t Link;
    field(Sh + 0x18, Off);
    field(Sh + 0x20, Size);
    field(Sh + 0x28, Link);
    field(Sh + 0x38, EntSize);
    uint64_t StrOff;
    field(ShOff + uint64_t(Link) * ShEntSize + 0x18, StrOff);
    for (uint64_t E = Off; E + EntSize <= Off + Size; E += EntSize) {
      uint32_t NameOff;
      uint64_t SymSize;
      field(E, NameOff);
      field(E + 16, SymSize);
      if (std::strcmp(B + StrOff + NameOff, Name) == 0)
        return long(SymSize);
    }
  }
  return -1;
}
std::map<std::string, std::vector<char>> Globals; // "module/name" -> memory
} // namespace

STANDIN_EXPORT int hipModuleGetGlobal(void **Ptr, size_t *Bytes, void *Mod,
                                      const char *Name) {
  auto It = Images.find(Mod);
  if (It == Images.end())
    return 400;
  long Size = dynamicSymbolSize(It->second, Name);
  if (Size < 0) {
    logf("hipModuleGetGlobal %s: not a dynamic symbol", Name);
    return NotFound;
  }
  char Key[64];
  std::snprintf(Key, sizeof Key, "%p/", Mod);
  std::vector<char> &Mem = Globals[Key + std::string(Name)];
  if (Mem.empty())
    Mem.assign(size_t(Size) + 1, 0);
  *Ptr = Mem.data();
  *Bytes = size_t(Size);
  logf("hipModuleGetGlobal %s bytes %ld", Name, Size);
  return Success;
}

// Stream-ordered allocation and pools. A pool keeps its attributes: the
// three reuse flags as ints, the rest as 64-bit values.
namespace {
struct Pool {
  int Reuse[3] = {1, 1, 1};
  uint64_t Values[5] = {};
};
Pool DefaultPool;
Pool *CurrentPool = &DefaultPool;
} // namespace

STANDIN_EXPORT int hipMallocAsync(void **P, size_t N, void *Stream) {
  *P = std::aligned_alloc(256, (N + 255) & ~size_t(255));
  logf("hipMallocAsync %zu stream %p", N, Stream);
  return *P ? Success : 2;
}
STANDIN_EXPORT int hipMallocFromPoolAsync(void **P, size_t N, void *Pool,
                                          void *Stream) {
  *P = std::aligned_alloc(256, (N + 255) & ~size_t(255));
  logf("hipMallocFromPoolAsync %zu pool %s stream %p", N,
       Pool == &DefaultPool ? "default" : "created", Stream);
  return *P ? Success : 2;
}
STANDIN_EXPORT int hipFreeAsync(void *P, void *Stream) {
  std::free(P);
  logf("hipFreeAsync stream %p", Stream);
  return Success;
}
STANDIN_EXPORT int hipDeviceGetDefaultMemPool(void **P, int Device) {
  *P = &DefaultPool;
  logf("hipDeviceGetDefaultMemPool %d", Device);
  return Device == 0 ? Success : 101;
}
STANDIN_EXPORT int hipDeviceGetMemPool(void **P, int Device) {
  *P = CurrentPool;
  logf("hipDeviceGetMemPool %d", Device);
  return Success;
}
STANDIN_EXPORT int hipDeviceSetMemPool(int Device, void *P) {
  CurrentPool = static_cast<Pool *>(P);
  logf("hipDeviceSetMemPool %d %s", Device,
       P == &DefaultPool ? "default" : "created");
  return Success;
}
STANDIN_EXPORT int hipMemPoolCreate(void **P, const void *Props) {
  // hipMemPoolProps: allocType, handleTypes, location {type, id} (ints),
  // the Win32 pointer, then maxSize (ROCm 6).
  int Head[4];
  uint64_t MaxSize;
  std::memcpy(Head, Props, sizeof Head);
  std::memcpy(&MaxSize, static_cast<const char *>(Props) + 24, 8);
  *P = new Pool;
  logf("hipMemPoolCreate type %d handles %d location %d,%d maxSize %llu",
       Head[0], Head[1], Head[2], Head[3], (unsigned long long)MaxSize);
  return Success;
}
STANDIN_EXPORT int hipMemPoolDestroy(void *P) {
  if (P == &DefaultPool)
    return InvalidValue;
  if (CurrentPool == P)
    CurrentPool = &DefaultPool;
  delete static_cast<Pool *>(P);
  logf("hipMemPoolDestroy");
  return Success;
}
STANDIN_EXPORT int hipMemPoolSetAttribute(void *P, int Attr, void *Value) {
  Pool &Q = *static_cast<Pool *>(P);
  if (Attr >= 1 && Attr <= 3) {
    Q.Reuse[Attr - 1] = *static_cast<int *>(Value);
    logf("hipMemPoolSetAttribute %d int %d", Attr, Q.Reuse[Attr - 1]);
  } else if (Attr >= 4 && Attr <= 8) {
    std::memcpy(&Q.Values[Attr - 4], Value, 8);
    logf("hipMemPoolSetAttribute %d u64 %llu", Attr,
         (unsigned long long)Q.Values[Attr - 4]);
  } else {
    return InvalidValue;
  }
  return Success;
}
STANDIN_EXPORT int hipMemPoolGetAttribute(void *P, int Attr, void *Value) {
  Pool &Q = *static_cast<Pool *>(P);
  if (Attr >= 1 && Attr <= 3)
    *static_cast<int *>(Value) = Q.Reuse[Attr - 1];
  else if (Attr >= 4 && Attr <= 8)
    std::memcpy(Value, &Q.Values[Attr - 4], 8);
  else
    return InvalidValue;
  logf("hipMemPoolGetAttribute %d", Attr);
  return Success;
}
STANDIN_EXPORT int hipMemPoolTrimTo(void *, size_t Keep) {
  logf("hipMemPoolTrimTo %zu", Keep);
  return Success;
}

// Virtual memory management: reservations are host memory, handles count
// up, and each call logs its arguments.
namespace {
/// hipMemAllocationProp's type and location {type, id}, as text.
std::string propText(const void *Prop) {
  int F[4];
  std::memcpy(F, Prop, sizeof F);
  char B[64];
  std::snprintf(B, sizeof B, "type %d location %d,%d", F[0], F[2], F[3]);
  return B;
}
uint64_t Handles = 0;
} // namespace

STANDIN_EXPORT int hipMemGetAllocationGranularity(size_t *G, const void *Prop,
                                                  int Option) {
  *G = Option == 1 ? size_t(4) << 20 : size_t(64) << 10;
  logf("hipMemGetAllocationGranularity %s option %d", propText(Prop).c_str(),
       Option);
  return Success;
}
STANDIN_EXPORT int hipMemCreate(uint64_t *Handle, size_t N, const void *Prop,
                                unsigned long long Flags) {
  *Handle = 0x700 + ++Handles;
  logf("hipMemCreate %zu %s flags %llu -> 0x%llx", N, propText(Prop).c_str(),
       Flags, (unsigned long long)*Handle);
  return Success;
}
STANDIN_EXPORT int hipMemRelease(uint64_t Handle) {
  logf("hipMemRelease 0x%llx", (unsigned long long)Handle);
  return Success;
}
STANDIN_EXPORT int hipMemAddressReserve(void **P, size_t N, size_t Align,
                                        void *Addr, unsigned long long Flags) {
  *P = std::aligned_alloc(size_t(64) << 10, N);
  logf("hipMemAddressReserve %zu align %zu addr %p flags %llu", N, Align, Addr,
       Flags);
  return *P ? Success : 2;
}
STANDIN_EXPORT int hipMemAddressFree(void *P, size_t N) {
  std::free(P);
  logf("hipMemAddressFree %zu", N);
  return Success;
}
STANDIN_EXPORT int hipMemMap(void *P, size_t N, size_t Offset, uint64_t Handle,
                             unsigned long long Flags) {
  logf("hipMemMap %p %zu offset %zu handle 0x%llx flags %llu", P, N, Offset,
       (unsigned long long)Handle, Flags);
  return Success;
}
STANDIN_EXPORT int hipMemUnmap(void *P, size_t N) {
  logf("hipMemUnmap %p %zu", P, N);
  return Success;
}
STANDIN_EXPORT int hipMemSetAccess(void *P, size_t N, const void *Desc,
                                   size_t Count) {
  // hipMemAccessDesc: location {type, id}, flags (three ints).
  std::string D;
  for (size_t I = 0; I < Count; ++I) {
    int F[3];
    std::memcpy(F, static_cast<const char *>(Desc) + 12 * I, sizeof F);
    char B[48];
    std::snprintf(B, sizeof B, " [location %d,%d flags %d]", F[0], F[1], F[2]);
    D += B;
  }
  logf("hipMemSetAccess %p %zu count %zu%s", P, N, Count, D.c_str());
  return Success;
}
#endif

STANDIN_EXPORT int hipModuleLaunchKernel(void *F, unsigned GX, unsigned GY,
                                         unsigned GZ, unsigned BX, unsigned BY,
                                         unsigned BZ, unsigned Shared,
                                         void *Stream, void **Params,
                                         void **Extra) {
  // HIP_LAUNCH_PARAM_BUFFER_POINTER (1), _SIZE (2), _END (3).
  if (Params || !Extra || Extra[0] != reinterpret_cast<void *>(1) ||
      Extra[2] != reinterpret_cast<void *>(2) ||
      Extra[4] != reinterpret_cast<void *>(3)) {
    logf("hipModuleLaunchKernel: arguments not passed as a buffer");
    return InvalidValue;
  }
  size_t Size = *static_cast<size_t *>(Extra[3]);
  logf("hipModuleLaunchKernel %s grid %u,%u,%u block %u,%u,%u shared %u "
       "stream %p params %s",
       static_cast<Function *>(F)->Name.c_str(), GX, GY, GZ, BX, BY, BZ, Shared,
       Stream, hex(Extra[1], Size).c_str());
  return Success;
}

#ifdef STANDIN_HIP_COOPERATIVE
STANDIN_EXPORT int hipModuleLaunchCooperativeKernel(
    void *F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX, unsigned BY,
    unsigned BZ, unsigned Shared, void *Stream, void **Params) {
  // One pointer per argument: log the first 8 bytes each points at.
  std::string Args;
  for (unsigned I = 0; Params && I < 2; ++I) {
    if (I)
      Args += ' ';
    Args += hex(Params[I], 8);
  }
  logf("hipModuleLaunchCooperativeKernel %s grid %u,%u,%u block %u,%u,%u "
       "shared %u stream %p args %s",
       static_cast<Function *>(F)->Name.c_str(), GX, GY, GZ, BX, BY, BZ, Shared,
       Stream, Args.c_str());
  return Success;
}
#endif
