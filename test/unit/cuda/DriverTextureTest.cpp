//===- DriverTextureTest.cpp - libcuda's arrays, textures and surfaces ----===//
//
// The driver API's texture family through the real cuda.h: arrays made by
// cuArray3DCreate and filled by cuMemcpy2D, texture objects whose CU_TRSF
// flags choose integer or normalized-float reads, a surface written by a
// PTX kernel and read back by cuMemcpy3D, cube maps and layered cube maps
// (CUDA_ARRAY3D_CUBEMAP, tex.cube, tex.acube), and the documented errors.
//
//===----------------------------------------------------------------------===//
#include "DriverTestKernels.h"

#include <cuda.h>

#include <cstring>
#include <gtest/gtest.h>

namespace {

// out[i] = tex.2d at (i + 0.5, 0.5) channel x; then suld/sust doubles
// surface element i of row 0.
const char *TexturePtx = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 tex, .param .u64 surf, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [surf];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f1, %f1, 0f3F000000;
  mov.f32 %f2, 0f3F000000;
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.f32 [%rd5], %f3;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, 0;
  suld.b.2d.b32.trap {%r4}, [%rd2, {%r2, %r3}];
  add.u32 %r4, %r4, %r4;
  sust.b.2d.b32.trap [%rd2, {%r2, %r3}], {%r4};
  ret;
}
)";


class DriverTexture : public ::testing::Test {
protected:
  void SetUp() override {
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDeviceGet(&Dev, 0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
    CHECK_CU(cuCtxSetCurrent(Ctx));
  }
  void TearDown() override { cuDevicePrimaryCtxRelease(Dev); }
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
};

TEST_F(DriverTexture, ArraysTexturesAndSurfaces) {
  constexpr unsigned N = 8;
  // An 8x2 array of unsigned bytes for the texture.
  CUDA_ARRAY3D_DESCRIPTOR D = {};
  D.Width = N;
  D.Height = 2;
  D.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  D.NumChannels = 1;
  CUarray Bytes;
  CHECK_CU(cuArray3DCreate(&Bytes, &D));
  unsigned char Texels[2][N];
  for (unsigned I = 0; I < 2 * N; ++I)
    Texels[I / N][I % N] = (unsigned char)(I * 17);
  CUDA_MEMCPY2D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Texels;
  C.srcPitch = N;
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = Bytes;
  C.WidthInBytes = N;
  C.Height = 2;
  CHECK_CU(cuMemcpy2D(&C));
  CUDA_ARRAY_DESCRIPTOR Back;
  CHECK_CU(cuArrayGetDescriptor(&Back, Bytes));
  EXPECT_EQ(Back.Width, N);
  EXPECT_EQ(Back.Height, 2u);
  EXPECT_EQ(Back.Format, CU_AD_FORMAT_UNSIGNED_INT8);
  EXPECT_EQ(Back.NumChannels, 1u);

  // A 32-bit surface array.
  D.Height = 1;
  D.Format = CU_AD_FORMAT_UNSIGNED_INT32;
  D.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUarray Words;
  CHECK_CU(cuArray3DCreate(&Words, &D));
  unsigned In[N];
  for (unsigned I = 0; I < N; ++I)
    In[I] = I + 100;
  CUDA_MEMCPY3D C3 = {};
  C3.srcMemoryType = CU_MEMORYTYPE_HOST;
  C3.srcHost = In;
  C3.srcPitch = sizeof(In);
  C3.srcHeight = 1;
  C3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C3.dstArray = Words;
  C3.WidthInBytes = sizeof(In);
  C3.Height = 1;
  C3.Depth = 1;
  CHECK_CU(cuMemcpy3D(&C3));

  CUDA_RESOURCE_DESC Res = {};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  Res.res.array.hArray = Bytes;
  CUDA_TEXTURE_DESC Tex = {};
  Tex.addressMode[0] = Tex.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  Tex.filterMode = CU_TR_FILTER_MODE_POINT;
  Tex.flags = 0; // bytes read as normalized floats
  CUtexObject T;
  CHECK_CU(cuTexObjectCreate(&T, &Res, &Tex, nullptr));
  CUDA_RESOURCE_DESC ResBack;
  CHECK_CU(cuTexObjectGetResourceDesc(&ResBack, T));
  EXPECT_EQ(ResBack.res.array.hArray, Bytes);
  // A resource view that asks for nothing is the same as none; any other
  // view is not supported.
  CUDA_RESOURCE_VIEW_DESC View = {};
  CUtexObject T2;
  CHECK_CU(cuTexObjectCreate(&T2, &Res, &Tex, &View));
  CHECK_CU(cuTexObjectDestroy(T2));
  View.format = CU_RES_VIEW_FORMAT_UINT_1X8;
  EXPECT_EQ(cuTexObjectCreate(&T2, &Res, &Tex, &View),
            CUDA_ERROR_NOT_SUPPORTED);
  CUDA_TEXTURE_DESC TexBack;
  CHECK_CU(cuTexObjectGetTextureDesc(&TexBack, T));
  EXPECT_EQ(TexBack.addressMode[1], CU_TR_ADDRESS_MODE_CLAMP);
  EXPECT_EQ(TexBack.flags, 0u);
  Res.res.array.hArray = Words;
  CUsurfObject S;
  CHECK_CU(cuSurfObjectCreate(&S, &Res));

  CUmodule Mod;
  CHECK_CU(cuModuleLoadData(&Mod, TexturePtx));
  CUfunction F;
  CHECK_CU(cuModuleGetFunction(&F, Mod, "k"));
  CUdeviceptr Out;
  CHECK_CU(cuMemAlloc(&Out, N * sizeof(float)));
  void *Args[] = {&T, &S, &Out};
  CHECK_CU(cuLaunchKernel(F, 1, 1, 1, N, 1, 1, 0, nullptr, Args, nullptr));
  float Got[N];
  CHECK_CU(cuMemcpyDtoH(Got, Out, sizeof(Got)));
  for (unsigned I = 0; I < N; ++I)
    EXPECT_FLOAT_EQ(Got[I], Texels[0][I] / 255.0f) << I;
  unsigned Doubled[N];
  C3 = {};
  C3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  C3.srcArray = Words;
  C3.dstMemoryType = CU_MEMORYTYPE_HOST;
  C3.dstHost = Doubled;
  C3.dstPitch = sizeof(Doubled);
  C3.dstHeight = 1;
  C3.WidthInBytes = sizeof(Doubled);
  C3.Height = 1;
  C3.Depth = 1;
  CHECK_CU(cuMemcpy3D(&C3));
  for (unsigned I = 0; I < N; ++I)
    EXPECT_EQ(Doubled[I], 2 * In[I]) << I;

  CHECK_CU(cuTexObjectDestroy(T));
  EXPECT_EQ(cuTexObjectDestroy(T), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuSurfObjectDestroy(S));
  CHECK_CU(cuMemFree(Out));
  CHECK_CU(cuModuleUnload(Mod));
  CHECK_CU(cuArrayDestroy(Bytes));
  CHECK_CU(cuArrayDestroy(Words));
  EXPECT_EQ(cuArrayDestroy(Words), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuArrayGetDescriptor(&Back, Words), CUDA_ERROR_INVALID_HANDLE);
}

// out[k] = tex.cube at direction k of dirs (x, y, z, cube) of the cube map,
// and tex.acube of the layered one; then sust.b.a2d writes 7 at (1, 2) of
// face 5 of cube 1 (layer 11) of the layered surface.
const char *CubePtx = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry cube(.param .u64 tex, .param .u64 layered, .param .u64 surf,
                     .param .u64 dirs, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<16>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [layered];
  ld.param.u64 %rd3, [surf];
  ld.param.u64 %rd4, [dirs];
  ld.param.u64 %rd5, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd6, %r1, 16;
  add.s64 %rd7, %rd4, %rd6;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd7];
  cvt.rzi.s32.f32 %r2, %f4;
  tex.cube.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2, %f3, %f3}];
  tex.acube.v4.f32.f32 {%f9, %f10, %f11, %f12}, [%rd2, {%r2, %f1, %f2, %f3}];
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd8, %rd5, %rd6;
  st.global.v2.f32 [%rd8], {%f5, %f9};
  mov.u32 %r3, 11;
  mov.u32 %r4, 4;
  mov.u32 %r5, 2;
  mov.f32 %f13, 0f40E00000;
  mov.b32 %r6, %f13;
  sust.b.a2d.b32.trap [%rd3, {%r3, %r4, %r5, %r5}], {%r6};
  ret;
}
)";

TEST_F(DriverTexture, CubeMaps) {
  constexpr unsigned N = 4;
  CUDA_ARRAY3D_DESCRIPTOR D = {};
  D.Width = N;
  D.Height = N;
  D.Depth = 6;
  D.Format = CU_AD_FORMAT_FLOAT;
  D.NumChannels = 1;
  D.Flags = CUDA_ARRAY3D_CUBEMAP;
  CUarray Cube, Layered;
  CHECK_CU(cuArray3DCreate(&Cube, &D));
  D.Depth = 12;
  D.Flags =
      CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST;
  CHECK_CU(cuArray3DCreate(&Layered, &D));
  CUDA_ARRAY3D_DESCRIPTOR Back;
  CHECK_CU(cuArray3DGetDescriptor(&Back, Cube));
  EXPECT_EQ(Back.Flags, unsigned(CUDA_ARRAY3D_CUBEMAP));
  EXPECT_EQ(Back.Depth, 6u);
  CHECK_CU(cuArray3DGetDescriptor(&Back, Layered));
  EXPECT_EQ(Back.Flags, unsigned(CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED |
                                 CUDA_ARRAY3D_SURFACE_LDST));
  EXPECT_EQ(Back.Width, N);
  EXPECT_EQ(Back.Height, N);
  EXPECT_EQ(Back.Depth, 12u);

  // Layer l holds 100 l + 10 y + x; both arrays are filled by cuMemcpy3D
  // with the faces as layers.
  float Texels[12][N][N];
  for (unsigned L = 0; L < 12; ++L)
    for (unsigned Y = 0; Y < N; ++Y)
      for (unsigned X = 0; X < N; ++X)
        Texels[L][Y][X] = 100.0f * L + 10.0f * Y + X;
  CUDA_MEMCPY3D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Texels;
  C.srcPitch = N * sizeof(float);
  C.srcHeight = N;
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = Cube;
  C.WidthInBytes = N * sizeof(float);
  C.Height = N;
  C.Depth = 6;
  CHECK_CU(cuMemcpy3D(&C));
  C.dstArray = Layered;
  C.Depth = 12;
  CHECK_CU(cuMemcpy3D(&C));

  CUDA_RESOURCE_DESC Res = {};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  Res.res.array.hArray = Cube;
  CUDA_TEXTURE_DESC Tex = {};
  Tex.addressMode[0] = Tex.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  Tex.filterMode = CU_TR_FILTER_MODE_POINT;
  Tex.flags = CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SEAMLESS_CUBEMAP;
  CUtexObject T, TL;
  CHECK_CU(cuTexObjectCreate(&T, &Res, &Tex, nullptr));
  CUDA_TEXTURE_DESC TexBack;
  CHECK_CU(cuTexObjectGetTextureDesc(&TexBack, T));
  EXPECT_EQ(TexBack.flags, unsigned(CU_TRSF_NORMALIZED_COORDINATES |
                                    CU_TRSF_SEAMLESS_CUBEMAP));
  Res.res.array.hArray = Layered;
  Tex.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CHECK_CU(cuTexObjectCreate(&TL, &Res, &Tex, nullptr));
  CUsurfObject S;
  CHECK_CU(cuSurfObjectCreate(&S, &Res));

  // The centre of each face (texel (2, 2)); then face 4 (+Z) at s = 0.5,
  // t = -0.5: texel (3, 1), and face 1 (-X) at s = 0.25, t = -0.25: texel
  // (2, 1). dirs[k].w is the cube of the layered map.
  const float Dirs[8][4] = {{1, 0, 0, 0},       {-1, 0, 0, 1}, {0, 2, 0, 0},
                            {0, -1, 0, 1},      {0, 0, 3, 0},  {0, 0, -1, 1},
                            {0.5f, 0.5f, 1, 1}, {-4, 1, 1, 1}};
  const float Want[8][2] = {{22, 22},   {122, 722},  {222, 222},  {322, 922},
                            {422, 422}, {522, 1122}, {413, 1013}, {112, 712}};
  CUdeviceptr DDirs, Out;
  CHECK_CU(cuMemAlloc(&DDirs, sizeof(Dirs)));
  CHECK_CU(cuMemAlloc(&Out, 8 * 2 * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(DDirs, Dirs, sizeof(Dirs)));
  CUmodule Mod;
  CHECK_CU(cuModuleLoadData(&Mod, CubePtx));
  CUfunction F;
  CHECK_CU(cuModuleGetFunction(&F, Mod, "cube"));
  void *Args[] = {&T, &TL, &S, &DDirs, &Out};
  CHECK_CU(cuLaunchKernel(F, 1, 1, 1, 8, 1, 1, 0, nullptr, Args, nullptr));
  float Got[8][2];
  CHECK_CU(cuMemcpyDtoH(Got, Out, sizeof(Got)));
  for (unsigned K = 0; K < 8; ++K) {
    EXPECT_EQ(Got[K][0], Want[K][0]) << K;
    EXPECT_EQ(Got[K][1], Want[K][1]) << K;
  }
  // The surface store landed in layer 11 at (1, 2), and only there.
  float Layer11[N][N];
  C = {};
  C.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  C.srcArray = Layered;
  C.srcZ = 11;
  C.dstMemoryType = CU_MEMORYTYPE_HOST;
  C.dstHost = Layer11;
  C.dstPitch = N * sizeof(float);
  C.dstHeight = N;
  C.WidthInBytes = N * sizeof(float);
  C.Height = N;
  C.Depth = 1;
  CHECK_CU(cuMemcpy3D(&C));
  for (unsigned Y = 0; Y < N; ++Y)
    for (unsigned X = 0; X < N; ++X)
      EXPECT_EQ(Layer11[Y][X], X == 1 && Y == 2 ? 7.0f : Texels[11][Y][X]);

  CHECK_CU(cuTexObjectDestroy(T));
  CHECK_CU(cuTexObjectDestroy(TL));
  CHECK_CU(cuSurfObjectDestroy(S));
  CHECK_CU(cuMemFree(DDirs));
  CHECK_CU(cuMemFree(Out));
  CHECK_CU(cuModuleUnload(Mod));
  CHECK_CU(cuArrayDestroy(Cube));
  CHECK_CU(cuArrayDestroy(Layered));

  // The documented shapes: square faces, 6 layers, or a multiple of 6.
  CUarray A;
  D.Flags = CUDA_ARRAY3D_CUBEMAP;
  D.Depth = 6;
  D.Height = N + 1;
  EXPECT_EQ(cuArray3DCreate(&A, &D), CUDA_ERROR_INVALID_VALUE);
  D.Height = N;
  D.Depth = 12;
  EXPECT_EQ(cuArray3DCreate(&A, &D), CUDA_ERROR_INVALID_VALUE);
  D.Flags = CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED;
  D.Depth = 8;
  EXPECT_EQ(cuArray3DCreate(&A, &D), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(DriverTexture, DocumentedErrors) {
  CUDA_ARRAY_DESCRIPTOR D = {};
  D.Width = 4;
  D.Height = 4;
  D.Format = CU_AD_FORMAT_FLOAT;
  D.NumChannels = 3;
  CUarray A;
  EXPECT_EQ(cuArrayCreate(&A, &D), CUDA_ERROR_INVALID_VALUE);
  D.NumChannels = 1;
  D.Format = CU_AD_FORMAT_BC1_UNORM;
  EXPECT_EQ(cuArrayCreate(&A, &D), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuArrayCreate(&A, nullptr), CUDA_ERROR_INVALID_VALUE);
  D.Format = CU_AD_FORMAT_FLOAT;
  ASSERT_EQ(cuArrayCreate(&A, &D), CUDA_SUCCESS);
  // A copy past the array's rows.
  float Row[4] = {};
  CUDA_MEMCPY2D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Row;
  C.srcPitch = sizeof(Row);
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = A;
  C.dstY = 4;
  C.WidthInBytes = sizeof(Row);
  C.Height = 1;
  EXPECT_EQ(cuMemcpy2D(&C), CUDA_ERROR_INVALID_VALUE);
  // Surfaces need CUDA_ARRAY3D_SURFACE_LDST.
  CUDA_RESOURCE_DESC Res = {};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  Res.res.array.hArray = A;
  CUsurfObject S;
  EXPECT_EQ(cuSurfObjectCreate(&S, &Res), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuTexObjectCreate(nullptr, &Res, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuArrayDestroy(A), CUDA_SUCCESS);
}

} // namespace
