//===- TextureSampler.cpp - tex, tld4, txq, suld and sust on the host -----===//
//
// On the CPU backend a texture or surface object is the address of a
// TextureDescriptor the runtime made, and the texture instructions are
// calls into these functions. They follow the CUDA programming guide's
// texture fetching rules: coordinates scaled by the size when normalized,
// the address mode applied to each texel index (wrap and mirror only with
// normalized coordinates, clamp otherwise; point sampling mirrors the
// coordinate itself, as the guide states it), nearest-texel point sampling,
// and linear filtering that weighs the 2, 4 or 8 neighbouring texels with
// fractions held, as the hardware holds them, in 9-bit fixed point with 8
// fractional bits. 8- and 16-bit integer texels read in normalized-float
// mode become [0, 1] or [-1, 1]; half texels are always widened to float.
// Surface accesses take a byte column and honour the .zero/.clamp/.trap
// boundary mode; a trap ends the block as an illegal address, as memcheck's
// bad accesses do. A handle that is not a live descriptor faults the same
// way when it is read. Cube maps project the direction onto a face by the
// guide's table and sample that face as a normalized 2D texture; seamless
// cube maps take the texels beyond a face's edge from the next face.
//
//===----------------------------------------------------------------------===//
#include "HalfBits.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/TextureDescriptor.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using cuhip::ptx::SurfBoundary;
using cuhip::ptx::TexAddressMode;
using cuhip::ptx::TexChannelKind;
using cuhip::ptx::TextureDescriptor;
namespace ptx = cuhip::ptx;
using cuhip::ptx::host::halfToFloat;

namespace {

float bitsToFloat(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
uint32_t floatToBits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}

const TextureDescriptor *checked(const TextureDescriptor *T, uint32_t Magic) {
  // Reading a wild handle faults, which the fault handler turns into an
  // illegal address; a readable one that is no descriptor is one too.
  if (!T || T->Magic != Magic)
    ptx::host::trapIllegalAddress(reinterpret_cast<uint64_t>(T));
  return T;
}

const uint8_t *texelAddress(const TextureDescriptor &T, int64_t X, int64_t Y,
                            int64_t Z) {
  return T.Data + uint64_t(Z) * T.SlicePitch + uint64_t(Y) * T.RowPitch +
         uint64_t(X) * T.ElementBytes;
}

/// Channel C of a texel as the integer bits an element-type read returns.
uint32_t channelBits(const TextureDescriptor &T, const uint8_t *P, unsigned C) {
  P += C * T.ChannelBytes;
  switch (T.ChannelBytes) {
  case 1:
    return T.Kind == TexChannelKind::Signed ? uint32_t(int32_t(int8_t(*P)))
                                            : uint32_t(*P);
  case 2: {
    uint16_t V;
    std::memcpy(&V, P, 2);
    if (T.Kind == TexChannelKind::Float)
      return floatToBits(halfToFloat(V));
    return T.Kind == TexChannelKind::Signed ? uint32_t(int32_t(int16_t(V)))
                                            : uint32_t(V);
  }
  default: {
    uint32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  }
}

/// Whether fetches return floats: float and half texels, and 8/16-bit
/// integers read in normalized-float mode.
bool returnsFloat(const TextureDescriptor &T) {
  return T.Kind == TexChannelKind::Float ||
         (T.ReadNormalizedFloat && T.ChannelBytes < 4);
}

float srgbToLinear(float C) {
  return C <= 0.04045f ? C / 12.92f : std::pow((C + 0.055f) / 1.055f, 2.4f);
}

/// Channel C of a texel as the float a fetch returns.
float channelFloat(const TextureDescriptor &T, const uint8_t *P, unsigned C) {
  uint32_t Bits = channelBits(T, P, C);
  if (T.Kind == TexChannelKind::Float)
    return bitsToFloat(Bits);
  float V;
  if (T.Kind == TexChannelKind::Unsigned) {
    V = float(Bits) / float((1u << (8 * T.ChannelBytes)) - 1);
  } else {
    float Max = float((1u << (8 * T.ChannelBytes - 1)) - 1);
    V = std::max(float(int32_t(Bits)) / Max, -1.0f);
  }
  if (T.SRGB && C < 3 && T.Kind == TexChannelKind::Unsigned &&
      T.ChannelBytes == 1)
    V = srgbToLinear(V);
  return V;
}

/// The texel index the address mode makes of I along a dimension of N
/// texels; false when a border-mode index lies outside.
bool addressIndex(TexAddressMode M, bool Normalized, int64_t I, int64_t N,
                  int64_t &Out) {
  if (!Normalized && (M == TexAddressMode::Wrap || M == TexAddressMode::Mirror))
    M = TexAddressMode::Clamp; // wrap and mirror need normalized coordinates
  switch (M) {
  case TexAddressMode::Wrap:
    Out = ((I % N) + N) % N;
    return true;
  case TexAddressMode::Mirror: {
    int64_t P = ((I % (2 * N)) + 2 * N) % (2 * N);
    Out = P < N ? P : 2 * N - 1 - P;
    return true;
  }
  case TexAddressMode::Border:
    Out = I;
    return I >= 0 && I < N;
  case TexAddressMode::Clamp:
    break;
  }
  Out = std::clamp<int64_t>(I, 0, N - 1);
  return true;
}

/// The texel coordinate of a float coordinate along a dimension of N.
double texelCoordinate(const TextureDescriptor &T, float C, int64_t N) {
  return T.NormalizedCoords ? double(C) * double(N) : double(C);
}

/// floor() of a texel coordinate as an index, saturated so that huge or
/// non-finite coordinates stay in range of the address arithmetic.
int64_t floorIndex(double U) {
  if (!(U == U))
    return 0;
  U = std::clamp(U, -1e15, 1e15);
  return int64_t(std::floor(U));
}

/// The linear-filtering fraction in 9-bit fixed point with 8 fraction bits.
float quantizedFraction(double F) {
  return float(std::nearbyint(F * 256.0) / 256.0);
}

/// The CUDA programming guide's cubemap fetch (section "Cubemap Textures",
/// table "Cubemap Fetch"; the PTX ISA's tex.cube says the same in words):
/// the component of largest magnitude m selects the face, and the face is
/// addressed at the normalized coordinates ((s/m + 1) / 2, (t/m + 1) / 2):
///
///   |x| largest   x >= 0: face 0 (+X), s = -z, t = -y
///                 x <  0: face 1 (-X), s =  z, t = -y
///   |y| largest   y >= 0: face 2 (+Y), s =  x, t =  z
///                 y <  0: face 3 (-Y), s =  x, t = -z
///   |z| largest   z >= 0: face 4 (+Z), s =  x, t = -y
///                 z <  0: face 5 (-Z), s = -x, t = -y
///
/// The table's conditions are strict, so it leaves ties open; here a tie
/// goes to z, then y. The lookup computes in float, as the instruction's
/// operands are; the seamless-filtering remap below computes in double.
template <typename F> struct CubeCoord {
  unsigned Face;
  F U, V;
};
template <typename F> CubeCoord<F> projectToFace(F X, F Y, F Z) {
  F AX = std::fabs(X), AY = std::fabs(Y), AZ = std::fabs(Z);
  unsigned Face;
  F M, S, T;
  if (AX > AY && AX > AZ) {
    Face = X >= 0 ? 0 : 1;
    M = AX;
    S = X >= 0 ? -Z : Z;
    T = -Y;
  } else if (AY > AZ) {
    Face = Y >= 0 ? 2 : 3;
    M = AY;
    S = X;
    T = Y >= 0 ? Z : -Z;
  } else {
    Face = Z >= 0 ? 4 : 5;
    M = AZ;
    S = Z >= 0 ? X : -X;
    T = -Y;
  }
  return {Face, (S / M + 1) / 2, (T / M + 1) / 2};
}

/// The direction through face coordinates (s, t) in [-1, 1] of a face: the
/// table above solved for (x, y, z) with m = 1.
void faceDirection(unsigned Face, double S, double T, double Dir[3]) {
  const double Table[6][3] = {{1, -T, -S}, {-1, -T, S}, {S, 1, T},
                              {S, -1, -T}, {S, -T, 1},  {-S, -T, -1}};
  std::copy(Table[Face % 6], Table[Face % 6] + 3, Dir);
}

struct Fetch {
  const TextureDescriptor &T;
  int64_t Size[3];
  int64_t Slice = 0; // the layer, for layered textures (the face of a cube)
  // Seamless cube-map filtering: the layer of the cube's face 0, whose six
  // faces a texel index beyond the edge of face Slice - CubeBase moves to.
  int64_t CubeBase = -1;

  /// The texel at index (I, J, K) after addressing, into Out[0..3] as
  /// floats (or integer bits when the texture returns integers).
  void texel(const int64_t Idx[3], unsigned Dims, bool AsFloat,
             float *OutF, uint32_t *OutI) const {
    int64_t A[3] = {0, 0, 0};
    int64_t Layer = Slice;
    bool Inside = true;
    if (CubeBase >= 0 &&
        (Idx[0] < 0 || Idx[0] >= Size[0] || Idx[1] < 0 || Idx[1] >= Size[1])) {
      // The texel's centre seen from the cube's centre lies on the face
      // next to this edge; project it there.
      double Dir[3];
      faceDirection(unsigned(Slice - CubeBase),
                    2 * (double(Idx[0]) + 0.5) / double(Size[0]) - 1,
                    2 * (double(Idx[1]) + 0.5) / double(Size[1]) - 1, Dir);
      CubeCoord<double> P = projectToFace(Dir[0], Dir[1], Dir[2]);
      Layer = CubeBase + P.Face;
      A[0] = std::clamp(floorIndex(P.U * double(Size[0])), int64_t(0),
                        Size[0] - 1);
      A[1] = std::clamp(floorIndex(P.V * double(Size[1])), int64_t(0),
                        Size[1] - 1);
    } else {
      for (unsigned D = 0; D < Dims; ++D)
        Inside &= addressIndex(T.AddressMode[D], T.NormalizedCoords, Idx[D],
                               Size[D], A[D]);
    }
    if (!Inside) {
      for (unsigned C = 0; C < 4; ++C) {
        OutF[C] = T.BorderColor[C];
        OutI[C] = uint32_t(int32_t(T.BorderColor[C]));
      }
      return;
    }
    const uint8_t *P = texelAddress(T, A[0], A[1], Layer * T.Depth + A[2]);
    for (unsigned C = 0; C < 4; ++C) {
      if (C < T.Channels) {
        if (AsFloat)
          OutF[C] = channelFloat(T, P, C);
        else
          OutI[C] = channelBits(T, P, C);
      } else {
        // Channels the format lacks read as (0, 0, 0, 1).
        OutF[C] = C == 3 ? 1.0f : 0.0f;
        OutI[C] = C == 3 ? 1u : 0u;
      }
    }
  }
};

/// Point or linear filtering at float coordinates Coord (Dims of them),
/// into Res (floats) or ResI (integer bits).
void filter(const Fetch &F, unsigned Dims, const float Coord[3], bool AsFloat,
            float *Res, uint32_t *ResI) {
  const TextureDescriptor &T = F.T;
  if (!T.LinearFilter || !AsFloat) {
    int64_t Idx[3] = {0, 0, 0};
    for (unsigned D = 0; D < Dims; ++D) {
      float C = Coord[D];
      if (T.NormalizedCoords && T.AddressMode[D] == TexAddressMode::Mirror &&
          std::isfinite(C)) {
        // The guide's mirror: frac(x) where floor(x) is even, 1 - frac(x)
        // where it is odd, then the texel that holds it.
        double Fl = std::floor(double(C)), Fr = double(C) - Fl;
        if (int64_t(Fl) % 2)
          Fr = 1.0 - Fr;
        Idx[D] = std::min(floorIndex(Fr * F.Size[D]), F.Size[D] - 1);
        continue;
      }
      Idx[D] = floorIndex(texelCoordinate(T, C, F.Size[D]));
    }
    F.texel(Idx, Dims, AsFloat, Res, ResI);
    return;
  }
  // tex(x) = (1 - a) T[i] + a T[i + 1] with xB = x - 0.5, i = floor(xB)
  // and a = frac(xB), per dimension.
  int64_t Base[3] = {0, 0, 0};
  float Frac[3] = {0, 0, 0};
  for (unsigned D = 0; D < Dims; ++D) {
    double U = texelCoordinate(T, Coord[D], F.Size[D]) - 0.5;
    Base[D] = floorIndex(U);
    Frac[D] = quantizedFraction(U - std::floor(U));
  }
  std::fill(Res, Res + 4, 0.0f);
  for (unsigned Corner = 0; Corner < (1u << Dims); ++Corner) {
    int64_t Idx[3] = {0, 0, 0};
    float W = 1.0f;
    for (unsigned D = 0; D < Dims; ++D) {
      bool Upper = Corner & (1u << D);
      Idx[D] = Base[D] + Upper;
      W *= Upper ? Frac[D] : 1.0f - Frac[D];
    }
    float V[4];
    uint32_t Unused[4];
    F.texel(Idx, Dims, true, V, Unused);
    for (unsigned C = 0; C < 4; ++C)
      Res[C] += W * V[C];
  }
}

/// tex.cube / tex.acube: the direction picks a face of cube Layer, whose
/// 2D texture is sampled at normalized coordinates (what the projection
/// makes, whatever the texture's normalizedCoords says).
void cubeFetch(const TextureDescriptor &T, bool Layered, uint32_t Layer,
               float X, float Y, float Z, bool AsFloat, float *Res,
               uint32_t *ResI) {
  if (!T.Cubemap || T.Layers < 6) {
    // Not a cube map: nothing to read (CUDA leaves the result undefined).
    std::fill(Res, Res + 4, 0.0f);
    std::fill(ResI, ResI + 4, 0u);
    return;
  }
  CubeCoord<float> P = projectToFace(X, Y, Z);
  TextureDescriptor Face = T;
  Face.NormalizedCoords = true;
  // Seamless cube maps ignore the address modes: point sampling clamps,
  // and linear filtering crosses into the neighbouring faces.
  if (T.SeamlessCubemap)
    std::fill(Face.AddressMode, Face.AddressMode + 3, TexAddressMode::Clamp);
  int64_t Cube =
      Layered ? std::clamp<int64_t>(int32_t(Layer), 0, T.Layers / 6 - 1) : 0;
  Fetch F{Face, {T.Width, T.Height, 1}, Cube * 6 + P.Face};
  if (T.SeamlessCubemap && T.LinearFilter && AsFloat)
    F.CubeBase = Cube * 6;
  const float Coord[3] = {P.U, P.V, 0};
  filter(F, 2, Coord, AsFloat, Res, ResI);
}

} // namespace

extern "C" void cuhip_tex_fetch(const TextureDescriptor *Handle,
                                uint32_t Shape, uint32_t Layer, uint32_t X,
                                uint32_t Y, uint32_t Z, uint32_t *Out) {
  const TextureDescriptor &T = *checked(Handle, TextureDescriptor::TextureMagic);
  unsigned Dims = std::clamp<unsigned>(Shape & ptx::TexShapeDimsMask, 1, 3);
  Fetch F{T, {T.Width, T.Height, T.Depth}};
  if ((Shape & ptx::TexShapeLayered) && T.Layers)
    F.Slice = std::clamp<int64_t>(int32_t(Layer), 0, T.Layers - 1);
  bool AsFloat = returnsFloat(T);
  float Res[4];
  uint32_t ResI[4];
  if (Shape & ptx::TexShapeCube) {
    cubeFetch(T, Shape & ptx::TexShapeLayered, Layer, bitsToFloat(X),
              bitsToFloat(Y), bitsToFloat(Z), AsFloat, Res, ResI);
  } else if (!(Shape & ptx::TexShapeFloatCoords)) {
    // Integer coordinates (tex1Dfetch): texel indices, never filtered.
    int64_t Idx[3] = {int32_t(X), int32_t(Y), int32_t(Z)};
    TextureDescriptor Plain = T;
    Plain.NormalizedCoords = false;
    Fetch P{Plain, {T.Width, T.Height, T.Depth}, F.Slice};
    P.texel(Idx, Dims, AsFloat, Res, ResI);
  } else {
    const float Coord[3] = {bitsToFloat(X), bitsToFloat(Y), bitsToFloat(Z)};
    filter(F, Dims, Coord, AsFloat, Res, ResI);
  }
  for (unsigned C = 0; C < 4; ++C)
    Out[C] = AsFloat ? floatToBits(Res[C]) : ResI[C];
}

extern "C" void cuhip_tex_gather(const TextureDescriptor *Handle,
                                 uint32_t Shape, uint32_t Comp, uint32_t X,
                                 uint32_t Y, uint32_t *Out) {
  const TextureDescriptor &T = *checked(Handle, TextureDescriptor::TextureMagic);
  Fetch F{T, {T.Width, T.Height, T.Depth}};
  bool AsFloat = returnsFloat(T);
  int64_t I, J;
  if (Shape & ptx::TexShapeFloatCoords) {
    I = floorIndex(texelCoordinate(T, bitsToFloat(X), T.Width) - 0.5);
    J = floorIndex(texelCoordinate(T, bitsToFloat(Y), T.Height) - 0.5);
  } else {
    I = int32_t(X);
    J = int32_t(Y);
  }
  // Counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j),
  // (i, j), rows growing downwards.
  const int64_t Corners[4][2] = {{I, J + 1}, {I + 1, J + 1}, {I + 1, J}, {I, J}};
  unsigned C = std::min<uint32_t>(Comp, 3);
  for (unsigned K = 0; K < 4; ++K) {
    int64_t Idx[3] = {Corners[K][0], Corners[K][1], 0};
    float V[4];
    uint32_t VI[4];
    F.texel(Idx, 2, AsFloat, V, VI);
    Out[K] = AsFloat ? floatToBits(V[C]) : VI[C];
  }
}

extern "C" uint32_t cuhip_tex_query(const TextureDescriptor *Handle,
                                    uint32_t Query) {
  if (!Handle || (Handle->Magic != TextureDescriptor::TextureMagic &&
                  Handle->Magic != TextureDescriptor::SurfaceMagic))
    ptx::host::trapIllegalAddress(reinterpret_cast<uint64_t>(Handle));
  const TextureDescriptor &T = *Handle;
  switch (Query) {
  case ptx::TexQueryWidth:
    return T.Width;
  case ptx::TexQueryHeight:
    return T.Height;
  case ptx::TexQueryDepth:
    return T.Depth;
  case ptx::TexQueryChannelDataType:
    return uint32_t(T.Kind);
  case ptx::TexQueryChannelOrder:
    return T.Channels;
  case ptx::TexQueryNormalizedCoords:
    return T.NormalizedCoords;
  case ptx::TexQueryFilterMode:
    return T.LinearFilter;
  case ptx::TexQueryAddrMode0:
  case ptx::TexQueryAddrMode1:
  case ptx::TexQueryAddrMode2:
    return uint32_t(T.AddressMode[Query - ptx::TexQueryAddrMode0]);
  case ptx::TexQueryArraySize:
    // A layered cube map is an array of cubes, six layers each.
    if (T.Cubemap)
      return T.CubemapLayered ? T.Layers / 6 : 0;
    return T.Layers;
  case ptx::TexQueryNumMipmapLevels:
  case ptx::TexQueryNumSamples:
    return 1;
  default:
    return 0;
  }
}

namespace {

/// The byte address a surface access of Bytes at (X, Y, Z) touches, after
/// the boundary mode; null when a .zero access lies outside.
uint8_t *surfaceAddress(const TextureDescriptor &T, uint32_t Shape, int64_t X,
                        int64_t Y, int64_t Z, unsigned Bytes) {
  unsigned Dims = std::clamp<unsigned>(Shape & ptx::SurfShapeDimsMask, 1, 3);
  bool Layered = Shape & ptx::SurfShapeLayered;
  auto Mode = SurfBoundary((Shape >> ptx::SurfShapeModeShift) & 3);
  int64_t RowBytes = int64_t(T.Width) * T.ElementBytes;
  int64_t Limits[3] = {RowBytes - int64_t(Bytes) + 1,
                       Dims >= 2 ? int64_t(T.Height) : 1,
                       Layered ? int64_t(std::max<uint32_t>(T.Layers, 1))
                       : Dims == 3 ? int64_t(T.Depth)
                                   : 1};
  int64_t C[3] = {X, Dims >= 2 ? Y : 0, (Dims == 3 || Layered) ? Z : 0};
  bool Outside = false;
  for (unsigned D = 0; D < 3; ++D)
    Outside |= C[D] < 0 || C[D] >= Limits[D];
  if (Outside) {
    if (Mode == SurfBoundary::Zero)
      return nullptr;
    if (Mode == SurfBoundary::Trap)
      ptx::host::trapIllegalAddress(reinterpret_cast<uint64_t>(
          T.Data + C[2] * int64_t(T.SlicePitch) + C[1] * int64_t(T.RowPitch) +
          C[0]));
    // Clamp to the nearest element inside.
    for (unsigned D = 0; D < 3; ++D)
      C[D] = std::clamp<int64_t>(C[D], 0, std::max<int64_t>(Limits[D] - 1, 0));
    if (X != C[0])
      C[0] -= C[0] % T.ElementBytes;
  }
  return T.Data + uint64_t(C[2]) * T.SlicePitch + uint64_t(C[1]) * T.RowPitch +
         uint64_t(C[0]);
}

} // namespace

extern "C" void cuhip_surf_load(const TextureDescriptor *Handle, uint32_t Shape,
                                int32_t X, int32_t Y, int32_t Z, void *Out) {
  const TextureDescriptor &T = *checked(Handle, TextureDescriptor::SurfaceMagic);
  unsigned Bytes = (Shape >> ptx::SurfShapeBytesShift) & 0xff;
  if (uint8_t *P = surfaceAddress(T, Shape, X, Y, Z, Bytes))
    std::memcpy(Out, P, Bytes);
  else
    std::memset(Out, 0, Bytes);
}

extern "C" void cuhip_surf_store(const TextureDescriptor *Handle,
                                 uint32_t Shape, int32_t X, int32_t Y,
                                 int32_t Z, const void *In) {
  const TextureDescriptor &T = *checked(Handle, TextureDescriptor::SurfaceMagic);
  unsigned Bytes = (Shape >> ptx::SurfShapeBytesShift) & 0xff;
  if (uint8_t *P = surfaceAddress(T, Shape, X, Y, Z, Bytes))
    std::memcpy(P, In, Bytes);
}
