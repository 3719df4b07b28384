//===- LowerControl.cpp - Branches, returns and barriers --------------------===//
//
// bra, ret/exit and block barriers. Guards (@p) are handled for every
// instruction in Lower.cpp; a guarded bra becomes a conditional branch.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

static void lowerBarrier(FunctionLowering &L, const Instruction &I) {
  // bar.sync a{, b}; barrier.sync[.aligned] a{, b}; bar{.cta}.sync …
  bool Sync = I.hasModifier("sync") || (I.Opcode == "barrier" &&
                                        I.Modifiers.empty());
  if (I.hasModifier("warp")) {
    lowerWarpSync(L, I);
    return;
  }
  if (!Sync || I.hasModifier("arrive") || I.hasModifier("red") ||
      I.Operands.empty() || I.Operands.size() > 2) {
    L.unsupported(I);
    return;
  }
  Value *Id = L.read(I, 0, L.B.getInt32Ty(), false);
  if (!Id)
    return;
  if (I.Operands.size() == 2) {
    Value *Cnt = L.read(I, 1, L.B.getInt32Ty(), false);
    if (!Cnt)
      return;
    L.B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_count,
                      ArrayRef<Type *>{}, {Id, Cnt});
  } else {
    L.B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all,
                      ArrayRef<Type *>{}, {Id});
  }
}

static void lowerBranch(FunctionLowering &L, const Instruction &I) {
  if (BasicBlock *Target = L.branchTarget(I))
    L.B.CreateBr(Target);
}

static void lowerReturn(FunctionLowering &L, const Instruction &I) {
  L.B.CreateRetVoid();
}

void registerControlInstructions(OpcodeTable &T) {
  T["bar"] = lowerBarrier;
  T["barrier"] = lowerBarrier;
  T["bra"] = lowerBranch;
  T["ret"] = lowerReturn;
  T["exit"] = lowerReturn;
}

} // namespace cuhip::ptx::lower
