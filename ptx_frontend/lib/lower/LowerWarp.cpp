//===- LowerWarp.cpp - Warp-level collective instructions -------------------===//
//
// shfl, vote, match, redux, activemask, bar.warp.sync and elect become the
// NVVM intrinsics of the same names, so every target sees one call per
// collective with its member mask. The legacy forms without .sync (PTX
// before 6.0) act on the whole warp and are given the full mask.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

namespace {

/// The member mask operand: explicit for .sync forms, all lanes otherwise.
Value *memberMask(FunctionLowering &L, const Instruction &I, unsigned Idx,
                  bool Sync) {
  if (!Sync)
    return L.B.getInt32(0xffffffffu);
  return L.read(I, Idx, L.B.getInt32Ty(), false);
}

void lowerShfl(FunctionLowering &L, const Instruction &I) {
  // shfl.sync.mode.b32 d[|p], a, b, c, membermask;
  bool Sync = I.hasModifier("sync");
  static const struct {
    const char *Mode;
    Intrinsic::ID Plain, WithPred;
  } Modes[] = {
      {"up", Intrinsic::nvvm_shfl_sync_up_i32, Intrinsic::nvvm_shfl_sync_up_i32p},
      {"down", Intrinsic::nvvm_shfl_sync_down_i32,
       Intrinsic::nvvm_shfl_sync_down_i32p},
      {"bfly", Intrinsic::nvvm_shfl_sync_bfly_i32,
       Intrinsic::nvvm_shfl_sync_bfly_i32p},
      {"idx", Intrinsic::nvvm_shfl_sync_idx_i32,
       Intrinsic::nvvm_shfl_sync_idx_i32p},
  };
  const auto *M = std::find_if(std::begin(Modes), std::end(Modes),
                               [&](const auto &X) { return I.hasModifier(X.Mode); });
  ScalarType T = L.instrType(I);
  if (M == std::end(Modes) || scalarTypeBits(T) != 32 ||
      I.Operands.size() != (Sync ? 5u : 4u)) {
    L.unsupported(I, "expected shfl[.sync].{up,down,bfly,idx}.b32 d[|p], a, b, c" +
                         std::string(Sync ? ", membermask" : ""));
    return;
  }
  Value *A = L.read(I, 1, L.B.getInt32Ty(), false);
  Value *Bv = L.read(I, 2, L.B.getInt32Ty(), false);
  Value *C = L.read(I, 3, L.B.getInt32Ty(), false);
  Value *Mask = memberMask(L, I, 4, Sync);
  if (!A || !Bv || !C || !Mask)
    return;
  const Operand &D = I.Operands[0];
  if (D.Pair) {
    Value *R = L.B.CreateIntrinsic(M->WithPred, {}, {Mask, A, Bv, C});
    L.write(D, L.B.CreateExtractValue(R, 0), false);
    L.write(*D.Pair, L.B.CreateExtractValue(R, 1), false);
  } else {
    L.write(D, L.B.CreateIntrinsic(M->Plain, {}, {Mask, A, Bv, C}), false);
  }
}

void lowerVote(FunctionLowering &L, const Instruction &I) {
  // vote.sync.{all,any,uni}.pred d, {!}a, membermask;
  // vote.sync.ballot.b32 d, {!}a, membermask;
  bool Sync = I.hasModifier("sync");
  if (I.Operands.size() != (Sync ? 3u : 2u)) {
    L.unsupported(I, "wrong number of operands");
    return;
  }
  Value *P = L.read(I, 1, L.B.getInt1Ty(), false);
  Value *Mask = memberMask(L, I, 2, Sync);
  if (!P || !Mask)
    return;
  Intrinsic::ID ID;
  if (I.hasModifier("ballot"))
    ID = Intrinsic::nvvm_vote_ballot_sync;
  else if (I.hasModifier("all"))
    ID = Intrinsic::nvvm_vote_all_sync;
  else if (I.hasModifier("any"))
    ID = Intrinsic::nvvm_vote_any_sync;
  else if (I.hasModifier("uni"))
    ID = Intrinsic::nvvm_vote_uni_sync;
  else {
    L.unsupported(I);
    return;
  }
  L.write(I.Operands[0], L.B.CreateIntrinsic(ID, {}, {Mask, P}), false);
}

void lowerMatch(FunctionLowering &L, const Instruction &I) {
  // match.any.sync.b32/b64 d, a, membermask;
  // match.all.sync.b32/b64 d[|p], a, membermask;
  ScalarType T = L.instrType(I);
  unsigned Bits = scalarTypeBits(T);
  bool All = I.hasModifier("all");
  if ((Bits != 32 && Bits != 64) || (!All && !I.hasModifier("any")) ||
      I.Operands.size() != 3) {
    L.unsupported(I, "expected match.{any,all}.sync.{b32,b64} d, a, membermask");
    return;
  }
  Value *A = L.read(I, 1, L.B.getIntNTy(Bits), false);
  Value *Mask = L.read(I, 2, L.B.getInt32Ty(), false);
  if (!A || !Mask)
    return;
  const Operand &D = I.Operands[0];
  if (All) {
    Value *R = L.B.CreateIntrinsic(Bits == 32 ? Intrinsic::nvvm_match_all_sync_i32p
                                              : Intrinsic::nvvm_match_all_sync_i64p,
                                   {}, {Mask, A});
    L.write(D, L.B.CreateExtractValue(R, 0), false);
    if (D.Pair)
      L.write(*D.Pair, L.B.CreateExtractValue(R, 1), false);
    return;
  }
  if (D.Pair) {
    L.unsupported(I, "match.any has no predicate result");
    return;
  }
  L.write(D,
          L.B.CreateIntrinsic(Bits == 32 ? Intrinsic::nvvm_match_any_sync_i32
                                         : Intrinsic::nvvm_match_any_sync_i64,
                              {}, {Mask, A}),
          false);
}

void lowerRedux(FunctionLowering &L, const Instruction &I) {
  // redux.sync.{add,min,max}.{u32,s32} d, a, membermask;
  // redux.sync.{and,or,xor}.b32 d, a, membermask;
  ScalarType T = L.instrType(I);
  bool Signed = isSignedInt(T);
  Intrinsic::ID ID = Intrinsic::not_intrinsic;
  if (I.hasModifier("add") && scalarTypeBits(T) == 32 && !isFloat(T))
    ID = Intrinsic::nvvm_redux_sync_add;
  else if (I.hasModifier("min") && (T == ScalarType::U32 || T == ScalarType::S32))
    ID = Signed ? Intrinsic::nvvm_redux_sync_min : Intrinsic::nvvm_redux_sync_umin;
  else if (I.hasModifier("max") && (T == ScalarType::U32 || T == ScalarType::S32))
    ID = Signed ? Intrinsic::nvvm_redux_sync_max : Intrinsic::nvvm_redux_sync_umax;
  else if (T == ScalarType::B32 && I.hasModifier("and"))
    ID = Intrinsic::nvvm_redux_sync_and;
  else if (T == ScalarType::B32 && I.hasModifier("or"))
    ID = Intrinsic::nvvm_redux_sync_or;
  else if (T == ScalarType::B32 && I.hasModifier("xor"))
    ID = Intrinsic::nvvm_redux_sync_xor;
  if (ID == Intrinsic::not_intrinsic || I.Operands.size() != 3) {
    L.unsupported(I);
    return;
  }
  Value *A = L.read(I, 1, L.B.getInt32Ty(), false);
  Value *Mask = L.read(I, 2, L.B.getInt32Ty(), false);
  if (!A || !Mask)
    return;
  L.write(I.Operands[0], L.B.CreateIntrinsic(ID, {}, {A, Mask}), false);
}

void lowerActiveMask(FunctionLowering &L, const Instruction &I) {
  if (I.Operands.size() != 1) {
    L.unsupported(I, "expected activemask.b32 d");
    return;
  }
  L.write(I.Operands[0],
          L.B.CreateIntrinsic(Intrinsic::nvvm_activemask, ArrayRef<Type *>{},
                              ArrayRef<Value *>{}), false);
}

void lowerElect(FunctionLowering &L, const Instruction &I) {
  // elect.sync d|p, membermask;  (d may be the sink _)
  if (I.Operands.size() != 2 || !I.Operands[0].Pair) {
    L.unsupported(I, "expected elect.sync d|p, membermask");
    return;
  }
  Value *Mask = L.read(I, 1, L.B.getInt32Ty(), false);
  if (!Mask)
    return;
  Value *R = L.B.CreateIntrinsic(Intrinsic::nvvm_elect_sync, {}, {Mask});
  L.write(I.Operands[0], L.B.CreateExtractValue(R, 0), false);
  L.write(*I.Operands[0].Pair, L.B.CreateExtractValue(R, 1), false);
}

} // namespace

/// bar.warp.sync membermask. Called from the barrier family, which owns the
/// "bar" opcode.
void lowerWarpSync(FunctionLowering &L, const Instruction &I) {
  if (I.Operands.size() != 1) {
    L.unsupported(I, "expected bar.warp.sync membermask");
    return;
  }
  Value *Mask = L.read(I, 0, L.B.getInt32Ty(), false);
  if (Mask)
    L.B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {}, {Mask});
}

void registerWarpInstructions(OpcodeTable &T) {
  T["shfl"] = lowerShfl;
  T["vote"] = lowerVote;
  T["match"] = lowerMatch;
  T["redux"] = lowerRedux;
  T["activemask"] = lowerActiveMask;
  T["elect"] = lowerElect;
}

} // namespace cuhip::ptx::lower
