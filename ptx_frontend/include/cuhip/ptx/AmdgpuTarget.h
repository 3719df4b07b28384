//===- AmdgpuTarget.h - Compiling PTX kernels to AMDGPU code objects ------===//
//
// The AMDGPU target turns the target-neutral IR of Lower.h into HSA code
// objects for AMD GPUs: lowerToAmdgpu rewrites each kernel into an
// amdgpu_kernel whose explicit kernel arguments have exactly the PTX
// parameter layout, replaces the NVVM special registers and barriers by
// amdgcn intrinsics and dispatch-packet reads, and reports every construct it
// does not lower yet by name instead of emitting code for it; the code
// generation half runs LLVM's AMDGPU backend and links the object with lld
// into a loadable .hsaco. docs/amdgpu.md lists what is covered and how it
// was checked.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Lower.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Error;
class Module;
class TargetMachine;
class raw_pwrite_stream;
template <typename T> class Expected;
} // namespace llvm

namespace cuhip::ptx::amdgpu {

/// One supported GPU. Adding a target is adding one row to the table in
/// AmdgpuTarget.cpp.
struct Target {
  const char *Name;          // LLVM CPU name, e.g. "gfx942"
  unsigned WavefrontSize;    // 32 or 64: the wave size kernels compile for
  const char *Features;      // LLVM subtarget features, e.g. "+wavefrontsize32"
  const char *Description;   // product family, for --help and docs
  unsigned LdsBytesPerWorkgroup; // shared memory one block can use
};

/// The HSA code object version cuhip emits (see docs/amdgpu.md: version 4
/// is loaded by every ROCm release from 4.x through 6.x).
constexpr unsigned CodeObjectVersion = 4;

/// Every supported target, in table order.
llvm::ArrayRef<Target> targets();

/// The target named Name (e.g. "gfx1100"), or null.
const Target *findTarget(llvm::StringRef Name);

/// A TargetMachine for amdgcn-amd-amdhsa and T (optimization level O3).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const Target &T);

/// Rewrites the target-neutral module M (with its kernels' Kernels) in place
/// into AMDGPU IR for T: sets the triple and data layout of TM, makes each
/// kernel an amdgpu_kernel with the PTX parameter layout as its explicit
/// kernel arguments, and lowers special registers, barriers, scopes and
/// address spaces. Fails, naming the construct, on anything not lowered yet.
/// When Optimize is set, runs LLVM's O3 pipeline for TM afterwards.
llvm::Error lowerToAmdgpu(llvm::Module &M, const std::vector<KernelInfo> &Kernels,
                          const Target &T, llvm::TargetMachine &TM,
                          bool Optimize = true);

/// The launch's dynamic shared memory size as a hidden kernel argument.
/// A kernel that reads %dynamic_smem_size or %total_smem_size has one more
/// explicit kernel argument than its PTX parameters: an i32 at the first
/// multiple of 4 after the end of the last PTX parameter (at 0 if there is
/// none), which the launcher must fill with the dynamic shared size in
/// bytes (the same value it passes as the launch's dynamic LDS size). The
/// kernarg buffer is then the PTX parameter buffer, zero padding up to that
/// offset and the u32, and its size offset + 4 (the code object's
/// .kernarg_segment_size). Other kernels have no extra argument and take the
/// PTX buffer as it is. The lowered kernel function carries the offset as
/// the string attribute DynamicSharedSizeOffsetAttr.
inline constexpr const char DynamicSharedSizeOffsetAttr[] =
    "cuhip-dynamic-shared-size-offset";

/// For a module lowerToAmdgpu produced, the kernarg offset of Kernel's
/// dynamic-shared-size argument, or nullopt if it has none.
std::optional<uint32_t> dynamicSharedSizeArgOffset(const llvm::Module &M,
                                                   llvm::StringRef Kernel);

/// Machine code for a module lowerToAmdgpu produced: the assembly text, or a
/// relocatable ELF object (not loadable on its own; see linkCodeObject).
llvm::Error emitAssembly(llvm::Module &M, llvm::TargetMachine &TM,
                         llvm::SmallVectorImpl<char> &Out);
llvm::Error emitObject(llvm::Module &M, llvm::TargetMachine &TM,
                       llvm::SmallVectorImpl<char> &Out);

/// Links a relocatable object into a loadable HSA code object with
/// `ld.lld -shared` (CUHIP_LD_LLD overrides the linker path).
llvm::Error linkCodeObject(llvm::ArrayRef<char> Object,
                           llvm::SmallVectorImpl<char> &CodeObject);

/// A PTX module compiled for one target: the loadable code object and the
/// parameter layout of each kernel (what a launch packs its arguments by).
struct CodeObject {
  std::vector<KernelInfo> Kernels;
  std::string Bytes;
  bool FromCache = false; // taken from the compile cache, nothing compiled
};

/// Receives the compile cache's messages: warnings (the cache directory is
/// unusable, so the cache is off) and debug lines (hits, misses, stores).
using CodeObjectCacheLogger = std::function<void(bool Warning, const std::string &)>;

/// Parses, lowers and compiles the PTX text Ptx (named Name in messages) for
/// T and links the code object. With a non-empty CacheDir the code object is
/// looked up in, and stored to, the on-disk compile cache the host target
/// uses too (ptx_frontend/lib/host/CompileCache.h), keyed by the PTX text,
/// the target, its features, the code object version and the compiler's own
/// identity, so a second run of a program compiles nothing. The error of a
/// module that does not compile lists every diagnostic, one per line, with
/// its PTX location; such modules are never cached.
llvm::Expected<CodeObject> compilePtx(std::string_view Ptx,
                                      const std::string &Name, const Target &T,
                                      const std::string &CacheDir,
                                      CodeObjectCacheLogger Log = nullptr);

} // namespace cuhip::ptx::amdgpu
