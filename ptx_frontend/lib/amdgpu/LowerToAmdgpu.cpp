//===- LowerToAmdgpu.cpp - Target-neutral IR to AMDGPU IR -----------------===//
//
// Rewrites the target-neutral module (Lower.h) for the AMDGPU backend:
//
//  * Kernels. Each `void @k(ptr %params)` becomes an amdgpu_kernel whose
//    explicit kernel arguments are the PTX parameters, one argument per
//    parameter with the parameter's size and alignment (an iN for a scalar
//    whose alignment equals its size, otherwise a byref [N x i8] with the
//    parameter's alignment). The backend lays out kernargs with the same
//    rule PTX uses (each at the next multiple of its alignment), so the
//    kernarg segment *is* the PTX parameter buffer and the code object
//    metadata describes it. The body keeps addressing parameters by PTX
//    offset from one base: %params becomes llvm.amdgcn.kernarg.segment.ptr,
//    which is what the backend itself lowers explicit arguments to.
//  * Special registers: %tid/%ctaid to workitem.id/workgroup.id; %ntid from
//    the AQL dispatch packet's workgroup_size (u16 at 4/6/8); %nctaid as
//    ceil(grid_size / workgroup_size) in 32 bits, the packet's grid size (u32 at
//    12/16/20) being counted in work-items; %laneid as the lane in the
//    32-lane CUDA warp (mbcnt, modulo 32 on wave64 where a warp is half a
//    wavefront); %lanemask_*, %warpid/%nwarpid, %clock*, %globaltimer and
//    %gridid likewise (docs/amdgpu.md). Every other special register is
//    reported.
//  * trap/brkpt stay llvm.trap/debugtrap (s_trap); nanosleep becomes a
//    bounded s_sleep.
//  * Warp collectives (shfl, vote, activemask, elect, match, redux,
//    bar.warp.sync) on the 32-lane warp: LowerAmdgpuWarp.cpp.
//  * Matrix instructions (ldmatrix, stmatrix, mma, wmma), exactly, with
//    cross-lane reads: LowerAmdgpuMatrix.cpp.
//  * bar.sync 0 / barrier.sync.aligned 0 for the whole CTA: a workgroup
//    release fence, s_barrier, a workgroup acquire fence (the memory
//    ordering PTX gives a CTA barrier). The other barriers (numbered,
//    counted, bar.arrive, bar.red): LowerAmdgpuBarrier.cpp.
//  * mbarrier objects (Mbarrier.h): compare-and-swap loops on the 64-bit
//    word at workgroup scope, acquire loads for test_wait, and try_wait
//    sleeps once (s_sleep) before its second test; a thread spinning in
//    a wait loop lets the others of its block run as any GPU thread does.
//  * %dynamic_smem_size/%total_smem_size: a hidden i32 kernel argument
//    after the PTX parameters (AmdgpuTarget.h states the launcher's part).
//  * Scopes: the neutral IR's syncscope("block") (.cta) becomes
//    "workgroup"; system scope (.gpu/.sys, which the neutral IR merges)
//    stays system, which is at least as strong.
//  * Address spaces: shared (3), const (4), global (1) and generic (0)
//    already carry AMDGPU's numbers. PTX registers and .local variables are
//    allocas in space 0 in the neutral IR; promotable ones become SSA values
//    and the rest move to the private space 5 behind an addrspacecast.
//  * Module variables (.global and .const, `.visible` or not): external,
//    protected symbols of the code object, as kernels are, so that the
//    runtime finds them with hipModuleGetGlobal; nvcc's whole-program PTX
//    declares every `__device__`/`__constant__` variable without `.visible`.
//
// sin/cos/exp2/log2/tanh become ocml calls linked from the ROCm device
// libraries (AmdgpuMath.cpp); printf and assert use ockl's hostcall printf
// (AmdgpuPrintf.cpp). Anything else that targets must implement
// (malloc/free, %smid, ...)
// is rejected with an error that names the construct,
// so no kernel is ever compiled with a guessed meaning.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/AmdgpuTarget.h"
#include "cuhip/ptx/DeviceRuntimeApi.h"
#include "cuhip/ptx/Mbarrier.h"
#include "../Pipelines.h"

#include "AmdgpuMath.h"
#include "AmdgpuPrintf.h"
#include "LowerAmdgpuAtomic128.h"
#include "LowerAmdgpuBarrier.h"
#include "LowerAmdgpuMatrix.h"
#include "LowerAmdgpuWarp.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <set>
#include <string>

using namespace llvm;

namespace cuhip::ptx::amdgpu {

// The PTX AST has its own Module/Function/Instruction; here they are LLVM's.
using llvm::Argument;
using llvm::Function;
using llvm::Instruction;
using llvm::Module;
using llvm::Type;
namespace {

constexpr unsigned PrivateAS = 5;
constexpr unsigned ConstantAS = 4;

/// Why device malloc/free stay refused (docs/amdgpu.md): ockl's allocator
/// exists, but under code object version 4 it keeps its heap in a global of
/// each code object and gets memory from the host through a hostcall
/// service whose host side AMDGPUUsage does not document.
constexpr const char *MallocRefusal =
    "device malloc/free (ROCm 5.2's ockl allocator, under code object "
    "version 4, keeps a heap per code object and gets memory through "
    "hostcall service 3, whose ROCm host side is undocumented and "
    "unverified for version-4 code objects)";

/// What a neutral-IR callee means in PTX terms, for diagnostics.
std::string describeCallee(StringRef Name) {
  struct Family {
    const char *Prefix, *What;
  };
  static const Family Families[] = {
      {"llvm.nvvm.shfl.", "warp shuffle (shfl.sync)"},
      {"llvm.nvvm.vote.", "warp vote (vote.sync)"},
      {"llvm.nvvm.match.", "warp match (match.sync)"},
      {"llvm.nvvm.redux.", "warp reduction (redux.sync)"},
      {"llvm.nvvm.activemask", "activemask"},
      {"llvm.nvvm.elect.", "elect.sync"},
      {"llvm.nvvm.bar.warp.sync", "bar.warp.sync"},
      {"llvm.nvvm.barrier.cta.red.", "barrier reduction (bar.red)"},
      {"llvm.nvvm.barrier.cta.arrive", "bar.arrive"},
      {"llvm.nvvm.barrier.cta.sync.aligned.count",
       "barrier with a thread count (bar.sync a, b)"},
      {"llvm.nvvm.barrier.cta.sync.aligned.all",
       "barrier with a non-constant or non-zero barrier number"},
      {"llvm.nvvm.mma.", "matrix multiply (mma.sync)"},
      {"llvm.nvvm.wmma.", "warp matrix operation (wmma)"},
      {"llvm.nvvm.ldmatrix.", "ldmatrix"},
      {"llvm.nvvm.stmatrix.", "stmatrix"},
      {"llvm.nvvm.read.ptx.sreg.", "special register"},
      {"llvm.nvvm.nanosleep", "nanosleep"},
      {"llvm.nvvm.exit", "exit"},
      {"llvm.trap", "trap"},
      {"llvm.debugtrap", "brkpt"},
      {"llvm.sin.", "approximate sine (sin.approx)"},
      {"llvm.cos.", "approximate cosine (cos.approx)"},
      {"llvm.exp2.", "approximate base-2 exponential (ex2.approx)"},
      {"llvm.log2.", "approximate base-2 logarithm (lg2.approx)"},
      {"llvm.tanh.", "approximate tanh (tanh.approx)"},
      {"cuhip.mma.", "matrix multiply (mma.sync)"},
      {"cuhip.wmma.", "warp matrix operation (wmma)"},
      {"cuhip.sreg.", "reserved shared memory special register"},
      {"cuhip_device_", "device library call"},
      // The sampler exists on the host target only (TextureSampler.cpp).
      {"cuhip_tex_fetch", "texture fetch (tex)"},
      {"cuhip_tex_gather", "texture gather (tld4)"},
      {"cuhip_tex_query", "texture or surface query (txq, suq)"},
      {"cuhip_surf_", "surface load or store (suld, sust)"},
      {"malloc", MallocRefusal},
      {"free", MallocRefusal},
  };
  if (isDeviceRuntimeFunction(Name))
    return "dynamic parallelism (device runtime call " + Name.str() + ")";
  for (const Family &F : Families)
    if (Name.starts_with(F.Prefix))
      return std::string(F.What) + " [" + Name.str() + "]";
  return "call to '" + Name.str() + "'";
}

/// The LLVM intrinsics the neutral IR uses whose AMDGPU lowering is exact.
/// The transcendentals (sin, cos, exp2, log2, tanh) are not on it: they go
/// to ocml (AmdgpuMath.cpp).
bool isExactGenericIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::abs:
  case Intrinsic::bitreverse:
  case Intrinsic::bswap:
  case Intrinsic::ceil:
  case Intrinsic::copysign:
  case Intrinsic::ctlz:
  case Intrinsic::cttz:
  case Intrinsic::ctpop:
  case Intrinsic::fabs:
  case Intrinsic::floor:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::fshl:
  case Intrinsic::fshr:
  case Intrinsic::fptosi_sat:
  case Intrinsic::fptoui_sat:
  case Intrinsic::is_fpclass:
  case Intrinsic::maximum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::minnum:
  case Intrinsic::roundeven:
  case Intrinsic::sadd_sat:
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::smul_with_overflow:
  case Intrinsic::sqrt:
  case Intrinsic::ssub_sat:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::trunc:
  case Intrinsic::uadd_sat:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::umax:
  case Intrinsic::umin:
  case Intrinsic::umul_with_overflow:
  case Intrinsic::usub_sat:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::expect:
    return true;
  default:
    return false;
  }
}

/// The static shared size the CPU backend gives %total_smem_size for
/// Kernel: the .shared variables it or any function it calls uses, laid out
/// in module order at their alignments (FlattenAddressSpaces.cpp), without
/// the dynamic array. What the AMDGPU backend allocates (it may order the
/// variables differently, and adds cuhip's own LDS) is not the program's.
uint32_t ptxStaticSharedBytes(Function &Kernel) {
  SmallPtrSet<const Function *, 8> Reached{&Kernel};
  SmallVector<const Function *, 8> Work{&Kernel};
  while (!Work.empty())
    for (const Instruction &I : instructions(*Work.pop_back_val()))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && Reached.insert(Callee).second)
            Work.push_back(Callee);
  const DataLayout &DL = Kernel.getParent()->getDataLayout();
  uint64_t Size = 0;
  for (GlobalVariable &GV : Kernel.getParent()->globals()) {
    if (GV.getAddressSpace() != 3 || GV.hasMetadata("cuhip.dynamic_shared"))
      continue;
    SmallVector<const User *, 8> Users(GV.users());
    SmallPtrSet<const User *, 8> Seen;
    bool Used = false;
    while (!Users.empty() && !Used) {
      const User *U = Users.pop_back_val();
      if (!Seen.insert(U).second)
        continue;
      if (auto *I = dyn_cast<Instruction>(U))
        Used = Reached.count(I->getFunction());
      else
        Users.append(U->user_begin(), U->user_end());
    }
    if (Used)
      Size = alignTo(Size, GV.getAlign().valueOrOne()) +
             DL.getTypeAllocSize(GV.getValueType());
  }
  return uint32_t(Size);
}

class AmdgpuLowering {
public:
  AmdgpuLowering(Module &M, const std::vector<KernelInfo> &Kernels,
                 const Target &T)
      : M(M), Ctx(M.getContext()), Kernels(Kernels), T(T) {}

  Error run();

private:
  Module &M;
  LLVMContext &Ctx;
  const std::vector<KernelInfo> &Kernels;
  const Target &T;
  std::vector<std::string> Errors;

  void fail(const Function &F, const Twine &What) {
    Errors.push_back(("in '" + F.getName() + "': " + What +
                      " is not supported by the AMDGPU target yet")
                         .str());
  }

  Function *rewriteKernel(Function &Old, const KernelInfo &KI);
  void lowerCalls(Function &F);
  Value *specialRegister(IRBuilder<> &B, Intrinsic::ID ID, bool &Known);
  void remapScopes(Function &F);
  void moveAllocasToPrivate(Function &F);
};

Function *AmdgpuLowering::rewriteKernel(Function &Old, const KernelInfo &KI) {
  // One explicit argument per PTX parameter, in order, with its exact size
  // and alignment, so the backend's kernarg offsets equal the PTX offsets.
  SmallVector<Type *, 8> ArgTys;
  // %dynamic_smem_size and %total_smem_size need the launch's dynamic
  // shared size, which nothing the hardware provides gives exactly (the
  // dispatch packet's group_segment_size may be rounded up): kernels that
  // read them get it as one more i32 argument after the PTX parameters.
  SmallVector<CallBase *, 4> SharedSizeReads;
  for (Instruction &I : instructions(Old))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() ==
              Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size ||
          II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_total_smem_size)
        SharedSizeReads.push_back(II);
  for (const KernelParamInfo &P : KI.Params) {
    bool Scalar = P.Size == P.Align &&
                  (P.Size == 1 || P.Size == 2 || P.Size == 4 || P.Size == 8);
    ArgTys.push_back(Scalar ? static_cast<Type *>(Type::getIntNTy(Ctx, 8 * P.Size))
                            : PointerType::get(Ctx, ConstantAS));
  }
  if (!SharedSizeReads.empty())
    ArgTys.push_back(Type::getInt32Ty(Ctx));
  auto *FTy = FunctionType::get(Type::getVoidTy(Ctx), ArgTys, false);
  uint32_t StaticShared = SharedSizeReads.empty() ? 0 : ptxStaticSharedBytes(Old);
  std::string Name = Old.getName().str();
  Old.setName(Name + ".neutral");
  Function *F = Function::Create(FTy, GlobalValue::ExternalLinkage, Name, M);
  F->setCallingConv(CallingConv::AMDGPU_KERNEL);
  F->setVisibility(GlobalValue::ProtectedVisibility);
  for (unsigned I = 0; I < KI.Params.size(); ++I) {
    const KernelParamInfo &P = KI.Params[I];
    Argument *A = F->getArg(I);
    A->setName(P.Name);
    if (A->getType()->isPointerTy()) {
      A->addAttr(Attribute::getWithByRefType(
          Ctx, ArrayType::get(Type::getInt8Ty(Ctx), P.Size)));
      A->addAttr(Attribute::getWithAlignment(Ctx, Align(P.Align)));
    }
  }
  // The backend places each explicit argument at the next multiple of its
  // alignment; check that this reproduces the PTX offsets rather than assume.
  uint64_t End = 0;
  for (const KernelParamInfo &P : KI.Params) {
    uint64_t Off = alignTo(End, Align(P.Align));
    if (Off != P.Offset)
      Errors.push_back("kernel '" + KI.Name + "': parameter '" + P.Name +
                       "' would be at kernarg offset " + std::to_string(Off) +
                       " instead of its PTX offset " +
                       std::to_string(P.Offset));
    End = Off + P.Size;
  }
  if (!SharedSizeReads.empty()) {
    // The backend puts the i32 at the next multiple of 4, as computed here.
    F->getArg(KI.Params.size())->setName("cuhip.dynamic.shared.size");
    F->addFnAttr(DynamicSharedSizeOffsetAttr,
                 std::to_string(alignTo(End, Align(4))));
  }
  // The maximum workgroup size the backend must allow: .reqntid fixes it,
  // .maxntid bounds it, CUDA's limit of 1024 otherwise.
  auto product = [](const unsigned N[3]) {
    uint64_t P = 1;
    for (int I = 0; I < 3; ++I)
      P *= N[I] ? N[I] : 1;
    return P;
  };
  uint64_t MinWG = 1, MaxWG = 1024;
  if (KI.ReqNTid[0] || KI.ReqNTid[1] || KI.ReqNTid[2])
    MinWG = MaxWG = product(KI.ReqNTid);
  else if (KI.MaxNTid[0] || KI.MaxNTid[1] || KI.MaxNTid[2])
    MaxWG = product(KI.MaxNTid);
  F->addFnAttr("amdgpu-flat-work-group-size",
               std::to_string(MinWG) + "," + std::to_string(MaxWG));
  // CUDA grids are whole blocks; cuhip launches them as such.
  F->addFnAttr("uniform-work-group-size", "true");
  F->addFnAttr(Attribute::NoUnwind);

  F->splice(F->end(), &Old);
  IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
  Value *Seg = B.CreateIntrinsic(Intrinsic::amdgcn_kernarg_segment_ptr, {});
  Value *Params = B.CreateAddrSpaceCast(Seg, PointerType::get(Ctx, 0), "params");
  Old.getArg(0)->replaceAllUsesWith(Params);
  Old.eraseFromParent();
  for (CallBase *CB : SharedSizeReads) {
    // %total_smem_size as on the CPU backend: the PTX static shared size
    // plus the dynamic size.
    Value *Dynamic = F->getArg(KI.Params.size());
    B.SetInsertPoint(CB);
    Value *V = CB->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size
                   ? Dynamic
                   : B.CreateAdd(Dynamic, B.getInt32(StaticShared));
    CB->replaceAllUsesWith(V);
    CB->eraseFromParent();
  }
  return F;
}

Value *AmdgpuLowering::specialRegister(IRBuilder<> &B, Intrinsic::ID ID,
                                       bool &Known) {
  Known = true;
  Type *I32 = B.getInt32Ty();
  auto dispatchField = [&](unsigned Offset, Type *Ty) -> Value * {
    Value *DP = B.CreateIntrinsic(Intrinsic::amdgcn_dispatch_ptr, {});
    Value *P = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), DP, Offset);
    LoadInst *L = B.CreateAlignedLoad(Ty, P, Align(Ty->getPrimitiveSizeInBits() / 8));
    L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
    return B.CreateZExt(L, I32);
  };
  auto ntid = [&](unsigned Dim) {
    return dispatchField(4 + 2 * Dim, B.getInt16Ty());
  };
  auto nctaid = [&](unsigned Dim) -> Value * {
    // ceil(grid / wg) as grid / wg + (grid % wg != 0): exact in 32 bits
    // (grid + wg - 1 could overflow them), and a 32-bit division is a
    // fraction of the ~100 scalar instructions a 64-bit one expands to.
    Value *Grid = dispatchField(12 + 4 * Dim, I32);
    Value *WG = B.CreateZExt(ntid(Dim), I32);
    Value *Q = B.CreateUDiv(Grid, WG);
    Value *Rem = B.CreateURem(Grid, WG);
    return B.CreateAdd(Q, B.CreateZExt(B.CreateICmpNE(Rem, B.getInt32(0)), I32));
  };
  // The lane within the wavefront, then within the 32-lane warp (half a
  // wavefront on wave64).
  auto laneid = [&]() -> Value * {
    Value *Lane = B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                    {B.getInt32(~0u), B.getInt32(0)});
    if (T.WavefrontSize == 64) {
      Lane = B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_hi, {},
                               {B.getInt32(~0u), Lane});
      Lane = B.CreateAnd(Lane, B.getInt32(31));
    }
    return Lane;
  };
  // The 64-bit constant-rate counter (s_memrealtime / s_sendmsg_rtn
  // REALTIME / the gfx12 equivalent) in nanoseconds: it runs at 100 MHz on
  // every target of the table (see docs/amdgpu.md), so one tick is 10 ns.
  auto globaltimer = [&]() -> Value * {
    Value *Ticks = B.CreateIntrinsic(Intrinsic::readsteadycounter, {});
    return B.CreateMul(Ticks, B.getInt64(10));
  };
  // s_getreg_b32 of Size bits at Offset of hardware register Reg (the
  // immediate is {size - 1, offset, id}).
  auto getreg = [&](unsigned Reg, unsigned Offset, unsigned Size) -> Value * {
    return B.CreateIntrinsic(Intrinsic::amdgcn_s_getreg, {},
                             {B.getInt32((Size - 1) << 11 | Offset << 6 | Reg)});
  };
  bool Gfx9 = StringRef(T.Name).starts_with("gfx9");
  bool HasXcc = StringRef(T.Name) == "gfx942";
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_smid:
  case Intrinsic::nvvm_read_ptx_sreg_nsmid: {
    // gfx9's HW_ID register (id 4) holds CU_ID in bits 11:8, SH_ID in 12 and
    // SE_ID in 14:13: the 7 bits from bit 8 name the compute unit in its
    // shader array and engine. gfx942 has several XCDs, numbered by the
    // XCC_ID register (id 20, bits 3:0). PTX numbers SMs sparsely if it
    // likes (%nsmid may exceed the SM count), so %smid packs these fields
    // and %nsmid is 2 to the power of their width. RDNA's HW_ID1 layout was
    // not established here: those targets keep refusing both registers.
    if (!Gfx9) {
      Known = false;
      return nullptr;
    }
    if (ID == Intrinsic::nvvm_read_ptx_sreg_nsmid)
      return B.getInt32(HasXcc ? 1u << 11 : 1u << 7);
    Value *Cu = getreg(/*HW_ID*/ 4, 8, 7);
    if (!HasXcc)
      return Cu;
    return B.CreateOr(B.CreateShl(getreg(/*XCC_ID*/ 20, 0, 4), 7), Cu);
  }
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_eq:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_lt:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_le:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_gt:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_ge: {
    // Masks over the 32 lanes of the lane's warp (bit i = warp lane i).
    Value *Bit = B.CreateShl(B.getInt32(1), laneid());
    Value *Lt = B.CreateSub(Bit, B.getInt32(1));
    switch (ID) {
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_eq:
      return Bit;
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_lt:
      return Lt;
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_le:
      return B.CreateOr(Lt, Bit);
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_gt:
      return B.CreateNot(B.CreateOr(Lt, Bit));
    default:
      return B.CreateNot(Lt);
    }
  }
  case Intrinsic::nvvm_read_ptx_sreg_warpid: {
    // Warps of 32 over the linear thread id (x fastest), which is also how
    // the hardware forms wavefronts, so a warp is a wavefront or its half.
    Value *X = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, {});
    Value *Y = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_y, {});
    Value *Z = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_z, {});
    Value *Flat = B.CreateAdd(
        X, B.CreateMul(ntid(0), B.CreateAdd(Y, B.CreateMul(ntid(1), Z))));
    return B.CreateLShr(Flat, 5);
  }
  case Intrinsic::nvvm_read_ptx_sreg_nwarpid: {
    // The block's warp count, as on the CPU backend: every %warpid is below
    // it, which is all PTX promises of this profiling register.
    Value *N = B.CreateMul(B.CreateMul(ntid(0), ntid(1)), ntid(2));
    return B.CreateLShr(B.CreateAdd(N, B.getInt32(31)), 5);
  }
  case Intrinsic::nvvm_read_ptx_sreg_clock:
  case Intrinsic::nvvm_read_ptx_sreg_clock64:
    // gfx11 has no s_memtime: its cycle counter (SHADER_CYCLES) has 20
    // bits, so it would wrap long before %clock's 32 or %clock64's 64.
    if (StringRef(T.Name).starts_with("gfx11")) {
      Known = false;
      return nullptr;
    }
    if (ID == Intrinsic::nvvm_read_ptx_sreg_clock64)
      return B.CreateIntrinsic(Intrinsic::readcyclecounter, {});
    return B.CreateTrunc(B.CreateIntrinsic(Intrinsic::readcyclecounter, {}),
                         I32);
  case Intrinsic::nvvm_read_ptx_sreg_globaltimer:
    return globaltimer();
  case Intrinsic::nvvm_read_ptx_sreg_globaltimer_lo:
    return B.CreateTrunc(globaltimer(), I32);
  case Intrinsic::nvvm_read_ptx_sreg_gridid:
    // cuhip runs one grid per launch and numbers none: 0, as on the CPU.
    return Constant::getNullValue(
        Intrinsic::getType(Ctx, ID)->getReturnType());
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, {});
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    return B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_y, {});
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_z, {});
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    return B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_x, {});
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    return B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_y, {});
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    return B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_z, {});
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return ntid(0);
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    return ntid(1);
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return ntid(2);
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    return nctaid(0);
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    return nctaid(1);
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return nctaid(2);
  case Intrinsic::nvvm_read_ptx_sreg_laneid:
    return laneid();
  default:
    Known = false;
    return nullptr;
  }
}

void AmdgpuLowering::lowerCalls(Function &F) {
  std::vector<CallBase *> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      Calls.push_back(CB);
  std::set<std::string> Reported;
  auto report = [&](const Twine &What) {
    std::string S = What.str();
    if (Reported.insert(S).second)
      fail(F, S);
  };
  for (CallBase *CB : Calls) {
    Function *Callee = CB->getCalledFunction();
    if (!Callee) {
      report("indirect call");
      continue;
    }
    if (!Callee->isDeclaration())
      continue; // a PTX .func, compiled along with the kernel
    Intrinsic::ID ID = Callee->getIntrinsicID();
    StringRef Name = Callee->getName();
    if (ID != Intrinsic::not_intrinsic && isExactGenericIntrinsic(ID))
      continue;
    if (ID == Intrinsic::amdgcn_kernarg_segment_ptr)
      continue; // inserted by rewriteKernel
    if (ID == Intrinsic::amdgcn_s_sleep)
      continue; // a try_wait's pause, from expandMbarrierCalls
    if (lowerWarpCollective(*CB, T))
      continue; // LowerAmdgpuWarp.cpp
    if (lowerDeviceLibraryCall(*CB, T))
      continue; // printf/assert through ockl: AmdgpuPrintf.cpp
    if (lowerMatrixInstruction(*CB, T))
      continue; // ldmatrix, stmatrix, mma, wmma: LowerAmdgpuMatrix.cpp
    if (lowerMathCall(*CB))
      continue; // sin/cos/exp2/log2/tanh through ocml: AmdgpuMath.cpp
    if (lowerCtaBarrier(*CB, T))
      continue; // numbered, counted and reducing barriers: LowerAmdgpuBarrier.cpp
    IRBuilder<> B(CB);
    if (Name.starts_with("llvm.nvvm.read.ptx.sreg.")) {
      bool Known = false;
      if (Value *V = specialRegister(B, ID, Known)) {
        CB->replaceAllUsesWith(V);
        CB->eraseFromParent();
        continue;
      }
      // rewriteKernel replaced these in kernels; a .func has no argument
      // to read them from.
      bool SharedSize =
          ID == Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size ||
          ID == Intrinsic::nvvm_read_ptx_sreg_total_smem_size;
      report("special register %" +
             Name.drop_front(strlen("llvm.nvvm.read.ptx.sreg.")) +
             (SharedSize ? " outside a kernel (in a .func)" : ""));
      continue;
    }
    if (ID == Intrinsic::trap || ID == Intrinsic::debugtrap)
      continue; // s_trap 2 / s_trap 3 (see docs/amdgpu.md)
    if (ID == Intrinsic::nvvm_nanosleep) {
      // PTX allows any sleep in [0, 2t] ns. s_sleep N waits about 64*N
      // clocks, at most 128 ns per unit at a shader clock of 500 MHz or
      // more, so N = min(t / 128, 127) sleeps no longer than t. s_sleep
      // takes an immediate: a register operand sleeps 0 ns, also allowed.
      if (auto *Ns = dyn_cast<ConstantInt>(CB->getArgOperand(0))) {
        uint64_t N = std::min<uint64_t>(Ns->getZExtValue() / 128, 127);
        if (N)
          B.CreateIntrinsic(Intrinsic::amdgcn_s_sleep, {}, {B.getInt32(N)});
      }
      CB->eraseFromParent();
      continue;
    }
    if (ID == Intrinsic::nvvm_barrier_cta_sync_aligned_all) {
      // bar.sync 0 for the whole CTA; the other barriers are
      // LowerAmdgpuBarrier.cpp's.
      auto *Id = dyn_cast<ConstantInt>(CB->getArgOperand(0));
      if (Id && Id->isZero()) {
        SyncScope::ID WG = Ctx.getOrInsertSyncScopeID("workgroup");
        B.CreateFence(AtomicOrdering::Release, WG);
        B.CreateIntrinsic(Intrinsic::amdgcn_s_barrier, {});
        B.CreateFence(AtomicOrdering::Acquire, WG);
        CB->eraseFromParent();
        continue;
      }
    }
    report(describeCallee(Name));
  }
}

void AmdgpuLowering::remapScopes(Function &F) {
  SyncScope::ID Block = Ctx.getOrInsertSyncScopeID("block");
  SyncScope::ID WG = Ctx.getOrInsertSyncScopeID("workgroup");
  // "wavefront" comes from bar.warp.sync (LowerAmdgpuWarp.cpp).
  SyncScope::ID Wave = Ctx.getOrInsertSyncScopeID("wavefront");
  for (Instruction &I : instructions(F)) {
    std::optional<SyncScope::ID> S = getAtomicSyncScopeID(&I);
    if (!S || *S == SyncScope::System || *S == SyncScope::SingleThread ||
        *S == WG || *S == Wave)
      continue;
    if (*S == Block) {
      setAtomicSyncScopeID(&I, WG);
      continue;
    }
    SmallVector<StringRef, 8> Names;
    Ctx.getSyncScopeNames(Names);
    fail(F, "memory scope '" + Names[*S] + "'");
  }
}

void AmdgpuLowering::moveAllocasToPrivate(Function &F) {
  if (F.isDeclaration())
    return;
  // PTX registers first become SSA values, so only real memory (.local
  // arrays, call-sequence .param variables, address-taken registers) is left.
  DominatorTree DT(F);
  std::vector<AllocaInst *> Promotable;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Promotable.push_back(AI);
  if (!Promotable.empty())
    PromoteMemToReg(Promotable, DT);
  std::vector<AllocaInst *> Rest;
  for (Instruction &I : instructions(F))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->getAddressSpace() != PrivateAS)
        Rest.push_back(AI);
  for (AllocaInst *AI : Rest) {
    IRBuilder<> B(AI);
    auto *New = B.CreateAlloca(AI->getAllocatedType(), PrivateAS,
                               AI->getArraySize());
    New->setAlignment(AI->getAlign());
    New->takeName(AI);
    Value *Cast = B.CreateAddrSpaceCast(New, AI->getType());
    AI->replaceAllUsesWith(Cast);
    AI->eraseFromParent();
  }
}

/// Makes the module-scope .global and .const variables dynamic symbols of
/// the code object: hipModuleGetGlobal finds only those, and a variable
/// with internal linkage that the kernels never write would otherwise be
/// folded to its initial value (or dropped), though the host may write it
/// (cudaMemcpyToSymbol). Protected visibility, as kernels and clang's HIP
/// device variables have, lets the kernels address them without a GOT.
/// PTX identifiers have no '.', so names with one are function-scope
/// variables or cuhip's own, which stay private.
void exposeModuleVariables(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    unsigned AS = GV.getAddressSpace();
    if ((AS != 1 && AS != 4) || GV.isDeclaration() ||
        GV.getName().contains('.') || GV.getName().starts_with("llvm."))
      continue;
    GV.setLinkage(GlobalValue::ExternalLinkage);
    GV.setVisibility(GlobalValue::ProtectedVisibility);
    GV.setDSOLocal(true);
    GV.setExternallyInitialized(true);
  }
}

Error AmdgpuLowering::run() {
  DenseMap<Function *, const KernelInfo *> KernelOf;
  for (const KernelInfo &KI : Kernels) {
    Function *F = M.getFunction(KI.Name);
    if (!F || F->isDeclaration() || F->arg_size() != 1)
      return createStringError(inconvertibleErrorCode(),
                               "kernel '" + KI.Name +
                                   "' is missing from the lowered module");
    KernelOf[F] = &KI;
  }
  std::vector<Function *> Defined;
  for (Function &F : M)
    if (!F.isDeclaration())
      Defined.push_back(&F);
  for (Function *F : Defined) {
    bool IsKernel = KernelOf.count(F);
    if (IsKernel)
      F = rewriteKernel(*F, *KernelOf[F]);
    // About 64 clocks between a try_wait's two tests of its phase.
    mbarrier::expandMbarrierCalls(*F, /*Atomic=*/true, [](IRBuilderBase &B) {
      B.CreateIntrinsic(Intrinsic::amdgcn_s_sleep, {}, {B.getInt32(1)});
    });
    lowerCalls(*F);
    expandDevicePrintf(*F, T, [&](const Twine &W) { fail(*F, W); });
    remapScopes(*F);
    lowerAtomics128(*F); // LowerAmdgpuAtomic128.cpp
    moveAllocasToPrivate(*F);
  }
  initCtaBarrierState(M);
  exposeModuleVariables(M);
  // The NVVM (and mbarrier) declarations whose calls were all replaced.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() &&
        (F.getName().starts_with("llvm.nvvm.") ||
         F.getName().starts_with("cuhip.mbarrier.")))
      F.eraseFromParent();
  // Dynamic shared memory: AMDGPU's dynamic LDS is an external, zero-sized,
  // uninitialized addrspace(3) variable; the backend places every such
  // variable at the same offset, after the kernel's static LDS (aligned to
  // the variable), and the launch adds the dynamic size to the group
  // segment, which is exactly PTX's `.extern .shared x[]`.
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() != 3 || !GV.hasMetadata("cuhip.dynamic_shared"))
      continue;
    if (M.getDataLayout().getTypeAllocSize(GV.getValueType()) != 0) {
      Errors.push_back("sized external shared variable '" +
                       GV.getName().str() +
                       "' is not supported by the AMDGPU target yet");
      continue;
    }
    GV.setInitializer(nullptr);
    GV.setLinkage(GlobalValue::ExternalLinkage);
  }
  if (!Errors.empty()) {
    std::string S;
    for (const std::string &E : Errors)
      S += (S.empty() ? "" : "\n") + E;
    return createStringError(inconvertibleErrorCode(), S);
  }
  return Error::success();
}

} // namespace

std::optional<uint32_t> dynamicSharedSizeArgOffset(const Module &M,
                                                   StringRef Kernel) {
  const Function *F = M.getFunction(Kernel);
  if (!F || !F->hasFnAttribute(DynamicSharedSizeOffsetAttr))
    return std::nullopt;
  uint32_t Offset = 0;
  if (F->getFnAttribute(DynamicSharedSizeOffsetAttr)
          .getValueAsString()
          .getAsInteger(10, Offset))
    return std::nullopt;
  return Offset;
}

Error lowerToAmdgpu(Module &M, const std::vector<KernelInfo> &Kernels,
                    const Target &T, TargetMachine &TM, bool Optimize) {
  AmdgpuLowering L(M, Kernels, T);
  if (Error E = L.run())
    return E;
  M.setTargetTriple(TM.getTargetTriple());
  M.setDataLayout(TM.createDataLayout());
  // Code object version 4: see docs/amdgpu.md.
  M.addModuleFlag(Module::Error, "amdhsa_code_object_version",
                  CodeObjectVersion * 100);
  if (Error E = linkDeviceLibraries(M, T))
    return E;
  std::string VerifyErr;
  raw_string_ostream VS(VerifyErr);
  if (verifyModule(M, &VS))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: invalid AMDGPU IR: " + VerifyErr);
  if (!Optimize)
    return Error::success();
  runO3(M, &TM);
  return Error::success();
}

} // namespace cuhip::ptx::amdgpu
