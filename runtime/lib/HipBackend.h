//===- HipBackend.h - Running kernels on AMD GPUs through HIP -------------===//
//
// The HIP backend loads libamdhip64 with dlopen when the runtime core asks
// for it, so cuhip neither links against ROCm nor needs it installed. open()
// says whether a usable AMD GPU is present and, if not, why (the library is
// missing, lacks an entry point, or HIP reports no device); the core turns
// that into its backend choice. The remaining calls map the core's memory,
// module and launch operations onto HIP's module API with code objects from
// the PTX frontend's AMDGPU target. Only open() has been exercised (against
// Debian's libamdhip64 5.2 on a machine without an AMD GPU); docs/amdgpu.md
// says exactly what was and was not run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Lower.h"
#include "cuhip/runtime/Runtime.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
}

namespace cuhip::rt {

/// One kernel of a code object loaded into HIP.
struct HipKernel {
  void *Function = nullptr; // hipFunction_t
  ptx::KernelInfo Info;     // the PTX parameter layout of the kernel
};

class HipBackend {
public:
  /// The library names tried in order, newest ROCm first, unless
  /// CUHIP_HIP_LIBRARY names the library to load instead.
  static std::vector<std::string> libraryCandidates();

  /// Loads libamdhip64, initialises HIP and selects device 0. Returns null
  /// when HIP cannot run kernels here; then Reason says why, e.g. "library
  /// not found (tried ...)" or "no AMD GPU found by HIP: hipErrorNoDevice".
  static std::unique_ptr<HipBackend> open(std::string &Reason);
  ~HipBackend();

  const std::string &libraryPath() const { return LibraryPath; }
  /// The device's gfx architecture without feature suffixes ("gfx942").
  const std::string &arch() const { return Arch; }
  /// Can cuhip's AMDGPU target compile for this device?
  bool isSupportedDevice() const;
  const DeviceInfo &deviceInfo() const { return Info; }
  int deviceCount() const { return Devices; }

  Status malloc(void **Ptr, size_t Bytes);
  Status free(void *Ptr);
  Status memcpy(void *Dst, const void *Src, size_t Bytes, CopyKind Kind);
  Status memset(void *Ptr, int Value, size_t Bytes);
  Status synchronize();

  /// Compiles a lowered PTX module to a code object for arch() and loads it;
  /// Kernels receives one entry per kernel. On failure Message says why.
  Status loadModule(std::unique_ptr<llvm::LLVMContext> Ctx,
                    ptx::LoweredModule Lowered, const std::string &Name,
                    std::vector<HipKernel> &Kernels, std::string &Message);
  /// Launches K with the packed PTX parameter buffer Params on the null
  /// stream and waits for it (the core's launches are synchronous).
  Status launch(const HipKernel &K, Dim3 Grid, Dim3 Block, const void *Params,
                size_t ParamBytes, size_t DynamicShared, std::string &Message);

  /// The CUDA status for a HIP error code.
  static Status translateError(int HipError);

private:
  HipBackend() = default;
  struct Api;
  std::unique_ptr<Api> Hip;
  void *Library = nullptr;
  std::string LibraryPath, Arch;
  DeviceInfo Info;
  int Devices = 0;
  std::string errorText(int HipError) const;
};

} // namespace cuhip::rt
