//===- Runtime.h - The runtime core every drop-in library calls -----------===//
//
// Devices, memory, modules, kernels, launches and error state, independent of
// any CUDA header: the libcudart and libcuda layers translate their types
// into these calls. Error values are the CUDA runtime's cudaError_t numbers
// (CudaErrors.def), so the runtime layer passes them through unchanged.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cuhip::fatbin {
struct Container;
} // namespace cuhip::fatbin

namespace cuhip::rt {

enum Status : int {
#define CUHIP_CUDA_ERROR(Name, Value, Desc) Name = Value,
#include "cuhip/runtime/CudaErrors.def"
#undef CUHIP_CUDA_ERROR
};

/// "cudaErrorInvalidValue" / "invalid argument"; nullptr for unknown codes.
const char *statusName(int S);
const char *statusDescription(int S);

struct Dim3 {
  unsigned X = 1, Y = 1, Z = 1;
};

enum class CopyKind : int {
  HostToHost = 0,
  HostToDevice = 1,
  DeviceToHost = 2,
  DeviceToDevice = 3,
  Default = 4,
};

/// The compute capability every backend's device reports (sm_80): the
/// PTX cuhip chooses from a fatbin is the one a device of this capability
/// would run.
inline constexpr int ReportedMajor = 8, ReportedMinor = 0;
inline constexpr unsigned ReportedSm = ReportedMajor * 10 + ReportedMinor;

/// What the device properties report. Values are true for the backend.
struct DeviceInfo {
  std::string Name;
  size_t TotalGlobalMem = 0;
  size_t SharedMemPerBlock = 48 * 1024;
  size_t SharedMemPerBlockOptin = 160 * 1024;
  size_t SharedMemPerMultiprocessor = 160 * 1024;
  size_t TotalConstMem = 64 * 1024;
  int WarpSize = 32;
  int MaxThreadsPerBlock = 1024;
  int MaxThreadsDim[3] = {1024, 1024, 64};
  int MaxGridSize[3] = {0x7fffffff, 65535, 65535};
  int Major = ReportedMajor, Minor = ReportedMinor;
  int MultiProcessorCount = 1;
  int MaxThreadsPerMultiProcessor = 2048;
  int MaxBlocksPerMultiProcessor = 32;
  int L2CacheSize = 0;
  int RegsPerBlock = 65536;
  int ClockRateKHz = 0;
  int MemoryClockRateKHz = 0;     // 0: the CPU backend's nominal value
  int MemoryBusWidth = 64;
  bool Integrated = true;         // device memory is host memory
  int AsyncEngineCount = 0;       // copy engines that overlap kernels
  bool ConcurrentKernels = false; // kernels of several streams at once
  bool CooperativeLaunch = false; // cudaLaunchCooperativeKernel works
  // Memory the device reaches. The CPU backend's device is the host, so it
  // reads pageable memory and managed memory concurrently with the host;
  // the HIP backend reports what HIP says of the GPU.
  bool ManagedMemory = true;           // cudaMallocManaged works
  bool ConcurrentManagedAccess = true; // host and device at the same time
  bool PageableMemoryAccess = true;    // kernels read malloc'd memory
  bool MemoryPools = true;             // cudaMallocAsync and pools work
  bool TextureObjects = true; // texture/surface objects and CUDA arrays
  // The L2 set-aside for persisting accesses (cudaLimitPersistingL2Cache-
  // Size) and the largest access-policy window a stream or launch takes;
  // both are performance hints that never change a result.
  int MaxPersistingL2CacheSize = 0;
  int MaxAccessPolicyWindowSize = 0;
};

/// What cudaPointerGetAttributes reports (cudaMemoryType's values).
enum class MemoryType : int { Unregistered = 0, Host = 1, Device = 2, Managed = 3 };

struct PointerAttributes {
  MemoryType Type = MemoryType::Unregistered;
  int Device = -2; // what CUDA reports for memory it does not know
  void *DevicePointer = nullptr;
  void *HostPointer = nullptr;
};

/// One side of a 3D copy: Ptr is the first byte copied (the position
/// already applied), rows are Pitch bytes apart and slices Pitch * Height.
struct PitchedSide {
  void *Ptr = nullptr;
  size_t Pitch = 0;
  size_t Height = 0; // rows per slice
};

/// What cudaMemPoolCreate may ask for (cudaMemPoolProps' fields).
struct MemPoolProps {
  int AllocType = 1;    // cudaMemAllocationTypePinned
  int HandleTypes = 0;  // cudaMemHandleTypeNone
  int LocationType = 1; // cudaMemLocationTypeDevice
  int LocationId = 0;
  size_t MaxSize = 0;   // 0: no limit
};

/// One entry of cuMemSetAccess (CUmemAccessDesc): who may access a mapped
/// range, and how.
struct VirtualAccess {
  int LocationType = 1; // CU_MEM_LOCATION_TYPE_DEVICE
  int LocationId = 0;
  int Flags = 0; // CU_MEM_ACCESS_FLAGS_PROT_NONE 0, _READ 1, _READWRITE 3
};

/// cudaFuncAttributes' facts about one kernel (cudaFuncGetAttributes).
struct KernelAttributes {
  size_t StaticSharedBytes = 0;
  size_t ConstBytes = 0;
  size_t LocalBytesPerThread = 0;
  int MaxThreadsPerBlock = 0;
  int NumRegs = 0;
  int PtxVersion = 0;    // the PTX's .target: 80 for sm_80
  int BinaryVersion = 0; // the device's compute capability, as 80
  int MaxDynamicSharedBytes = 0;
  int PreferredShmemCarveout = -1; // -1: no preference
  int ClusterDimMustBeSet = 0;
  int RequiredClusterDim[3] = {0, 0, 0};
  int ClusterSchedulingPolicy = 0;
  int NonPortableClusterSizeAllowed = 0;
  int CacheConfig = 0; // cudaFuncCache
};

/// cudaFuncAttribute values cudaFuncSetAttribute accepts.
enum class KernelAttr : int {
  MaxDynamicSharedMemorySize = 8,
  PreferredSharedMemoryCarveout = 9,
  ClusterDimMustBeSet = 10,
  RequiredClusterWidth = 11,
  RequiredClusterHeight = 12,
  RequiredClusterDepth = 13,
  NonPortableClusterSizeAllowed = 14,
  ClusterSchedulingPolicyPreference = 15,
};

/// cudaLimit values.
enum class DeviceLimit : int {
  StackSize = 0,
  PrintfFifoSize = 1,
  MallocHeapSize = 2,
  DevRuntimeSyncDepth = 3,
  DevRuntimePendingLaunchCount = 4,
  MaxL2FetchGranularity = 5,
  PersistingL2CacheSize = 6,
};

/// The PTX of the per-file containers of an -rdc program, joined into link
/// units (ptx::joinLinkUnits) named Name.unitN; Sm is the lowest PTX target.
/// On failure returns the error launches should give and says why.
Status joinPrelinkedPtx(const std::vector<fatbin::Container> &Units,
                        const std::string &Name, std::string &Ptx,
                        unsigned &Sm, std::string &Why);

struct Kernel;   // a registered __global__ function
struct Module;   // a registered fatbin

/// What the driver API's cuFuncGetAttribute and the `extra` launch form need
/// to know about a kernel.
struct KernelSummary {
  std::string Name;
  size_t StaticSharedBytes = 0;
  uint32_t ParamBufferSize = 0;
  struct Param {
    uint32_t Offset, Size;
  };
  std::vector<Param> Params;
  unsigned MaxThreadsPerBlock = 1024; // .maxntid / .reqntid, else the device's
  unsigned PtxSm = 0;                 // the module's target, e.g. 80
};

class Runtime {
public:
  static Runtime &get();
  /// libcudart calls this on each runtime-API call. NVIDIA's runtime
  /// initialises the driver on its first call and makes the device's
  /// primary context current on every thread that uses it, so libcuda
  /// treats such a process as initialised and such a thread as having that
  /// context current (a program may call cuLinkCreate after cudaMalloc).
  static void noteRuntimeApiCall();
  static bool runtimeApiUsed();             // by any thread
  static bool runtimeApiUsedOnThisThread(); // by the calling thread

  // --- registration (called from program start-up code) -------------------
  void **registerFatBinary(void *Wrapper);
  void registerFunction(void **Handle, const void *HostFun,
                        const char *DeviceName);
  void registerFatBinaryEnd(void **Handle);
  /// A __device__ or __constant__ variable: HostVar is its host shadow,
  /// whose address programs pass as the symbol (cudaMemcpyToSymbol).
  void registerVar(void **Handle, const void *HostVar, const char *DeviceName,
                   size_t Size, bool Constant);
  /// A `__managed__` variable: host code reaches it through the pointer at
  /// HostVarPtr, which initModule points at the variable's storage.
  void registerManagedVar(void **Handle, void **HostVarPtr,
                          const char *DeviceName, size_t Size);
  /// __cudaInitModule: loads the module (compiling it if need be) and fills
  /// its managed variables' host pointers. Host code calls it before it
  /// touches a managed variable.
  Status initModule(void **Handle);
  void unregisterFatBinary(void **Handle);

  // --- modules loaded explicitly (the driver API's cuModuleLoadData) --------
  /// Loads and compiles a module from PTX text (NUL-terminated or of Size
  /// bytes) or from a fatbin container. Name appears in diagnostics.
  /// When Diagnostics is given, the frontend's messages are appended to it
  /// as well as logged (cuModuleLoadDataEx's JIT error log).
  Status loadModuleData(const void *Image, size_t Size, const std::string &Name,
                        Module **Out, std::string *Diagnostics = nullptr);
  /// Loads the device code of a program built with -rdc=true whose
  /// registration wrapper (version 2) points to the per-file containers
  /// Units (fatbin::parsePrelinkedContainers): the PTX of every file, linked
  /// (cuhip/ptx/Link.h). Otherwise as loadModuleData. PTX text that
  /// ptx::joinLinkUnits made (cuLinkComplete's output) needs no special
  /// call: loadModuleData links it.
  Status loadLinkedModule(const std::vector<fatbin::Container> &Units,
                          const std::string &Name, Module **Out,
                          std::string *Diagnostics = nullptr);
  /// cuLinkComplete: joins PTX modules (name, text) into one image that
  /// loadModuleData accepts, after checking that they link (every .extern
  /// resolved, no symbol defined twice). On failure the frontend's messages
  /// are in Log and the status is cudaErrorInvalidPtx.
  Status linkPtx(const std::vector<std::pair<std::string, std::string>> &Units,
                 std::string &Image, std::string &Log);
  Status moduleGetFunction(Module *M, const char *Name, Kernel **Out);
  /// The address and size of M's module-scope `.global` or `.const` variable
  /// Name (cuModuleGetGlobal); either output may be null.
  /// cudaErrorSymbolNotFound when M defines no such variable. Managed asks
  /// for a `__managed__` variable's storage, which the host dereferences
  /// (cuLibraryGetManaged): cudaErrorNotSupported on the HIP backend, where
  /// the variable lives in device memory.
  Status moduleGetGlobal(Module *M, const char *Name, void **DevPtr,
                         size_t *Size, bool Managed = false);
  /// Forgets a module loadModuleData returned: its handle and its kernels'
  /// handles are rejected from then on (cudaErrorInvalidResourceHandle).
  Status unloadModule(Module *M);
  /// Is M a module loadModuleData returned and unloadModule did not unload?
  bool isModuleHandle(const Module *M);
  /// The kernels of a loaded module, in PTX order.
  Status moduleKernels(Module *M, std::vector<Kernel *> *Out);
  Status kernelSummary(Kernel *K, KernelSummary *Out);

  // --- launches --------------------------------------------------------------
  Status pushCallConfiguration(Dim3 Grid, Dim3 Block, size_t SharedMem,
                               void *Stream);
  Status popCallConfiguration(Dim3 *Grid, Dim3 *Block, size_t *SharedMem,
                              void **Stream);
  /// The kernel registered for a host stub; nullptr if none.
  Kernel *kernelForHostFunction(const void *HostFun);
  /// Is K a kernel handle this runtime handed out?
  bool isKernelHandle(const void *K);
  /// Launches K on Stream. Cooperative launches (cudaLaunchCooperative-
  /// Kernel) need all blocks resident at once; a backend that cannot
  /// promise that refuses them.
  Status launch(Kernel *K, Dim3 Grid, Dim3 Block, void **Args,
                size_t SharedMem, void *Stream, bool Cooperative = false);
  /// Copies the arguments of a launch of K (Args[i] points at argument i)
  /// into Buffer by K's parameter layout, Offsets[i] being where argument i
  /// lies: what graph kernel nodes keep. Compiles K's module if needed.
  Status packKernelArgs(Kernel *K, void **Args, std::vector<uint8_t> &Buffer,
                        std::vector<uint32_t> &Offsets);
  /// How many blocks of K with BlockSize threads and DynamicShared bytes of
  /// dynamic shared memory one multiprocessor keeps resident
  /// (cudaOccupancyMaxActiveBlocksPerMultiprocessor). A cooperative grid
  /// may have that many times MultiProcessorCount blocks.
  Status maxActiveBlocksPerMultiprocessor(Kernel *K, int BlockSize,
                                          size_t DynamicShared, int *Blocks);
  /// The block size that keeps the most threads of K resident on one
  /// multiprocessor, and the grid that fills the device at that size
  /// (cuOccupancyMaxPotentialBlockSize). Block sizes are tried from
  /// BlockSizeLimit (0: the kernel's limit) down in steps of the warp size;
  /// the largest wins a tie. Each size's dynamic shared memory is
  /// SharedForBlock(size) when given, else DynamicShared.
  Status maxPotentialBlockSize(Kernel *K, size_t (*SharedForBlock)(int),
                               size_t DynamicShared, int BlockSizeLimit,
                               int *MinGridSize, int *BlockSize);
  /// The most dynamic shared memory a block of K may use when NumBlocks
  /// blocks of BlockSize threads share one multiprocessor
  /// (cudaOccupancyAvailableDynamicSMemPerBlock).
  Status availableDynamicShared(Kernel *K, int NumBlocks, int BlockSize,
                                size_t *Bytes);

  // --- kernel attributes (cudaFuncGetAttributes, cudaFuncSetAttribute) -----
  // Loads K's module if needed. A launch fails with cudaErrorInvalidValue
  // when its dynamic shared memory exceeds MaxDynamicSharedBytes, which is
  // SharedMemPerBlock minus the static part until raised by
  // setKernelAttribute, up to SharedMemPerBlockOptin minus the static part.
  Status kernelAttributes(Kernel *K, KernelAttributes *Out);
  Status setKernelAttribute(Kernel *K, KernelAttr Attr, int Value);
  Status setKernelCacheConfig(Kernel *K, int Config);
  /// Where parameter Index of K lies in its parameter buffer
  /// (cudaFuncGetParamInfo); cudaErrorInvalidValue past the last one.
  Status kernelParamInfo(Kernel *K, size_t Index, size_t *Offset,
                         size_t *Size);
  /// The kernel's (mangled) name; nullptr for a null kernel.
  const char *kernelName(Kernel *K);

  // --- memory ----------------------------------------------------------------
  Status malloc(void **Ptr, size_t Bytes);
  Status free(void *Ptr);
  Status memcpy(void *Dst, const void *Src, size_t Bytes, CopyKind Kind);
  Status memset(void *Ptr, int Value, size_t Bytes);
  Status memcpyAsync(void *Dst, const void *Src, size_t Bytes, CopyKind Kind,
                     void *Stream);
  Status memsetAsync(void *Ptr, int Value, size_t Bytes, void *Stream);
  /// Is [Ptr, Ptr+Bytes) inside one live allocation or module variable?
  bool isDeviceRange(const void *Ptr, size_t Bytes);
  /// The live allocation that holds Ptr (cuMemGetAddressRange);
  /// cudaErrorInvalidValue if none does.
  Status allocationRange(const void *Ptr, void **Base, size_t *Size);
  /// Makes host memory mapped elsewhere (the driver's virtual memory
  /// management) a device range that copies, memsets and memcheck accept,
  /// until unregisterDeviceRange. Only where the device reads host memory
  /// (the CPU backend) or for HIP's virtual memory mappings (the HIP
  /// backend); cudaErrorNotSupported otherwise, and
  /// cudaErrorInvalidValue for a range that overlaps an allocation.
  Status registerDeviceRange(void *Base, size_t Bytes);
  Status unregisterDeviceRange(void *Base);

  // --- interprocess sharing (cudaIpc*; CPU backend) -------------------------
  /// The 64-byte handle of the cudaMalloc allocation that holds Ptr, which
  /// another process opens while this one keeps the allocation.
  Status ipcGetMemHandle(void *Handle, void *Ptr);
  /// Maps another process's allocation; opening the same handle again
  /// returns the same address, and each open needs its close.
  Status ipcOpenMemHandle(void **Ptr, const void *Handle, unsigned Flags);
  Status ipcCloseMemHandle(void *Ptr);
  /// Handles of events created with cudaEventInterprocess: every process
  /// that has one records to and waits on the same event.
  Status ipcGetEventHandle(void *Handle, void *Event);
  Status ipcOpenEventHandle(void **Event, const void *Handle);

  // --- the rest of the memory family (Memory.cpp) ---------------------------
  // Page-locked, registered and managed memory: on the CPU backend it is
  // device memory too (kernels may use it, memcheck accepts it), so every
  // flag works; on the HIP backend these are hipHostMalloc, hipHostRegister
  // and hipMallocManaged (cudaErrorNotSupported if the library lacks them).
  Status hostAlloc(void **Ptr, size_t Bytes, unsigned Flags);
  Status freeHost(void *Ptr);
  Status hostRegister(void *Ptr, size_t Bytes, unsigned Flags);
  Status hostUnregister(void *Ptr);
  Status hostGetDevicePointer(void **DevPtr, void *HostPtr, unsigned Flags);
  Status hostGetFlags(unsigned *Flags, void *HostPtr);
  Status mallocManaged(void **Ptr, size_t Bytes, unsigned Flags);
  /// cudaMemAdvise and cudaMemPrefetchAsync: hints, validated and dropped
  /// (managed memory never moves here).
  Status memAdvise(const void *Ptr, size_t Bytes, int Advice, int LocationType,
                   int LocationId);
  Status memPrefetchAsync(const void *Ptr, size_t Bytes, int LocationType,
                          int LocationId, unsigned Flags, void *Stream);
  Status pointerGetAttributes(PointerAttributes *Attr, const void *Ptr);
  Status memGetInfo(size_t *Free, size_t *Total);
  Status mallocPitch(void **Ptr, size_t *Pitch, size_t WidthBytes,
                     size_t Height);
  /// Copies Depth slices of Height rows of WidthBytes between two pitched
  /// regions (cudaMemcpy2D/3D and their Async forms; a plain copy is one
  /// row). Async enqueues on Stream, otherwise on the legacy stream and
  /// waits.
  Status memcpy3D(PitchedSide Dst, PitchedSide Src, size_t WidthBytes,
                  size_t Height, size_t Depth, CopyKind Kind, void *Stream,
                  bool Async);
  Status memset3D(PitchedSide Dst, int Value, size_t WidthBytes, size_t Height,
                  size_t Depth, void *Stream, bool Async);
  Status memcpyPeer(void *Dst, int DstDevice, const void *Src, int SrcDevice,
                    size_t Bytes, void *Stream, bool Async);
  /// The device address and size of the variable registered for Symbol (a
  /// host shadow address); cudaErrorInvalidSymbol if there is none.
  Status symbolAddress(const void *Symbol, void **DevPtr, size_t *Size);
  Status memcpyToSymbol(const void *Symbol, const void *Src, size_t Bytes,
                        size_t Offset, CopyKind Kind, void *Stream, bool Async);
  Status memcpyFromSymbol(void *Dst, const void *Symbol, size_t Bytes,
                          size_t Offset, CopyKind Kind, void *Stream,
                          bool Async);

  // Stream-ordered allocation. Pools are handles (cudaMemPool_t); a null
  // Pool in mallocFromPoolAsync means the device's current pool. Freed
  // blocks stay reserved in their pool while its reserved size is within
  // the release threshold (cudaMemPoolAttrReleaseThreshold) and are reused.
  Status deviceGetDefaultMemPool(void **Pool, int Device);
  Status deviceGetMemPool(void **Pool, int Device);
  Status deviceSetMemPool(int Device, void *Pool);
  Status memPoolCreate(void **Pool, const MemPoolProps &Props);
  Status memPoolDestroy(void *Pool);
  Status mallocFromPoolAsync(void **Ptr, size_t Bytes, void *Pool,
                             void *Stream);
  Status freeAsync(void *Ptr, void *Stream);
  /// Attr is a cudaMemPoolAttr; Value points at an int (the reuse flags) or
  /// a uint64_t (threshold and counters), as in CUDA.
  Status memPoolSetAttribute(void *Pool, int Attr, const void *Value);
  Status memPoolGetAttribute(void *Pool, int Attr, void *Value);
  Status memPoolTrimTo(void *Pool, size_t MinBytesToKeep);
  /// Pools shared with other processes (CPU backend; handle type POSIX file
  /// descriptor): the pool's descriptor, a pool imported from one, and its
  /// allocations' 64-byte export data, which the importing process maps
  /// and later frees with cudaFree/cudaFreeAsync.
  Status memPoolExportToShareableHandle(void *Handle, void *Pool,
                                        int HandleType, unsigned Flags);
  Status memPoolImportFromShareableHandle(void **Pool, void *OsHandle,
                                          int HandleType, unsigned Flags);
  Status memPoolExportPointer(void *Data, void *Ptr);
  Status memPoolImportPointer(void **Ptr, void *Pool, const void *Data);
  /// cudaMemPoolSetAccess / cuMemPoolSetAccess: the pool's own device always
  /// reads and writes its memory (asking for less is cudaErrorInvalidDevice,
  /// as in CUDA); every other device is refused by checkDevice. Locations
  /// other than devices and flags other than none, read and read-write are
  /// cudaErrorInvalidValue.
  Status memPoolSetAccess(void *Pool, const VirtualAccess *Descs,
                          size_t Count);
  /// The access Location has to Pool's memory (cudaMemPoolGetAccess):
  /// read-write (3) for the pool's device.
  Status memPoolGetAccess(int *Flags, void *Pool, int LocationType,
                          int LocationId);

  // Virtual memory management (cuMemCreate and its family) on the HIP
  // backend, where it is HIP's (VirtualMemory.cpp): a range that cuMemSet-
  // Access makes accessible is a device range until it is unmapped. Where
  // the device reads host memory libcuda maps host memory itself, and these
  // answer cudaErrorNotSupported. Arguments are checked by the caller.
  bool virtualMemoryOnHip();
  Status vmCreate(uint64_t *Handle, size_t Bytes, int Device,
                  unsigned long long Flags);
  Status vmRelease(uint64_t Handle);
  Status vmReserve(void **Ptr, size_t Bytes, size_t Alignment, void *Addr,
                   unsigned long long Flags);
  Status vmFree(void *Ptr, size_t Bytes);
  Status vmMap(void *Ptr, size_t Bytes, size_t Offset, uint64_t Handle,
               unsigned long long Flags);
  Status vmUnmap(void *Ptr, size_t Bytes);
  Status vmSetAccess(void *Ptr, size_t Bytes, const VirtualAccess *Desc,
                     size_t Count);
  Status vmGranularity(size_t *Granularity, int Device, bool Recommended);

  // --- streams and events ----------------------------------------------------
  // Stream arguments are cudaStream_t values: nullptr and cudaStreamLegacy
  // (0x1) name the legacy default stream, cudaStreamPerThread (0x2) the
  // calling thread's default stream, anything else must be a stream
  // streamCreate returned and streamDestroy did not destroy yet
  // (cudaErrorInvalidResourceHandle otherwise). Events likewise. Work is
  // asynchronous, as in CUDA: on the CPU backend each stream's operations
  // run in order on a thread of the stream's (StreamQueue.h), with the
  // legacy stream's implicit synchronisation; the HIP backend uses HIP's
  // streams and events. A fault of queued work surfaces at the next call
  // that waits for it, and stays (sticky).
  Status streamCreate(void **Stream, unsigned Flags, int Priority);
  Status streamDestroy(void *Stream);
  Status streamSynchronize(void *Stream);
  Status streamQuery(void *Stream);
  Status streamGetFlags(void *Stream, unsigned *Flags);
  Status streamGetPriority(void *Stream, int *Priority);
  /// A number no other stream of the process has (cudaStreamGetId).
  Status streamGetId(void *Stream, unsigned long long *Id);
  /// cudaStreamAttachMemAsync / cuStreamAttachMemAsync: Flags is
  /// cudaMemAttachGlobal (1), Host (2) or Single (4). Managed memory on
  /// both backends is visible to the host and every stream at all times, so
  /// attaching is checked as CUDA checks it and changes nothing.
  Status streamAttachMem(void *Stream, void *Ptr, size_t Length,
                         unsigned Flags);
  /// cudaStreamSetAttribute/GetAttribute: Value is a 64-byte
  /// cudaLaunchAttributeValue. The attributes CUDA defines for streams are
  /// the access-policy window (1), synchronisation policy (3), priority
  /// (8) and the memory synchronisation domain map and domain (9, 10);
  /// others are cudaErrorInvalidValue, and so is a window beyond the
  /// device's maximum or with invalid properties. The stream keeps what was
  /// set (windows, policies and domains are hints with no effect on a
  /// result); priority changes the stream's priority, clamped to the
  /// range. Get answers CUDA's default for an attribute never set.
  static constexpr size_t StreamAttrBytes = 64;
  Status streamSetAttribute(void *Stream, int Attr, const void *Value);
  Status streamGetAttribute(void *Stream, int Attr, void *Value);
  /// cudaStreamCopyAttributes: Dst takes every attribute Src has.
  Status streamCopyAttributes(void *Dst, void *Src);
  Status streamWaitEvent(void *Stream, void *Event, unsigned Flags);
  /// Runs Fn(Data) after the stream's earlier work (cudaLaunchHostFunc),
  /// on a thread of the runtime's. After a kernel fault host functions no
  /// longer run, as in CUDA, unless RunsAfterFault (stream callbacks, which
  /// receive the error).
  Status streamAddHostFunc(void *Stream, void (*Fn)(void *), void *Data,
                           bool RunsAfterFault = false);
  Status streamPriorityRange(int *Least, int *Greatest);
  /// Is S a stream handle (a default stream or a live created stream)?
  bool isStreamHandle(void *S);
  /// Does the HIP backend run the work (else the CPU backend)? Libraries
  /// over the core (cuBLAS) pick their backend's math library by it.
  bool onHipBackend();
  /// The host threads the CPU backend computes with, the caller's included
  /// (CUHIP_CPU_THREADS, else one per core), for libraries that spread host
  /// work the same way (cuFFT).
  unsigned cpuThreads();
  /// The hipStream_t behind a cudaStream_t on the HIP backend, for
  /// libraries that hand work to ROCm's (rocBLAS); null on the CPU backend.
  /// cudaErrorInvalidResourceHandle for a stream that is not one.
  Status nativeStream(void *Stream, void **HipStream);
  Status eventCreate(void **Event, unsigned Flags);
  Status eventDestroy(void *Event);
  Status eventRecord(void *Event, void *Stream);
  Status eventQuery(void *Event);
  Status eventSynchronize(void *Event);
  Status eventElapsedTime(float *Ms, void *Start, void *End);

  // --- devices ---------------------------------------------------------------
  /// Devices of the selected backend: 1, or 0 when CUHIP_BACKEND=hip found
  /// no usable AMD GPU.
  int deviceCount();
  /// Why the device cannot be used: cudaErrorNoDevice, the context's
  /// sticky error (until deviceReset), or cudaSuccess. Every entry point
  /// that uses the device checks this first.
  Status deviceStatus();
  Status setDevice(int Device);
  Status getDevice(int *Device);
  const DeviceInfo &deviceInfo(int Device) const;
  /// One cudaDeviceAttr / CUdevice_attribute value (the two enumerations
  /// share their numbers, DeviceAttributes.def), consistent with
  /// deviceInfo. cudaErrorInvalidValue for an unknown attribute.
  Status deviceAttribute(int Attribute, int Device, int *Value);
  /// The device's PCI bus id as nvidia-smi prints it, "domain:bus:device.0"
  /// from its PCI attributes, truncated to Len bytes (NUL included) as CUDA
  /// does. The caller checks Device.
  void pciBusId(int Device, char *Out, int Len);
  /// The device a PCI bus id names: [domain]:[bus]:[device].[function],
  /// [domain]:[bus]:[device] or [bus]:[device].[function], in hex.
  /// cudaErrorInvalidValue for another form, cudaErrorInvalidDevice when
  /// no device is there. Records nothing.
  Status deviceByPciBusId(const char *Id, int *Device);
  Status synchronize();
  /// cudaDeviceReset: frees every allocation, destroys every stream and
  /// event, forgets kernel attributes, device flags, limits and cache
  /// settings, and clears the sticky error and this thread's last error.
  Status deviceReset();
  /// cudaSetDeviceFlags / cudaGetDeviceFlags (cudaDeviceScheduleMask,
  /// MapHost, LmemResizeToMax, SyncMemops); the getter adds MapHost, which
  /// is always in effect.
  Status setDeviceFlags(unsigned Flags);
  Status getDeviceFlags(unsigned *Flags);
  Status getLimit(DeviceLimit L, size_t *Value);
  Status setLimit(DeviceLimit L, size_t Value);
  /// cudaFuncCache and cudaSharedMemConfig preferences of the device: kept
  /// and reported, with no effect on the CPU backend's caches.
  Status getCacheConfig(int *Config);
  Status setCacheConfig(int Config);
  Status getSharedMemConfig(int *Config);
  Status setSharedMemConfig(int Config);

  // --- errors ----------------------------------------------------------------
  /// Records S as this thread's last error (unless it is cudaSuccess) and
  /// returns it, so API functions can `return rt.fail(...)`.
  Status record(Status S);
  Status getLastError();  // returns and clears (sticky errors stay)
  Status peekLastError(); // returns without clearing
  /// The context's sticky error (a kernel fault), cudaSuccess if none.
  Status stickyError() const;

  int driverVersion() const { return 13000; }

private:
  friend struct CoreAccess; // the core's own files (Memory.cpp)
  Runtime();
  ~Runtime();
  struct Impl;
  Impl *P;
};

} // namespace cuhip::rt
