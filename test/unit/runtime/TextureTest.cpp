//===- TextureTest.cpp - Arrays, texture and surface objects in the core --===//
//
// The runtime core's texture family on the CPU backend: array shapes and
// formats, copies into and out of arrays with their bounds, the descriptor
// a texture or surface object hands the sampler, the descriptions handed
// back, and the CUDA error code of each misuse.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Texture.h"

#include "cuhip/ptx/TextureDescriptor.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace cuhip::rt;
using cuhip::ptx::TextureDescriptor;

namespace {

constexpr int KindSigned = 0, KindUnsigned = 1, KindFloat = 2, KindNone = 3;

ChannelFormat format(int Bits, int Channels, int Kind) {
  ChannelFormat F;
  int *C[4] = {&F.X, &F.Y, &F.Z, &F.W};
  for (int K = 0; K < Channels; ++K)
    *C[K] = Bits;
  F.Kind = Kind;
  return F;
}

class TextureTest : public ::testing::Test {
protected:
  Runtime &R = Runtime::get();
  void SetUp() override { R.getLastError(); }
};

TEST_F(TextureTest, ArraysCheckFormatAndShape) {
  Array *A = nullptr;
  EXPECT_EQ(arrayCreate(nullptr, format(32, 1, KindFloat), 4, 4, 0, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, format(32, 1, KindNone), 4, 4, 0, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, format(8, 3, KindUnsigned), 4, 4, 0, 0),
            cudaErrorInvalidValue); // three channels
  EXPECT_EQ(arrayCreate(&A, format(8, 1, KindFloat), 4, 4, 0, 0),
            cudaErrorInvalidValue); // 8-bit floats
  EXPECT_EQ(arrayCreate(&A, format(12, 1, KindSigned), 4, 4, 0, 0),
            cudaErrorInvalidValue);
  ChannelFormat Gap = format(8, 1, KindUnsigned);
  Gap.Z = 8;
  EXPECT_EQ(arrayCreate(&A, Gap, 4, 4, 0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, format(16, 2, KindFloat), 0, 4, 0, 0),
            cudaErrorInvalidValue); // no width
  EXPECT_EQ(arrayCreate(&A, format(16, 2, KindFloat), 4, 0, 3, 0),
            cudaErrorInvalidValue); // depth without height
  EXPECT_EQ(arrayCreate(&A, format(16, 2, KindFloat), 4, 4, 0, ArrayLayered),
            cudaErrorInvalidValue); // layered without layers
  EXPECT_EQ(arrayCreate(&A, format(32, 1, KindFloat), 4, 4, 0, 0x40),
            cudaErrorNotSupported); // cudaArraySparse
  ChannelFormat Bc = format(8, 4, KindUnsigned);
  Bc.Kind = 19; // a block-compressed kind of CUDA 11.5+
  EXPECT_EQ(arrayCreate(&A, Bc, 4, 4, 0, 0), cudaErrorNotSupported);
  EXPECT_EQ(R.getLastError(), cudaErrorNotSupported);

  ASSERT_EQ(arrayCreate(&A, format(16, 4, KindSigned), 5, 0, 3, ArrayLayered),
            cudaSuccess);
  ArrayInfo Info;
  ASSERT_EQ(arrayGetInfo(A, &Info), cudaSuccess);
  EXPECT_EQ(Info.Width, 5u);
  EXPECT_EQ(Info.Height, 0u);
  EXPECT_EQ(Info.Depth, 3u);
  EXPECT_EQ(Info.Flags, unsigned(ArrayLayered));
  EXPECT_EQ(Info.Format.W, 16);
  EXPECT_EQ(Info.Format.Kind, KindSigned);
  EXPECT_EQ(arrayElementBytes(A), 8u);
  EXPECT_EQ(arrayGetInfo(A, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(arrayDestroy(A), cudaSuccess);
  EXPECT_EQ(arrayDestroy(A), cudaErrorInvalidValue);
  EXPECT_EQ(arrayGetInfo(A, &Info), cudaErrorInvalidValue);
  EXPECT_EQ(arrayElementBytes(A), 0u);
  EXPECT_EQ(arrayDestroy(nullptr), cudaSuccess);
}

TEST_F(TextureTest, CopiesStayInsideTheArray) {
  Array *A;
  ASSERT_EQ(arrayCreate(&A, format(32, 1, KindUnsigned), 4, 3, 2, 0),
            cudaSuccess);
  std::vector<uint32_t> In(4 * 3 * 2), Out(In.size());
  for (size_t K = 0; K < In.size(); ++K)
    In[K] = uint32_t(K * 11);
  CopySide Arr;
  Arr.A = A;
  CopySide Host;
  Host.Linear = {In.data(), 16, 3};
  ASSERT_EQ(memcpyArray(Arr, Host, 16, 3, 2, CopyKind::HostToDevice, nullptr,
                        false),
            cudaSuccess);
  // A 2x2x1 box from element (1, 1, 1) back out.
  uint32_t Box[2][2] = {};
  CopySide From;
  From.A = A;
  From.X = 4;
  From.Y = 1;
  From.Z = 1;
  CopySide To;
  To.Linear = {Box, 8, 2};
  ASSERT_EQ(memcpyArray(To, From, 8, 2, 1, CopyKind::DeviceToHost, nullptr,
                        false),
            cudaSuccess);
  EXPECT_EQ(Box[0][0], In[12 + 4 + 1]);
  EXPECT_EQ(Box[1][1], In[12 + 8 + 2]);
  // Past the row, the last row or the last slice.
  From.X = 12;
  EXPECT_EQ(memcpyArray(To, From, 8, 1, 1, CopyKind::DeviceToHost, nullptr,
                        false),
            cudaErrorInvalidValue);
  From.X = 0;
  From.Y = 2;
  EXPECT_EQ(memcpyArray(To, From, 8, 2, 1, CopyKind::DeviceToHost, nullptr,
                        false),
            cudaErrorInvalidValue);
  From.Y = 0;
  From.Z = 2;
  EXPECT_EQ(memcpyArray(To, From, 8, 1, 1, CopyKind::DeviceToHost, nullptr,
                        false),
            cudaErrorInvalidValue);
  // The deprecated linear form runs on across rows.
  ASSERT_EQ(memcpyArrayBytes(A, 8, Out.data(), 40, false,
                             CopyKind::DeviceToHost, nullptr, false),
            cudaSuccess);
  EXPECT_EQ(std::memcmp(Out.data(), In.data() + 2, 40), 0);
  EXPECT_EQ(memcpyArrayBytes(A, 90, Out.data(), 8, false,
                             CopyKind::DeviceToHost, nullptr, false),
            cudaErrorInvalidValue);
  ASSERT_EQ(arrayDestroy(A), cudaSuccess);
  EXPECT_EQ(memcpyArray(To, Arr, 4, 1, 1, CopyKind::DeviceToHost, nullptr,
                        false),
            cudaErrorInvalidValue); // a freed array
}

TEST_F(TextureTest, TextureObjectsDescribeTheirResource) {
  Array *A;
  ASSERT_EQ(arrayCreate(&A, format(8, 4, KindUnsigned), 6, 5, 4, ArrayLayered),
            cudaSuccess);
  ResourceSpec Res;
  Res.A = A;
  TextureSpec Spec;
  Spec.AddressMode[0] = 3;
  Spec.AddressMode[1] = 2;
  Spec.FilterMode = 1;
  Spec.ReadMode = 1;
  Spec.NormalizedCoords = 1;
  Spec.BorderColor[3] = 0.5f;
  uint64_t Tex = 0;
  ASSERT_EQ(textureCreate(&Tex, Res, Spec), cudaSuccess);
  auto *D = reinterpret_cast<const TextureDescriptor *>(Tex);
  EXPECT_EQ(D->Magic, TextureDescriptor::TextureMagic);
  EXPECT_EQ(D->Dims, 2);
  EXPECT_EQ(D->Width, 6u);
  EXPECT_EQ(D->Height, 5u);
  EXPECT_EQ(D->Layers, 4u);
  EXPECT_EQ(D->Channels, 4);
  EXPECT_EQ(D->ElementBytes, 4);
  EXPECT_EQ(D->RowPitch, 24u);
  EXPECT_EQ(D->SlicePitch, 120u);
  EXPECT_TRUE(D->LinearFilter);
  EXPECT_TRUE(D->ReadNormalizedFloat);
  EXPECT_EQ(D->AddressMode[0], cuhip::ptx::TexAddressMode::Border);
  EXPECT_EQ(D->BorderColor[3], 0.5f);
  ResourceSpec Back;
  TextureSpec SpecBack;
  ASSERT_EQ(textureGetResource(Tex, &Back), cudaSuccess);
  ASSERT_EQ(textureGetSpec(Tex, &SpecBack), cudaSuccess);
  EXPECT_EQ(Back.A, A);
  EXPECT_EQ(SpecBack.AddressMode[1], 2);
  EXPECT_EQ(SpecBack.NormalizedCoords, 1);
  EXPECT_EQ(textureGetSpec(Tex, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(textureDestroy(Tex), cudaSuccess);
  EXPECT_EQ(textureDestroy(Tex), cudaErrorInvalidValue);
  EXPECT_EQ(textureGetResource(Tex, &Back), cudaErrorInvalidValue);
  EXPECT_EQ(textureDestroy(0), cudaSuccess);

  // Linear filtering needs float results.
  Spec.ReadMode = 0;
  EXPECT_EQ(textureCreate(&Tex, Res, Spec), cudaErrorInvalidValue);
  Spec.FilterMode = 0;
  Spec.AddressMode[2] = 7;
  EXPECT_EQ(textureCreate(&Tex, Res, Spec), cudaErrorInvalidValue);
  EXPECT_EQ(textureCreate(nullptr, Res, TextureSpec()), cudaErrorInvalidValue);
  Res.Kind = ResourceKind::Mipmapped;
  EXPECT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaErrorNotSupported);
  ASSERT_EQ(arrayDestroy(A), cudaSuccess);
  Res.Kind = ResourceKind::Array;
  EXPECT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaErrorInvalidValue);
}

TEST_F(TextureTest, CubeMapArrays) {
  Array *A = nullptr;
  const ChannelFormat F = format(16, 2, KindFloat);
  // Square faces; six of them, or with ArrayLayered whole cubes.
  EXPECT_EQ(arrayCreate(&A, F, 4, 5, 6, ArrayCubemap), cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, F, 4, 0, 6, ArrayCubemap), cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, F, 4, 4, 5, ArrayCubemap), cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, F, 4, 4, 12, ArrayCubemap), cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, F, 4, 4, 0, ArrayCubemap | ArrayLayered),
            cudaErrorInvalidValue);
  EXPECT_EQ(arrayCreate(&A, F, 4, 4, 9, ArrayCubemap | ArrayLayered),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidValue);

  const unsigned Flags = ArrayCubemap | ArrayLayered | ArraySurfaceLoadStore;
  ASSERT_EQ(arrayCreate(&A, F, 4, 4, 12, Flags), cudaSuccess);
  ArrayInfo Info;
  ASSERT_EQ(arrayGetInfo(A, &Info), cudaSuccess);
  EXPECT_EQ(Info.Width, 4u);
  EXPECT_EQ(Info.Height, 4u);
  EXPECT_EQ(Info.Depth, 12u);
  EXPECT_EQ(Info.Flags, Flags);
  // The faces are layers of a copy: the last face of the second cube, and
  // one past it.
  std::vector<uint32_t> Face(16, 0x12345678);
  CopySide Arr;
  Arr.A = A;
  Arr.Z = 11;
  CopySide Host;
  Host.Linear = {Face.data(), 16, 4};
  EXPECT_EQ(
      memcpyArray(Arr, Host, 16, 4, 1, CopyKind::HostToDevice, nullptr, false),
      cudaSuccess);
  EXPECT_EQ(
      memcpyArray(Arr, Host, 16, 4, 2, CopyKind::HostToDevice, nullptr, false),
      cudaErrorInvalidValue);

  // To the sampler a cube map is a 2D layered array of faces.
  ResourceSpec Res;
  Res.A = A;
  TextureSpec Spec;
  Spec.SeamlessCubemap = 1;
  Spec.NormalizedCoords = 1;
  uint64_t Tex = 0, Surf = 0;
  ASSERT_EQ(textureCreate(&Tex, Res, Spec), cudaSuccess);
  auto *D = reinterpret_cast<const TextureDescriptor *>(Tex);
  EXPECT_EQ(D->Dims, 2);
  EXPECT_EQ(D->Width, 4u);
  EXPECT_EQ(D->Height, 4u);
  EXPECT_EQ(D->Depth, 1u);
  EXPECT_EQ(D->Layers, 12u);
  EXPECT_EQ(D->SlicePitch, 64u);
  EXPECT_TRUE(D->Cubemap);
  EXPECT_TRUE(D->CubemapLayered);
  EXPECT_TRUE(D->SeamlessCubemap);
  TextureSpec SpecBack;
  ASSERT_EQ(textureGetSpec(Tex, &SpecBack), cudaSuccess);
  EXPECT_EQ(SpecBack.SeamlessCubemap, 1);
  ASSERT_EQ(surfaceCreate(&Surf, Res), cudaSuccess);
  D = reinterpret_cast<const TextureDescriptor *>(Surf);
  EXPECT_EQ(D->Dims, 2);
  EXPECT_EQ(D->Layers, 12u);
  EXPECT_EQ(textureDestroy(Tex), cudaSuccess);
  EXPECT_EQ(surfaceDestroy(Surf), cudaSuccess);
  EXPECT_EQ(arrayDestroy(A), cudaSuccess);

  ASSERT_EQ(arrayCreate(&A, F, 8, 8, 6, ArrayCubemap), cudaSuccess);
  Res.A = A;
  ASSERT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaSuccess);
  D = reinterpret_cast<const TextureDescriptor *>(Tex);
  EXPECT_TRUE(D->Cubemap);
  EXPECT_FALSE(D->CubemapLayered);
  EXPECT_FALSE(D->SeamlessCubemap);
  EXPECT_EQ(D->Layers, 6u);
  EXPECT_EQ(textureDestroy(Tex), cudaSuccess);
  EXPECT_EQ(arrayDestroy(A), cudaSuccess);

  // Seamless filtering is a cube-map property: a 2D layered array has none.
  ASSERT_EQ(arrayCreate(&A, F, 8, 8, 6, ArrayLayered), cudaSuccess);
  Res.A = A;
  ASSERT_EQ(textureCreate(&Tex, Res, Spec), cudaSuccess);
  D = reinterpret_cast<const TextureDescriptor *>(Tex);
  EXPECT_FALSE(D->Cubemap);
  EXPECT_FALSE(D->SeamlessCubemap);
  EXPECT_EQ(textureDestroy(Tex), cudaSuccess);
  EXPECT_EQ(arrayDestroy(A), cudaSuccess);
}

TEST_F(TextureTest, LinearAndPitchedResourcesMustBeDeviceMemory) {
  void *Mem;
  ASSERT_EQ(R.malloc(&Mem, 4096), cudaSuccess);
  ResourceSpec Res;
  Res.Kind = ResourceKind::Linear;
  Res.Ptr = Mem;
  Res.Format = format(32, 2, KindFloat);
  Res.SizeInBytes = 4096;
  uint64_t Tex;
  ASSERT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaSuccess);
  auto *D = reinterpret_cast<const TextureDescriptor *>(Tex);
  EXPECT_EQ(D->Width, 512u);
  EXPECT_EQ(D->Dims, 1);
  EXPECT_EQ(textureDestroy(Tex), cudaSuccess);
  // A linear texture larger than its allocation is accepted, as CUDA
  // accepts it, and it ends where the allocation ends.
  Res.Ptr = static_cast<char *>(Mem) + 1024;
  Res.SizeInBytes = 8192;
  ASSERT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaSuccess);
  D = reinterpret_cast<const TextureDescriptor *>(Tex);
  EXPECT_EQ(D->Width, 384u);
  EXPECT_EQ(textureDestroy(Tex), cudaSuccess);
  Res.Ptr = Mem;
  int Host[4];
  Res.Ptr = Host;
  Res.SizeInBytes = sizeof(Host);
  EXPECT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaErrorInvalidValue);

  Res.Kind = ResourceKind::Pitch2D;
  Res.Ptr = Mem;
  Res.Width = 60;
  Res.Height = 4;
  Res.PitchInBytes = 512;
  ASSERT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaSuccess);
  D = reinterpret_cast<const TextureDescriptor *>(Tex);
  EXPECT_EQ(D->Dims, 2);
  EXPECT_EQ(D->RowPitch, 512u);
  EXPECT_EQ(textureDestroy(Tex), cudaSuccess);
  Res.PitchInBytes = 400; // narrower than a row of 60 float2
  EXPECT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaErrorInvalidValue);
  Res.PitchInBytes = 2048;
  Res.Height = 3; // 6 KiB: past the allocation
  EXPECT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaErrorInvalidValue);
  // Surfaces take arrays only.
  EXPECT_EQ(surfaceCreate(&Tex, Res), cudaErrorInvalidValue);
  EXPECT_EQ(R.free(Mem), cudaSuccess);
}

TEST_F(TextureTest, SurfacesNeedLoadStoreArrays) {
  Array *A;
  ASSERT_EQ(arrayCreate(&A, format(32, 1, KindFloat), 8, 0, 0, 0),
            cudaSuccess);
  ResourceSpec Res;
  Res.A = A;
  uint64_t Surf;
  EXPECT_EQ(surfaceCreate(&Surf, Res), cudaErrorInvalidValue);
  ASSERT_EQ(arrayDestroy(A), cudaSuccess);
  ASSERT_EQ(arrayCreate(&A, format(32, 1, KindFloat), 8, 0, 0,
                        ArraySurfaceLoadStore),
            cudaSuccess);
  Res.A = A;
  ASSERT_EQ(surfaceCreate(&Surf, Res), cudaSuccess);
  auto *D = reinterpret_cast<const TextureDescriptor *>(Surf);
  EXPECT_EQ(D->Magic, TextureDescriptor::SurfaceMagic);
  EXPECT_EQ(D->Dims, 1);
  ResourceSpec Back;
  ASSERT_EQ(surfaceGetResource(Surf, &Back), cudaSuccess);
  EXPECT_EQ(Back.A, A);
  // A surface handle is no texture handle.
  EXPECT_EQ(textureDestroy(Surf), cudaErrorInvalidValue);
  EXPECT_EQ(surfaceDestroy(Surf), cudaSuccess);
  EXPECT_EQ(surfaceDestroy(Surf), cudaErrorInvalidValue);
  EXPECT_EQ(surfaceGetResource(Surf, &Back), cudaErrorInvalidValue);
  EXPECT_EQ(arrayDestroy(A), cudaSuccess);
}

TEST_F(TextureTest, DeviceResetForgetsArraysAndObjects) {
  Array *A;
  ASSERT_EQ(arrayCreate(&A, format(32, 1, KindFloat), 8, 8, 0,
                        ArraySurfaceLoadStore),
            cudaSuccess);
  ResourceSpec Res;
  Res.A = A;
  uint64_t Tex, Surf;
  ASSERT_EQ(textureCreate(&Tex, Res, TextureSpec()), cudaSuccess);
  ASSERT_EQ(surfaceCreate(&Surf, Res), cudaSuccess);
  ASSERT_EQ(R.deviceReset(), cudaSuccess);
  ArrayInfo Info;
  EXPECT_EQ(arrayGetInfo(A, &Info), cudaErrorInvalidValue);
  EXPECT_EQ(textureDestroy(Tex), cudaErrorInvalidValue);
  EXPECT_EQ(surfaceDestroy(Surf), cudaErrorInvalidValue);
}

} // namespace
