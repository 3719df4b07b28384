//===- TextureDescriptor.h - What a texture or surface handle points at ---===//
//
// A cudaTextureObject_t or cudaSurfaceObject_t on the CPU backend is the
// address of one of these descriptors: the runtime fills it in when the
// object is created, and the sampler the JIT-compiled tex/tld4/txq/suld/sust
// instructions call (host/TextureSampler.cpp) reads it. Both sides include
// this one header so that they cannot disagree on the layout. It also names
// the flag words the lowering passes to the sampler's entry points.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace cuhip::ptx {

enum class TexChannelKind : uint8_t { Signed = 0, Unsigned = 1, Float = 2 };
/// cudaTextureAddressMode's values.
enum class TexAddressMode : uint8_t { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };
/// cudaSurfaceBoundaryMode's values (and suld/sust's .zero/.clamp/.trap).
enum class SurfBoundary : uint8_t { Zero = 0, Clamp = 1, Trap = 2 };

struct TextureDescriptor {
  static constexpr uint32_t TextureMagic = 0x58455443; // "CTEX"
  static constexpr uint32_t SurfaceMagic = 0x46525343; // "CSRF"
  uint32_t Magic = 0;
  // Where the texels are: element (x, y, z) of layer l lies at
  // Data + (l * Depth + z) * SlicePitch + y * RowPitch + x * ElementBytes.
  uint8_t *Data = nullptr;
  uint64_t RowPitch = 0;
  uint64_t SlicePitch = 0;
  uint32_t Width = 1, Height = 1, Depth = 1; // in elements
  uint32_t Layers = 0;                       // 0: not a layered array
  // A cube map is a 2D layered array whose layers are its faces (+X, -X,
  // +Y, -Y, +Z, -Z); a layered cube map holds Layers / 6 cubes in a row.
  bool Cubemap = false;
  bool CubemapLayered = false;
  uint8_t Dims = 1;                          // 1, 2 or 3
  // The element format: Channels of ChannelBytes each, all of one kind.
  uint8_t Channels = 1;     // 1, 2 or 4
  uint8_t ChannelBytes = 4; // 1, 2 or 4 (2 with Float: half)
  TexChannelKind Kind = TexChannelKind::Float;
  uint8_t ElementBytes = 4;
  // Sampling (textures only).
  TexAddressMode AddressMode[3] = {TexAddressMode::Wrap, TexAddressMode::Wrap,
                                   TexAddressMode::Wrap};
  bool LinearFilter = false;
  bool ReadNormalizedFloat = false; // cudaReadModeNormalizedFloat
  bool NormalizedCoords = false;
  bool SRGB = false;
  // cudaTextureDesc::seamlessCubemap: address modes are ignored, and linear
  // filtering takes the texels beyond a face's edge from the next face.
  bool SeamlessCubemap = false;
  float BorderColor[4] = {0, 0, 0, 0};
};

/// The Shape word of cuhip_tex_fetch and cuhip_tex_gather: the geometry the
/// instruction names, and whether its coordinates are .f32 (else .s32).
enum : uint32_t {
  TexShapeDimsMask = 0x3, // 1, 2 or 3
  TexShapeLayered = 0x4,  // .a1d / .a2d: the first coordinate is the layer
  TexShapeFloatCoords = 0x8,
  TexShapeCube = 0x10, // .cube / .acube: X, Y, Z are a direction
};

/// The Shape word of cuhip_surf_load and cuhip_surf_store.
enum : uint32_t {
  SurfShapeDimsMask = 0x3,   // 1, 2 or 3
  SurfShapeLayered = 0x4,    // .a1d / .a2d
  SurfShapeModeShift = 4,    // SurfBoundary in bits 4-5
  SurfShapeBytesShift = 8,   // bytes accessed (1 to 32) in bits 8-15
};

/// txq's queries (cuhip_tex_query's Query argument).
enum : uint32_t {
  TexQueryWidth = 0,
  TexQueryHeight = 1,
  TexQueryDepth = 2,
  TexQueryChannelDataType = 3,
  TexQueryChannelOrder = 4,
  TexQueryNormalizedCoords = 5,
  TexQueryFilterMode = 6,
  TexQueryAddrMode0 = 7,
  TexQueryAddrMode1 = 8,
  TexQueryAddrMode2 = 9,
  TexQueryArraySize = 10,
  TexQueryNumMipmapLevels = 11,
  TexQueryNumSamples = 12,
};

} // namespace cuhip::ptx

extern "C" {
/// tex.{1d,2d,3d,a1d,a2d,cube,acube}: four 32-bit results (float or integer
/// bits, as the texture's format and read mode make them) at Out.
/// Coordinates are the bits of .f32 or .s32 values; Layer is the layer of
/// an array form (the cube of .acube).
void cuhip_tex_fetch(const cuhip::ptx::TextureDescriptor *T, uint32_t Shape,
                     uint32_t Layer, uint32_t X, uint32_t Y, uint32_t Z,
                     uint32_t *Out);
/// tld4.{r,g,b,a}.2d: component Comp of the four texels bilinear filtering
/// at (X, Y) would use, in the order PTX gives them.
void cuhip_tex_gather(const cuhip::ptx::TextureDescriptor *T, uint32_t Shape,
                      uint32_t Comp, uint32_t X, uint32_t Y, uint32_t *Out);
/// txq: one attribute of a texture or surface.
uint32_t cuhip_tex_query(const cuhip::ptx::TextureDescriptor *T,
                         uint32_t Query);
/// suld.b / sust.b: Bytes (from Shape) bytes at byte column X, row Y and
/// slice or layer Z, under the boundary mode in Shape.
void cuhip_surf_load(const cuhip::ptx::TextureDescriptor *T, uint32_t Shape,
                     int32_t X, int32_t Y, int32_t Z, void *Out);
void cuhip_surf_store(const cuhip::ptx::TextureDescriptor *T, uint32_t Shape,
                      int32_t X, int32_t Y, int32_t Z, const void *In);
}
