//===- LowerMatrix.cpp - Warp-level matrix instructions -------------------===//
//
// ldmatrix, stmatrix, mma and wmma each become ONE call that carries the
// whole instruction: the NVVM intrinsic of the same form (llvm.nvvm.ldmatrix,
// llvm.nvvm.stmatrix, llvm.nvvm.mma, llvm.nvvm.wmma) with the lane's
// fragment registers as scalar operands, so every target sees one warp-level
// operation per instruction. The intrinsic's name encodes the shape, layouts
// and element types; its signature the fragments. Where LLVM has no
// intrinsic with the fitting signature (mma.m16n8k8/m16n8k16 with .f16
// inputs and different C and D types, wmma.mma with .s8 times .u8), the
// call is to `cuhip.<name>`, named and typed by the same rules as the NVVM
// intrinsic would be. The host target
// runs each of these as a warp collective (WorkGroupLowering.cpp,
// WarpRuntime.cpp). Forms outside the implemented set are reported by name.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

#include "llvm/ADT/StringSwitch.h"

namespace cuhip::ptx::lower {

namespace {

/// The modifiers of a matrix instruction, sorted by role. Source order does
/// not matter (nvcc writes wmma.load.a.sync.aligned.row.m16n16k16.f16, the
/// ISA's syntax tables put the shape first in places).
struct MatrixForm {
  StringRef Op;       // wmma: load, store or mma
  StringRef Frag;     // wmma.load/store: a, b, c or d
  StringRef Shape;    // m16n8k16, m8n8, ...
  StringRef Count;    // ldmatrix/stmatrix: x1, x2, x4
  StringRef Rounding; // wmma .f64: rn, rz, rm, rp
  SmallVector<StringRef, 2> Layouts;
  SmallVector<StringRef, 4> Types; // in source order
  StateSpace Space = StateSpace::Generic;
  bool Sync = false, Aligned = false, Trans = false, SatFinite = false;
  std::string Unknown; // the first modifier this file does not know
};

bool isMatrixElemType(StringRef M) {
  return StringSwitch<bool>(M)
      .Cases({"f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s32"}, true)
      .Cases({"b16", "b8", "s4", "u4", "b1", "e4m3", "e5m2", "e3m2", "e2m3"},
             true)
      .Case("e2m1", true)
      .Default(false);
}

bool isShape(StringRef M) {
  // m<M>n<N>[k<K>]
  if (!M.consume_front("m"))
    return false;
  size_t N = M.find('n');
  if (N == 0 || N == StringRef::npos)
    return false;
  StringRef Rest = M.substr(N + 1);
  size_t K = Rest.find('k');
  auto digits = [](StringRef S) {
    return !S.empty() && llvm::all_of(S, [](char C) { return isdigit(C); });
  };
  if (!digits(M.substr(0, N)))
    return false;
  if (K == StringRef::npos)
    return digits(Rest);
  return digits(Rest.substr(0, K)) && digits(Rest.substr(K + 1));
}

MatrixForm parseForm(const Instruction &I) {
  MatrixForm F;
  for (const std::string &S : I.Modifiers) {
    StringRef M = S;
    if (M == "sync")
      F.Sync = true;
    else if (M == "aligned")
      F.Aligned = true;
    else if (M == "trans")
      F.Trans = true;
    else if (M == "satfinite")
      F.SatFinite = true;
    else if (M == "row" || M == "col")
      F.Layouts.push_back(M);
    else if (M == "x1" || M == "x2" || M == "x4")
      F.Count = M;
    else if (M == "load" || M == "store" || M == "mma")
      F.Op = M;
    else if (I.Opcode == "wmma" &&
             (M == "a" || M == "b" || M == "c" || M == "d"))
      F.Frag = M;
    else if (M == "rn" || M == "rz" || M == "rm" || M == "rp")
      F.Rounding = M;
    else if (M == "global")
      F.Space = StateSpace::Global;
    else if (M == "shared" || M == "shared::cta")
      F.Space = StateSpace::Shared;
    else if (isMatrixElemType(M))
      F.Types.push_back(M);
    else if (isShape(M))
      F.Shape = M;
    else if (F.Unknown.empty())
      F.Unknown = S;
  }
  return F;
}

/// M, N, K of a shape "m16n8k16" (K = 0 for "m8n8").
void shapeDims(StringRef Shape, unsigned &M, unsigned &N, unsigned &K) {
  M = N = K = 0;
  Shape.consume_front("m");
  StringRef MS = Shape.take_until([](char C) { return C == 'n'; });
  Shape = Shape.drop_front(MS.size() + 1);
  StringRef NS = Shape.take_until([](char C) { return C == 'k'; });
  Shape = Shape.drop_front(NS.size());
  MS.getAsInteger(10, M);
  NS.getAsInteger(10, N);
  if (Shape.consume_front("k"))
    Shape.getAsInteger(10, K);
}

unsigned elemBits(StringRef T) {
  return StringSwitch<unsigned>(T)
      .Cases({"f16", "bf16", "b16"}, 16)
      .Cases({"s8", "u8"}, 8)
      .Case("f64", 64)
      .Default(32); // tf32, f32, s32
}

/// The LLVM type of one fragment register holding T elements, as NVVM's
/// intrinsics take them: f16 pairs as <2 x half>, f32 as float, f64 as
/// double, everything else (packed bf16, tf32, 8-bit integers, s32) as i32.
Type *fragmentRegType(LLVMContext &C, StringRef T) {
  if (T == "f16")
    return FixedVectorType::get(Type::getHalfTy(C), 2);
  if (T == "f32")
    return Type::getFloatTy(C);
  if (T == "f64")
    return Type::getDoubleTy(C);
  return Type::getInt32Ty(C);
}

/// Registers per lane of a fragment with Elems elements of type T.
unsigned fragmentRegs(unsigned Elems, StringRef T) {
  unsigned Bits = elemBits(T);
  return Bits >= 32 ? Elems : Elems * Bits / 32;
}

/// The registers of a fragment operand: `{%r1, %r2}` or a single register.
SmallVector<const Operand *, 8> fragmentOperands(const Operand &O) {
  SmallVector<const Operand *, 8> Regs;
  if (O.K == Operand::Vector)
    for (const Operand &E : O.Elements)
      Regs.push_back(&E);
  else
    Regs.push_back(&O);
  return Regs;
}

/// One matrix operation being emitted: its NVVM-style name (without the
/// "llvm.nvvm." prefix), its pointer operand's type if it has one, and the
/// signature its fragments give it.
struct MatrixCall {
  std::string Name;
  Type *PtrTy = nullptr;
  SmallVector<Type *, 32> Params;
  SmallVector<Type *, 8> Results;
};

/// The callee for C: the NVVM intrinsic of that name when LLVM has one
/// whose signature is exactly C's, else the cuhip function of the same name
/// (with the pointer's address space appended as LLVM mangles it).
FunctionCallee matrixCallee(FunctionLowering &L, const MatrixCall &C) {
  Type *RetTy = Type::getVoidTy(L.Ctx);
  if (C.Results.size() == 1)
    RetTy = C.Results[0];
  else if (!C.Results.empty())
    RetTy = StructType::get(L.Ctx, C.Results);
  FunctionType *Want = FunctionType::get(RetTy, C.Params, false);
  llvm::Module *M = L.ML.IR.get();
  Intrinsic::ID ID = Intrinsic::lookupIntrinsicID("llvm.nvvm." + C.Name);
  if (ID != Intrinsic::not_intrinsic) {
    SmallVector<Type *, 1> Tys;
    if (Intrinsic::isOverloaded(ID) && C.PtrTy)
      Tys.push_back(C.PtrTy);
    if (Intrinsic::isOverloaded(ID) == !Tys.empty()) {
      llvm::Function *F = Intrinsic::getOrInsertDeclaration(M, ID, Tys);
      if (F->getFunctionType() == Want)
        return F;
    }
  }
  std::string Name = "cuhip." + C.Name;
  if (C.PtrTy)
    Name += ".p" + std::to_string(C.PtrTy->getPointerAddressSpace());
  return M->getOrInsertFunction(Name, Want);
}

/// Reads fragment registers as the parameter types Tys.
bool readFragments(FunctionLowering &L, ArrayRef<const Operand *> Regs,
                   ArrayRef<Type *> Tys, SmallVectorImpl<Value *> &Args) {
  for (size_t I = 0; I < Regs.size(); ++I) {
    Type *Ty = Tys[I];
    unsigned Bits = Ty->getPrimitiveSizeInBits();
    Value *V = L.readOperand(*Regs[I], L.B.getIntNTy(Bits), false);
    if (!V)
      return false;
    Args.push_back(Ty->isIntegerTy() ? V : L.B.CreateBitCast(V, Ty));
  }
  return true;
}

/// Writes the call's result (one value or a struct) to the registers Regs.
void writeFragments(FunctionLowering &L, Value *R,
                    ArrayRef<const Operand *> Regs) {
  if (!isa<StructType>(R->getType())) {
    L.write(*Regs[0], R, false);
    return;
  }
  for (unsigned I = 0; I < Regs.size(); ++I)
    L.write(*Regs[I], L.B.CreateExtractValue(R, I), false);
}

bool checkCount(FunctionLowering &L, const Instruction &I, const char *What,
                size_t Have, size_t Want) {
  if (Have == Want)
    return true;
  L.unsupported(I, Twine(What) + " must be " + Twine(Want) + " register" +
                       (Want == 1 ? "" : "s") + ", not " + Twine(Have));
  return false;
}

/// The address operand Idx of I in F's state space, as a pointer.
Value *matrixAddress(FunctionLowering &L, const Instruction &I, unsigned Idx,
                     const MatrixForm &F, Type *&PtrTy) {
  if (Idx >= I.Operands.size() || I.Operands[Idx].K != Operand::Address) {
    L.unsupported(I, "expected an address operand [p]");
    return nullptr;
  }
  return L.addressOf(I.Operands[Idx], F.Space, PtrTy);
}

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix
//===----------------------------------------------------------------------===//

/// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 r, [p];
/// stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 [p], r;
void lowerLdStMatrix(FunctionLowering &L, const Instruction &I) {
  bool Load = I.Opcode == "ldmatrix";
  MatrixForm F = parseForm(I);
  const char *Form = Load ? "only ldmatrix.sync.aligned.m8n8.{x1,x2,x4}"
                            "{.trans}{.shared}.b16 is implemented"
                          : "only stmatrix.sync.aligned.m8n8.{x1,x2,x4}"
                            "{.trans}{.shared}.b16 is implemented";
  if (!F.Unknown.empty() || !F.Sync || !F.Aligned || F.Shape != "m8n8" ||
      F.Count.empty() || F.Types.size() != 1 || F.Types[0] != "b16" ||
      !F.Layouts.empty() || F.SatFinite || !F.Op.empty() ||
      F.Space == StateSpace::Global || I.Operands.size() != 2) {
    L.unsupported(I, Form);
    return;
  }
  unsigned N = F.Count[1] - '0';
  const Operand &Regs = I.Operands[Load ? 0 : 1];
  SmallVector<const Operand *, 8> R = fragmentOperands(Regs);
  if (!checkCount(L, I, Load ? "the destination" : "the source", R.size(), N))
    return;
  MatrixCall C;
  C.Name = (Twine(Load ? "ldmatrix" : "stmatrix") + ".sync.aligned.m8n8." +
            F.Count + (F.Trans ? ".trans" : "") + ".b16")
               .str();
  Value *Ptr = matrixAddress(L, I, Load ? 1 : 0, F, C.PtrTy);
  if (!Ptr)
    return;
  C.Params.push_back(C.PtrTy);
  SmallVector<Type *, 4> Words(N, L.B.getInt32Ty());
  if (Load)
    C.Results.append(Words);
  else
    C.Params.append(Words);
  SmallVector<Value *, 8> Args{Ptr};
  if (!Load && !readFragments(L, R, Words, Args))
    return;
  Value *Result = L.B.CreateCall(matrixCallee(L, C), Args);
  if (Load)
    writeFragments(L, Result, R);
}

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

/// The NVVM signature suffix of an mma/wmma with these D, A, B, C types:
/// f16 multiplicands are named by their D and C types, other forms by their
/// A (and B, where it differs) types, as LLVM's intrinsics are.
std::string mmaSignature(StringRef D, StringRef A, StringRef Bt, StringRef C) {
  if (A == "f16")
    return (D + "." + C).str();
  if (A != Bt)
    return (A + "." + Bt).str();
  return A.str();
}

/// Emits D = A * B + C for mma and wmma.mma: reads the fragment operands
/// (d, a, b, c) with the given register counts and types and calls Name.
void emitMultiplyAccumulate(FunctionLowering &L, const Instruction &I,
                            const std::string &Name, unsigned NA, Type *TA,
                            unsigned NB, Type *TB, unsigned NC, Type *TC,
                            unsigned ND, Type *TD) {
  if (I.Operands.size() != 4) {
    L.unsupported(I, "expected d, a, b, c");
    return;
  }
  SmallVector<const Operand *, 8> D = fragmentOperands(I.Operands[0]),
                                  A = fragmentOperands(I.Operands[1]),
                                  Bv = fragmentOperands(I.Operands[2]),
                                  C = fragmentOperands(I.Operands[3]);
  if (!checkCount(L, I, "d", D.size(), ND) ||
      !checkCount(L, I, "a", A.size(), NA) ||
      !checkCount(L, I, "b", Bv.size(), NB) ||
      !checkCount(L, I, "c", C.size(), NC))
    return;
  MatrixCall Call;
  Call.Name = Name;
  Call.Params.append(NA, TA);
  Call.Params.append(NB, TB);
  Call.Params.append(NC, TC);
  Call.Results.append(ND, TD);
  SmallVector<Value *, 32> Args;
  if (!readFragments(L, A, ArrayRef<Type *>(Call.Params).slice(0, NA), Args) ||
      !readFragments(L, Bv, ArrayRef<Type *>(Call.Params).slice(NA, NB),
                     Args) ||
      !readFragments(L, C, ArrayRef<Type *>(Call.Params).slice(NA + NB, NC),
                     Args))
    return;
  Value *R = L.B.CreateCall(matrixCallee(L, Call), Args);
  writeFragments(L, R, D);
}

/// mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype
///   m16n8k8:  f16 (f16/f32 accumulators), bf16, tf32
///   m16n8k16: f16 (f16/f32 accumulators), bf16, s8/u8
///   m16n8k32: s8/u8     m8n8k16: s8/u8     m8n8k4: f64
/// with the fragment layouts of the PTX ISA's "Matrix fragments for mma".
void lowerMma(FunctionLowering &L, const Instruction &I) {
  MatrixForm F = parseForm(I);
  const char *Supported =
      "implemented: mma.sync.aligned.row.col m16n8k8 and m16n8k16 with "
      ".f16 (.f16/.f32 accumulators) or .bf16, m16n8k8 .tf32, m16n8k16 and "
      "m16n8k32 and m8n8k16 .s8/.u8 (.satfinite), m8n8k4 .f64";
  if (!F.Unknown.empty() || !F.Sync || !F.Aligned || F.Types.size() != 4 ||
      F.Layouts.size() != 2 || !F.Count.empty() || F.Trans ||
      !F.Rounding.empty() || !F.Op.empty()) {
    L.unsupported(I, Supported);
    return;
  }
  StringRef Dt = F.Types[0], At = F.Types[1], Bt = F.Types[2], Ct = F.Types[3];
  unsigned M, N, K;
  shapeDims(F.Shape, M, N, K);
  bool RowCol = F.Layouts[0] == "row" && F.Layouts[1] == "col";
  bool Float = (At == "f16" && Bt == "f16" && (Dt == "f16" || Dt == "f32") &&
                (Ct == "f16" || Ct == "f32")) ||
               ((At == "bf16" || At == "tf32") && Bt == At && Dt == "f32" &&
                Ct == "f32");
  bool Int8 = (At == "s8" || At == "u8") && (Bt == "s8" || Bt == "u8") &&
              Dt == "s32" && Ct == "s32";
  bool F64 = At == "f64" && Bt == "f64" && Dt == "f64" && Ct == "f64";
  bool Ok = false;
  if (F.Shape == "m16n8k8")
    Ok = Float;
  else if (F.Shape == "m16n8k16")
    Ok = (Float && At != "tf32") || Int8;
  else if (F.Shape == "m16n8k32" || F.Shape == "m8n8k16")
    Ok = Int8;
  else if (F.Shape == "m8n8k4")
    Ok = F64;
  if (!Ok || !RowCol || (F.SatFinite && !Int8)) {
    if (F.Shape == "m8n8k4" && At == "f16")
      L.unsupported(I, "the sm_70 m8n8k4 .f16 form (four 8x8x4 products "
                       "per warp) is not implemented; " +
                           Twine(Supported));
    else
      L.unsupported(I, Supported);
    return;
  }
  std::string Name = (F.Shape + ".row.col").str();
  if (F.SatFinite)
    Name += ".satfinite";
  Name = "mma." + Name + "." + mmaSignature(Dt, At, Bt, Ct);
  // Each lane holds 1/32 of every matrix (mma fragments never repeat
  // elements), packed into 32-bit registers except f64.
  LLVMContext &C = L.Ctx;
  emitMultiplyAccumulate(L, I, Name, fragmentRegs(M * K / 32, At),
                         fragmentRegType(C, At), fragmentRegs(K * N / 32, Bt),
                         fragmentRegType(C, Bt), fragmentRegs(M * N / 32, Ct),
                         fragmentRegType(C, Ct), fragmentRegs(M * N / 32, Dt),
                         fragmentRegType(C, Dt));
}

//===----------------------------------------------------------------------===//
// wmma
//===----------------------------------------------------------------------===//

/// Elements per lane of a WMMA fragment. A lane holds 1/32 of the matrix,
/// except that .f16 multiplicands hold 16 elements whatever the shape (as
/// NVVM's intrinsics and CUDA's fragments do), repeating elements where the
/// matrix has fewer than 512.
unsigned wmmaElems(StringRef Frag, StringRef T, unsigned M, unsigned N,
                   unsigned K) {
  if (T == "f16" && (Frag == "a" || Frag == "b"))
    return 16;
  if (Frag == "a")
    return M * K / 32;
  if (Frag == "b")
    return K * N / 32;
  return M * N / 32;
}

/// Is T a valid element type of WMMA fragment Frag in Shape?
bool wmmaFragmentType(StringRef Shape, StringRef Frag, StringRef T) {
  bool AB = Frag == "a" || Frag == "b";
  if (Shape == "m16n16k16" || Shape == "m32n8k16" || Shape == "m8n32k16")
    return AB ? (T == "f16" || T == "bf16" || T == "s8" || T == "u8")
              : (T == "f16" || T == "f32" || T == "s32");
  if (Shape == "m16n16k8")
    return AB ? T == "tf32" : T == "f32";
  if (Shape == "m8n8k4")
    return T == "f64";
  return false;
}

/// wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.global,.shared}.type
///   r, [p]{, stride};
/// wmma.store.d.sync.aligned.{row,col}.shape{.global,.shared}.type
///   [p], r{, stride};
void lowerWmmaLoadStore(FunctionLowering &L, const Instruction &I,
                        const MatrixForm &F) {
  bool Load = F.Op == "load";
  const char *Supported =
      "implemented: wmma.load.{a,b,c}/wmma.store.d .sync.aligned.{row,col} "
      "m16n16k16/m32n8k16/m8n32k16 .f16/.bf16/.s8/.u8 (a, b), .f16/.f32/.s32 "
      "(c, d); m16n16k8 .tf32 (a, b), .f32 (c, d); m8n8k4 .f64";
  bool FragOk =
      Load ? (F.Frag == "a" || F.Frag == "b" || F.Frag == "c") : F.Frag == "d";
  if (!F.Unknown.empty() || !F.Sync || !F.Aligned || !FragOk ||
      F.Layouts.size() != 1 || F.Types.size() != 1 || F.SatFinite || F.Trans ||
      !F.Count.empty() || !F.Rounding.empty() ||
      !wmmaFragmentType(F.Shape, F.Frag, F.Types[0]) ||
      (I.Operands.size() != 2 && I.Operands.size() != 3)) {
    L.unsupported(I, Supported);
    return;
  }
  StringRef T = F.Types[0];
  unsigned M, N, K;
  shapeDims(F.Shape, M, N, K);
  unsigned Regs = fragmentRegs(wmmaElems(F.Frag, T, M, N, K), T);
  bool Stride = I.Operands.size() == 3;
  SmallVector<const Operand *, 8> R =
      fragmentOperands(I.Operands[Load ? 0 : 1]);
  if (!checkCount(L, I, Load ? "the destination" : "the source", R.size(),
                  Regs))
    return;
  MatrixCall C;
  // NVVM names the C/D fragments of .f64 by the element type, the others too.
  C.Name = ("wmma." + F.Shape + (Load ? ".load." : ".store.") + F.Frag + "." +
            F.Layouts[0] + (Stride ? ".stride" : "") + "." + T)
               .str();
  Value *Ptr = matrixAddress(L, I, Load ? 1 : 0, F, C.PtrTy);
  if (!Ptr)
    return;
  Type *RegTy = fragmentRegType(L.Ctx, T);
  SmallVector<Value *, 16> Args{Ptr};
  C.Params.push_back(C.PtrTy);
  if (Load) {
    C.Results.append(Regs, RegTy);
  } else {
    C.Params.append(Regs, RegTy);
    if (!readFragments(L, R, ArrayRef<Type *>(C.Params).drop_front(), Args))
      return;
  }
  if (Stride) {
    Value *S = L.read(I, 2, L.B.getInt32Ty(), false);
    if (!S)
      return;
    C.Params.push_back(L.B.getInt32Ty());
    Args.push_back(S);
  }
  Value *Result = L.B.CreateCall(matrixCallee(L, C), Args);
  if (Load)
    writeFragments(L, Result, R);
}

/// wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype (f16 inputs);
/// ....shape.f32.{bf16,tf32}.{bf16,tf32}.f32; ....shape.s32.{s8,u8}.{s8,u8}
/// .s32{.satfinite}; ....m8n8k4{.rn}.f64.f64.f64.f64.
void lowerWmmaMma(FunctionLowering &L, const Instruction &I,
                  const MatrixForm &F) {
  const char *Supported =
      "implemented: wmma.mma.sync.aligned m16n16k16/m32n8k16/m8n32k16 with "
      ".f16 (.f16/.f32 accumulators), .bf16 or .s8/.u8 (.satfinite), "
      "m16n16k8 .tf32, m8n8k4 .f64 (.rn)";
  if (!F.Unknown.empty() || !F.Sync || !F.Aligned || !F.Frag.empty() ||
      F.Layouts.size() != 2 || F.Trans || !F.Count.empty() ||
      F.Space != StateSpace::Generic) {
    L.unsupported(I, Supported);
    return;
  }
  // .f16 multiplicands name only D and C: wmma.mma...m16n16k16.f32.f16.
  StringRef Dt, At, Bt, Ct;
  if (F.Types.size() == 2) {
    Dt = F.Types[0];
    At = Bt = "f16";
    Ct = F.Types[1];
  } else if (F.Types.size() == 4) {
    Dt = F.Types[0];
    At = F.Types[1];
    Bt = F.Types[2];
    Ct = F.Types[3];
  } else {
    L.unsupported(I, Supported);
    return;
  }
  bool Big =
      F.Shape == "m16n16k16" || F.Shape == "m32n8k16" || F.Shape == "m8n32k16";
  bool Ok = false;
  if (At == "f16" && Bt == "f16")
    Ok = Big && (Dt == "f16" || Dt == "f32") && (Ct == "f16" || Ct == "f32") &&
         !F.SatFinite;
  else if (At == "bf16" || At == "tf32")
    Ok = Bt == At && Dt == "f32" && Ct == "f32" && !F.SatFinite &&
         (At == "bf16" ? Big : F.Shape == "m16n16k8");
  else if (At == "s8" || At == "u8")
    // Mixed signedness has no NVVM intrinsic: it calls cuhip.wmma.*.
    Ok = Big && (Bt == "s8" || Bt == "u8") && Dt == "s32" && Ct == "s32";
  else if (At == "f64")
    Ok = F.Shape == "m8n8k4" && Bt == "f64" && Dt == "f64" && Ct == "f64" &&
         !F.SatFinite;
  if (!Ok) {
    if (At == "f16" && F.SatFinite)
      L.unsupported(I, "the deprecated .satfinite of floating-point wmma.mma "
                       "is not implemented");
    else
      L.unsupported(I, Supported);
    return;
  }
  if (!F.Rounding.empty() && (At != "f64" || F.Rounding != "rn")) {
    L.unsupported(I, "only the default round-to-nearest (.rn) is implemented "
                     "for .f64 wmma.mma");
    return;
  }
  std::string Name = ("wmma." + F.Shape + ".mma." + F.Layouts[0] + "." +
                      F.Layouts[1] + "." + mmaSignature(Dt, At, Bt, Ct))
                         .str();
  if (F.SatFinite)
    Name += ".satfinite";
  unsigned M, N, K;
  shapeDims(F.Shape, M, N, K);
  LLVMContext &C = L.Ctx;
  emitMultiplyAccumulate(
      L, I, Name, fragmentRegs(wmmaElems("a", At, M, N, K), At),
      fragmentRegType(C, At), fragmentRegs(wmmaElems("b", Bt, M, N, K), Bt),
      fragmentRegType(C, Bt), fragmentRegs(wmmaElems("c", Ct, M, N, K), Ct),
      fragmentRegType(C, Ct), fragmentRegs(wmmaElems("d", Dt, M, N, K), Dt),
      fragmentRegType(C, Dt));
}

void lowerWmma(FunctionLowering &L, const Instruction &I) {
  MatrixForm F = parseForm(I);
  if (F.Op == "load" || F.Op == "store")
    lowerWmmaLoadStore(L, I, F);
  else if (F.Op == "mma")
    lowerWmmaMma(L, I, F);
  else
    L.unsupported(I, "expected wmma.load, wmma.store or wmma.mma");
}

} // namespace

void registerMatrixInstructions(OpcodeTable &T) {
  T["ldmatrix"] = lowerLdStMatrix;
  T["stmatrix"] = lowerLdStMatrix;
  T["mma"] = lowerMma;
  T["wmma"] = lowerWmma;
}

} // namespace cuhip::ptx::lower
