//===- DeviceLibrary.h - What the device library shares with memcheck -----===//
#pragma once

#include <cstdint>
#include <mutex>

namespace cuhip::ptx::host {

/// Serialises what kernels write to stdout and stderr (device printf,
/// assertion messages, memcheck reports), so lines never interleave.
std::mutex &deviceOutputLock();

/// Memcheck mode: whether [Address, Address + Size) lies inside one live
/// in-kernel malloc block or one registered module variable.
bool isDeviceHeapOrModuleRange(uint64_t Address, uint64_t Size);

} // namespace cuhip::ptx::host
