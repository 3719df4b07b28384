//===- TextureApi.cpp - The CUDA runtime's arrays, textures and surfaces --===//
//
// cudaMallocArray and the array copies, cudaCreateTextureObject and
// cudaCreateSurfaceObject with their queries: each converts CUDA's
// structures into the runtime core's (cuhip/runtime/Texture.h) and calls it
// once. cudaMemcpy3D with an array operand comes here from MemoryApi.cpp.
// Array positions and widths are in bytes for the 2D copies and in elements
// for cudaMemcpy3D, as CUDA defines them.
//
//===----------------------------------------------------------------------===//
#include "ArrayCopy.h"
#include "Export.h"
#include "Unsupported.h"

#include "cuhip/runtime/Texture.h"

using namespace cuhip;
using namespace cuhip::cudart;

namespace {

rt::Array *arrayOf(cudaArray_const_t A) {
  return reinterpret_cast<rt::Array *>(const_cast<cudaArray *>(A));
}

cudaError_t invalid() { return runtime().record(rt::cudaErrorInvalidValue); }

rt::ChannelFormat formatOf(const cudaChannelFormatDesc &D) {
  return {D.x, D.y, D.z, D.w, int(D.f)};
}

cudaChannelFormatDesc descOf(const rt::ChannelFormat &F) {
  return {F.X, F.Y, F.Z, F.W, cudaChannelFormatKind(F.Kind)};
}

rt::CopySide arraySide(cudaArray_const_t A, size_t X, size_t Y,
                       size_t Z = 0) {
  rt::CopySide S;
  S.A = arrayOf(A);
  S.X = X;
  S.Y = Y;
  S.Z = Z;
  return S;
}

rt::CopySide linearSide(const void *Ptr, size_t Pitch, size_t Height) {
  rt::CopySide S;
  S.Linear.Ptr = const_cast<void *>(Ptr);
  S.Linear.Pitch = Pitch;
  S.Linear.Height = Height;
  return S;
}

rt::CopyKind kindOf(cudaMemcpyKind K) { return static_cast<rt::CopyKind>(K); }

bool resourceOf(const cudaResourceDesc &D, rt::ResourceSpec &R) {
  if (D.flags != 0)
    return false;
  R.Kind = static_cast<rt::ResourceKind>(D.resType);
  switch (D.resType) {
  case cudaResourceTypeArray:
    R.A = arrayOf(D.res.array.array);
    return true;
  case cudaResourceTypeMipmappedArray:
    R.Mipmap = D.res.mipmap.mipmap;
    return true;
  case cudaResourceTypeLinear:
    R.Ptr = D.res.linear.devPtr;
    R.Format = formatOf(D.res.linear.desc);
    R.SizeInBytes = D.res.linear.sizeInBytes;
    return true;
  case cudaResourceTypePitch2D:
    R.Ptr = D.res.pitch2D.devPtr;
    R.Format = formatOf(D.res.pitch2D.desc);
    R.Width = D.res.pitch2D.width;
    R.Height = D.res.pitch2D.height;
    R.PitchInBytes = D.res.pitch2D.pitchInBytes;
    return true;
  }
  return false;
}

cudaResourceDesc resourceDescOf(const rt::ResourceSpec &R) {
  cudaResourceDesc D{};
  D.resType = static_cast<cudaResourceType>(R.Kind);
  switch (D.resType) {
  case cudaResourceTypeArray:
    D.res.array.array = reinterpret_cast<cudaArray_t>(R.A);
    break;
  case cudaResourceTypeMipmappedArray:
    D.res.mipmap.mipmap = static_cast<cudaMipmappedArray_t>(R.Mipmap);
    break;
  case cudaResourceTypeLinear:
    D.res.linear.devPtr = R.Ptr;
    D.res.linear.desc = descOf(R.Format);
    D.res.linear.sizeInBytes = R.SizeInBytes;
    break;
  case cudaResourceTypePitch2D:
    D.res.pitch2D.devPtr = R.Ptr;
    D.res.pitch2D.desc = descOf(R.Format);
    D.res.pitch2D.width = R.Width;
    D.res.pitch2D.height = R.Height;
    D.res.pitch2D.pitchInBytes = R.PitchInBytes;
    break;
  }
  return D;
}

} // namespace

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaMallocArray(cudaArray_t *Array,
                                         const cudaChannelFormatDesc *Desc,
                                         size_t Width, size_t Height,
                                         unsigned int Flags) {
  if (!Array || !Desc)
    return invalid();
  return rt::arrayCreate(reinterpret_cast<rt::Array **>(Array),
                         formatOf(*Desc), Width, Height, 0, Flags);
}

CUHIP_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *Array,
                                           const cudaChannelFormatDesc *Desc,
                                           cudaExtent Extent,
                                           unsigned int Flags) {
  if (!Array || !Desc)
    return invalid();
  return rt::arrayCreate(reinterpret_cast<rt::Array **>(Array),
                         formatOf(*Desc), Extent.width, Extent.height,
                         Extent.depth, Flags);
}

CUHIP_EXPORT cudaError_t cudaFreeArray(cudaArray_t Array) {
  return rt::arrayDestroy(arrayOf(Array));
}

CUHIP_EXPORT cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *Desc,
                                          cudaExtent *Extent,
                                          unsigned int *Flags,
                                          cudaArray_t Array) {
  rt::ArrayInfo Info;
  if (cudaError_t E = rt::arrayGetInfo(arrayOf(Array), &Info))
    return E;
  if (Desc)
    *Desc = descOf(Info.Format);
  if (Extent)
    *Extent = {Info.Width, Info.Height, Info.Depth};
  if (Flags)
    *Flags = Info.Flags;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *Desc,
                                            cudaArray_const_t Array) {
  if (!Desc)
    return invalid();
  return cudaArrayGetInfo(Desc, nullptr, nullptr,
                          const_cast<cudaArray_t>(Array));
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

#define CUHIP_SYNC_API(Name, Params, Args)                                     \
  CUHIP_EXPORT cudaError_t Name Params { return Name##_impl Args; }            \
  CUHIP_EXPORT cudaError_t Name##_ptds Params { return Name##_impl Args; }

static cudaError_t cudaMemcpy2DToArray_impl(cudaArray_t Dst, size_t WOffset,
                                            size_t HOffset, const void *Src,
                                            size_t SPitch, size_t Width,
                                            size_t Height, cudaMemcpyKind Kind,
                                            cudaStream_t Stream = nullptr,
                                            bool Async = false) {
  return rt::memcpyArray(arraySide(Dst, WOffset, HOffset),
                         linearSide(Src, SPitch, Height), Width, Height, 1,
                         kindOf(Kind), Stream, Async);
}
CUHIP_SYNC_API(cudaMemcpy2DToArray,
               (cudaArray_t Dst, size_t WOffset, size_t HOffset,
                const void *Src, size_t SPitch, size_t Width, size_t Height,
                cudaMemcpyKind Kind),
               (Dst, WOffset, HOffset, Src, SPitch, Width, Height, Kind))

static cudaError_t
cudaMemcpy2DToArrayAsync_impl(cudaArray_t Dst, size_t WOffset, size_t HOffset,
                              const void *Src, size_t SPitch, size_t Width,
                              size_t Height, cudaMemcpyKind Kind,
                              cudaStream_t Stream) {
  return cudaMemcpy2DToArray_impl(Dst, WOffset, HOffset, Src, SPitch, Width,
                                  Height, Kind, Stream, true);
}
CUHIP_STREAM_API(cudaMemcpy2DToArrayAsync,
                 (cudaArray_t Dst, size_t WOffset, size_t HOffset,
                  const void *Src, size_t SPitch, size_t Width, size_t Height,
                  cudaMemcpyKind Kind, cudaStream_t Stream),
                 (Dst, WOffset, HOffset, Src, SPitch, Width, Height, Kind,
                  Stream),
                 Stream)

static cudaError_t
cudaMemcpy2DFromArray_impl(void *Dst, size_t DPitch, cudaArray_const_t Src,
                           size_t WOffset, size_t HOffset, size_t Width,
                           size_t Height, cudaMemcpyKind Kind,
                           cudaStream_t Stream = nullptr, bool Async = false) {
  return rt::memcpyArray(linearSide(Dst, DPitch, Height),
                         arraySide(Src, WOffset, HOffset), Width, Height, 1,
                         kindOf(Kind), Stream, Async);
}
CUHIP_SYNC_API(cudaMemcpy2DFromArray,
               (void *Dst, size_t DPitch, cudaArray_const_t Src,
                size_t WOffset, size_t HOffset, size_t Width, size_t Height,
                cudaMemcpyKind Kind),
               (Dst, DPitch, Src, WOffset, HOffset, Width, Height, Kind))

static cudaError_t
cudaMemcpy2DFromArrayAsync_impl(void *Dst, size_t DPitch,
                                cudaArray_const_t Src, size_t WOffset,
                                size_t HOffset, size_t Width, size_t Height,
                                cudaMemcpyKind Kind, cudaStream_t Stream) {
  return cudaMemcpy2DFromArray_impl(Dst, DPitch, Src, WOffset, HOffset, Width,
                                    Height, Kind, Stream, true);
}
CUHIP_STREAM_API(cudaMemcpy2DFromArrayAsync,
                 (void *Dst, size_t DPitch, cudaArray_const_t Src,
                  size_t WOffset, size_t HOffset, size_t Width, size_t Height,
                  cudaMemcpyKind Kind, cudaStream_t Stream),
                 (Dst, DPitch, Src, WOffset, HOffset, Width, Height, Kind,
                  Stream),
                 Stream)

static cudaError_t cudaMemcpy2DArrayToArray_impl(
    cudaArray_t Dst, size_t WOffsetDst, size_t HOffsetDst,
    cudaArray_const_t Src, size_t WOffsetSrc, size_t HOffsetSrc, size_t Width,
    size_t Height, cudaMemcpyKind Kind) {
  return rt::memcpyArray(arraySide(Dst, WOffsetDst, HOffsetDst),
                         arraySide(Src, WOffsetSrc, HOffsetSrc), Width, Height,
                         1, kindOf(Kind), nullptr, false);
}
CUHIP_SYNC_API(cudaMemcpy2DArrayToArray,
               (cudaArray_t Dst, size_t WOffsetDst, size_t HOffsetDst,
                cudaArray_const_t Src, size_t WOffsetSrc, size_t HOffsetSrc,
                size_t Width, size_t Height, cudaMemcpyKind Kind),
               (Dst, WOffsetDst, HOffsetDst, Src, WOffsetSrc, HOffsetSrc, Width,
                Height, Kind))

/// The byte offset of (WOffset, HOffset) in an array, for the deprecated
/// linear copies; SIZE_MAX for an unknown array.
static size_t linearOffset(cudaArray_const_t A, size_t WOffset,
                           size_t HOffset) {
  rt::ArrayInfo Info;
  size_t Elem = rt::arrayElementBytes(arrayOf(A));
  if (!Elem || rt::arrayGetInfo(arrayOf(A), &Info))
    return SIZE_MAX;
  return HOffset * Info.Width * Elem + WOffset;
}

static cudaError_t cudaMemcpyToArray_impl(cudaArray_t Dst, size_t WOffset,
                                          size_t HOffset, const void *Src,
                                          size_t Count, cudaMemcpyKind Kind,
                                          cudaStream_t Stream = nullptr,
                                          bool Async = false) {
  return rt::memcpyArrayBytes(arrayOf(Dst), linearOffset(Dst, WOffset, HOffset),
                              const_cast<void *>(Src), Count, true,
                              kindOf(Kind), Stream, Async);
}
CUHIP_SYNC_API(cudaMemcpyToArray,
               (cudaArray_t Dst, size_t WOffset, size_t HOffset,
                const void *Src, size_t Count, cudaMemcpyKind Kind),
               (Dst, WOffset, HOffset, Src, Count, Kind))

static cudaError_t cudaMemcpyToArrayAsync_impl(cudaArray_t Dst, size_t WOffset,
                                               size_t HOffset, const void *Src,
                                               size_t Count,
                                               cudaMemcpyKind Kind,
                                               cudaStream_t Stream) {
  return cudaMemcpyToArray_impl(Dst, WOffset, HOffset, Src, Count, Kind,
                                Stream, true);
}
CUHIP_STREAM_API(cudaMemcpyToArrayAsync,
                 (cudaArray_t Dst, size_t WOffset, size_t HOffset,
                  const void *Src, size_t Count, cudaMemcpyKind Kind,
                  cudaStream_t Stream),
                 (Dst, WOffset, HOffset, Src, Count, Kind, Stream), Stream)

static cudaError_t cudaMemcpyFromArray_impl(void *Dst, cudaArray_const_t Src,
                                            size_t WOffset, size_t HOffset,
                                            size_t Count, cudaMemcpyKind Kind,
                                            cudaStream_t Stream = nullptr,
                                            bool Async = false) {
  return rt::memcpyArrayBytes(arrayOf(Src), linearOffset(Src, WOffset, HOffset),
                              Dst, Count, false, kindOf(Kind), Stream, Async);
}
CUHIP_SYNC_API(cudaMemcpyFromArray,
               (void *Dst, cudaArray_const_t Src, size_t WOffset,
                size_t HOffset, size_t Count, cudaMemcpyKind Kind),
               (Dst, Src, WOffset, HOffset, Count, Kind))

static cudaError_t cudaMemcpyFromArrayAsync_impl(void *Dst,
                                                 cudaArray_const_t Src,
                                                 size_t WOffset, size_t HOffset,
                                                 size_t Count,
                                                 cudaMemcpyKind Kind,
                                                 cudaStream_t Stream) {
  return cudaMemcpyFromArray_impl(Dst, Src, WOffset, HOffset, Count, Kind,
                                  Stream, true);
}
CUHIP_STREAM_API(cudaMemcpyFromArrayAsync,
                 (void *Dst, cudaArray_const_t Src, size_t WOffset,
                  size_t HOffset, size_t Count, cudaMemcpyKind Kind,
                  cudaStream_t Stream),
                 (Dst, Src, WOffset, HOffset, Count, Kind, Stream), Stream)

cudaError_t cuhip::cudart::memcpy3DWithArrays(const cudaMemcpy3DParms *P,
                                              cudaStream_t Stream,
                                              bool Async) {
  // With an array in the copy, the extent and the array's position are in
  // its elements; a pointer's position stays in bytes.
  size_t SrcElem = P->srcArray ? rt::arrayElementBytes(arrayOf(P->srcArray))
                               : 0;
  size_t DstElem = P->dstArray ? rt::arrayElementBytes(arrayOf(P->dstArray))
                               : 0;
  if ((P->srcArray && !SrcElem) || (P->dstArray && !DstElem) ||
      (SrcElem && DstElem && SrcElem != DstElem))
    return invalid();
  size_t Elem = SrcElem ? SrcElem : DstElem;
  auto sideOf = [&](cudaArray_t A, const cudaPos &Pos,
                    const cudaPitchedPtr &Ptr) {
    if (A)
      return arraySide(A, Pos.x * Elem, Pos.y, Pos.z);
    rt::CopySide S = linearSide(nullptr, Ptr.pitch, Ptr.ysize);
    if (Ptr.ptr)
      S.Linear.Ptr = static_cast<char *>(Ptr.ptr) +
                     Pos.z * Ptr.pitch * Ptr.ysize + Pos.y * Ptr.pitch + Pos.x;
    return S;
  };
  return rt::memcpyArray(sideOf(P->dstArray, P->dstPos, P->dstPtr),
                         sideOf(P->srcArray, P->srcPos, P->srcPtr),
                         P->extent.width * Elem, P->extent.height,
                         P->extent.depth, kindOf(P->kind), Stream, Async);
}

//===----------------------------------------------------------------------===//
// Texture and surface objects
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t
cudaCreateTextureObject(cudaTextureObject_t *TexObject,
                        const cudaResourceDesc *ResDesc,
                        const cudaTextureDesc *TexDesc,
                        const cudaResourceViewDesc *ResViewDesc) {
  rt::ResourceSpec R;
  if (!TexObject || !ResDesc || !TexDesc || !resourceOf(*ResDesc, R))
    return invalid();
  if (!rt::isEmptyResourceView(ResViewDesc))
    CUHIP_RETURN_NOT_SUPPORTED("cudaCreateTextureObject with a resource view",
                               "resource views are not implemented");
  rt::TextureSpec T;
  for (int K = 0; K < 3; ++K)
    T.AddressMode[K] = TexDesc->addressMode[K];
  T.FilterMode = TexDesc->filterMode;
  T.ReadMode = TexDesc->readMode;
  T.SRGB = TexDesc->sRGB;
  for (int K = 0; K < 4; ++K)
    T.BorderColor[K] = TexDesc->borderColor[K];
  T.NormalizedCoords = TexDesc->normalizedCoords;
  T.MaxAnisotropy = TexDesc->maxAnisotropy;
  T.MipmapFilterMode = TexDesc->mipmapFilterMode;
  T.MipmapLevelBias = TexDesc->mipmapLevelBias;
  T.MinMipmapLevelClamp = TexDesc->minMipmapLevelClamp;
  T.MaxMipmapLevelClamp = TexDesc->maxMipmapLevelClamp;
  T.DisableTrilinearOptimization = TexDesc->disableTrilinearOptimization;
  T.SeamlessCubemap = TexDesc->seamlessCubemap;
  uint64_t H = 0;
  if (cudaError_t E = rt::textureCreate(&H, R, T))
    return E;
  *TexObject = H;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t Tex) {
  return rt::textureDestroy(Tex);
}

namespace {
/// cudaGet{Texture,Surface}ObjectResourceDesc: the view an object was
/// created from, read by Get.
cudaError_t objectResourceDesc(cudaResourceDesc *ResDesc, uint64_t Handle,
                               rt::Status (*Get)(uint64_t,
                                                 rt::ResourceSpec *)) {
  rt::ResourceSpec R;
  if (!ResDesc)
    return invalid();
  if (cudaError_t E = Get(Handle, &R))
    return E;
  *ResDesc = resourceDescOf(R);
  return rt::cudaSuccess;
}
} // namespace

CUHIP_EXPORT cudaError_t
cudaGetTextureObjectResourceDesc(cudaResourceDesc *ResDesc,
                                 cudaTextureObject_t Tex) {
  return objectResourceDesc(ResDesc, Tex, rt::textureGetResource);
}

CUHIP_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(
    cudaTextureDesc *TexDesc, cudaTextureObject_t Tex) {
  rt::TextureSpec T;
  if (!TexDesc)
    return invalid();
  if (cudaError_t E = rt::textureGetSpec(Tex, &T))
    return E;
  cudaTextureDesc D{};
  for (int K = 0; K < 3; ++K)
    D.addressMode[K] = cudaTextureAddressMode(T.AddressMode[K]);
  D.filterMode = cudaTextureFilterMode(T.FilterMode);
  D.readMode = cudaTextureReadMode(T.ReadMode);
  D.sRGB = T.SRGB;
  for (int K = 0; K < 4; ++K)
    D.borderColor[K] = T.BorderColor[K];
  D.normalizedCoords = T.NormalizedCoords;
  D.maxAnisotropy = T.MaxAnisotropy;
  D.mipmapFilterMode = cudaTextureFilterMode(T.MipmapFilterMode);
  D.mipmapLevelBias = T.MipmapLevelBias;
  D.minMipmapLevelClamp = T.MinMipmapLevelClamp;
  D.maxMipmapLevelClamp = T.MaxMipmapLevelClamp;
  D.disableTrilinearOptimization = T.DisableTrilinearOptimization;
  D.seamlessCubemap = T.SeamlessCubemap;
  *TexDesc = D;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaCreateSurfaceObject(cudaSurfaceObject_t *SurfObject,
                        const cudaResourceDesc *ResDesc) {
  rt::ResourceSpec R;
  if (!SurfObject || !ResDesc || !resourceOf(*ResDesc, R))
    return invalid();
  uint64_t H = 0;
  if (cudaError_t E = rt::surfaceCreate(&H, R))
    return E;
  *SurfObject = H;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t Surf) {
  return rt::surfaceDestroy(Surf);
}

CUHIP_EXPORT cudaError_t
cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *ResDesc,
                                 cudaSurfaceObject_t Surf) {
  return objectResourceDesc(ResDesc, Surf, rt::surfaceGetResource);
}
