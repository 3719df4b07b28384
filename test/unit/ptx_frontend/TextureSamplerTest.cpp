//===- TextureSamplerTest.cpp - The host sampler's texture semantics ------===//
//
// cuhip_tex_fetch, cuhip_tex_gather, cuhip_tex_query and the surface
// accesses on hand-made descriptors: element formats and read modes, the
// address modes with normalized and unnormalized coordinates, linear
// filtering with 9-bit weights, layers, and the surface boundary modes
// (trap through a guarded block, as a kernel runs).
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
