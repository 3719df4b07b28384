//===- TextureSamplerTest.cpp - The host sampler's texture semantics ------===//
//
// cuhip_tex_fetch, cuhip_tex_gather, cuhip_tex_query and the surface
// accesses on hand-made descriptors: element formats and read modes, the
// address modes with normalized and unnormalized coordinates, linear
// filtering with 9-bit weights, layers, cube maps (face selection, layered
// and seamless), and the surface boundary modes (trap through a guarded
// block, as a kernel runs).
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/TextureDescriptor.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace cuhip::ptx;

namespace {

uint32_t bits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
float value(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}

/// A Width x Height float texture whose texel (x, y) is 10 * y + x.
struct FloatImage {
  std::vector<float> Data;
  TextureDescriptor D;
  FloatImage(uint32_t Width, uint32_t Height) : Data(Width * Height) {
    for (uint32_t Y = 0; Y < Height; ++Y)
      for (uint32_t X = 0; X < Width; ++X)
        Data[Y * Width + X] = 10.0f * Y + X;
    D.Magic = TextureDescriptor::TextureMagic;
    D.Data = reinterpret_cast<uint8_t *>(Data.data());
    D.Width = Width;
    D.Height = Height;
    D.RowPitch = Width * 4;
    D.SlicePitch = D.RowPitch * Height;
    D.Dims = 2;
  }
  float fetch(float X, float Y) const {
    uint32_t Out[4];
    cuhip_tex_fetch(&D, 2 | TexShapeFloatCoords, 0, bits(X), bits(Y), 0, Out);
    return value(Out[0]);
  }
};

TEST(TextureSampler, PointSamplingAndAddressModes) {
  FloatImage I(4, 3);
  I.D.AddressMode[0] = I.D.AddressMode[1] = TexAddressMode::Clamp;
  EXPECT_EQ(I.fetch(1.9f, 2.2f), 21.0f);
  EXPECT_EQ(I.fetch(-5.0f, 0.5f), 0.0f);
  EXPECT_EQ(I.fetch(9.0f, 9.0f), 23.0f);
  I.D.AddressMode[0] = I.D.AddressMode[1] = TexAddressMode::Border;
  I.D.BorderColor[0] = -1.0f;
  EXPECT_EQ(I.fetch(4.0f, 0.5f), -1.0f);
  EXPECT_EQ(I.fetch(3.5f, 0.5f), 3.0f);
  // Wrap and mirror act as clamp without normalized coordinates.
  I.D.AddressMode[0] = I.D.AddressMode[1] = TexAddressMode::Wrap;
  EXPECT_EQ(I.fetch(5.5f, 0.5f), 3.0f);
  I.D.NormalizedCoords = true;
  EXPECT_EQ(I.fetch(1.375f, 0.5f), 11.0f); // 5.5 wraps to 1.5, row 1
  EXPECT_EQ(I.fetch(-0.25f, 0.0f), 3.0f);
  I.D.AddressMode[0] = TexAddressMode::Mirror;
  // x = 1.25: the second period, mirrored: 1 - 0.25 = 0.75 -> texel 3.
  EXPECT_EQ(I.fetch(1.25f, 0.0f), 3.0f);
  EXPECT_EQ(I.fetch(1.875f, 0.0f), 0.0f);
  EXPECT_EQ(I.fetch(2.125f, 0.0f), 0.0f);
  EXPECT_EQ(I.fetch(1.0f, 0.0f), 3.0f); // 1 - frac(1) = 1: the last texel
}

TEST(TextureSampler, LinearFilteringUsesNineBitWeights) {
  FloatImage I(4, 3);
  I.D.AddressMode[0] = I.D.AddressMode[1] = TexAddressMode::Clamp;
  I.D.LinearFilter = true;
  // Texel centres return texels; halfway averages.
  EXPECT_FLOAT_EQ(I.fetch(1.5f, 1.5f), 11.0f);
  EXPECT_FLOAT_EQ(I.fetch(2.0f, 1.5f), 11.5f);
  EXPECT_FLOAT_EQ(I.fetch(2.0f, 1.0f), 6.5f);
  // A fraction of 0.3 becomes 77/256.
  EXPECT_FLOAT_EQ(I.fetch(1.8f, 0.5f), 1.0f + 77.0f / 256.0f);
  // Clamped edges.
  EXPECT_FLOAT_EQ(I.fetch(0.0f, 0.5f), 0.0f);
}

TEST(TextureSampler, FormatsAndReadModes) {
  uint8_t Texels[2][4] = {{0, 255, 51, 128}, {10, 20, 30, 40}};
  TextureDescriptor D;
  D.Magic = TextureDescriptor::TextureMagic;
  D.Data = &Texels[0][0];
  D.Width = 2;
  D.RowPitch = 8;
  D.SlicePitch = 8;
  D.Channels = 4;
  D.ChannelBytes = 1;
  D.ElementBytes = 4;
  D.Kind = TexChannelKind::Unsigned;
  D.AddressMode[0] = TexAddressMode::Clamp;
  uint32_t Out[4];
  cuhip_tex_fetch(&D, 1, 0, 0, 0, 0, Out); // integer coordinate 0
  EXPECT_EQ(Out[1], 255u);
  EXPECT_EQ(Out[2], 51u);
  D.ReadNormalizedFloat = true;
  cuhip_tex_fetch(&D, 1, 0, 0, 0, 0, Out);
  EXPECT_EQ(value(Out[1]), 1.0f);
  EXPECT_FLOAT_EQ(value(Out[2]), 0.2f);
  D.Kind = TexChannelKind::Signed;
  cuhip_tex_fetch(&D, 1, 0, 0, 0, 0, Out);
  EXPECT_EQ(value(Out[1]), -1.0f / 127.0f); // 0xff is -1
  EXPECT_EQ(value(Out[3]), -1.0f);          // -128 clamps to -1
  D.ReadNormalizedFloat = false;
  cuhip_tex_fetch(&D, 1, 0, 1, 0, 0, Out);
  EXPECT_EQ(int32_t(Out[0]), 10);
  // Missing channels read as (0, 0, 0, 1).
  D.Channels = 1;
  D.ElementBytes = 1;
  cuhip_tex_fetch(&D, 1, 0, 1, 0, 0, Out);
  EXPECT_EQ(int32_t(Out[0]), -1); // element 1 of a one-byte format: 0xff
  EXPECT_EQ(Out[1], 0u);
  EXPECT_EQ(Out[3], 1u);
  // Half texels become floats.
  uint16_t Halves[2] = {0x3c00, 0xc100}; // 1.0, -2.5
  D.Data = reinterpret_cast<uint8_t *>(Halves);
  D.Kind = TexChannelKind::Float;
  D.ChannelBytes = 2;
  D.ElementBytes = 2;
  cuhip_tex_fetch(&D, 1, 0, 1, 0, 0, Out);
  EXPECT_EQ(value(Out[0]), -2.5f);
  EXPECT_EQ(value(Out[3]), 1.0f);
}

TEST(TextureSampler, LayersGatherAndQueries) {
  float Layers[3][2] = {{1, 2}, {3, 4}, {5, 6}};
  TextureDescriptor D;
  D.Magic = TextureDescriptor::TextureMagic;
  D.Data = reinterpret_cast<uint8_t *>(Layers);
  D.Width = 2;
  D.RowPitch = 8;
  D.SlicePitch = 8;
  D.Layers = 3;
  D.AddressMode[0] = TexAddressMode::Clamp;
  uint32_t Out[4];
  uint32_t Shape = 1 | TexShapeLayered | TexShapeFloatCoords;
  cuhip_tex_fetch(&D, Shape, 1, bits(1.5f), 0, 0, Out);
  EXPECT_EQ(value(Out[0]), 4.0f);
  cuhip_tex_fetch(&D, Shape, 7, bits(0.5f), 0, 0, Out); // layer clamped
  EXPECT_EQ(value(Out[0]), 5.0f);
  EXPECT_EQ(cuhip_tex_query(&D, TexQueryWidth), 2u);
  EXPECT_EQ(cuhip_tex_query(&D, TexQueryArraySize), 3u);

  FloatImage I(4, 3);
  I.D.AddressMode[0] = I.D.AddressMode[1] = TexAddressMode::Clamp;
  cuhip_tex_gather(&I.D, 2 | TexShapeFloatCoords, 0, bits(2.0f), bits(1.0f),
                   Out);
  EXPECT_EQ(value(Out[0]), 11.0f); // (i, j+1)
  EXPECT_EQ(value(Out[1]), 12.0f); // (i+1, j+1)
  EXPECT_EQ(value(Out[2]), 2.0f);  // (i+1, j)
  EXPECT_EQ(value(Out[3]), 1.0f);  // (i, j)
}

/// Cubes of six 4x4 float faces (+X, -X, +Y, -Y, +Z, -Z); texel (x, y) of
/// layer l is 100 l + 10 y + x.
struct CubeImage {
  static constexpr uint32_t N = 4;
  std::vector<float> Data;
  TextureDescriptor D;
  explicit CubeImage(uint32_t Cubes) : Data(N * N * 6 * Cubes) {
    for (uint32_t L = 0; L < 6 * Cubes; ++L)
      for (uint32_t Y = 0; Y < N; ++Y)
        for (uint32_t X = 0; X < N; ++X)
          Data[(L * N + Y) * N + X] = 100.0f * L + 10.0f * Y + X;
    D.Magic = TextureDescriptor::TextureMagic;
    D.Data = reinterpret_cast<uint8_t *>(Data.data());
    D.Width = D.Height = N;
    D.RowPitch = N * 4;
    D.SlicePitch = N * N * 4;
    D.Dims = 2;
    D.Layers = 6 * Cubes;
    D.Cubemap = true;
    D.CubemapLayered = Cubes > 1;
    D.NormalizedCoords = true;
    D.AddressMode[0] = D.AddressMode[1] = TexAddressMode::Clamp;
  }
  float fetch(float X, float Y, float Z, int32_t Cube = -1) const {
    uint32_t Out[4];
    uint32_t Shape = 3 | TexShapeCube | TexShapeFloatCoords |
                     (Cube >= 0 ? uint32_t(TexShapeLayered) : 0u);
    cuhip_tex_fetch(&D, Shape, uint32_t(Cube), bits(X), bits(Y), bits(Z), Out);
    return value(Out[0]);
  }
};

TEST(TextureSampler, CubeMapFaceSelection) {
  CubeImage C(1);
  // Face coordinates (s, t) = (-0.5, 0.25) on each face: texel (1, 2).
  // The directions follow the guide's table: +X (1, -t, -s), -X (-1, -t,
  // s), +Y (s, 1, t), -Y (s, -1, -t), +Z (s, -t, 1), -Z (-s, -t, -1).
  EXPECT_EQ(C.fetch(1, -0.25f, 0.5f), 21.0f);
  EXPECT_EQ(C.fetch(-1, -0.25f, -0.5f), 121.0f);
  EXPECT_EQ(C.fetch(-0.5f, 1, 0.25f), 221.0f);
  EXPECT_EQ(C.fetch(-0.5f, -1, -0.25f), 321.0f);
  EXPECT_EQ(C.fetch(-0.5f, -0.25f, 1), 421.0f);
  EXPECT_EQ(C.fetch(0.5f, -0.25f, -1), 521.0f);
  // Only the direction counts, not its length.
  EXPECT_EQ(C.fetch(3, -0.75f, 1.5f), 21.0f);
  EXPECT_EQ(C.fetch(-0.25f, -0.5f, -0.125f), 321.0f);
  // Ties go to z, then y: (1, 1, 0) is +Y at s = 1 (clamped to column 3),
  // t = 0 (row 2); (1, 0, 1) and (1, 1, 1) are +Z.
  EXPECT_EQ(C.fetch(1, 1, 0), 223.0f);
  EXPECT_EQ(C.fetch(1, 0, 1), 423.0f);
  EXPECT_EQ(C.fetch(1, 1, 1), 403.0f);
  // The projection's coordinates are normalized whatever the texture says.
  C.D.NormalizedCoords = false;
  EXPECT_EQ(C.fetch(-1, -0.25f, -0.5f), 121.0f);
  // Linear filtering at a face's centre averages its four middle texels.
  C.D.LinearFilter = true;
  EXPECT_FLOAT_EQ(C.fetch(0, 0, -2), 500.0f + (11 + 12 + 21 + 22) / 4.0f);
  // Address modes act within the face: at +Z's right edge (s = 1) wrap
  // blends in column 0 of row 1.
  C.D.AddressMode[0] = TexAddressMode::Wrap;
  EXPECT_FLOAT_EQ(C.fetch(1, 0.25f, 1), 0.5f * (413 + 410));
  EXPECT_EQ(cuhip_tex_query(&C.D, TexQueryArraySize), 0u);
}

TEST(TextureSampler, LayeredCubeMaps) {
  CubeImage C(2);
  EXPECT_EQ(C.fetch(-1, -0.25f, -0.5f, 0), 121.0f);
  EXPECT_EQ(C.fetch(-1, -0.25f, -0.5f, 1), 721.0f);
  EXPECT_EQ(C.fetch(0.5f, -0.25f, -1, 1), 1121.0f);
  EXPECT_EQ(C.fetch(0.5f, -0.25f, -1, 9), 1121.0f); // the cube clamped
  EXPECT_EQ(C.fetch(0.5f, -0.25f, -1), 521.0f);     // tex.cube: cube 0
  // txq's array size counts cubes.
  EXPECT_EQ(cuhip_tex_query(&C.D, TexQueryArraySize), 2u);
  // A texture that is no cube map reads zeros rather than past its end.
  FloatImage I(4, 3);
  uint32_t Out[4] = {7, 7, 7, 7};
  cuhip_tex_fetch(&I.D, 3 | TexShapeCube | TexShapeFloatCoords, 0, bits(1.0f),
                  0, 0, Out);
  EXPECT_EQ(value(Out[0]), 0.0f);
  EXPECT_EQ(value(Out[3]), 0.0f);
}

TEST(TextureSampler, SeamlessCubeMaps) {
  CubeImage C(1);
  C.D.SeamlessCubemap = true;
  // Point sampling clamps whatever the address mode.
  C.D.AddressMode[0] = C.D.AddressMode[1] = TexAddressMode::Wrap;
  EXPECT_EQ(C.fetch(1, 0, 1), 423.0f);
  C.D.LinearFilter = true;
  // +Z's left edge (s = -1) at row 1's centre (t = -0.25) is -X's right
  // edge: half of (0, 1) of +Z, half of (3, 1) of -X.
  EXPECT_FLOAT_EQ(C.fetch(-1, 0.25f, 1), 0.5f * 410 + 0.5f * 113);
  // +Z's bottom edge (t = 1) at column 2 (s = 0.25) meets -Y's top row.
  EXPECT_FLOAT_EQ(C.fetch(0.25f, -1, 1), 0.5f * 432 + 0.5f * 302);
  // -Y's top row (t = -1, z = 1) at column 2 meets +Z's bottom row.
  EXPECT_FLOAT_EQ(C.fetch(0.25f, -1, 0.9999f), 0.5f * 432 + 0.5f * 302);
  // +X's right edge (s = 1: z = -1) at row 2 is -Z's left edge (-x = -1).
  EXPECT_FLOAT_EQ(C.fetch(1, -0.25f, -0.9999f), 0.5f * 23 + 0.5f * 520);
  // Without seamless filtering the edge wraps within the face.
  C.D.SeamlessCubemap = false;
  EXPECT_FLOAT_EQ(C.fetch(-1, 0.25f, 1), 0.5f * 410 + 0.5f * 413);
}

struct SurfaceCall {
  const TextureDescriptor *D;
  uint32_t Shape;
  int32_t X, Y;
  uint32_t *Out;
};

TEST(TextureSampler, SurfaceBoundaryModes) {
  uint32_t Data[2][3] = {{1, 2, 3}, {4, 5, 6}};
  TextureDescriptor D;
  D.Magic = TextureDescriptor::SurfaceMagic;
  D.Data = reinterpret_cast<uint8_t *>(Data);
  D.Width = 3;
  D.Height = 2;
  D.RowPitch = 12;
  D.SlicePitch = 24;
  D.Dims = 2;
  auto shape = [](SurfBoundary M, unsigned Bytes) {
    return 2u | uint32_t(M) << SurfShapeModeShift | Bytes << SurfShapeBytesShift;
  };
  uint32_t V[2] = {0, 0};
  cuhip_surf_load(&D, shape(SurfBoundary::Trap, 4), 8, 1, 0, V);
  EXPECT_EQ(V[0], 6u);
  cuhip_surf_load(&D, shape(SurfBoundary::Trap, 8), 4, 0, 0, V);
  EXPECT_EQ(V[0], 2u);
  EXPECT_EQ(V[1], 3u);
  cuhip_surf_load(&D, shape(SurfBoundary::Zero, 4), 12, 0, 0, V);
  EXPECT_EQ(V[0], 0u);
  cuhip_surf_load(&D, shape(SurfBoundary::Clamp, 4), 40, 5, 0, V);
  EXPECT_EQ(V[0], 6u);
  cuhip_surf_load(&D, shape(SurfBoundary::Clamp, 4), -4, -1, 0, V);
  EXPECT_EQ(V[0], 1u);
  uint32_t Nine = 9;
  cuhip_surf_store(&D, shape(SurfBoundary::Zero, 4), 0, 2, 0, &Nine);
  cuhip_surf_store(&D, shape(SurfBoundary::Trap, 4), 4, 1, 0, &Nine);
  EXPECT_EQ(Data[1][1], 9u);
  EXPECT_EQ(Data[1][0], 4u);

  // A trap ends the block with an illegal address.
  cuhip::ptx::host::installFaultHandler();
  static SurfaceCall Call;
  Call = {&D, shape(SurfBoundary::Trap, 4), 12, 0, V};
  cuhip::ptx::host::BlockTrap Trap;
  uint32_t Code = cuhip::ptx::host::runBlockGuarded(
      [](const void *, cuhip::ptx::host::BlockContext *) {
        cuhip_surf_load(Call.D, Call.Shape, Call.X, Call.Y, 0, Call.Out);
      },
      nullptr, nullptr, &Trap);
  EXPECT_EQ(Code, uint32_t(cuhip::ptx::host::TrapIllegalAddress));
  // So does a handle that is no surface.
  Call.D = reinterpret_cast<const TextureDescriptor *>(Data);
  Call.X = 0;
  Code = cuhip::ptx::host::runBlockGuarded(
      [](const void *, cuhip::ptx::host::BlockContext *) {
        cuhip_surf_load(Call.D, Call.Shape, Call.X, Call.Y, 0, Call.Out);
      },
      nullptr, nullptr, &Trap);
  EXPECT_EQ(Code, uint32_t(cuhip::ptx::host::TrapIllegalAddress));
}

} // namespace
