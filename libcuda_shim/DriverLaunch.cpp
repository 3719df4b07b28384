//===- DriverLaunch.cpp - Kernel launches and function attributes ---------===//
//
// cuLaunchKernel in both parameter forms (an array of argument pointers, or
// `extra` with one packed buffer laid out as the kernel's parameter list),
// cuLaunchKernelEx with its attributes, cooperative launches, occupancy,
// and the function attributes. The attributes a program sets (the dynamic
// shared memory opt-in, the carveout preference) are kept here per function
// and checked at launch, as CUDA does.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"
#include "ExportTables.h"

#include <vector>

using namespace cuhip;
using namespace cuhip::cuda;

namespace {
/// The driver's answer to NVIDIA's runtime for a launch configuration beyond
/// the device's limits (see launch()).
constexpr int CudartInvalidConfiguration = 9;

rt::Kernel *kernel(const void *F) {
  return reinterpret_cast<rt::Kernel *>(const_cast<void *>(F));
}

/// The largest dynamic shared size a launch of F may ask for: the runtime
/// core keeps it, shared with libcudart's cudaFuncSetAttribute.
size_t dynamicSharedLimit(const void *F, const rt::KernelSummary &S) {
  rt::KernelAttributes A;
  if (runtime().kernelAttributes(kernel(F), &A) == rt::cudaSuccess)
    return size_t(A.MaxDynamicSharedBytes);
  const rt::DeviceInfo &D = runtime().deviceInfo(0);
  return D.SharedMemPerBlock > S.StaticSharedBytes
             ? D.SharedMemPerBlock - S.StaticSharedBytes
             : 0;
}

CUresult validFunction(CUfunction F, rt::KernelSummary &S) {
  if (!F || !runtime().isKernelHandle(F))
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().kernelSummary(kernel(F), &S));
}

CUresult launch(CUfunction F, unsigned GX, unsigned GY, unsigned GZ,
                unsigned BX, unsigned BY, unsigned BZ, unsigned SharedMem,
                void *Stream, void **Params, void **Extra, bool Cooperative) {
  if (CUresult R = checkContext())
    return R;
  rt::KernelSummary S;
  if (CUresult R = validFunction(F, S))
    return R;
  if (Params && Extra)
    return CUDA_ERROR_INVALID_VALUE;
  if (SharedMem > dynamicSharedLimit(F, S)) {
    CUHIP_ERROR("launch of '%s': %u bytes of dynamic shared memory exceed "
                "the %zu the function allows; raise "
                "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first",
                S.Name.c_str(), SharedMem, dynamicSharedLimit(F, S));
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::vector<void *> Args;
  if (Extra) {
    // CU_LAUNCH_PARAM_BUFFER_POINTER, its buffer, CU_LAUNCH_PARAM_BUFFER_SIZE,
    // a pointer to its size, CU_LAUNCH_PARAM_END, in any order of the pairs.
    uint8_t *Buffer = nullptr;
    size_t *Size = nullptr;
    for (size_t I = 0;; I += 2) {
      uintptr_t Key = uintptr_t(Extra[I]);
      if (Key == CU_LAUNCH_PARAM_END_AS_INT)
        break;
      if (Key == CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
        Buffer = static_cast<uint8_t *>(Extra[I + 1]);
      else if (Key == CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)
        Size = static_cast<size_t *>(Extra[I + 1]);
      else
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!S.Params.empty()) {
      if (!Buffer || !Size)
        return CUDA_ERROR_INVALID_VALUE;
      const rt::KernelSummary::Param &Last = S.Params.back();
      if (*Size < size_t(Last.Offset) + Last.Size) {
        CUHIP_ERROR("launch of '%s': the parameter buffer has %zu bytes, the "
                    "parameters need %u",
                    S.Name.c_str(), *Size, Last.Offset + Last.Size);
        return CUDA_ERROR_INVALID_VALUE;
      }
      for (const auto &P : S.Params)
        Args.push_back(Buffer + P.Offset);
    }
    Params = Args.data();
  }
  rt::Status Result = runtime().launch(kernel(F), {GX, GY, GZ}, {BX, BY, BZ},
                                       Params, SharedMem, Stream, Cooperative);
  // A configuration beyond the device's limits is CUDA_ERROR_INVALID_VALUE
  // to driver-API callers. NVIDIA's runtime does not check the
  // configuration itself: it maps the driver's code 9, which cuda.h does not
  // name, to cudaErrorInvalidConfiguration, the error `<<<>>>` reports.
  if (Result == rt::cudaErrorInvalidConfiguration && nvidiaRuntimeAttached())
    return CUresult(CudartInvalidConfiguration);
  return toCU(Result);
}

CUresult launchEx(const CUlaunchConfig *C, CUfunction F, void **Params,
                  void **Extra, bool PerThread) {
  if (!C)
    return CUDA_ERROR_INVALID_VALUE;
  if (C->numAttrs && !C->attrs)
    return CUDA_ERROR_INVALID_VALUE;
  bool Cooperative = false;
  for (unsigned I = 0; I < C->numAttrs; ++I) {
    const CUlaunchAttribute &A = C->attrs[I];
    if (A.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
      Cooperative = A.value.cooperative != 0;
    else // scheduling hints (priority, clusters of 1, …) change nothing here
      CUHIP_DEBUG("cuLaunchKernelEx: launch attribute %d ignored", A.id);
  }
  void *Stream = PerThread ? perThreadStream(C->hStream) : coreStream(C->hStream);
  return launch(F, C->gridDimX, C->gridDimY, C->gridDimZ, C->blockDimX,
                C->blockDimY, C->blockDimZ, C->sharedMemBytes, Stream, Params,
                Extra, Cooperative);
}

CUresult getAttribute(int *Value, CUfunction_attribute Attr, const void *F) {
  if (CUresult R = checkInit())
    return R;
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  rt::KernelSummary S;
  if (CUresult R = validFunction((CUfunction)F, S))
    return R;
  switch (Attr) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *Value = int(S.MaxThreadsPerBlock);
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *Value = int(S.StaticSharedBytes);
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
  case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
  case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    *Value = 0;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    // Thread state lives in memory on the CPU backend; report what a
    // modest GPU kernel uses so occupancy arithmetic in programs works.
    *Value = 32;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION: {
    // The runtime API's answers (cudaFuncGetAttributes): the PTX target the
    // module was loaded from, and the device's compute capability.
    rt::KernelAttributes A;
    if (CUresult R = toCU(runtime().kernelAttributes(kernel(F), &A)))
      return R;
    *Value = Attr == CU_FUNC_ATTRIBUTE_PTX_VERSION ? A.PtxVersion
                                                   : A.BinaryVersion;
    return CUDA_SUCCESS;
  }
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *Value = int(dynamicSharedLimit(F, S));
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: {
    rt::KernelAttributes A;
    if (CUresult R = toCU(runtime().kernelAttributes(kernel(F), &A)))
      return R;
    *Value = A.PreferredShmemCarveout;
    return CUDA_SUCCESS;
  }
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult setAttribute(const void *F, CUfunction_attribute Attr, int Value) {
  if (CUresult R = checkInit())
    return R;
  rt::KernelSummary S;
  if (CUresult R = validFunction((CUfunction)F, S))
    return R;
  const rt::DeviceInfo &D = runtime().deviceInfo(0);
  switch (Attr) {
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    if (Value < 0 || size_t(Value) + S.StaticSharedBytes > D.SharedMemPerBlockOptin)
      return CUDA_ERROR_INVALID_VALUE;
    return toCU(runtime().setKernelAttribute(
        kernel(F), rt::KernelAttr::MaxDynamicSharedMemorySize, Value));
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    if (Value < -1 || Value > 100)
      return CUDA_ERROR_INVALID_VALUE;
    return toCU(runtime().setKernelAttribute(
        kernel(F), rt::KernelAttr::PreferredSharedMemoryCarveout, Value));
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    // Thread block clusters are not supported (CLUSTER_LAUNCH is 0).
    return notSupported("thread block cluster function attributes");
  default:
    return CUDA_ERROR_INVALID_VALUE; // read-only attributes
  }
}

} // namespace

CUHIP_EXPORT CUresult cuLaunchKernel(CUfunction F, unsigned int GX,
                                     unsigned int GY, unsigned int GZ,
                                     unsigned int BX, unsigned int BY,
                                     unsigned int BZ, unsigned int SharedMem,
                                     CUstream Stream, void **Params,
                                     void **Extra) {
  return launch(F, GX, GY, GZ, BX, BY, BZ, SharedMem, coreStream(Stream),
                Params, Extra, false);
}

CUHIP_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction F, unsigned int GX,
                                          unsigned int GY, unsigned int GZ,
                                          unsigned int BX, unsigned int BY,
                                          unsigned int BZ,
                                          unsigned int SharedMem,
                                          CUstream Stream, void **Params,
                                          void **Extra) {
  return launch(F, GX, GY, GZ, BX, BY, BZ, SharedMem, perThreadStream(Stream),
                Params, Extra, false);
}

CUHIP_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *Config,
                                       CUfunction F, void **Params,
                                       void **Extra) {
  return launchEx(Config, F, Params, Extra, false);
}

CUHIP_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *Config,
                                            CUfunction F, void **Params,
                                            void **Extra) {
  return launchEx(Config, F, Params, Extra, true);
}

CUHIP_EXPORT CUresult cuLaunchCooperativeKernel(
    CUfunction F, unsigned int GX, unsigned int GY, unsigned int GZ,
    unsigned int BX, unsigned int BY, unsigned int BZ, unsigned int SharedMem,
    CUstream Stream, void **Params) {
  return launch(F, GX, GY, GZ, BX, BY, BZ, SharedMem, coreStream(Stream),
                Params, nullptr, true);
}

CUHIP_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(
    CUfunction F, unsigned int GX, unsigned int GY, unsigned int GZ,
    unsigned int BX, unsigned int BY, unsigned int BZ, unsigned int SharedMem,
    CUstream Stream, void **Params) {
  return launch(F, GX, GY, GZ, BX, BY, BZ, SharedMem, perThreadStream(Stream),
                Params, nullptr, true);
}

CUHIP_EXPORT CUresult cuFuncGetAttribute(int *Value, CUfunction_attribute Attr,
                                         CUfunction F) {
  return getAttribute(Value, Attr, F);
}

CUHIP_EXPORT CUresult cuFuncSetAttribute(CUfunction F,
                                         CUfunction_attribute Attr, int Value) {
  return setAttribute(F, Attr, Value);
}

CUHIP_EXPORT CUresult cuKernelGetAttribute(int *Value,
                                           CUfunction_attribute Attr,
                                           CUkernel K, CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  return getAttribute(Value, Attr, K);
}

CUHIP_EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute Attr, int Value,
                                           CUkernel K, CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  return setAttribute(K, Attr, Value);
}

CUHIP_EXPORT CUresult cuFuncSetCacheConfig(CUfunction F, CUfunc_cache Config) {
  if (CUresult R = checkInit())
    return R;
  rt::KernelSummary S;
  if (CUresult R = validFunction(F, S))
    return R;
  // CU_FUNC_CACHE_PREFER_NONE .. PREFER_EQUAL: a preference, which a CPU's
  // fixed caches cannot follow.
  return Config >= 0 && Config <= 3 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUHIP_EXPORT CUresult cuKernelSetCacheConfig(CUkernel K, CUfunc_cache Config,
                                             CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncSetCacheConfig(reinterpret_cast<CUfunction>(K), Config);
}

CUHIP_EXPORT CUresult cuFuncSetSharedMemConfig(CUfunction F,
                                               CUsharedconfig Config) {
  if (CUresult R = checkInit())
    return R;
  rt::KernelSummary S;
  if (CUresult R = validFunction(F, S))
    return R;
  return Config >= 0 && Config <= 2 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult functionName(const char **Name, const void *F) {
  if (CUresult R = checkInit())
    return R;
  if (!Name)
    return CUDA_ERROR_INVALID_VALUE;
  rt::KernelSummary S;
  if (CUresult R = validFunction((CUfunction)F, S))
    return R;
  *Name = runtime().kernelName(kernel(F));
  return *Name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUHIP_EXPORT CUresult cuFuncGetName(const char **Name, CUfunction F) {
  return functionName(Name, F);
}

CUHIP_EXPORT CUresult cuKernelGetName(const char **Name, CUkernel K) {
  return functionName(Name, K);
}

CUHIP_EXPORT CUresult cuFuncIsLoaded(CUfunctionLoadingState *State,
                                      CUfunction F) {
  if (CUresult R = checkInit())
    return R;
  if (!State)
    return CUDA_ERROR_INVALID_VALUE;
  rt::KernelSummary S;
  if (CUresult R = validFunction(F, S))
    return R;
  *State = CU_FUNCTION_LOADING_STATE_LOADED; // loads compile eagerly
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuFuncLoad(CUfunction F) {
  if (CUresult R = checkInit())
    return R;
  rt::KernelSummary S;
  return validFunction(F, S);
}

CUHIP_EXPORT CUresult cuFuncGetParamInfo(CUfunction F, size_t Index,
                                         size_t *Offset, size_t *Size) {
  if (CUresult R = checkInit())
    return R;
  rt::KernelSummary S;
  if (CUresult R = validFunction(F, S))
    return R;
  if (Index >= S.Params.size())
    return CUDA_ERROR_INVALID_VALUE;
  if (Offset)
    *Offset = S.Params[Index].Offset;
  if (Size)
    *Size = S.Params[Index].Size;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuKernelGetParamInfo(CUkernel K, size_t Index,
                                           size_t *Offset, size_t *Size) {
  return cuFuncGetParamInfo(reinterpret_cast<CUfunction>(K), Index, Offset,
                            Size);
}

CUHIP_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *Blocks, CUfunction F, int BlockSize, size_t DynamicShared,
    unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!Blocks || Flags > 1) // CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE = 1
    return CUDA_ERROR_INVALID_VALUE;
  if (!F || !runtime().isKernelHandle(F))
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().maxActiveBlocksPerMultiprocessor(kernel(F), BlockSize,
                                                         DynamicShared, Blocks));
}

CUHIP_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *Blocks, CUfunction F, int BlockSize, size_t DynamicShared) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      Blocks, F, BlockSize, DynamicShared, 0);
}

CUHIP_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
    int *MinGridSize, int *BlockSize, CUfunction F,
    CUoccupancyB2DSize SharedForBlock, size_t DynamicShared,
    int BlockSizeLimit, unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!MinGridSize || !BlockSize || Flags > 1)
    return CUDA_ERROR_INVALID_VALUE;
  if (!F || !runtime().isKernelHandle(F))
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().maxPotentialBlockSize(kernel(F), SharedForBlock,
                                              DynamicShared, BlockSizeLimit,
                                              MinGridSize, BlockSize));
}

CUHIP_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(
    int *MinGridSize, int *BlockSize, CUfunction F,
    CUoccupancyB2DSize SharedForBlock, size_t DynamicShared,
    int BlockSizeLimit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(
      MinGridSize, BlockSize, F, SharedForBlock, DynamicShared, BlockSizeLimit,
      0);
}

CUHIP_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *Bytes,
                                                              CUfunction F,
                                                              int NumBlocks,
                                                              int BlockSize) {
  if (CUresult R = checkContext())
    return R;
  if (!Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (!F || !runtime().isKernelHandle(F))
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(
      runtime().availableDynamicShared(kernel(F), NumBlocks, BlockSize, Bytes));
}

// Clusters are one block here (what cudaOccupancyMaxActiveClusters
// supports): as many clusters fit as blocks do, on every multiprocessor. A
// configuration without CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION asks for
// clusters of one block.
CUHIP_EXPORT CUresult cuOccupancyMaxActiveClusters(int *NumClusters,
                                                   CUfunction F,
                                                   const CUlaunchConfig *C) {
  if (CUresult R = checkContext())
    return R;
  if (!NumClusters || !C || (C->numAttrs && !C->attrs))
    return CUDA_ERROR_INVALID_VALUE;
  if (!F || !runtime().isKernelHandle(F))
    return CUDA_ERROR_INVALID_HANDLE;
  for (unsigned I = 0; I < C->numAttrs; ++I) {
    if (C->attrs[I].id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      continue;
    const auto &D = C->attrs[I].value.clusterDim;
    if (D.x > 1 || D.y > 1 || D.z > 1)
      return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  }
  uint64_t Threads = uint64_t(C->blockDimX) * C->blockDimY * C->blockDimZ;
  if (!Threads || Threads > 0x7fffffff)
    return CUDA_ERROR_INVALID_VALUE;
  int PerMultiprocessor = 0;
  if (CUresult R = toCU(runtime().maxActiveBlocksPerMultiprocessor(
          kernel(F), int(Threads), C->sharedMemBytes, &PerMultiprocessor)))
    return R;
  *NumClusters =
      PerMultiprocessor * runtime().deviceInfo(0).MultiProcessorCount;
  return CUDA_SUCCESS;
}
