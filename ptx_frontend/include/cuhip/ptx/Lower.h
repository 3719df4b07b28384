//===- Lower.h - PTX AST to target-neutral LLVM IR ------------------------===//
//
// The lowering turns a parsed PTX module into one LLVM module in cuhip's
// target-neutral "gpu" form, which every target (host JIT, AMDGPU) starts
// from:
//
//  * each kernel is `void @name(ptr %params)`: %params points to the kernel's
//    parameters packed exactly as the PTX parameter list lays them out (see
//    KernelInfo), which is also the AMDGPU kernarg layout;
//  * special registers are calls to the NVVM `llvm.nvvm.read.ptx.sreg.*`
//    intrinsics and block barriers are `llvm.nvvm.barrier.cta.sync.*`, so
//    targets and uniformity analysis recognise them;
//  * state spaces keep NVPTX address-space numbers: generic 0, global 1,
//    shared 3, const 4, local 5. Addresses are integers as in PTX; a memory
//    access converts its address with inttoptr into the access's space.
//    Shared variables are globals in addrspace(3) whose only uses are
//    `ptrtoint` (their address in the shared window);
//  * PTX registers become allocas, promoted by mem2reg in each target;
//  * warp-level matrix instructions (ldmatrix, stmatrix, mma, wmma) are one
//    call each to the NVVM intrinsic of that form (`llvm.nvvm.mma.*`, ...),
//    with the lane's fragment registers as scalar operands. The forms LLVM
//    has no intrinsic for (mma.m16n8k8/m16n8k16 .f16 with different C and D
//    types, wmma.mma .s8 x .u8) call `cuhip.<name>`, where <name> is the
//    name and the signature NVVM's naming rules would give the intrinsic,
//    e.g. `cuhip.mma.m16n8k16.row.col.f32.f16` (D .f32, C .f16).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/AST.h"
#include "cuhip/ptx/Diagnostics.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace cuhip::ptx {

namespace addrspace {
enum : unsigned { Generic = 0, Global = 1, Shared = 3, Const = 4, Local = 5 };
}

struct KernelParamInfo {
  std::string Name;
  uint32_t Offset = 0; // byte offset in the packed parameter buffer
  uint32_t Size = 0;   // bytes
  uint32_t Align = 1;
};

struct KernelInfo {
  std::string Name;
  std::vector<KernelParamInfo> Params;
  uint32_t ParamBufferSize = 0; // total, rounded up to 8
  uint32_t StaticSharedBytes = 0;
  bool UsesDynamicShared = false;
  unsigned ReqNTid[3] = {0, 0, 0};
  unsigned MaxNTid[3] = {0, 0, 0};
  /// AMDGPU code objects only: the kernarg offset where a launch writes the
  /// dynamic shared size (a u32 after the PTX parameters, for kernels that
  /// read %dynamic_smem_size; see AmdgpuTarget.h), or -1 if there is none.
  int32_t DynamicSharedSizeArgOffset = -1;
};

struct LoweredModule {
  std::unique_ptr<llvm::Module> IR;
  std::vector<KernelInfo> Kernels;
};

struct LowerOptions {
  /// Attach the PTX source line to every instruction lowered from a PTX
  /// instruction, as `!cuhip.ptx.line !{!"function", i32 line}` (see
  /// PtxLineMetadata), for diagnostics about the running code (memcheck).
  bool SourceLines = false;
};
/// The metadata kind of LowerOptions::SourceLines.
inline constexpr const char *PtxLineMetadata = "cuhip.ptx.line";

/// Lowers Mod into Ctx. Unsupported or malformed constructs are reported to
/// Diags at their PTX location (naming the instruction); the result is empty
/// when any error was reported.
std::optional<LoweredModule> lowerModule(const Module &Mod,
                                         llvm::LLVMContext &Ctx,
                                         DiagnosticEngine &Diags,
                                         const LowerOptions &Options = {});

/// The first PTX ISA version / address size the frontend does not accept.
bool isSupportedPtxVersion(unsigned Major, unsigned Minor);

} // namespace cuhip::ptx
