//===- DeviceRuntimeApi.h - The device runtime's function names -----------===//
//
// Dynamic parallelism: device code calls the CUDA device runtime API
// (cudaGetParameterBuffer, cudaLaunchDevice, device-side streams, events,
// copies, malloc), and cudaGraphSetConditional sets a conditional graph
// node's condition. nvcc 12 and later emit these calls as `__cudaCDP2<Name>`
// (with `_ptsz` forms for the per-thread default stream); older PTX calls
// `cuda<Name>` directly. NVIDIA's libcudadevrt defines them in terms of the
// GPU's own launch hardware, so cuhip never links that library's PTX: each
// backend provides the functions itself (the CPU backend's device library,
// DeviceLibrary.cpp), and the linker treats the names as backend functions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string_view>

namespace cuhip::ptx {

/// The device runtime API, each without its `__cudaCDP2`/`cuda` prefix.
inline constexpr std::string_view DeviceRuntimeFunctions[] = {
    "GetParameterBuffer", "GetParameterBufferV2", "LaunchDevice",
    "LaunchDeviceV2", "StreamCreateWithFlags", "StreamDestroy",
    "StreamWaitEvent", "EventCreateWithFlags", "EventRecord",
    "EventRecordWithFlags", "EventDestroy", "Malloc", "Free", "MemcpyAsync",
    "Memcpy2DAsync", "Memcpy3DAsync", "MemsetAsync", "Memset2DAsync",
    "Memset3DAsync", "DeviceGetAttribute", "DeviceGetLimit",
    "DeviceGetCacheConfig", "DeviceGetSharedMemConfig", "GetLastError",
    "PeekAtLastError", "GetErrorString", "GetErrorName", "GetDeviceCount",
    "GetDevice", "FuncGetAttributes", "RuntimeGetVersion",
    "OccupancyMaxActiveBlocksPerMultiprocessor",
    "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "GraphSetConditional",
};

/// The device runtime function Name calls (its entry of
/// DeviceRuntimeFunctions, the prefix and any `_ptsz` suffix stripped), or
/// an empty view when Name is not one.
inline std::string_view deviceRuntimeFunction(std::string_view Name) {
  std::string_view Base;
  if (Name.substr(0, 10) == "__cudaCDP2")
    Base = Name.substr(10);
  else if (Name.substr(0, 4) == "cuda")
    Base = Name.substr(4);
  else
    return {};
  if (Base.size() > 5 && Base.substr(Base.size() - 5) == "_ptsz")
    Base.remove_suffix(5);
  for (std::string_view F : DeviceRuntimeFunctions)
    if (F == Base)
      return F;
  return {};
}

inline bool isDeviceRuntimeFunction(std::string_view Name) {
  return !deviceRuntimeFunction(Name).empty();
}

/// Whether a unit of linked PTX is NVIDIA's device runtime library: it
/// defines the entry points nvcc's calls go to. Such units are dropped.
inline bool isDeviceRuntimeDefinition(std::string_view Name) {
  return Name == "__cudaCDP2LaunchDeviceV2" || Name == "cudaLaunchDeviceV2" ||
         Name == "__cudaCDP2GetParameterBufferV2" ||
         Name == "cudaGetParameterBufferV2";
}

} // namespace cuhip::ptx
