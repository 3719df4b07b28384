//===- ExportTables.cpp - The tables cuGetExportTable hands out -----------===//
//
// NVIDIA's static CUDA runtime asks the driver for undocumented tables of
// function pointers by UUID. Each table below says what it is for, how its
// layout was established (the public record of these tables, ZLUDA's
// dark_api crate and traces published with it, checked against what a CUDA
// 13.0 static program really asks for under an instrumented stand-in
// libcuda.so.1 — the procedure is in docs/static-runtime.md), and where our
// slots only approximate the driver. Slots no program was seen to call return
// CUDA_ERROR_NOT_SUPPORTED and log their table and index once, so a new
// runtime that starts calling them fails loudly rather than reading garbage.
//
// Every slot is glue over documented driver API functions of the library
// these tables are linked into (declared below), so a CUmodule or CUcontext a
// slot hands out is one the rest of libcuda.so.1 accepts.
//
//===----------------------------------------------------------------------===//
#include "ExportTables.h"

#include "cuhip/runtime/Log.h"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <pthread.h>
#include <unistd.h>
#include <utility>
#include <vector>

// --- the driver API these tables are built over -----------------------------
// Declared with plain C types; the definitions (libcuda.so.1's, or a test's
// stand-ins) use the CUDA header types of the same ABI.
extern "C" {
int cuDriverGetVersion(int *Version);
int cuDeviceGetCount(int *Count);
int cuDeviceGetAttribute(int *Value, int Attribute, int Device);
int cuDeviceGetUuid(CUuuid *Uuid, int Device);
int cuDevicePrimaryCtxRetain(void **Ctx, int Device);
int cuCtxGetCurrent(void **Ctx);
int cuModuleLoadData(void **Module, const void *Image);
// Optional: the device's primary context without taking a reference. Where
// libcuda.so.1 does not define it, CUDART_INTERFACE slot 2 retains instead.
__attribute__((weak)) int cuhipDevicePrimaryContext(void **Ctx, int Device);
}

namespace {

// CUresult values used here (cuda.h).
constexpr int CudaSuccess = 0;
constexpr int CudaErrorInvalidValue = 1;
constexpr int CudaErrorInvalidContext = 201;
constexpr int CudaErrorInvalidImage = 200;
constexpr int CudaErrorInvalidHandle = 400;
constexpr int CudaErrorNotFound = 500;
constexpr int CudaErrorNotSupported = 801;

// CUdevice_attribute values used by the integrity check.
constexpr int AttrPciBusId = 33;
constexpr int AttrPciDeviceId = 34;
constexpr int AttrPciDomainId = 50;

using Slot = const void *;

/// A table whose first entry is its own size in bytes, as most of them are.
template <size_t N> struct SizedTable { Slot Entries[N]; };

Slot sizeEntry(size_t Slots) {
  return reinterpret_cast<Slot>(Slots * sizeof(void *));
}

enum TableId {
  TCudartInterface,
  TToolsCallbacks,
  TToolsTls,
  TContextLocalStorage,
  TContextChecks,
  TIntegrity,
  TCtxCreateBypass,
  THeapAccess,
  TDeviceExtended,
};
const char *const TableNames[] = {
    "CUDART_INTERFACE",   "TOOLS_RUNTIME_CALLBACK_HOOKS",
    "TOOLS_TLS",          "CONTEXT_LOCAL_STORAGE_INTERFACE_V0301",
    "CONTEXT_CHECKS",     "INTEGRITY_CHECK",
    "CTX_CREATE_BYPASS",  "HEAP_ACCESS",
    "DEVICE_EXTENDED_RT",
};

/// Called through slots that no runtime was seen to use: says which one,
/// once. Each slot gets its own instantiation so the message can name it.
template <int Table, int Index> int unknownSlot() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    CUHIP_WARN("the CUDA runtime called slot %d of the driver export table "
               "%s, which cuhip does not implement; returning "
               "CUDA_ERROR_NOT_SUPPORTED",
               Index, TableNames[Table]);
  });
  return CudaErrorNotSupported;
}

// --- CUDART_INTERFACE {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9} ----------------
// The runtime's private entry points. CUDA 13.0 only calls slot 2 (the
// primary context): it registers fatbins itself (its own
// __cudaRegisterFatBinary, inside the program) and loads them through the
// documented cuLibraryLoadData, handing it the registration wrapper, with no
// fallback to this table when that fails. Older runtimes turned each fatbin
// into a CUmodule through slot 1, 6 or 8 (public record, not seen here); those
// slots load the container through cuModuleLoadData. Slots 6 and 8 take
// three more arguments of unknown meaning; cuhip accepts only null and zero
// ones, which is what the public record shows runtimes passing.

/// Size in bytes of the fatbin container at Data (header plus entries).
size_t containerSize(const void *Data) {
  uint64_t Entries = 0;
  uint16_t HeaderSize = 0;
  std::memcpy(&HeaderSize, static_cast<const char *>(Data) + 6, 2);
  std::memcpy(&Entries, static_cast<const char *>(Data) + 8, 8);
  return HeaderSize + Entries;
}

/// Loads the container a registration wrapper (u32 magic 0x466243B1, u32
/// version, u64 container pointer, u64) points to.
int loadFromWrapper(void **Module, const void *Wrapper) {
  if (!Module || !Wrapper)
    return CudaErrorInvalidValue;
  uint32_t Magic = 0;
  const void *Container = nullptr;
  std::memcpy(&Magic, Wrapper, 4);
  std::memcpy(&Container, static_cast<const char *>(Wrapper) + 8, 8);
  if (Magic != 0x466243B1u || !Container) {
    CUHIP_ERROR("export table: a fatbin registration wrapper with magic "
                "0x%08x; expected 0x466243B1",
                Magic);
    return CudaErrorInvalidImage;
  }
  CUHIP_DEBUG("export table: loading the fatbin at %p (%zu bytes)", Container,
              containerSize(Container));
  return cuModuleLoadData(Module, Container);
}

// Slot 1: (CUmodule *Out, const wrapper *W).
int cudartGetModuleFromCubin(void **Module, const void *Wrapper) {
  CUHIP_TRACE("CUDART_INTERFACE[1](%p, %p)", Module, Wrapper);
  return loadFromWrapper(Module, Wrapper);
}

// Slot 2: (CUcontext *Out, CUdevice Dev): the handle of the device's
// primary context. CUDA 13.0 calls it once per device while enumerating
// devices, and later makes that handle current (cuCtxSetCurrent) and retains
// it itself (cuDevicePrimaryCtxRetain, released at exit), so this slot must
// not count as a reference. Without the drop-in's cuhipDevicePrimaryContext
// it falls back to a retain that is never released, which only keeps the
// context alive until exit.
int cudartGetPrimaryContext(void **Ctx, int Device) {
  CUHIP_TRACE("CUDART_INTERFACE[2](%p, %d)", Ctx, Device);
  if (!Ctx)
    return CudaErrorInvalidValue;
  if (cuhipDevicePrimaryContext)
    return cuhipDevicePrimaryContext(Ctx, Device);
  return cuDevicePrimaryCtxRetain(Ctx, Device);
}

// Slot 6: (CUmodule *Out, const wrapper *W, void *, void *, unsigned).
int cudartGetModuleFromCubinExt1(void **Module, const void *Wrapper, void *Arg3,
                                 void *Arg4, unsigned Arg5) {
  CUHIP_TRACE("CUDART_INTERFACE[6](%p, %p, %p, %p, %u)", Module, Wrapper, Arg3,
              Arg4, Arg5);
  if (Arg3 || Arg4 || Arg5) {
    CUHIP_WARN("export table: module load with extra arguments (%p, %p, %u) "
               "that cuhip does not support",
               Arg3, Arg4, Arg5);
    return CudaErrorNotSupported;
  }
  return loadFromWrapper(Module, Wrapper);
}

// Slot 7: (size_t): in the public record a call of older runtimes whose
// meaning is unknown; accepted and ignored.
int cudartSlot7(size_t Arg) {
  CUHIP_DEBUG("export table: CUDART_INTERFACE slot 7 (%zu) ignored", Arg);
  return CudaSuccess;
}

// Slot 8: (const container *C, CUmodule *Out, void *, void *, unsigned): like
// slot 6 but given the container itself rather than its wrapper.
int cudartGetModuleFromFatbin(const void *Container, void **Module, void *Arg3,
                              void *Arg4, unsigned Arg5) {
  CUHIP_TRACE("CUDART_INTERFACE[8](%p, %p, %p, %p, %u)", Container, Module,
              Arg3, Arg4, Arg5);
  if (!Container || !Module)
    return CudaErrorInvalidValue;
  if (Arg3 || Arg4 || Arg5)
    return CudaErrorNotSupported;
  return cuModuleLoadData(Module, Container);
}

const SizedTable<10> CudartInterface = {{
    sizeEntry(10),
    reinterpret_cast<Slot>(&cudartGetModuleFromCubin),
    reinterpret_cast<Slot>(&cudartGetPrimaryContext),
    reinterpret_cast<Slot>(&unknownSlot<TCudartInterface, 3>),
    reinterpret_cast<Slot>(&unknownSlot<TCudartInterface, 4>),
    reinterpret_cast<Slot>(&unknownSlot<TCudartInterface, 5>),
    reinterpret_cast<Slot>(&cudartGetModuleFromCubinExt1),
    reinterpret_cast<Slot>(&cudartSlot7),
    reinterpret_cast<Slot>(&cudartGetModuleFromFatbin),
    reinterpret_cast<Slot>(&unknownSlot<TCudartInterface, 9>),
}};

// --- TOOLS_RUNTIME_CALLBACK_HOOKS {a094798c-2e74-2e74-93f2-0800200c0a66} ----
// Where profilers (CUPTI) hook the runtime: slots 2 and 6 hand the runtime
// buffers for its callback state, which a tool attached to the driver would
// read; CUDA 13.0 asks for both once, after enumerating devices. cuhip has no
// tools interface, so the buffers are zeroed memory nobody writes: the
// runtime sees "no subscriber" everywhere. Their sizes (4096 and 56 bytes)
// are the ones the public record uses; the driver's own sizes are not known,
// and the runtime was not seen to check them.
uint32_t ToolsBuffer1[1024];
uint32_t ToolsBuffer2[14];

void toolsGetBuffer1(void **Ptr, size_t *Size) {
  CUHIP_TRACE("TOOLS_RUNTIME_CALLBACK_HOOKS[2](%p, %p)", Ptr, Size);
  if (Ptr)
    *Ptr = ToolsBuffer1;
  if (Size)
    *Size = sizeof(ToolsBuffer1);
}
void toolsGetBuffer2(void **Ptr, size_t *Size) {
  CUHIP_TRACE("TOOLS_RUNTIME_CALLBACK_HOOKS[6](%p, %p)", Ptr, Size);
  if (Ptr)
    *Ptr = ToolsBuffer2;
  if (Size)
    *Size = sizeof(ToolsBuffer2);
}
// Slots 1, 3, 4, 5: tool registration entry points of the driver; with no
// tools they have nothing to do and say so at debug level.
int toolsNoOp() {
  CUHIP_TRACE("TOOLS_RUNTIME_CALLBACK_HOOKS: a no-op slot");
  CUHIP_DEBUG("export table: a tools-callback slot was called; cuhip has no "
              "tools interface, ignored");
  return CudaSuccess;
}

const SizedTable<7> ToolsCallbacks = {{
    sizeEntry(7),
    reinterpret_cast<Slot>(&toolsNoOp),
    reinterpret_cast<Slot>(&toolsGetBuffer1),
    reinterpret_cast<Slot>(&toolsNoOp),
    reinterpret_cast<Slot>(&toolsNoOp),
    reinterpret_cast<Slot>(&toolsNoOp),
    reinterpret_cast<Slot>(&toolsGetBuffer2),
}};

// --- TOOLS_TLS {42d85a81-23f6-cb47-8298-f6e78a3aecdc} -----------------------
// Thread-local state shared with tools. The runtime requires the table to
// exist (it aborts without it, per the public traces); CUDA 13.0 fetches it
// at start-up and calls none of its slots.
const SizedTable<4> ToolsTls = {{
    sizeEntry(4),
    reinterpret_cast<Slot>(&unknownSlot<TToolsTls, 1>),
    reinterpret_cast<Slot>(&unknownSlot<TToolsTls, 2>),
    reinterpret_cast<Slot>(&unknownSlot<TToolsTls, 3>),
}};

// --- CONTEXT_LOCAL_STORAGE_INTERFACE_V0301 ----------------------------------
// {c693336e-1121-df11-a8c3-68f355d89593}. The runtime keeps its per-context
// state in the driver, keyed by a pointer of its own, so that it learns when
// a context goes away: the driver calls the destructor it registered with
// the value (cuhipExportTablesContextDestroyed). CUDA 13.0 looks its state
// up with a null context before nearly every call, stores it once per
// context, and deletes it at exit; after cudaDeviceReset it finds nothing and
// builds its state anew. This table has no size entry: slot 0 is the first
// function.
struct ClsEntry {
  void *Value;
  void (*Dtor)(void *Ctx, void *Key, void *Value);
};
std::mutex ClsMutex;
std::map<std::pair<void *, void *>, ClsEntry> &clsMap() {
  static auto *M = new std::map<std::pair<void *, void *>, ClsEntry>();
  return *M; // never destroyed: the runtime uses it from exit handlers
}

/// A null context means the calling thread's current one.
int resolveContext(void *&Ctx) {
  if (Ctx)
    return CudaSuccess;
  int R = cuCtxGetCurrent(&Ctx);
  if (R != CudaSuccess)
    return R;
  return Ctx ? CudaSuccess : CudaErrorInvalidContext;
}

// Slot 0: (CUcontext, void *Key, void *Value, dtor(CUcontext, Key, Value)).
int clsPut(void *Ctx, void *Key, void *Value,
           void (*Dtor)(void *, void *, void *)) {
  CUHIP_TRACE("CONTEXT_LOCAL_STORAGE[0](%p, %p, %p, %p)", Ctx, Key, Value,
              reinterpret_cast<void *>(Dtor));
  if (int R = resolveContext(Ctx))
    return R;
  std::lock_guard<std::mutex> Lock(ClsMutex);
  clsMap()[{Ctx, Key}] = ClsEntry{Value, Dtor};
  return CudaSuccess;
}

// Slot 1: (CUcontext, void *Key): forgets the entry without calling its
// destructor.
int clsDelete(void *Ctx, void *Key) {
  CUHIP_TRACE("CONTEXT_LOCAL_STORAGE[1](%p, %p)", Ctx, Key);
  if (int R = resolveContext(Ctx))
    return R;
  std::lock_guard<std::mutex> Lock(ClsMutex);
  return clsMap().erase({Ctx, Key}) ? CudaSuccess : CudaErrorNotFound;
}

// Slot 2: (void **Value, CUcontext, void *Key). A missing entry is an error
// (the runtime then creates its state and stores it); which error NVIDIA's
// driver returns is not known, the public record shows both
// CUDA_ERROR_INVALID_HANDLE and CUDA_ERROR_NOT_FOUND working.
int clsGet(void **Value, void *Ctx, void *Key) {
  CUHIP_TRACE("CONTEXT_LOCAL_STORAGE[2](%p, %p, %p)", Value, Ctx, Key);
  if (!Value)
    return CudaErrorInvalidValue;
  if (int R = resolveContext(Ctx))
    return R;
  std::lock_guard<std::mutex> Lock(ClsMutex);
  auto It = clsMap().find({Ctx, Key});
  if (It == clsMap().end()) {
    *Value = nullptr;
    return CudaErrorInvalidHandle;
  }
  *Value = It->second.Value;
  return CudaSuccess;
}

const Slot ContextLocalStorage[4] = {
    reinterpret_cast<Slot>(&clsPut),
    reinterpret_cast<Slot>(&clsDelete),
    reinterpret_cast<Slot>(&clsGet),
    reinterpret_cast<Slot>(&unknownSlot<TContextLocalStorage, 3>),
};

// --- context checks {263e8860-7cd2-6143-92f6-bbd5006dfa7e} ------------------
// Required at start-up (public record). CUDA 13.0 calls slot 3 () once when
// it fetches the table and slot 2 (CUcontext, unsigned *Flags, void **Out)
// when it sets a context up and at every synchronisation. What they check is
// unknown; the answers recorded from NVIDIA's driver are 0 from slot 3 and
// *Flags = 0 with the third argument untouched from slot 2, and the runtime
// goes on with them.
int contextCheck(void *Ctx, unsigned *Flags, void **Out) {
  CUHIP_TRACE("CONTEXT_CHECKS[2](%p, %p, %p)", Ctx, Flags,
              static_cast<void *>(Out));
  if (Flags)
    *Flags = 0;
  return CudaSuccess;
}
unsigned contextCheck3() {
  CUHIP_TRACE("CONTEXT_CHECKS[3]()");
  return 0;
}

const SizedTable<4> ContextChecks = {{
    sizeEntry(4),
    reinterpret_cast<Slot>(&unknownSlot<TContextChecks, 1>),
    reinterpret_cast<Slot>(&contextCheck),
    reinterpret_cast<Slot>(&contextCheck3),
}};

// --- integrity check {d4082055-bde6-704b-8d34-ba123c66e1f2} -----------------
// Slot 1 (unsigned Version, uint64_t UnixSeconds, uint64_t Out[2]). CUDA
// 13.0 calls it at start-up three times, with Version 13000, 13001 and 13002
// and the same time, and compares the answers with its own computation (it
// carries MD2's table itself); a wrong answer makes every API call fail with
// cudaErrorSoftwareValidityNotEstablished (103), which is how our answer was
// verified. Versions ending in 0 and 1 get fixed answers; the others an
// HMAC-MD2 over the process, the tables and the devices (integrityHash), with
// the thread identified by the low 32 bits of pthread_self().
int integrityCheck(unsigned Version, uint64_t UnixSeconds, uint64_t *Out);

const SizedTable<3> IntegrityTable = {{
    sizeEntry(3),
    reinterpret_cast<Slot>(&integrityCheck),
    reinterpret_cast<Slot>(&unknownSlot<TIntegrity, 2>),
}};

// --- tables of the public record that CUDA 13.0 was not seen to ask for ----
// CTX_CREATE_BYPASS {0ca50b8c-1004-929a-89a7-d0df10e77286}, HEAP_ACCESS
// {195bcbf4-d67d-024a-acc5-1d29cea631ae} and DEVICE_EXTENDED_RT
// {b10541e1-f7c7-c74a-9f64-f223be99f1e2} are used by other NVIDIA libraries
// (cuBLAS, cuDNN) or older runtimes. They are handed out with every slot
// refusing, so a caller gets a clean error instead of CUDA_ERROR_NOT_FOUND
// on a table it may not check.
const SizedTable<2> CtxCreateBypass = {{
    sizeEntry(2),
    reinterpret_cast<Slot>(&unknownSlot<TCtxCreateBypass, 1>),
}};
const SizedTable<3> HeapAccess = {{
    sizeEntry(3),
    reinterpret_cast<Slot>(&unknownSlot<THeapAccess, 1>),
    reinterpret_cast<Slot>(&unknownSlot<THeapAccess, 2>),
}};
template <size_t... I>
SizedTable<26> makeDeviceExtended(std::index_sequence<I...>) {
  return {{sizeEntry(26),
           reinterpret_cast<Slot>(&unknownSlot<TDeviceExtended, I + 1>)...}};
}
const SizedTable<26> DeviceExtended =
    makeDeviceExtended(std::make_index_sequence<25>());

struct KnownTable {
  uint8_t Uuid[16];
  const void *Table;
  TableId Id;
};

const KnownTable Tables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39,
      0x12, 0xfd, 0x9d, 0xf9},
     CudartInterface.Entries,
     TCudartInterface},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00,
      0x20, 0x0c, 0x0a, 0x66},
     ToolsCallbacks.Entries,
     TToolsCallbacks},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7,
      0x8a, 0x3a, 0xec, 0xdc},
     ToolsTls.Entries,
     TToolsTls},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3,
      0x55, 0xd8, 0x95, 0x93},
     ContextLocalStorage,
     TContextLocalStorage},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5,
      0x00, 0x6d, 0xfa, 0x7e},
     ContextChecks.Entries,
     TContextChecks},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12,
      0x3c, 0x66, 0xe1, 0xf2},
     IntegrityTable.Entries,
     TIntegrity},
    {{0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf,
      0x10, 0xe7, 0x72, 0x86},
     CtxCreateBypass.Entries,
     TCtxCreateBypass},
    {{0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29,
      0xce, 0xa6, 0x31, 0xae},
     HeapAccess.Entries,
     THeapAccess},
    {{0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a, 0x9f, 0x64, 0xf2, 0x23,
      0xbe, 0x99, 0xf1, 0xe2},
     DeviceExtended.Entries,
     TDeviceExtended},
};

// The key of the integrity HMAC, a constant of the driver (public record).
const uint8_t IntegrityKey[16] = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9,
                                  0xa7, 0x52, 0xaa, 0x08, 0x41, 0x36,
                                  0x0b, 0xf5, 0x5a, 0x9f};

int integrityCheck(unsigned Version, uint64_t UnixSeconds, uint64_t *Out) {
  CUHIP_TRACE("INTEGRITY_CHECK[1](%u, %llu, %p)", Version,
              static_cast<unsigned long long>(UnixSeconds),
              static_cast<void *>(Out));
  if (!Out)
    return CudaErrorInvalidValue;
  // Answers for versions ending in 0 and 1 are constants of the driver.
  switch (Version % 10) {
  case 0:
    Out[0] = 0x3341181C03CB675Cull;
    Out[1] = 0x8ED383AA1F4CD1E8ull;
    return CudaSuccess;
  case 1:
    Out[0] = 0x1841181C03CB675Cull;
    Out[1] = 0x8ED383AA1F4CD1E8ull;
    return CudaSuccess;
  default:
    break;
  }
  cuhip::cuda::IntegrityInput In{};
  int DriverVersion = 0;
  if (int R = cuDriverGetVersion(&DriverVersion))
    return R;
  In.DriverVersion = static_cast<uint32_t>(DriverVersion);
  In.Version = Version;
  In.ProcessId = static_cast<uint32_t>(getpid());
  In.ThreadId = static_cast<uint32_t>(
      reinterpret_cast<uintptr_t>(reinterpret_cast<void *>(pthread_self())));
  In.CudartTable = CudartInterface.Entries;
  In.IntegrityTable = IntegrityTable.Entries;
  In.CheckFunction = IntegrityTable.Entries[1];
  In.UnixSeconds = UnixSeconds;
  int Count = 0;
  if (int R = cuDeviceGetCount(&Count))
    return R;
  std::vector<cuhip::cuda::IntegrityDevice> Devices(Count > 0 ? Count : 0);
  for (int D = 0; D < Count; ++D) {
    auto &Dev = Devices[D];
    CUuuid Uuid{};
    if (int R = cuDeviceGetUuid(&Uuid, D))
      return R;
    std::memcpy(Dev.Uuid, Uuid.bytes, 16);
    int V = 0;
    if (int R = cuDeviceGetAttribute(&V, AttrPciDomainId, D))
      return R;
    Dev.PciDomain = V;
    if (int R = cuDeviceGetAttribute(&V, AttrPciBusId, D))
      return R;
    Dev.PciBus = V;
    if (int R = cuDeviceGetAttribute(&V, AttrPciDeviceId, D))
      return R;
    Dev.PciDevice = V;
  }
  cuhip::cuda::integrityHash(In, Devices.data(),
                             static_cast<unsigned>(Devices.size()), Out);
  return CudaSuccess;
}

// --- MD2 (RFC 1319) ----------------------------------------------------------

// The permutation of 0..255 built from the digits of pi (RFC 1319, 3.2).
const uint8_t Md2Pi[256] = {
    41,  46,  67,  201, 162, 216, 124, 1,   61,  54,  84,  161, 236, 240, 6,
    19,  98,  167, 5,   243, 192, 199, 115, 140, 152, 147, 43,  217, 188, 76,
    130, 202, 30,  155, 87,  60,  253, 212, 224, 22,  103, 66,  111, 24,  138,
    23,  229, 18,  190, 78,  196, 214, 218, 158, 222, 73,  160, 251, 245, 142,
    187, 47,  238, 122, 169, 104, 121, 145, 21,  178, 7,   63,  148, 194, 16,
    137, 11,  34,  95,  33,  128, 127, 93,  154, 90,  144, 50,  39,  53,  62,
    204, 231, 191, 247, 151, 3,   255, 25,  48,  179, 72,  165, 181, 209, 215,
    94,  146, 42,  172, 86,  170, 198, 79,  184, 56,  210, 150, 164, 125, 182,
    118, 252, 107, 226, 156, 116, 4,   241, 69,  157, 112, 89,  100, 113, 135,
    32,  134, 91,  207, 101, 230, 45,  168, 2,   27,  96,  37,  173, 174, 176,
    185, 246, 28,  70,  97,  105, 52,  64,  126, 15,  85,  71,  163, 35,  221,
    81,  175, 58,  195, 92,  249, 206, 186, 197, 234, 38,  44,  83,  13,  110,
    133, 40,  132, 9,   211, 223, 205, 244, 65,  129, 77,  82,  106, 220, 55,
    200, 108, 193, 171, 250, 36,  225, 123, 8,   12,  189, 177, 74,  120, 136,
    149, 139, 227, 99,  232, 109, 233, 203, 213, 254, 59,  0,   29,  57,  242,
    239, 183, 14,  102, 88,  208, 228, 166, 119, 114, 248, 235, 117, 75,  10,
    49,  68,  80,  180, 143, 237, 31,  26,  219, 153, 141, 51,  159, 17,  131,
    20};

class Md2 {
public:
  void update(const void *Data, size_t Size) {
    const uint8_t *P = static_cast<const uint8_t *>(Data);
    for (size_t I = 0; I < Size; ++I) {
      Block[Fill++] = P[I];
      if (Fill == 16) {
        processBlock(/*UpdateChecksum=*/true);
        Fill = 0;
      }
    }
  }
  void finish(uint8_t Digest[16]) {
    uint8_t Pad = static_cast<uint8_t>(16 - Fill);
    for (uint8_t I = 0; I < Pad; ++I)
      update(&Pad, 1);
    std::memcpy(Block, Checksum, 16);
    processBlock(/*UpdateChecksum=*/false);
    std::memcpy(Digest, State, 16);
  }

private:
  void processBlock(bool UpdateChecksum) {
    if (UpdateChecksum) {
      uint8_t L = Checksum[15];
      for (int J = 0; J < 16; ++J)
        L = Checksum[J] ^= Md2Pi[Block[J] ^ L];
    }
    uint8_t X[48];
    std::memcpy(X, State, 16);
    for (int J = 0; J < 16; ++J) {
      X[16 + J] = Block[J];
      X[32 + J] = static_cast<uint8_t>(State[J] ^ Block[J]);
    }
    uint8_t T = 0;
    for (int Round = 0; Round < 18; ++Round) {
      for (uint8_t &B : X)
        T = B ^= Md2Pi[T];
      T = static_cast<uint8_t>(T + Round);
    }
    std::memcpy(State, X, 16);
  }

  uint8_t State[16] = {};
  uint8_t Checksum[16] = {};
  uint8_t Block[16] = {};
  size_t Fill = 0;
};

} // namespace

namespace cuhip::cuda {

void md2(const void *Data, size_t Size, uint8_t Digest[16]) {
  Md2 H;
  H.update(Data, Size);
  H.finish(Digest);
}

void integrityHash(const IntegrityInput &In, const IntegrityDevice *Devices,
                   unsigned NumDevices, uint64_t Out[2]) {
  static_assert(sizeof(IntegrityInput) == 48, "hashed as raw bytes");
  static_assert(sizeof(IntegrityDevice) == 28, "hashed as raw bytes");
  // HMAC (RFC 2104) with MD2's 16-byte block; the key is one block long.
  uint8_t Pad[16];
  for (int I = 0; I < 16; ++I)
    Pad[I] = IntegrityKey[I] ^ 0x36;
  Md2 Inner;
  Inner.update(Pad, 16);
  Inner.update(&In, sizeof(In));
  for (unsigned D = 0; D < NumDevices; ++D)
    Inner.update(&Devices[D], sizeof(IntegrityDevice));
  uint8_t InnerDigest[16];
  Inner.finish(InnerDigest);
  for (int I = 0; I < 16; ++I)
    Pad[I] = IntegrityKey[I] ^ 0x5c;
  Md2 Outer;
  Outer.update(Pad, 16);
  Outer.update(InnerDigest, 16);
  uint8_t Digest[16];
  Outer.finish(Digest);
  std::memcpy(Out, Digest, 16);
}

} // namespace cuhip::cuda

namespace {
std::atomic<bool> CudartAttached{false};
} // namespace

bool cuhip::cuda::nvidiaRuntimeAttached() {
  return CudartAttached.load(std::memory_order_relaxed);
}

extern "C" int cuhipExportTable(const void **Table, const CUuuid *Id) {
  if (!Table || !Id)
    return CudaErrorInvalidValue;
  for (const KnownTable &T : Tables) {
    if (std::memcmp(T.Uuid, Id->bytes, 16) == 0) {
      CUHIP_DEBUG("cuGetExportTable: %s", TableNames[T.Id]);
      if (T.Id == TCudartInterface)
        CudartAttached.store(true, std::memory_order_relaxed);
      *Table = T.Table;
      return CudaSuccess;
    }
  }
  const auto *B = reinterpret_cast<const uint8_t *>(Id->bytes);
  // {f8cff951-2146-8b4e-b9e2-fb469e7c0dd9} is asked for before cuInit; its
  // absence is the expected answer (with a table the runtime takes another,
  // unknown, start-up path), so it is not worth a warning.
  CUHIP_DEBUG("cuGetExportTable: no table "
              "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
              "%02x%02x%02x%02x%02x%02x",
              B[0], B[1], B[2], B[3], B[4], B[5], B[6], B[7], B[8], B[9], B[10],
              B[11], B[12], B[13], B[14], B[15]);
  *Table = nullptr;
  return CudaErrorNotFound;
}

extern "C" void cuhipExportTablesContextDestroyed(void *Ctx) {
  std::vector<std::pair<void *, ClsEntry>> Doomed;
  {
    std::lock_guard<std::mutex> Lock(ClsMutex);
    auto &M = clsMap();
    for (auto It = M.begin(); It != M.end();) {
      if (It->first.first == Ctx) {
        Doomed.push_back({It->first.second, It->second});
        It = M.erase(It);
      } else {
        ++It;
      }
    }
  }
  // Outside the lock: the runtime's destructors may call back into the table.
  for (auto &[Key, E] : Doomed)
    if (E.Dtor)
      E.Dtor(Ctx, Key, E.Value);
}
