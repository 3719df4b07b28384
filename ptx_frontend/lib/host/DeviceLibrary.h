//===- DeviceLibrary.h - What the device library shares with memcheck -----===//
#pragma once

#include "cuhip/ptx/HostTarget.h"

#include <cstdint>
#include <mutex>
#include <string>

namespace cuhip::ptx::host {

/// Serialises what kernels write to stdout and stderr (device printf,
/// assertion messages, memcheck reports), so lines never interleave.
std::mutex &deviceOutputLock();

/// Memcheck mode: whether [Address, Address + Size) lies inside one live
/// in-kernel malloc block or one registered module variable.
bool isDeviceHeapOrModuleRange(uint64_t Address, uint64_t Size);

/// The in-kernel heap (malloc, free, and the device runtime's cudaMalloc):
/// null once the heap limit would be passed.
void *deviceHeapMalloc(uint64_t Size);
void deviceHeapFree(void *P);

/// The device runtime function Name (`__cudaCDP2MemcpyAsync`, ...), which
/// forwards to the launch's DeviceRuntime, or null.
DeviceLibraryFunction deviceRuntimeCall(const std::string &Name);

} // namespace cuhip::ptx::host
