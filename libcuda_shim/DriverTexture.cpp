//===- DriverTexture.cpp - The driver API's arrays, textures and surfaces -===//
//
// cuArrayCreate, cuArray3DCreate and their descriptors, cuTexObjectCreate
// and cuSurfObjectCreate with their queries, and the array operands of
// cuMemcpy2D/3D: the same runtime core calls libcudart makes
// (cuhip/runtime/Texture.h), so a CUarray is a cudaArray_t and an object
// made by one API works with the other. The driver describes formats as a
// CUarray_format and a channel count, and read modes as CU_TRSF_* flags:
// without CU_TRSF_READ_AS_INTEGER, integer texels are read as normalized
// floats.
//
//===----------------------------------------------------------------------===//
#include "DriverTexture.h"

#include "cuhip/runtime/Texture.h"

#include <cstring>

using namespace cuhip;
using namespace cuhip::cuda;

namespace {

// CU_TRSF_* flags and CUDA_ARRAY3D_* flags (the latter equal cudaArray*).
constexpr unsigned TrsfReadAsInteger = 0x01, TrsfNormalizedCoordinates = 0x02,
                   TrsfSrgb = 0x10, TrsfSeamlessCubemap = 0x40;

/// cudaChannelFormatKind values.
enum : int { KindSigned = 0, KindUnsigned = 1, KindFloat = 2, KindNone = 3 };

bool formatOf(CUarray_format F, unsigned Channels, rt::ChannelFormat &Out) {
  int Bits, Kind;
  switch (F) {
  case CU_AD_FORMAT_UNSIGNED_INT8: Bits = 8; Kind = KindUnsigned; break;
  case CU_AD_FORMAT_UNSIGNED_INT16: Bits = 16; Kind = KindUnsigned; break;
  case CU_AD_FORMAT_UNSIGNED_INT32: Bits = 32; Kind = KindUnsigned; break;
  case CU_AD_FORMAT_SIGNED_INT8: Bits = 8; Kind = KindSigned; break;
  case CU_AD_FORMAT_SIGNED_INT16: Bits = 16; Kind = KindSigned; break;
  case CU_AD_FORMAT_SIGNED_INT32: Bits = 32; Kind = KindSigned; break;
  case CU_AD_FORMAT_HALF: Bits = 16; Kind = KindFloat; break;
  case CU_AD_FORMAT_FLOAT: Bits = 32; Kind = KindFloat; break;
  default:
    return false;
  }
  if (Channels != 1 && Channels != 2 && Channels != 4)
    return false;
  Out = {};
  int *C[4] = {&Out.X, &Out.Y, &Out.Z, &Out.W};
  for (unsigned K = 0; K < Channels; ++K)
    *C[K] = Bits;
  Out.Kind = Kind;
  return true;
}

void driverFormatOf(const rt::ChannelFormat &F, CUarray_format &Format,
                    unsigned &Channels) {
  Channels = F.W ? 4 : F.Z ? 3 : F.Y ? 2 : 1;
  switch (F.Kind) {
  case KindFloat:
    Format = F.X == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
    break;
  case KindSigned:
    Format = F.X == 8    ? CU_AD_FORMAT_SIGNED_INT8
             : F.X == 16 ? CU_AD_FORMAT_SIGNED_INT16
                         : CU_AD_FORMAT_SIGNED_INT32;
    break;
  default:
    Format = F.X == 8    ? CU_AD_FORMAT_UNSIGNED_INT8
             : F.X == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
                         : CU_AD_FORMAT_UNSIGNED_INT32;
  }
}

rt::Array *arrayOf(CUarray A) { return reinterpret_cast<rt::Array *>(A); }

CUresult createArray(CUarray *Out, CUarray_format Format, unsigned Channels,
                     size_t Width, size_t Height, size_t Depth,
                     unsigned Flags) {
  if (CUresult R = checkContext())
    return R;
  rt::ChannelFormat F;
  if (!Out || !formatOf(Format, Channels, F))
    return CUDA_ERROR_INVALID_VALUE;
  return toCU(rt::arrayCreate(reinterpret_cast<rt::Array **>(Out), F, Width,
                              Height, Depth, Flags));
}

CUresult getArrayInfo(CUarray A, rt::ArrayInfo &Info, CUarray_format &Format,
                      unsigned &Channels) {
  if (CUresult R = checkContext())
    return R;
  if (rt::arrayGetInfo(arrayOf(A), &Info))
    return CUDA_ERROR_INVALID_HANDLE;
  driverFormatOf(Info.Format, Format, Channels);
  return CUDA_SUCCESS;
}

bool resourceOf(const CUDA_RESOURCE_DESC &D, rt::ResourceSpec &R) {
  if (D.flags)
    return false;
  R.Kind = static_cast<rt::ResourceKind>(D.resType);
  switch (D.resType) {
  case CU_RESOURCE_TYPE_ARRAY:
    R.A = arrayOf(D.res.array.hArray);
    return true;
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    R.Mipmap = D.res.mipmap.hMipmappedArray;
    return true;
  case CU_RESOURCE_TYPE_LINEAR:
    R.Ptr = ptr(D.res.linear.devPtr);
    R.SizeInBytes = D.res.linear.sizeInBytes;
    return formatOf(D.res.linear.format, D.res.linear.numChannels, R.Format);
  case CU_RESOURCE_TYPE_PITCH2D:
    R.Ptr = ptr(D.res.pitch2D.devPtr);
    R.Width = D.res.pitch2D.width;
    R.Height = D.res.pitch2D.height;
    R.PitchInBytes = D.res.pitch2D.pitchInBytes;
    return formatOf(D.res.pitch2D.format, D.res.pitch2D.numChannels, R.Format);
  }
  return false;
}

CUDA_RESOURCE_DESC resourceDescOf(const rt::ResourceSpec &R) {
  CUDA_RESOURCE_DESC D;
  std::memset(&D, 0, sizeof(D));
  D.resType = static_cast<CUresourcetype>(R.Kind);
  CUarray_format Format;
  unsigned Channels;
  switch (D.resType) {
  case CU_RESOURCE_TYPE_ARRAY:
    D.res.array.hArray = reinterpret_cast<CUarray>(R.A);
    break;
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    D.res.mipmap.hMipmappedArray = static_cast<CUmipmappedArray>(R.Mipmap);
    break;
  case CU_RESOURCE_TYPE_LINEAR:
    driverFormatOf(R.Format, Format, Channels);
    D.res.linear = {devptr(R.Ptr), Format, Channels, R.SizeInBytes};
    break;
  case CU_RESOURCE_TYPE_PITCH2D:
    driverFormatOf(R.Format, Format, Channels);
    D.res.pitch2D = {devptr(R.Ptr), Format, Channels, R.Width, R.Height,
                     R.PitchInBytes};
    break;
  }
  return D;
}

/// One side of a copy with arrays; Device says whether it is device memory.
bool copySide(CUmemorytype Type, const void *Host, CUdeviceptr Dev,
              CUarray Array, size_t X, size_t Y, size_t Z, size_t Pitch,
              size_t Height, rt::CopySide &Out, bool &Device) {
  Out = {};
  uint8_t *Base;
  switch (Type) {
  case CU_MEMORYTYPE_ARRAY:
    Out.A = arrayOf(Array);
    Out.X = X;
    Out.Y = Y;
    Out.Z = Z;
    Device = true;
    return Array != nullptr;
  case CU_MEMORYTYPE_HOST:
    Base = static_cast<uint8_t *>(const_cast<void *>(Host));
    Device = false;
    break;
  case CU_MEMORYTYPE_DEVICE:
  case CU_MEMORYTYPE_UNIFIED:
    Base = static_cast<uint8_t *>(ptr(Dev));
    Device = Type == CU_MEMORYTYPE_DEVICE ||
             runtime().isDeviceRange(ptr(Dev), 1);
    break;
  default:
    return false;
  }
  if (!Base)
    return false;
  Out.Linear = {Base + Z * Pitch * Height + Y * Pitch + X, Pitch, Height};
  return true;
}

} // namespace

CUresult cuhip::cuda::copyWithArrays(const CUDA_MEMCPY3D &C, void *Stream,
                                     bool Async) {
  if (CUresult R = checkContext())
    return R;
  rt::CopySide Src, Dst;
  bool SrcDev, DstDev;
  if (!copySide(C.srcMemoryType, C.srcHost, C.srcDevice, C.srcArray,
                C.srcXInBytes, C.srcY, C.srcZ, C.srcPitch, C.srcHeight, Src,
                SrcDev) ||
      !copySide(C.dstMemoryType, C.dstHost, C.dstDevice, C.dstArray,
                C.dstXInBytes, C.dstY, C.dstZ, C.dstPitch, C.dstHeight, Dst,
                DstDev))
    return CUDA_ERROR_INVALID_VALUE;
  // A single row's pitch is never read; the core wants it at least a row.
  for (rt::CopySide *S : {&Src, &Dst})
    if (!S->A && C.Height == 1 && C.Depth == 1)
      S->Linear.Pitch = std::max(S->Linear.Pitch, C.WidthInBytes);
  rt::CopyKind Kind = SrcDev ? (DstDev ? rt::CopyKind::DeviceToDevice
                                       : rt::CopyKind::DeviceToHost)
                             : (DstDev ? rt::CopyKind::HostToDevice
                                       : rt::CopyKind::HostToHost);
  return toCU(rt::memcpyArray(Dst, Src, C.WidthInBytes, C.Height, C.Depth,
                              Kind, Async ? Stream : nullptr, Async));
}

//===----------------------------------------------------------------------===//
// Limits
//===----------------------------------------------------------------------===//

// The widest texture over linear memory, in elements of any format: the
// device's CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH (69), which
// is 0 where the backend has no texture objects.
CUHIP_EXPORT CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *MaxWidth,
                                                         CUarray_format Format,
                                                         unsigned NumChannels,
                                                         CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  rt::ChannelFormat F;
  if (!MaxWidth || !formatOf(Format, NumChannels, F))
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  int Width = 0;
  if (CUresult R = toCU(runtime().deviceAttribute(69, Dev, &Width)))
    return R;
  if (Width <= 0)
    return notSupported("textures on a backend without texture objects");
  *MaxWidth = size_t(Width);
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuArrayCreate_v2(CUarray *Array,
                                       const CUDA_ARRAY_DESCRIPTOR *D) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  return createArray(Array, D->Format, D->NumChannels, D->Width, D->Height, 0,
                     0);
}

CUHIP_EXPORT CUresult cuArray3DCreate_v2(CUarray *Array,
                                         const CUDA_ARRAY3D_DESCRIPTOR *D) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  return createArray(Array, D->Format, D->NumChannels, D->Width, D->Height,
                     D->Depth, D->Flags);
}

CUHIP_EXPORT CUresult cuArrayDestroy(CUarray Array) {
  if (CUresult R = checkContext())
    return R;
  if (!Array || rt::arrayDestroy(arrayOf(Array)))
    return CUDA_ERROR_INVALID_HANDLE;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *D,
                                              CUarray Array) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  rt::ArrayInfo Info;
  CUarray_format Format;
  unsigned Channels;
  if (CUresult R = getArrayInfo(Array, Info, Format, Channels))
    return R;
  *D = {Info.Width, Info.Height, Format, Channels};
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *D,
                                                CUarray Array) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  rt::ArrayInfo Info;
  CUarray_format Format;
  unsigned Channels;
  if (CUresult R = getArrayInfo(Array, Info, Format, Channels))
    return R;
  *D = {Info.Width, Info.Height, Info.Depth, Format, Channels, Info.Flags};
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Texture and surface objects
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuTexObjectCreate(CUtexObject *Tex,
                                        const CUDA_RESOURCE_DESC *ResDesc,
                                        const CUDA_TEXTURE_DESC *TexDesc,
                                        const CUDA_RESOURCE_VIEW_DESC *View) {
  if (CUresult R = checkContext())
    return R;
  rt::ResourceSpec Res;
  if (!Tex || !ResDesc || !TexDesc || !resourceOf(*ResDesc, Res))
    return CUDA_ERROR_INVALID_VALUE;
  if (!rt::isEmptyResourceView(View))
    return notSupported("cuTexObjectCreate with a resource view");
  rt::TextureSpec T;
  for (int K = 0; K < 3; ++K)
    T.AddressMode[K] = TexDesc->addressMode[K];
  T.FilterMode = TexDesc->filterMode;
  T.ReadMode = TexDesc->flags & TrsfReadAsInteger ? 0 : 1;
  T.NormalizedCoords = (TexDesc->flags & TrsfNormalizedCoordinates) != 0;
  T.SRGB = (TexDesc->flags & TrsfSrgb) != 0;
  T.SeamlessCubemap = (TexDesc->flags & TrsfSeamlessCubemap) != 0;
  for (int K = 0; K < 4; ++K)
    T.BorderColor[K] = TexDesc->borderColor[K];
  T.MaxAnisotropy = TexDesc->maxAnisotropy;
  T.MipmapFilterMode = TexDesc->mipmapFilterMode;
  T.MipmapLevelBias = TexDesc->mipmapLevelBias;
  T.MinMipmapLevelClamp = TexDesc->minMipmapLevelClamp;
  T.MaxMipmapLevelClamp = TexDesc->maxMipmapLevelClamp;
  uint64_t H = 0;
  if (rt::Status S = rt::textureCreate(&H, Res, T))
    return toCU(S);
  *Tex = H;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuTexObjectDestroy(CUtexObject Tex) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::textureDestroy(Tex));
}

namespace {
/// cuTexObjectGetResourceDesc and cuSurfObjectGetResourceDesc: the view an
/// object was created from, read by Get.
CUresult objectResourceDesc(CUDA_RESOURCE_DESC *ResDesc, uint64_t Handle,
                            rt::Status (*Get)(uint64_t, rt::ResourceSpec *)) {
  if (CUresult R = checkContext())
    return R;
  rt::ResourceSpec Res;
  if (!ResDesc)
    return CUDA_ERROR_INVALID_VALUE;
  if (rt::Status S = Get(Handle, &Res))
    return toCU(S);
  *ResDesc = resourceDescOf(Res);
  return CUDA_SUCCESS;
}
} // namespace

CUHIP_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *ResDesc,
                                                 CUtexObject Tex) {
  return objectResourceDesc(ResDesc, Tex, rt::textureGetResource);
}

CUHIP_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *TexDesc,
                                                CUtexObject Tex) {
  if (CUresult R = checkContext())
    return R;
  rt::TextureSpec T;
  if (!TexDesc)
    return CUDA_ERROR_INVALID_VALUE;
  if (rt::Status S = rt::textureGetSpec(Tex, &T))
    return toCU(S);
  CUDA_TEXTURE_DESC D;
  std::memset(&D, 0, sizeof(D));
  for (int K = 0; K < 3; ++K)
    D.addressMode[K] = T.AddressMode[K];
  D.filterMode = T.FilterMode;
  D.flags = (T.ReadMode ? 0 : TrsfReadAsInteger) |
            (T.NormalizedCoords ? TrsfNormalizedCoordinates : 0) |
            (T.SRGB ? TrsfSrgb : 0) |
            (T.SeamlessCubemap ? TrsfSeamlessCubemap : 0);
  D.maxAnisotropy = T.MaxAnisotropy;
  D.mipmapFilterMode = T.MipmapFilterMode;
  D.mipmapLevelBias = T.MipmapLevelBias;
  D.minMipmapLevelClamp = T.MinMipmapLevelClamp;
  D.maxMipmapLevelClamp = T.MaxMipmapLevelClamp;
  for (int K = 0; K < 4; ++K)
    D.borderColor[K] = T.BorderColor[K];
  *TexDesc = D;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuSurfObjectCreate(CUsurfObject *Surf,
                                         const CUDA_RESOURCE_DESC *ResDesc) {
  if (CUresult R = checkContext())
    return R;
  rt::ResourceSpec Res;
  if (!Surf || !ResDesc || !resourceOf(*ResDesc, Res))
    return CUDA_ERROR_INVALID_VALUE;
  uint64_t H = 0;
  if (rt::Status S = rt::surfaceCreate(&H, Res))
    return toCU(S);
  *Surf = H;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject Surf) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::surfaceDestroy(Surf));
}

CUHIP_EXPORT CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *ResDesc,
                                                  CUsurfObject Surf) {
  return objectResourceDesc(ResDesc, Surf, rt::surfaceGetResource);
}
