//===- LowerTexture.cpp - tex, tld4, txq, suq, suld and sust ----------------===//
//
// Texture and surface instructions in unified mode, where the texture
// operand is a .u64 register holding a cudaTextureObject_t or
// cudaSurfaceObject_t. Each becomes one call to a sampler entry point
// (cuhip_tex_fetch, cuhip_tex_gather, cuhip_tex_query, cuhip_surf_load,
// cuhip_surf_store; declared in cuhip/ptx/TextureDescriptor.h) that takes
// the handle, a shape word saying what the instruction's modifiers fixed,
// the coordinates as 32-bit values and a buffer for the results. The host
// target links those calls to host/TextureSampler.cpp; the AMDGPU target
// has no sampler and refuses them by name. tex.cube and tex.acube pass
// the direction as X, Y, Z (and the cube of an array as the layer); the
// sampler picks the face. Texture references (a .texref name as the
// operand), explicit samplers, depth compare, .f16 results, mipmap levels
// other than the base one, tld4 on cube maps and formatted surface stores
// (sust.p) are reported as unsupported. Surfaces over cube maps need
// nothing here: surfCubemap* compile to suld/sust .a2d with the face as
// the layer.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

#include "cuhip/ptx/TextureDescriptor.h"

namespace cuhip::ptx::lower {

namespace {

struct Geometry {
  unsigned Dims = 0; // 0: not a geometry this lowering knows
  bool Layered = false;
  bool Cube = false; // a direction (x, y, z) rather than a position
};

Geometry geometryOf(const Instruction &I) {
  static const struct {
    const char *Name;
    Geometry G;
  } Known[] = {{"1d", {1, false}},
               {"2d", {2, false}},
               {"3d", {3, false}},
               {"a1d", {1, true}},
               {"a2d", {2, true}},
               {"cube", {3, false, true}},
               {"acube", {3, true, true}}};
  for (const auto &K : Known)
    if (I.hasModifier(K.Name))
      return K.G;
  return {};
}

/// The handle operand of `[a, c]` or `[a]`: a register holding an object.
Value *handleOf(FunctionLowering &L, const Instruction &I, const Operand &A) {
  if (A.K != Operand::Address || A.BaseIsSymbol || A.Name.empty() ||
      A.Offset != 0) {
    L.unsupported(I, "the texture or surface must be a .u64 object handle "
                     "register (texture references are not supported)");
    return nullptr;
  }
  Operand Base;
  Base.K = Operand::Register;
  Base.Loc = A.Loc;
  Base.Name = A.Name;
  Value *H = L.readOperand(Base, L.B.getInt64Ty(), false);
  return H ? L.B.CreateIntToPtr(H, L.B.getPtrTy()) : nullptr;
}

/// The coordinate operands after the handle, flattened: `{x, y}` or `x`.
bool coordinatesOf(FunctionLowering &L, const Instruction &I, const Operand &A,
                   std::vector<const Operand *> &Out) {
  if (A.Elements.size() != 2) {
    L.unsupported(I, "expected '[handle, coordinates]' (explicit samplers are "
                     "not supported)");
    return false;
  }
  const Operand &C = A.Elements[1];
  if (C.K == Operand::Vector)
    for (const Operand &E : C.Elements)
      Out.push_back(&E);
  else
    Out.push_back(&C);
  return true;
}

/// A coordinate as 32 bits: .f32 values keep their bits.
Value *coordinate(FunctionLowering &L, const Operand &O, bool Float) {
  Type *I32 = L.B.getInt32Ty();
  if (!Float)
    return L.readOperand(O, I32, true);
  Value *F = L.readOperand(O, L.B.getFloatTy(), false);
  return F ? L.B.CreateBitCast(F, I32) : nullptr;
}

/// Writes Count 32-bit results from Buf to the destination vector, as the
/// instruction's type DType.
void writeResults(FunctionLowering &L, const Operand &D, Value *Buf,
                  unsigned Count, ScalarType DType) {
  Type *Ty = llvmType(L.Ctx, DType);
  unsigned Bytes = byteSize(DType);
  auto elementAt = [&](unsigned K) {
    Value *P = L.B.CreateConstGEP1_32(L.B.getInt8Ty(), Buf, K * Bytes);
    return L.B.CreateLoad(Ty, P);
  };
  if (D.K == Operand::Vector) {
    for (unsigned K = 0; K < D.Elements.size() && K < Count; ++K)
      L.write(D.Elements[K], elementAt(K), isSignedInt(DType));
    return;
  }
  L.write(D, elementAt(0), isSignedInt(DType));
}

Value *resultBuffer(FunctionLowering &L) {
  // 32 bytes: the widest access, suld.v4.b64.
  return L.createSlot(ArrayType::get(L.B.getInt64Ty(), 4), "tex.result");
}

FunctionCallee samplerFunction(FunctionLowering &L, StringRef Name,
                               Type *Ret, ArrayRef<Type *> Params) {
  return L.Fn->getParent()->getOrInsertFunction(
      Name, FunctionType::get(Ret, Params, false));
}

void lowerTex(FunctionLowering &L, const Instruction &I) {
  // tex{.level,.grad}.geom.v4.dtype.ctype d, [a, c] {, lod | dPdx, dPdy};
  Geometry G = geometryOf(I);
  ScalarType DType = L.instrType(I, 0), CType = L.instrType(I, 1);
  bool Level = I.hasModifier("level"), Grad = I.hasModifier("grad");
  unsigned Extra = Level ? 1 : Grad ? 2 : 0;
  if (!G.Dims || !I.hasModifier("v4") ||
      (DType != ScalarType::F32 && DType != ScalarType::S32 &&
       DType != ScalarType::U32) ||
      (CType != ScalarType::F32 && CType != ScalarType::S32) ||
      (G.Cube && CType != ScalarType::F32) ||
      I.Operands.size() != 2 + Extra || I.Operands[0].Pair) {
    L.unsupported(I, "expected tex{.level,.grad}.{1d,2d,3d,a1d,a2d,cube,"
                     "acube}.v4.{f32,s32,u32}.{f32,s32} d, [handle, c] "
                     "(.f32 coordinates for .cube and .acube)");
    return;
  }
  Value *H = handleOf(L, I, I.Operands[1]);
  std::vector<const Operand *> C;
  if (!H || !coordinatesOf(L, I, I.Operands[1], C))
    return;
  // Arrays put the layer (.s32; the cube for .acube) first; 3D and cube
  // coordinates come as four.
  unsigned Need = G.Dims + G.Layered;
  if (C.size() < Need) {
    L.error(I.Loc, "'" + I.fullName() + "' needs " + Twine(Need) +
                       " coordinates");
    return;
  }
  bool Float = CType == ScalarType::F32;
  Value *Layer = G.Layered ? coordinate(L, *C[0], false) : L.B.getInt32(0);
  Value *XYZ[3] = {L.B.getInt32(0), L.B.getInt32(0), L.B.getInt32(0)};
  for (unsigned D = 0; D < G.Dims; ++D)
    XYZ[D] = coordinate(L, *C[G.Layered + D], Float);
  if (!Layer || !XYZ[0] || !XYZ[1] || !XYZ[2])
    return;
  // Without mipmapped textures every level of detail is the base level, so
  // the .level and .grad operands only need to be valid.
  for (unsigned K = 0; K < Extra; ++K)
    if (I.Operands[2 + K].K == Operand::Address) {
      L.unsupported(I, "level-of-detail operand");
      return;
    }
  uint32_t Shape = G.Dims | (G.Layered ? TexShapeLayered : 0) |
                   (Float ? TexShapeFloatCoords : 0) |
                   (G.Cube ? TexShapeCube : 0);
  Type *I32 = L.B.getInt32Ty(), *Ptr = L.B.getPtrTy();
  Value *Buf = resultBuffer(L);
  L.B.CreateCall(samplerFunction(L, "cuhip_tex_fetch", L.B.getVoidTy(),
                                 {Ptr, I32, I32, I32, I32, I32, Ptr}),
                 {H, L.B.getInt32(Shape), Layer, XYZ[0], XYZ[1], XYZ[2], Buf});
  writeResults(L, I.Operands[0], Buf, 4, DType);
}

void lowerTld4(FunctionLowering &L, const Instruction &I) {
  // tld4.comp.2d.v4.dtype.f32 d, [a, c];
  static const char *Comps[] = {"r", "g", "b", "a"};
  int Comp = -1;
  for (int K = 0; K < 4; ++K)
    if (I.hasModifier(Comps[K]))
      Comp = K;
  ScalarType DType = L.instrType(I, 0), CType = L.instrType(I, 1);
  if (Comp < 0 || !I.hasModifier("2d") || !I.hasModifier("v4") ||
      (DType != ScalarType::F32 && DType != ScalarType::S32 &&
       DType != ScalarType::U32) ||
      CType != ScalarType::F32 || I.Operands.size() != 2 ||
      I.Operands[0].Pair) {
    L.unsupported(I, "expected tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 d, "
                     "[handle, {x, y}]");
    return;
  }
  Value *H = handleOf(L, I, I.Operands[1]);
  std::vector<const Operand *> C;
  if (!H || !coordinatesOf(L, I, I.Operands[1], C))
    return;
  if (C.size() < 2) {
    L.error(I.Loc, "'" + I.fullName() + "' needs 2 coordinates");
    return;
  }
  Value *X = coordinate(L, *C[0], true), *Y = coordinate(L, *C[1], true);
  if (!X || !Y)
    return;
  Type *I32 = L.B.getInt32Ty(), *Ptr = L.B.getPtrTy();
  Value *Buf = resultBuffer(L);
  L.B.CreateCall(samplerFunction(L, "cuhip_tex_gather", L.B.getVoidTy(),
                                 {Ptr, I32, I32, I32, I32, Ptr}),
                 {H, L.B.getInt32(2 | TexShapeFloatCoords),
                  L.B.getInt32(Comp), X, Y, Buf});
  writeResults(L, I.Operands[0], Buf, 4, DType);
}

void lowerQuery(FunctionLowering &L, const Instruction &I) {
  // txq.query.b32 d, [a];  suq.query.b32 d, [a];
  static const struct {
    const char *Name;
    uint32_t Query;
  } Queries[] = {
      {"width", TexQueryWidth},
      {"height", TexQueryHeight},
      {"depth", TexQueryDepth},
      {"channel_data_type", TexQueryChannelDataType},
      {"channel_order", TexQueryChannelOrder},
      {"normalized_coords", TexQueryNormalizedCoords},
      {"filter_mode", TexQueryFilterMode},
      {"addr_mode_0", TexQueryAddrMode0},
      {"addr_mode_1", TexQueryAddrMode1},
      {"addr_mode_2", TexQueryAddrMode2},
      {"array_size", TexQueryArraySize},
      {"num_mipmap_levels", TexQueryNumMipmapLevels},
      {"num_samples", TexQueryNumSamples},
  };
  const auto *Q = std::find_if(std::begin(Queries), std::end(Queries),
                               [&](const auto &X) { return I.hasModifier(X.Name); });
  if (Q == std::end(Queries) || I.hasModifier("level") ||
      L.instrType(I) != ScalarType::B32 || I.Operands.size() != 2 ||
      I.Operands[1].K != Operand::Address || !I.Operands[1].Elements.empty()) {
    L.unsupported(I, "expected " + I.Opcode + ".query.b32 d, [handle]");
    return;
  }
  Value *H = handleOf(L, I, I.Operands[1]);
  if (!H)
    return;
  Type *I32 = L.B.getInt32Ty();
  Value *V = L.B.CreateCall(
      samplerFunction(L, "cuhip_tex_query", I32, {L.B.getPtrTy(), I32}),
      {H, L.B.getInt32(Q->Query)});
  L.write(I.Operands[0], V, false);
}

/// What suld.b and sust.b share: the shape word and the three coordinates
/// (x in bytes; the layer of an array form last).
bool surfaceAccess(FunctionLowering &L, const Instruction &I,
                   const Operand &Addr, Value *&H, uint32_t &Shape,
                   Value *XYZ[3], unsigned &Elements, ScalarType &DType) {
  Geometry G = geometryOf(I);
  DType = L.instrType(I);
  Elements = I.hasModifier("v4") ? 4 : I.hasModifier("v2") ? 2 : 1;
  SurfBoundary Mode = I.hasModifier("clamp")  ? SurfBoundary::Clamp
                      : I.hasModifier("zero") ? SurfBoundary::Zero
                                              : SurfBoundary::Trap;
  if (!G.Dims || G.Cube || !I.hasModifier("b") || !isBitType(DType) ||
      DType == ScalarType::B128) {
    L.unsupported(I, "expected " + I.Opcode +
                         ".b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.{b8,b16,b32,b64}"
                         "{.trap,.clamp,.zero}" +
                         (I.hasModifier("p") ? "; formatted stores (sust.p) "
                                               "are not supported"
                                             : ""));
    return false;
  }
  H = handleOf(L, I, Addr);
  std::vector<const Operand *> C;
  if (!H || !coordinatesOf(L, I, Addr, C))
    return false;
  unsigned Need = G.Dims + G.Layered;
  if (C.size() < Need) {
    L.error(I.Loc, "'" + I.fullName() + "' needs " + Twine(Need) +
                       " coordinates");
    return false;
  }
  for (unsigned D = 0; D < 3; ++D)
    XYZ[D] = L.B.getInt32(0);
  for (unsigned D = 0; D < G.Dims; ++D)
    XYZ[D] = coordinate(L, *C[G.Layered + D], false);
  if (G.Layered)
    XYZ[2] = coordinate(L, *C[0], false);
  if (!XYZ[0] || !XYZ[1] || !XYZ[2])
    return false;
  unsigned Bytes = Elements * byteSize(DType);
  Shape = G.Dims | (G.Layered ? SurfShapeLayered : 0) |
          uint32_t(Mode) << SurfShapeModeShift | Bytes << SurfShapeBytesShift;
  return true;
}

void lowerSuld(FunctionLowering &L, const Instruction &I) {
  // suld.b.geom{.cop}.vec.dtype.clamp d, [a, b];
  if (I.Operands.size() != 2) {
    L.unsupported(I, "expected d, [handle, coordinates]");
    return;
  }
  Value *H, *XYZ[3];
  uint32_t Shape;
  unsigned Elements;
  ScalarType DType;
  if (!surfaceAccess(L, I, I.Operands[1], H, Shape, XYZ, Elements, DType))
    return;
  Type *I32 = L.B.getInt32Ty(), *Ptr = L.B.getPtrTy();
  Value *Buf = resultBuffer(L);
  L.B.CreateCall(samplerFunction(L, "cuhip_surf_load", L.B.getVoidTy(),
                                 {Ptr, I32, I32, I32, I32, Ptr}),
                 {H, L.B.getInt32(Shape), XYZ[0], XYZ[1], XYZ[2], Buf});
  writeResults(L, I.Operands[0], Buf, Elements, DType);
}

void lowerSust(FunctionLowering &L, const Instruction &I) {
  // sust.b.geom{.cop}.vec.ctype.clamp [a, b], c;
  if (I.Operands.size() != 2) {
    L.unsupported(I, "expected [handle, coordinates], c");
    return;
  }
  Value *H, *XYZ[3];
  uint32_t Shape;
  unsigned Elements;
  ScalarType DType;
  if (!surfaceAccess(L, I, I.Operands[0], H, Shape, XYZ, Elements, DType))
    return;
  const Operand &Src = I.Operands[1];
  unsigned Bytes = byteSize(DType);
  Type *Ty = llvmType(L.Ctx, DType);
  Value *Buf = resultBuffer(L);
  for (unsigned K = 0; K < Elements; ++K) {
    const Operand &E =
        Src.K == Operand::Vector && K < Src.Elements.size() ? Src.Elements[K]
                                                            : Src;
    Value *V = L.readOperand(E, Ty, false);
    if (!V)
      return;
    L.B.CreateStore(V, L.B.CreateConstGEP1_32(L.B.getInt8Ty(), Buf, K * Bytes));
  }
  Type *I32 = L.B.getInt32Ty(), *Ptr = L.B.getPtrTy();
  L.B.CreateCall(samplerFunction(L, "cuhip_surf_store", L.B.getVoidTy(),
                                 {Ptr, I32, I32, I32, I32, Ptr}),
                 {H, L.B.getInt32(Shape), XYZ[0], XYZ[1], XYZ[2], Buf});
}

} // namespace

void registerTextureInstructions(OpcodeTable &T) {
  T["tex"] = lowerTex;
  T["tld4"] = lowerTld4;
  T["txq"] = lowerQuery;
  T["suq"] = lowerQuery;
  T["suld"] = lowerSuld;
  T["sust"] = lowerSust;
}

} // namespace cuhip::ptx::lower
