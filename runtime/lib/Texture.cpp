//===- Texture.cpp - CUDA arrays, texture objects and surface objects -----===//
//
// An array is one device allocation (Runtime::malloc) holding its elements
// row after row, slice after slice, with the channel format and extent it
// was made with; copies to and from arrays become pitched copies of that
// allocation, so streams, capture and the HIP backend's copies apply as for
// cudaMemcpy3D. A texture or surface object owns a ptx::TextureDescriptor
// (the record the CPU backend's sampler reads; its address is the handle)
// and remembers the descriptions it was made from, which
// cudaGetTextureObjectResourceDesc and friends hand back. Tables of live
// arrays and objects make stale and foreign handles errors instead of
// crashes.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Texture.h"

#include "CoreAccess.h"

#include "cuhip/ptx/TextureDescriptor.h"
#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace cuhip::rt {

struct Array {
  ArrayInfo Info;
  uint8_t *Data = nullptr;
  size_t ElementBytes = 0;
  size_t RowPitch = 0;
  size_t Rows = 1, Slices = 1; // storage: Height and Depth, at least 1
};

namespace {

struct TexObject {
  ptx::TextureDescriptor D; // first: the handle is its address
  ResourceSpec Resource;
  TextureSpec Spec;
};

struct Tables {
  std::mutex Lock;
  std::set<Array *> Arrays;
  std::map<uint64_t, std::unique_ptr<TexObject>> Textures, Surfaces;
};

Tables &tables() {
  static Tables *T = new Tables; // used until exit, by any thread
  return *T;
}

Status fail(Status S) { return Runtime::get().record(S); }

void logNotSupported(const char *What) {
  static std::mutex Lock;
  static std::set<std::string> *Logged = new std::set<std::string>;
  std::lock_guard<std::mutex> G(Lock);
  if (Logged->insert(What).second)
    CUHIP_WARN("%s is not supported by cuhip; it returns "
               "cudaErrorNotSupported",
               What);
}

// cudaChannelFormatKind.
enum : int { KindSigned = 0, KindUnsigned = 1, KindFloat = 2, KindNone = 3 };

/// Checks a channel format; on success sets the channel count and bytes.
Status checkFormat(const ChannelFormat &F, unsigned &Channels,
                   unsigned &ChannelBits) {
  if (F.Kind > KindNone) {
    logNotSupported("a cudaChannelFormatKind beyond Signed/Unsigned/Float "
                    "(normalized, block-compressed and NV12 formats)");
    return cudaErrorNotSupported;
  }
  if (F.Kind < 0 || F.Kind == KindNone)
    return cudaErrorInvalidValue;
  const int Bits[4] = {F.X, F.Y, F.Z, F.W};
  Channels = 0;
  while (Channels < 4 && Bits[Channels])
    ++Channels;
  for (unsigned C = Channels; C < 4; ++C)
    if (Bits[C])
      return cudaErrorInvalidValue; // a gap between channels
  if (Channels == 0 || Channels == 3)
    return cudaErrorInvalidValue;
  ChannelBits = unsigned(F.X);
  for (unsigned C = 0; C < Channels; ++C)
    if (Bits[C] != F.X)
      return cudaErrorInvalidValue;
  if (ChannelBits != 8 && ChannelBits != 16 && ChannelBits != 32)
    return cudaErrorInvalidValue;
  if (F.Kind == KindFloat && ChannelBits == 8)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

bool liveArray(Array *A) {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  return A && T.Arrays.count(A);
}

/// The pitched memory of a copy side, after checking that the region lies
/// inside the array.
Status resolveSide(const CopySide &S, size_t WidthBytes, size_t Height,
                   size_t Depth, PitchedSide &Out) {
  if (!S.A) {
    Out = S.Linear;
    return cudaSuccess;
  }
  if (!liveArray(S.A))
    return cudaErrorInvalidValue;
  const Array &A = *S.A;
  size_t RowBytes = A.Info.Width * A.ElementBytes;
  if (S.X > RowBytes || WidthBytes > RowBytes - S.X || S.Y > A.Rows ||
      Height > A.Rows - S.Y || S.Z > A.Slices || Depth > A.Slices - S.Z)
    return cudaErrorInvalidValue;
  Out.Ptr = A.Data + S.Z * A.RowPitch * A.Rows + S.Y * A.RowPitch + S.X;
  Out.Pitch = A.RowPitch;
  Out.Height = A.Rows;
  return cudaSuccess;
}

/// Fills the sampler's view of a resource.
Status describeResource(const ResourceSpec &R, bool Surface,
                        ptx::TextureDescriptor &D) {
  ChannelFormat F;
  switch (R.Kind) {
  case ResourceKind::Array: {
    if (!liveArray(R.A))
      return cudaErrorInvalidValue;
    const Array &A = *R.A;
    if (Surface && !(A.Info.Flags & ArraySurfaceLoadStore))
      return cudaErrorInvalidValue;
    F = A.Info.Format;
    D.Data = A.Data;
    D.RowPitch = A.RowPitch;
    D.SlicePitch = A.RowPitch * A.Rows;
    D.Width = uint32_t(A.Info.Width);
    D.Height = uint32_t(A.Rows);
    // A cube map is a 2D layered array of faces to the sampler.
    bool Layered = A.Info.Flags & (ArrayLayered | ArrayCubemap);
    D.Cubemap = A.Info.Flags & ArrayCubemap;
    D.CubemapLayered = D.Cubemap && (A.Info.Flags & ArrayLayered);
    D.Dims = A.Info.Height ? (A.Info.Depth && !Layered ? 3 : 2) : 1;
    D.Depth = Layered ? 1 : uint32_t(A.Slices);
    D.Layers = Layered ? uint32_t(A.Slices) : 0;
    break;
  }
  case ResourceKind::Mipmapped:
    logNotSupported("texture objects over mipmapped arrays");
    return cudaErrorNotSupported;
  case ResourceKind::Linear:
  case ResourceKind::Pitch2D: {
    if (Surface)
      return cudaErrorInvalidValue; // surfaces take arrays only
    F = R.Format;
    unsigned Channels, Bits;
    if (Status S = checkFormat(F, Channels, Bits))
      return S;
    size_t Elem = Channels * Bits / 8;
    bool Linear = R.Kind == ResourceKind::Linear;
    size_t Bytes = Linear ? R.SizeInBytes : R.PitchInBytes * R.Height;
    if (!R.Ptr || Bytes == 0 ||
        (Linear ? R.SizeInBytes < Elem
                : (R.Width == 0 || R.Height == 0 ||
                   R.PitchInBytes < R.Width * Elem)))
      return cudaErrorInvalidValue;
    Runtime &Rt = Runtime::get();
    if (!Rt.isDeviceRange(R.Ptr, Bytes)) {
      // CUDA takes a linear texture's size as given, and programs declare
      // more than they allocated (convolutionFFT2D). Here the texture ends
      // with the allocation: a fetch past it is out of range (the address
      // mode decides what it reads) and never reads memory that is not
      // the program's.
      void *Base;
      size_t Size;
      if (!Linear || Rt.allocationRange(R.Ptr, &Base, &Size) != cudaSuccess)
        return cudaErrorInvalidValue;
      size_t Avail = size_t(static_cast<uint8_t *>(Base) + Size -
                            static_cast<uint8_t *>(R.Ptr));
      if (Avail < Elem)
        return cudaErrorInvalidValue;
      CUHIP_INFO("a linear texture of %zu bytes starts %zu bytes before the "
                 "end of its allocation: it is cut there",
                 R.SizeInBytes, Avail);
      Bytes = Avail - Avail % Elem;
    }
    D.Data = static_cast<uint8_t *>(R.Ptr);
    D.Width = uint32_t(Linear ? Bytes / Elem : R.Width);
    D.Height = Linear ? 1 : uint32_t(R.Height);
    D.RowPitch = Linear ? Bytes : R.PitchInBytes;
    D.SlicePitch = D.RowPitch * D.Height;
    D.Dims = Linear ? 1 : 2;
    break;
  }
  default:
    return cudaErrorInvalidValue;
  }
  unsigned Channels, Bits;
  if (Status S = checkFormat(F, Channels, Bits))
    return S;
  D.Channels = uint8_t(Channels);
  D.ChannelBytes = uint8_t(Bits / 8);
  D.ElementBytes = uint8_t(Channels * Bits / 8);
  D.Kind = ptx::TexChannelKind(F.Kind);
  return cudaSuccess;
}

/// What creating a texture or surface object checks first: the sticky
/// error, the out pointer, and the backend (texture and surface objects
/// are the CPU backend's sampler). Returns the status to give back, already
/// recorded.
Status checkObjectCreate(const uint64_t *Out) {
  Runtime &RT = Runtime::get();
  if (Status S = RT.deviceStatus())
    return RT.record(S);
  if (!Out)
    return fail(cudaErrorInvalidValue);
  if (CoreAccess::hip(RT)) {
    logNotSupported("texture and surface objects on the HIP backend");
    return fail(cudaErrorNotSupported);
  }
  return cudaSuccess;
}

} // namespace

Status arrayCreate(Array **Out, const ChannelFormat &Format, size_t Width,
                   size_t Height, size_t Depth, unsigned Flags) {
  Runtime &R = Runtime::get();
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!Out)
    return fail(cudaErrorInvalidValue);
  if (Flags & ~unsigned(ArrayLayered | ArraySurfaceLoadStore | ArrayCubemap |
                        ArrayTextureGather)) {
    logNotSupported("array flags other than Layered, SurfaceLoadStore, "
                    "Cubemap and TextureGather");
    return fail(cudaErrorNotSupported);
  }
  unsigned Channels, Bits;
  if (Status S = checkFormat(Format, Channels, Bits))
    return fail(S);
  // 1D: (w, 0, 0); 2D: (w, h, 0); 3D: (w, h, d); layered: the layers in
  // depth, and a 3D shape is not allowed with a depth but no height.
  bool Layered = Flags & ArrayLayered;
  if (Width == 0 || (Depth && !Height && !Layered) || (Layered && !Depth))
    return fail(cudaErrorInvalidValue);
  // A cube map's six faces are square, and a layered cube map is whole
  // cubes: depth 6, or a multiple of 6 with Layered.
  if ((Flags & ArrayCubemap) &&
      (Height != Width || (Layered ? Depth % 6 != 0 : Depth != 6)))
    return fail(cudaErrorInvalidValue);
  auto A = std::make_unique<Array>();
  A->Info.Format = Format;
  A->Info.Width = Width;
  A->Info.Height = Height;
  A->Info.Depth = Depth;
  A->Info.Flags = Flags;
  A->ElementBytes = Channels * Bits / 8;
  A->RowPitch = Width * A->ElementBytes;
  A->Rows = std::max<size_t>(Height, 1);
  A->Slices = std::max<size_t>(Depth, 1);
  size_t Bytes = A->RowPitch * A->Rows * A->Slices;
  if (Bytes / A->Rows / A->Slices != A->RowPitch)
    return fail(cudaErrorMemoryAllocation);
  void *Data = nullptr;
  if (Status S = R.malloc(&Data, Bytes))
    return S;
  A->Data = static_cast<uint8_t *>(Data);
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  *Out = A.get();
  T.Arrays.insert(A.release());
  return cudaSuccess;
}

Status arrayDestroy(Array *A) {
  if (!A)
    return cudaSuccess;
  {
    Tables &T = tables();
    std::lock_guard<std::mutex> G(T.Lock);
    if (!T.Arrays.erase(A))
      return fail(cudaErrorInvalidValue);
  }
  Status S = Runtime::get().free(A->Data);
  delete A;
  return S;
}

Status arrayGetInfo(Array *A, ArrayInfo *Info) {
  if (!Info || !liveArray(A))
    return fail(cudaErrorInvalidValue);
  *Info = A->Info;
  return cudaSuccess;
}

size_t arrayElementBytes(Array *A) {
  return liveArray(A) ? A->ElementBytes : 0;
}

Status memcpyArray(CopySide Dst, CopySide Src, size_t WidthBytes,
                   size_t Height, size_t Depth, CopyKind Kind, void *Stream,
                   bool Async) {
  PitchedSide D, S;
  if (Status E = resolveSide(Dst, WidthBytes, Height, Depth, D))
    return fail(E);
  if (Status E = resolveSide(Src, WidthBytes, Height, Depth, S))
    return fail(E);
  return Runtime::get().memcpy3D(D, S, WidthBytes, Height, Depth, Kind, Stream,
                                 Async);
}

Status resolveCopySide(const CopySide &S, size_t WidthBytes, size_t Height,
                       size_t Depth, PitchedSide &Out) {
  return resolveSide(S, WidthBytes, Height, Depth, Out);
}

Status memcpyArrayBytes(Array *A, size_t Offset, void *Linear, size_t Count,
                        bool ToArray, CopyKind Kind, void *Stream, bool Async) {
  if (!liveArray(A))
    return fail(cudaErrorInvalidValue);
  // The elements lie densely, so the bytes are one run of the allocation.
  size_t Total = A->RowPitch * A->Rows * A->Slices;
  if (Offset > Total || Count > Total - Offset)
    return fail(cudaErrorInvalidValue);
  PitchedSide ArraySide{A->Data + Offset, Count, 1};
  PitchedSide Other{Linear, Count, 1};
  return Runtime::get().memcpy3D(ToArray ? ArraySide : Other,
                                 ToArray ? Other : ArraySide, Count, 1, 1,
                                 Kind, Stream, Async);
}

Status textureCreate(uint64_t *Out, const ResourceSpec &R,
                     const TextureSpec &Spec) {
  if (Status S = checkObjectCreate(Out))
    return S;
  auto Obj = std::make_unique<TexObject>();
  ptx::TextureDescriptor &D = Obj->D;
  if (Status S = describeResource(R, false, D))
    return fail(S);
  for (int M : Spec.AddressMode)
    if (M < 0 || M > 3)
      return fail(cudaErrorInvalidValue);
  if (Spec.FilterMode < 0 || Spec.FilterMode > 1 || Spec.ReadMode < 0 ||
      Spec.ReadMode > 1)
    return fail(cudaErrorInvalidValue);
  D.Magic = ptx::TextureDescriptor::TextureMagic;
  for (int K = 0; K < 3; ++K)
    D.AddressMode[K] = ptx::TexAddressMode(Spec.AddressMode[K]);
  D.LinearFilter = Spec.FilterMode == 1;
  // Normalized-float reads apply to 8- and 16-bit integers only; 32-bit
  // integers are returned as they are.
  D.ReadNormalizedFloat = Spec.ReadMode == 1 &&
                          D.Kind != ptx::TexChannelKind::Float &&
                          D.ChannelBytes < 4;
  D.NormalizedCoords = Spec.NormalizedCoords != 0;
  D.SRGB = Spec.SRGB != 0;
  // Seamless filtering is a cube-map property; other resources ignore it.
  D.SeamlessCubemap = D.Cubemap && Spec.SeamlessCubemap != 0;
  std::copy(Spec.BorderColor, Spec.BorderColor + 4, D.BorderColor);
  // Linear filtering interpolates floats; integer results cannot be.
  if (D.LinearFilter && D.Kind != ptx::TexChannelKind::Float &&
      !D.ReadNormalizedFloat)
    return fail(cudaErrorInvalidValue);
  Obj->Resource = R;
  Obj->Spec = Spec;
  uint64_t H = reinterpret_cast<uint64_t>(&Obj->D);
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  T.Textures[H] = std::move(Obj);
  *Out = H;
  return cudaSuccess;
}

namespace {
Status destroyObject(std::map<uint64_t, std::unique_ptr<TexObject>> Tables::*M,
                     uint64_t H) {
  if (!H)
    return cudaSuccess;
  // Kernels still queued may read the descriptor, which goes with it.
  CoreAccess::waitIdle(Runtime::get());
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (!(T.*M).erase(H))
    return fail(cudaErrorInvalidValue);
  return cudaSuccess;
}

Status findObject(std::map<uint64_t, std::unique_ptr<TexObject>> Tables::*M,
                  uint64_t H, ResourceSpec *R, TextureSpec *Spec) {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = (T.*M).find(H);
  if (It == (T.*M).end())
    return fail(cudaErrorInvalidValue);
  if (R)
    *R = It->second->Resource;
  if (Spec)
    *Spec = It->second->Spec;
  return cudaSuccess;
}
} // namespace

Status textureDestroy(uint64_t Tex) {
  return destroyObject(&Tables::Textures, Tex);
}

Status textureGetResource(uint64_t Tex, ResourceSpec *R) {
  if (!R)
    return fail(cudaErrorInvalidValue);
  return findObject(&Tables::Textures, Tex, R, nullptr);
}

Status textureGetSpec(uint64_t Tex, TextureSpec *Spec) {
  if (!Spec)
    return fail(cudaErrorInvalidValue);
  return findObject(&Tables::Textures, Tex, nullptr, Spec);
}

Status surfaceCreate(uint64_t *Out, const ResourceSpec &R) {
  if (Status S = checkObjectCreate(Out))
    return S;
  auto Obj = std::make_unique<TexObject>();
  if (Status S = describeResource(R, true, Obj->D))
    return fail(S);
  Obj->D.Magic = ptx::TextureDescriptor::SurfaceMagic;
  Obj->Resource = R;
  uint64_t H = reinterpret_cast<uint64_t>(&Obj->D);
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  T.Surfaces[H] = std::move(Obj);
  *Out = H;
  return cudaSuccess;
}

Status surfaceDestroy(uint64_t Surf) {
  return destroyObject(&Tables::Surfaces, Surf);
}

Status surfaceGetResource(uint64_t Surf, ResourceSpec *R) {
  if (!R)
    return fail(cudaErrorInvalidValue);
  return findObject(&Tables::Surfaces, Surf, R, nullptr);
}

void resetTextureTables(Runtime &R) {
  std::set<Array *> Arrays;
  std::map<uint64_t, std::unique_ptr<TexObject>> Textures, Surfaces;
  {
    Tables &T = tables();
    std::lock_guard<std::mutex> G(T.Lock);
    Arrays.swap(T.Arrays);
    Textures.swap(T.Textures);
    Surfaces.swap(T.Surfaces);
  }
  for (Array *A : Arrays) {
    (void)R.free(A->Data);
    delete A;
  }
}

} // namespace cuhip::rt
