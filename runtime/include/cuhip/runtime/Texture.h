//===- Texture.h - CUDA arrays, texture objects and surface objects -------===//
//
// The runtime core's half of textures: arrays (cudaArray_t, CUarray) are
// device allocations with a channel format and a shape; texture and surface
// objects are handles to ptx::TextureDescriptor records that the CPU
// backend's sampler reads when a kernel executes tex, tld4, txq, suld or
// sust. The libcudart and libcuda layers translate CUDA's structures into
// the plain ones declared here. Errors are recorded as this thread's last
// error, as Runtime's functions do. Texture and surface objects exist on
// the CPU backend only; the HIP backend refuses them (cudaErrorNotSupported).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/Runtime.h"

#include <cstddef>
#include <cstdint>

namespace cuhip::rt {

struct Array; // a cudaArray_t

/// Is every byte of *V zero? A resource view that asks for nothing (the
/// runtime's cudaResourceViewDesc or the driver's CUDA_RESOURCE_VIEW_DESC,
/// all zero) is the same as none; null is none too.
template <typename T> bool isEmptyResourceView(const T *V) {
  if (!V)
    return true;
  const unsigned char *B = reinterpret_cast<const unsigned char *>(V);
  for (size_t I = 0; I < sizeof(T); ++I)
    if (B[I])
      return false;
  return true;
}

/// cudaChannelFormatDesc: bits per channel and cudaChannelFormatKind.
struct ChannelFormat {
  int X = 0, Y = 0, Z = 0, W = 0;
  int Kind = 3; // cudaChannelFormatKindNone
};

/// cudaArray* flags.
enum : unsigned {
  ArrayLayered = 0x1,
  ArraySurfaceLoadStore = 0x2,
  ArrayCubemap = 0x4,
  ArrayTextureGather = 0x8,
};

/// What cudaArrayGetInfo reports: the extent as created (0 for absent
/// dimensions; the layer count in Depth for layered arrays).
struct ArrayInfo {
  ChannelFormat Format;
  size_t Width = 0, Height = 0, Depth = 0;
  unsigned Flags = 0;
};

/// One side of a copy: an array at (X bytes, Y rows, Z slices), or, when A
/// is null, pitched memory as Runtime::memcpy3D takes it.
struct CopySide {
  Array *A = nullptr;
  size_t X = 0, Y = 0, Z = 0;
  PitchedSide Linear;
};

/// cudaResourceDesc, flattened (cudaResourceType's values).
enum class ResourceKind : int { Array = 0, Mipmapped = 1, Linear = 2, Pitch2D = 3 };
struct ResourceSpec {
  ResourceKind Kind = ResourceKind::Array;
  Array *A = nullptr;        // Array
  void *Mipmap = nullptr;    // Mipmapped
  void *Ptr = nullptr;       // Linear, Pitch2D
  ChannelFormat Format;      // Linear, Pitch2D
  size_t SizeInBytes = 0;    // Linear
  size_t Width = 0, Height = 0, PitchInBytes = 0; // Pitch2D
};

/// cudaTextureDesc, field for field.
struct TextureSpec {
  int AddressMode[3] = {0, 0, 0};
  int FilterMode = 0; // cudaFilterModePoint
  int ReadMode = 0;   // cudaReadModeElementType
  int SRGB = 0;
  float BorderColor[4] = {0, 0, 0, 0};
  int NormalizedCoords = 0;
  unsigned MaxAnisotropy = 0;
  int MipmapFilterMode = 0;
  float MipmapLevelBias = 0, MinMipmapLevelClamp = 0, MaxMipmapLevelClamp = 0;
  int DisableTrilinearOptimization = 0;
  int SeamlessCubemap = 0;
};

/// cudaMallocArray / cudaMalloc3DArray. Width, Height and Depth as
/// cudaMalloc3DArray's extent (elements); the format has 1, 2 or 4
/// channels of 8, 16 or 32 bits (16 or 32 for floats).
/// Cube maps (ArrayCubemap) have Width == Height and a Depth of 6 faces, or
/// with ArrayLayered a multiple of 6. cudaErrorInvalidValue for a bad
/// format, shape or flag combination; cudaErrorNotSupported for sparse
/// arrays and the block-compressed and normalized formats of CUDA 11.5+.
Status arrayCreate(Array **Out, const ChannelFormat &Format, size_t Width,
                   size_t Height, size_t Depth, unsigned Flags);
/// cudaFreeArray: null is a no-op, an unknown array cudaErrorInvalidValue.
Status arrayDestroy(Array *A);
Status arrayGetInfo(Array *A, ArrayInfo *Info);
/// Bytes per element of A; 0 if A is not a live array.
size_t arrayElementBytes(Array *A);
/// A copy of Depth slices of Height rows of WidthBytes where either side
/// may be an array (cudaMemcpy2DToArray and friends, cudaMemcpy3D).
/// cudaErrorInvalidValue when the region leaves an array.
Status memcpyArray(CopySide Dst, CopySide Src, size_t WidthBytes,
                   size_t Height, size_t Depth, CopyKind Kind, void *Stream,
                   bool Async);

/// Where a copy of Depth slices of Height rows of WidthBytes at S lies: S's
/// pitched memory, or the part of S's array (cudaErrorInvalidValue for a
/// destroyed array or a region that leaves it). Records no error; graph
/// copy nodes check and resolve their array operands with it.
Status resolveCopySide(const CopySide &S, size_t WidthBytes, size_t Height,
                       size_t Depth, PitchedSide &Out);

/// cudaMemcpyToArray / cudaMemcpyFromArray (deprecated, still exported):
/// Count bytes from byte Offset of A's elements taken row after row.
Status memcpyArrayBytes(Array *A, size_t Offset, void *Linear, size_t Count,
                        bool ToArray, CopyKind Kind, void *Stream, bool Async);

/// cudaCreateTextureObject (View must be null: resource views are not
/// supported). The handle is the address of the object's descriptor.
Status textureCreate(uint64_t *Out, const ResourceSpec &R,
                     const TextureSpec &T);
Status textureDestroy(uint64_t Tex);
Status textureGetResource(uint64_t Tex, ResourceSpec *R);
Status textureGetSpec(uint64_t Tex, TextureSpec *T);
/// cudaCreateSurfaceObject: an array made with ArraySurfaceLoadStore.
Status surfaceCreate(uint64_t *Out, const ResourceSpec &R);
Status surfaceDestroy(uint64_t Surf);
Status surfaceGetResource(uint64_t Surf, ResourceSpec *R);

} // namespace cuhip::rt
