//===- HostTarget.h - Running PTX kernels on the host CPU -----------------===//
//
// The host target turns each kernel of a lowered module into a *block
// function*: one call runs every thread of one thread block. Barriers are
// handled by continuation-based synchronisation: the kernel is cut at each
// barrier into regions, each region runs as a loop over the block's threads,
// and values live across a barrier are kept per thread in a frame. The
// runtime calls the block function once per block, from any worker thread,
// with a BlockContext describing the block.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Lower.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace llvm {
class Error;
class LLVMContext;
class Module;
class TargetMachine;
template <typename T> class Expected;
namespace orc {
class LLJIT;
}
} // namespace llvm

namespace cuhip::ptx::host {

/// What a block function receives besides the parameter buffer. The layout
/// is an ABI between the runtime and the generated code (see the field
/// offsets checked below); change both together.
struct BlockContext {
  uint32_t CtaId[3];
  uint32_t NCtaId[3];
  uint32_t NTid[3];
  uint32_t DynamicSharedBytes;
  uint8_t *Shared;  // this block's shared memory: static, then dynamic
  uint8_t *Frames;  // FrameBytesPerThread * threads-per-block bytes
  uint32_t Status;  // BlockStatus, set by the generated code
  uint32_t Reserved;
};
static_assert(offsetof(BlockContext, NTid) == 24);
static_assert(offsetof(BlockContext, DynamicSharedBytes) == 36);
static_assert(offsetof(BlockContext, Shared) == 40);
static_assert(offsetof(BlockContext, Frames) == 48);
static_assert(offsetof(BlockContext, Status) == 56);

enum BlockStatus : uint32_t {
  BlockOk = 0,
  /// Threads of one block waited at different barriers (undefined in CUDA).
  BlockDivergentBarrier = 1,
};

using BlockFunction = void (*)(const void *Params, BlockContext *Ctx);

/// Per-kernel facts the runtime needs to launch a block function.
struct HostKernelLayout {
  std::string KernelName;
  std::string BlockFunctionName;
  uint32_t FrameBytesPerThread = 0;
  uint32_t StaticSharedBytes = 0;
  uint32_t SharedAlign = 16;
  unsigned NumRegions = 1; // 1 + number of barriers kept
};

/// Rewrites a lowered module in place into host form: every kernel becomes
/// its block function, named by HostKernelLayout::BlockFunctionName. The
/// module must already carry the host data layout. When TM is given the
/// module is also optimized for it (O3).
llvm::Error prepareHostModule(llvm::Module &M,
                              const std::vector<KernelInfo> &Kernels,
                              std::vector<HostKernelLayout> &Layouts,
                              llvm::TargetMachine *TM);

struct CompiledKernel {
  KernelInfo Info;
  HostKernelLayout Layout;
  BlockFunction Fn = nullptr;
};

/// Owns the process's JIT. Thread-safe.
class HostCompiler {
public:
  static llvm::Expected<std::unique_ptr<HostCompiler>> create();
  ~HostCompiler();

  /// Compiles every kernel of LM (which lives in Ctx) to machine code.
  /// ModuleName appears in error messages.
  llvm::Expected<std::vector<CompiledKernel>>
  compile(std::unique_ptr<llvm::LLVMContext> Ctx, LoweredModule LM,
          const std::string &ModuleName);

  /// Host CPU name and features the code is generated for.
  std::string targetDescription() const;

  /// A target machine for the host, for `cuhip ptx --arch host`.
  static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createHostTargetMachine();

private:
  HostCompiler() = default;
  std::unique_ptr<llvm::orc::LLJIT> JIT;
  std::unique_ptr<llvm::TargetMachine> TM;
  std::mutex Lock;
  unsigned NextDylib = 0;
};

} // namespace cuhip::ptx::host
