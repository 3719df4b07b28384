//===- Fatbin.cpp - Reading nvcc fatbin containers ------------------------===//
//
// Decodes the fatbin containers nvcc embeds in programs: finds them through
// registration wrappers (live, in this process, or in an ELF file on disk),
// walks their entries with every size checked against the bytes that exist,
// and decompresses zstd or LZ4 payloads. The layout below is what CUDA 13
// writes (checked on nvcc output and on the toolkit's own libraries, whose
// ~14,000 entries all parse and decompress); fields this reader does not
// need are named by position only. All integers are little endian.
//
//   container header (16 bytes)
//     0 u32 magic 0xBA55ED50   4 u16 version (1)   6 u16 header size
//     8 u64 size of the entries that follow the header
//   entry header (header size bytes, seen 64 to 112; the bytes past 64 hold
//   the options string or, for sm_100+ ELF, a binary descriptor)
//     0 u16 kind (1 PTX, 2 ELF)      2 u16 (0x0101)    4 u32 header size
//     8 u64 padded payload size     16 u32 compressed size
//    20 u32 offset in the header of an (u32 offset, u32 length) pair naming
//           the ptxas options string; 0 for ELF entries
//    24 u16 minor  26 u16 major (PTX ISA or ELF version)  28 u32 sm
//    32 u32 name offset  36 u32 name length (both relative to the entry)
//    40 u64 flags  48 u64 (0)  56 u64 uncompressed size (0 when unknown)
//   payload at entry + header size; next entry after the padded payload.
//
// Flags: 0x1 64-bit, 0x2 debug, 0x10 Linux, 0x2000 compressed (LZ4 block
// format, toolkits before CUDA 12.4), 0x8000 compressed (zstd frame, CUDA 12.4
// and later). A compressed payload is `compressed size` bytes followed by
// padding. LZ4 blocks have no magic, so the codec comes from the flag; a
// payload that starts with the zstd frame magic is zstd whichever flag is
// set. (No LZ4-era toolkit is at hand: LZ4 is tested on liblz4 output, and
// the one public dump of such an entry decodes as a plain LZ4 block.)
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Fatbin.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <unordered_map>

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <lz4.h>
#include <zstd.h>

static_assert(std::endian::native == std::endian::little,
              "the fatbin reader loads little-endian fields directly");

namespace cuhip::fatbin {
namespace {

constexpr size_t ContainerHeaderMin = 16;
constexpr size_t EntryHeaderMin = 64;
/// Magic of the pre-CUDA-4 fatbin format, which is not supported.
constexpr uint32_t OldContainerMagic = 0x1EE55A01;
constexpr uint32_t ZstdMagic = 0xFD2FB528;
/// Largest payload decompressed; a header claiming more is corrupt (the
/// largest entry in CUDA 13's own libraries, in libnccl, is 128 MiB).
constexpr uint64_t MaxDecompressedSize = uint64_t(2) << 30;
/// A zstd block has a header of at least 3 bytes and decompresses to at most
/// 128 KiB, which bounds what a frame of a given size can expand to.
constexpr uint64_t ZstdMaxBlockSize = 128 * 1024;
/// An LZ4 sequence yields at most 255 bytes per input byte (a match length
/// extension byte adds 255), plus a few bytes of slack for short blocks.
constexpr uint64_t Lz4MaxRatio = 255;
constexpr uint64_t Lz4Slack = 64;
/// Most items read from a prelinked fatbin list (one per translation unit)
/// before it is taken to have no terminator.
constexpr size_t MaxPrelinked = 1 << 20;
/// Largest container parseWrapper checks page by page.
constexpr uint64_t MaxLiveContainerSize = uint64_t(16) << 30;

template <typename T> T load(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}

std::string hex(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

std::string leadingBytes(const uint8_t *P, size_t N) {
  std::string S;
  char Buf[4];
  for (size_t I = 0; I < std::min<size_t>(N, 4); ++I) {
    std::snprintf(Buf, sizeof(Buf), "%s%02x", I ? " " : "", P[I]);
    S += Buf;
  }
  return S;
}

/// Header strings are padded with NULs and spaces (nvcc writes "k.cu " and
/// " -g ..."); callers want the text.
std::string trimmed(const uint8_t *P, size_t N) {
  std::string_view S(reinterpret_cast<const char *>(P), N);
  S = S.substr(0, S.find('\0'));
  size_t B = S.find_first_not_of(" \t");
  if (B == std::string_view::npos)
    return "";
  return std::string(S.substr(B, S.find_last_not_of(" \t") + 1 - B));
}

std::string entryName(unsigned Index, uint64_t Offset) {
  return "fatbin entry " + std::to_string(Index) + " at offset " + hex(Offset);
}

std::string entryPrefix(unsigned Index, uint64_t Offset) {
  return entryName(Index, Offset) + ": ";
}

/// Prefix of decompression errors, which also name what the entry holds.
std::string describe(const Entry &E) {
  return entryName(E.Index, E.OffsetInContainer) + " (" +
         std::string(kindName(E.Kind)) + " sm_" + std::to_string(E.Sm) + "): ";
}

/// Reads the ptxas options an entry records. The field holding their
/// location was identified by observation only, so a location outside the
/// header is ignored rather than treated as corruption.
std::string readOptions(const uint8_t *H, uint32_t HeaderSize, unsigned Index) {
  uint32_t DescOff = load<uint32_t>(H + 20);
  if (DescOff == 0)
    return "";
  if (DescOff < EntryHeaderMin || uint64_t(DescOff) + 8 > HeaderSize) {
    CUHIP_DEBUG("fatbin entry %u: options descriptor offset 0x%x outside the "
                "0x%x-byte header; ignored",
                Index, DescOff, HeaderSize);
    return "";
  }
  uint32_t Off = load<uint32_t>(H + DescOff);
  uint32_t Len = load<uint32_t>(H + DescOff + 4);
  if (Len == 0)
    return "";
  if (Off > HeaderSize || Len > HeaderSize - Off) {
    CUHIP_DEBUG("fatbin entry %u: options (offset 0x%x, length 0x%x) outside "
                "the 0x%x-byte header; ignored",
                Index, Off, Len, HeaderSize);
    return "";
  }
  return trimmed(H + Off, Len);
}

} // namespace

std::string_view kindName(EntryKind K) {
  switch (K) {
  case EntryKind::PTX:
    return "ptx";
  case EntryKind::ELF:
    return "elf";
  case EntryKind::Unknown:
    break;
  }
  return "unknown";
}

std::string_view compressionName(Compression C) {
  switch (C) {
  case Compression::None:
    return "none";
  case Compression::Zstd:
    return "zstd";
  case Compression::Lz4:
    return "lz4";
  }
  return "unknown";
}

bool parseContainer(const void *Data, size_t Avail, Container &Out,
                    std::string &Err) {
  // Filled on the side so that Out is only changed by a successful parse.
  Container C;
  const auto *Base = static_cast<const uint8_t *>(Data);
  if (!Base) {
    Err = "fatbin container: null pointer";
    return false;
  }
  if (Avail < ContainerHeaderMin) {
    Err = "fatbin container: truncated header: " + hex(Avail) +
          " bytes available, the container header needs 0x10";
    return false;
  }
  uint32_t Magic = load<uint32_t>(Base);
  if (Magic == OldContainerMagic) {
    Err = "fatbin container: old-style fatbin (magic 0x1ee55a01, CUDA before "
          "4.0) is not supported; rebuild the program with a newer nvcc";
    return false;
  }
  if (Magic != ContainerMagic) {
    Err = "fatbin container: bad magic " + hex(Magic) + ", expected 0xba55ed50";
    return false;
  }
  uint16_t Version = load<uint16_t>(Base + 4);
  uint16_t HeaderSize = load<uint16_t>(Base + 6);
  uint64_t EntriesSize = load<uint64_t>(Base + 8);
  if (Version != 1)
    CUHIP_DEBUG("fatbin container: version %u (only 1 seen so far); reading "
                "it with the version 1 layout",
                Version);
  if (HeaderSize < ContainerHeaderMin) {
    Err = "fatbin container: header size " + hex(HeaderSize) +
          " is smaller than the 0x10-byte container header";
    return false;
  }
  if (HeaderSize > Avail || EntriesSize > Avail - HeaderSize) {
    Err = "fatbin container: size " + hex(HeaderSize) + " + " +
          hex(EntriesSize) + " (header + entries) exceeds the " + hex(Avail) +
          " bytes available";
    return false;
  }
  uint64_t Total = HeaderSize + EntriesSize;

  C.Base = Base;
  C.TotalSize = Total;
  C.Version = Version;
  uint64_t Off = HeaderSize;
  for (unsigned Index = 0; Off < Total; ++Index) {
    uint64_t Left = Total - Off;
    if (Left < EntryHeaderMin) {
      Err = entryPrefix(Index, Off) + "truncated header: " + hex(Left) +
            " bytes left in the container, an entry header needs 0x40";
      return false;
    }
    const uint8_t *H = Base + Off;
    Entry E;
    E.Index = Index;
    E.OffsetInContainer = Off;
    E.RawKind = load<uint16_t>(H);
    E.HeaderSize = load<uint32_t>(H + 4);
    E.PaddedSize = load<uint64_t>(H + 8);
    uint32_t CompressedSize = load<uint32_t>(H + 16);
    E.IsaMinor = load<uint16_t>(H + 24);
    E.IsaMajor = load<uint16_t>(H + 26);
    E.Sm = load<uint32_t>(H + 28);
    uint32_t NameOff = load<uint32_t>(H + 32);
    uint32_t NameLen = load<uint32_t>(H + 36);
    E.Flags = load<uint64_t>(H + 40);
    E.UncompressedSize = load<uint64_t>(H + 56);

    if (E.HeaderSize < EntryHeaderMin) {
      Err = entryPrefix(Index, Off) + "header size " + hex(E.HeaderSize) +
            " is smaller than the 0x40-byte minimum";
      return false;
    }
    if (E.HeaderSize > Left) {
      Err = entryPrefix(Index, Off) + "header size " + hex(E.HeaderSize) +
            " exceeds container size " + hex(Total) + " (" + hex(Left) +
            " bytes left)";
      return false;
    }
    if (E.PaddedSize > Left - E.HeaderSize) {
      Err = entryPrefix(Index, Off) + "payload size " + hex(E.PaddedSize) +
            " exceeds container size " + hex(Total) + " (" +
            hex(Left - E.HeaderSize) + " bytes left after the header)";
      return false;
    }
    if (CompressedSize > E.PaddedSize) {
      Err = entryPrefix(Index, Off) + "compressed size " + hex(CompressedSize) +
            " is larger than the payload size " + hex(E.PaddedSize);
      return false;
    }
    if (NameLen != 0) {
      if (NameOff > E.HeaderSize || NameLen > E.HeaderSize - NameOff) {
        Err = entryPrefix(Index, Off) + "name (offset " + hex(NameOff) +
              ", length " + hex(NameLen) + ") lies outside the " +
              hex(E.HeaderSize) + "-byte entry header";
        return false;
      }
      E.Name = trimmed(H + NameOff, NameLen);
    }
    E.Options = readOptions(H, E.HeaderSize, Index);

    E.Kind = E.RawKind == 1   ? EntryKind::PTX
             : E.RawKind == 2 ? EntryKind::ELF
                              : EntryKind::Unknown;
    E.Payload = H + E.HeaderSize;
    if (E.Flags & (FlagCompressedLz4 | FlagCompressedZstd)) {
      // A compressed size of 0 has not been seen; fall back to the padded
      // size and let the decoder find where the data ends.
      E.StoredSize = CompressedSize ? CompressedSize : E.PaddedSize;
      bool ZstdFrame =
          E.StoredSize >= 4 && load<uint32_t>(E.Payload) == ZstdMagic;
      E.Comp = ZstdFrame || !(E.Flags & FlagCompressedLz4) ? Compression::Zstd
                                                           : Compression::Lz4;
    } else {
      E.StoredSize = E.PaddedSize;
      E.Comp = Compression::None;
    }
    Off += E.HeaderSize + E.PaddedSize;
    C.Entries.push_back(std::move(E));
  }
  Out = std::move(C);
  return true;
}

//===----------------------------------------------------------------------===//
// Live memory
//===----------------------------------------------------------------------===//

namespace {

/// Readability from /proc/self/maps, for systems where process_vm_readv is
/// unavailable (seccomp filters, old kernels).
bool isReadableFromMaps(uintptr_t Begin, uintptr_t End) {
  FILE *F = std::fopen("/proc/self/maps", "r");
  if (!F)
    return false;
  uintptr_t Cursor = Begin;
  char Line[512];
  while (Cursor < End && std::fgets(Line, sizeof(Line), F)) {
    unsigned long long Lo, Hi;
    char Perms[8];
    if (std::sscanf(Line, "%llx-%llx %7s", &Lo, &Hi, Perms) != 3)
      continue;
    // Lines are sorted by address, so a gap before Cursor is unmapped.
    if (Lo > Cursor)
      break;
    if (Hi > Cursor) {
      if (Perms[0] != 'r')
        break;
      Cursor = Hi;
    }
    // Skip the rest of an overlong line.
    while (!std::strchr(Line, '\n') && std::fgets(Line, sizeof(Line), F)) {
    }
  }
  std::fclose(F);
  return Cursor >= End;
}

} // namespace

bool isReadable(const void *Addr, size_t Size) {
  if (Size == 0)
    return true;
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Addr);
  if (Begin == 0 || Size > UINTPTR_MAX - Begin)
    return false;
  uintptr_t End = Begin + Size;
  static const uintptr_t PageSize = [] {
    long P = sysconf(_SC_PAGESIZE);
    return P > 0 ? uintptr_t(P) : uintptr_t(4096);
  }();

  // Protection is per page, so reading one byte of every page the range
  // touches proves it readable. process_vm_readv on our own pid reports a
  // fault as a short read instead of delivering SIGSEGV.
  constexpr size_t Batch = 1024; // IOV_MAX on Linux
  static thread_local char Sink[Batch];
  iovec Remote[Batch];
  uintptr_t Page = Begin;
  while (Page < End) {
    size_t N = 0;
    for (; N < Batch && Page < End; ++N) {
      Remote[N] = {reinterpret_cast<void *>(Page), 1};
      Page = (Page & ~(PageSize - 1)) + PageSize;
      if (Page < Begin) // wrapped around the address space
        Page = End;
    }
    iovec Local = {Sink, N};
    ssize_t Got = process_vm_readv(getpid(), &Local, 1, Remote, N, 0);
    if (Got < 0 && (errno == ENOSYS || errno == EPERM)) {
      CUHIP_DEBUG("process_vm_readv unavailable (%s); checking readability "
                  "with /proc/self/maps",
                  std::strerror(errno));
      return isReadableFromMaps(Begin, End);
    }
    if (Got != static_cast<ssize_t>(N))
      return false;
  }
  return true;
}

namespace {

/// Parses the container at Addr in this process, checking that its header,
/// then the whole size the header gives, is readable first.
bool parseLiveContainer(uint64_t Addr, Container &Out, std::string &Err) {
  const auto *C = reinterpret_cast<const uint8_t *>(uintptr_t(Addr));
  if (!isReadable(C, ContainerHeaderMin)) {
    Err = "container pointer " + hex(Addr) + " is not readable memory";
    return false;
  }
  // The header must be valid before its sizes say how much more to check.
  uint64_t Total = ContainerHeaderMin;
  if (load<uint32_t>(C) == ContainerMagic) {
    uint16_t HeaderSize = load<uint16_t>(C + 6);
    uint64_t EntriesSize = load<uint64_t>(C + 8);
    if (EntriesSize > MaxLiveContainerSize) {
      Err = "container at " + hex(Addr) + ": entries size " + hex(EntriesSize) +
            " is implausibly large";
      return false;
    }
    Total = std::max<uint64_t>(HeaderSize + EntriesSize, ContainerHeaderMin);
    if (!isReadable(C, Total)) {
      Err = "container at " + hex(Addr) + ": its " + hex(Total) +
            " bytes (from its header) are not all readable memory";
      return false;
    }
  }
  if (!parseContainer(C, Total, Out, Err))
    return false;
  Out.Address = Addr;
  return true;
}

} // namespace

bool parseWrapper(const void *Wrapper, Container &Out, std::string &Err) {
  std::string Where =
      "fatbin wrapper at " + hex(reinterpret_cast<uintptr_t>(Wrapper)) + ": ";
  if (!isReadable(Wrapper, WrapperSize)) {
    Err = Where + "not readable memory";
    return false;
  }
  const auto *W = static_cast<const uint8_t *>(Wrapper);
  uint32_t Magic = load<uint32_t>(W);
  uint32_t Version = load<uint32_t>(W + 4);
  uint64_t Data = load<uint64_t>(W + 8);
  uint64_t Extra = load<uint64_t>(W + 16);
  if (Magic != WrapperMagic) {
    Err = Where + "bad magic " + hex(Magic) + ", expected 0x466243b1";
    return false;
  }
  if (Version != 1 && Version != 2) {
    Err = Where + "unsupported wrapper version " + std::to_string(Version) +
          " (known: 1, 2)";
    return false;
  }
  Container Parsed;
  if (!parseLiveContainer(Data, Parsed, Err)) {
    Err = Where + Err;
    return false;
  }
  Parsed.WrapperVersion = Version;
  Parsed.WrapperExtra = Extra;
  Out = std::move(Parsed);
  return true;
}

bool parsePrelinkedContainers(const Container &Linked,
                              std::vector<Container> &Out, std::string &Err) {
  std::vector<Container> Result;
  if (Linked.WrapperVersion != 2 || Linked.WrapperExtra == 0) {
    Out.clear();
    return true;
  }
  const auto *List =
      reinterpret_cast<const uint64_t *>(uintptr_t(Linked.WrapperExtra));
  for (size_t I = 0;; ++I) {
    std::string Where = "prelinked fatbin list at " + hex(Linked.WrapperExtra) +
                        ", item " + std::to_string(I) + ": ";
    if (I == MaxPrelinked) {
      Err = Where + "no null terminator within " +
            std::to_string(MaxPrelinked) + " items";
      return false;
    }
    if (!isReadable(List + I, sizeof(uint64_t))) {
      Err = Where + "not readable memory";
      return false;
    }
    uint64_t Addr = load<uint64_t>(reinterpret_cast<const uint8_t *>(List + I));
    if (Addr == 0)
      break;
    Container C;
    if (!parseLiveContainer(Addr, C, Err)) {
      Err = Where + Err;
      return false;
    }
    Result.push_back(std::move(C));
  }
  Out = std::move(Result);
  return true;
}

//===----------------------------------------------------------------------===//
// Decompression
//===----------------------------------------------------------------------===//

namespace {

bool decompressZstd(const Entry &E, std::string &Out, std::string &Err) {
  const uint8_t *P = E.Payload;
  if (E.StoredSize < 4 || load<uint32_t>(P) != ZstdMagic) {
    Err = describe(E) + "payload is not a zstd frame (starts with " +
          leadingBytes(P, E.StoredSize) + ")";
    return false;
  }
  size_t FrameSize = ZSTD_findFrameCompressedSize(P, E.StoredSize);
  if (ZSTD_isError(FrameSize)) {
    Err = describe(E) + "corrupt zstd data: " + ZSTD_getErrorName(FrameSize);
    return false;
  }
  if (FrameSize < E.StoredSize)
    CUHIP_DEBUG("%sthe zstd frame ends after 0x%zx of 0x%llx stored bytes",
                describe(E).c_str(), FrameSize,
                static_cast<unsigned long long>(E.StoredSize));
  unsigned long long Content = ZSTD_getFrameContentSize(P, FrameSize);
  if (Content == ZSTD_CONTENTSIZE_ERROR) {
    Err = describe(E) + "corrupt zstd data: bad frame header";
    return false;
  }
  uint64_t Expected = E.UncompressedSize;
  if (Content != ZSTD_CONTENTSIZE_UNKNOWN) {
    if (Expected != 0 && Content != Expected) {
      Err = describe(E) + "the zstd frame holds " + hex(Content) +
            " bytes but the entry header says " + hex(Expected);
      return false;
    }
    Expected = Content;
  }
  if (Expected > (FrameSize / 3 + 1) * ZstdMaxBlockSize) {
    Err = describe(E) + "corrupt zstd data: " + hex(Expected) +
          " bytes cannot come from a " + hex(FrameSize) + "-byte frame";
    return false;
  }
  if (Expected > MaxDecompressedSize) {
    Err = describe(E) + "uncompressed size " + hex(Expected) +
          " is implausibly large";
    return false;
  }
  if (Expected != 0) {
    Out.resize(Expected);
    size_t Got = ZSTD_decompress(Out.data(), Out.size(), P, FrameSize);
    if (ZSTD_isError(Got)) {
      Err = describe(E) + "corrupt zstd data: " + ZSTD_getErrorName(Got);
      return false;
    }
    if (Got != Expected) {
      Err = describe(E) + "zstd data decompressed to " + hex(Got) +
            " bytes, expected " + hex(Expected);
      return false;
    }
    return true;
  }

  // Neither the frame nor the header gives the size: stream into a growing
  // buffer, bounded like the known-size case.
  ZSTD_DCtx *Ctx = ZSTD_createDCtx();
  if (!Ctx) {
    Err = describe(E) + "out of memory creating a zstd context";
    return false;
  }
  Out.clear();
  ZSTD_inBuffer In = {P, FrameSize, 0};
  std::string Chunk(ZSTD_DStreamOutSize(), '\0');
  size_t Ret = 1;
  while (Ret != 0) {
    ZSTD_outBuffer OutBuf = {Chunk.data(), Chunk.size(), 0};
    Ret = ZSTD_decompressStream(Ctx, &OutBuf, &In);
    if (ZSTD_isError(Ret)) {
      Err = describe(E) + "corrupt zstd data: " + ZSTD_getErrorName(Ret);
      break;
    }
    Out.append(Chunk.data(), OutBuf.pos);
    if (Out.size() > MaxDecompressedSize) {
      Err = describe(E) + "zstd data expands past " + hex(MaxDecompressedSize) +
            " bytes";
      Ret = size_t(-1);
      break;
    }
    if (Ret != 0 && In.pos == In.size && OutBuf.pos == 0) {
      Err = describe(E) + "corrupt zstd data: truncated frame";
      Ret = size_t(-1);
      break;
    }
  }
  ZSTD_freeDCtx(Ctx);
  return Ret == 0;
}

bool decompressLz4(const Entry &E, std::string &Out, std::string &Err) {
  if (E.StoredSize > uint64_t(INT_MAX)) {
    Err = describe(E) + "compressed size " + hex(E.StoredSize) +
          " is too large for an LZ4 block";
    return false;
  }
  int SrcSize = static_cast<int>(E.StoredSize);
  const char *Src = reinterpret_cast<const char *>(E.Payload);
  uint64_t Bound = std::min<uint64_t>(
      {E.StoredSize * Lz4MaxRatio + Lz4Slack, MaxDecompressedSize, INT_MAX});
  if (E.UncompressedSize > Bound) {
    Err = describe(E) + "uncompressed size " + hex(E.UncompressedSize) +
          " is implausibly large for " + hex(E.StoredSize) +
          " bytes of LZ4 data";
    return false;
  }
  if (E.UncompressedSize != 0) {
    Out.resize(E.UncompressedSize);
    int Got = LZ4_decompress_safe(Src, Out.data(), SrcSize,
                                  static_cast<int>(Out.size()));
    if (Got < 0) {
      Err = describe(E) + "corrupt LZ4 data (decoder stopped at input byte " +
            std::to_string(-Got) + ")";
      return false;
    }
    if (static_cast<uint64_t>(Got) != E.UncompressedSize) {
      Err = describe(E) + "LZ4 data decompressed to " + hex(Got) +
            " bytes, expected " + hex(E.UncompressedSize);
      return false;
    }
    return true;
  }
  // An LZ4 block does not record its decompressed size and the decoder
  // cannot tell "output too small" from corruption: retry with more room, up
  // to the most the block can expand to.
  for (uint64_t Room = std::min<uint64_t>(uint64_t(SrcSize) * 4 + 4096, Bound);;
       Room *= 2) {
    Room = std::min(Room, Bound);
    Out.resize(Room);
    int Got =
        LZ4_decompress_safe(Src, Out.data(), SrcSize, static_cast<int>(Room));
    if (Got >= 0) {
      Out.resize(Got);
      return true;
    }
    if (Room == Bound) {
      Err = describe(E) + "corrupt LZ4 data (decoder stopped at input byte " +
            std::to_string(-Got) + ")";
      return false;
    }
  }
}

} // namespace

bool decompressPayload(const Entry &E, std::string &Out, std::string &Err) {
  Out.clear();
  if (!E.Payload && E.StoredSize != 0) {
    Err = describe(E) + "entry has no payload pointer";
    return false;
  }
  bool Ok = true;
  switch (E.Comp) {
  case Compression::None:
    Out.assign(reinterpret_cast<const char *>(E.Payload), E.StoredSize);
    break;
  case Compression::Zstd:
    Ok = decompressZstd(E, Out, Err);
    break;
  case Compression::Lz4:
    Ok = decompressLz4(E, Out, Err);
    break;
  }
  if (!Ok) {
    Out.clear();
    return false;
  }
  // PTX is NUL-terminated text padded with NULs; consumers want the text.
  if (E.Kind == EntryKind::PTX)
    Out.erase(Out.find_last_not_of('\0') + 1);
  return true;
}

const Entry *choosePtx(const Container &C,
                       const std::function<bool(const Entry &)> &Accept,
                       unsigned DeviceSm) {
  const Entry *Best = nullptr;
  // Entries the device can run rank above those it cannot; among the
  // former the highest sm wins, among the latter the lowest.
  auto Key = [DeviceSm](const Entry &E) {
    bool Runs = !DeviceSm || E.Sm <= DeviceSm;
    int64_t Sm = Runs ? int64_t(E.Sm) : -int64_t(E.Sm);
    return std::tuple(Runs, Sm, E.IsaMajor, E.IsaMinor);
  };
  for (const Entry &E : C.Entries) {
    if (E.Kind != EntryKind::PTX || (Accept && !Accept(E)))
      continue;
    if (!Best || Key(E) > Key(*Best))
      Best = &E;
  }
  return Best;
}

//===----------------------------------------------------------------------===//
// ELF files on disk
//===----------------------------------------------------------------------===//

namespace {

struct Section {
  std::string Name;
  uint32_t Type;
  uint64_t Flags, Addr, Offset, Size;
  uint32_t Link, Info;
  uint64_t EntSize;
};

struct Segment {
  uint64_t VAddr, Offset, FileSize;
};

/// A checked view of the parts of a 64-bit little-endian ELF file that locate
/// fatbin wrappers and their containers.
class ElfView {
public:
  ElfView(const uint8_t *Data, size_t Size) : D(Data), Size(Size) {}

  bool parse(std::string &Err);
  const Section *find(std::string_view Name) const {
    for (const Section &S : Sections)
      if (S.Name == Name)
        return &S;
    return nullptr;
  }
  /// File offset and the bytes from there to the end of the containing
  /// segment (or section), for a virtual address; false if not in the file.
  bool addressToOffset(uint64_t Addr, uint64_t &Off, uint64_t &Avail) const;
  /// Collects the relocations that patch section SecIndex, keyed by offset
  /// in it, for resolvePointer: libraries hold thousands of wrappers and
  /// hundreds of thousands of relocations, too many to search per wrapper.
  bool indexRelocations(size_t SecIndex, std::string &Err);
  /// The relocated value of the 8-byte pointer at byte SlotInSec of section
  /// SecIndex (whose relocations were indexed). Sets Off and Avail (as for
  /// addressToOffset) and Addr (the virtual address, 0 in objects).
  bool resolvePointer(size_t SecIndex, uint64_t SlotInSec, uint64_t &Addr,
                      uint64_t &Off, uint64_t &Avail, std::string &Err) const;
  const Section *sectionAtOffset(uint64_t Off) const {
    for (const Section &S : Sections)
      if (S.Type != SHT_NOBITS && S.Type != SHT_NULL && S.Size != 0 &&
          Off >= S.Offset && Off - S.Offset < S.Size)
        return &S;
    return nullptr;
  }
  size_t indexOf(const Section *S) const { return S - Sections.data(); }
  uint16_t type() const { return Type; }
  uint16_t machine() const { return Machine; }

private:
  bool inFile(uint64_t Off, uint64_t Len) const {
    return Off <= Size && Len <= Size - Off;
  }
  bool relativeType(uint32_t T) const;
  bool absolute64Type(uint32_t T) const;

  const uint8_t *D;
  size_t Size;
  uint16_t Type = 0, Machine = 0;
  std::vector<Section> Sections;
  std::vector<Segment> Segments;
  struct Reloc {
    uint32_t Type, Symbol, RelocSection;
    int64_t Addend;
  };
  std::unordered_map<uint64_t, Reloc> Relocs;
};

bool ElfView::relativeType(uint32_t T) const {
  return (Machine == EM_X86_64 && T == R_X86_64_RELATIVE) ||
         (Machine == EM_AARCH64 && T == R_AARCH64_RELATIVE) ||
         (Machine == EM_PPC64 && T == R_PPC64_RELATIVE);
}

bool ElfView::absolute64Type(uint32_t T) const {
  return (Machine == EM_X86_64 && T == R_X86_64_64) ||
         (Machine == EM_AARCH64 && T == R_AARCH64_ABS64) ||
         (Machine == EM_PPC64 && T == R_PPC64_ADDR64);
}

bool ElfView::parse(std::string &Err) {
  if (Size >= 8 && std::memcmp(D, "!<arch>\n", 8) == 0) {
    Err = "a static library (ar archive); unpack its objects with `ar x` and "
          "look at those";
    return false;
  }
  if (Size < 4 || std::memcmp(D, ELFMAG, SELFMAG) != 0) {
    Err = "not an ELF file or a fatbin (starts with " + leadingBytes(D, Size) +
          ")";
    return false;
  }
  if (Size < EI_NIDENT || D[EI_CLASS] != ELFCLASS64) {
    Err = "not a 64-bit ELF file; only 64-bit little-endian ELF is supported";
    return false;
  }
  if (D[EI_DATA] != ELFDATA2LSB) {
    Err = "big-endian ELF file; only 64-bit little-endian ELF is supported";
    return false;
  }
  if (Size < sizeof(Elf64_Ehdr)) {
    Err = "truncated file: " + hex(Size) +
          " bytes, shorter than the 0x40-byte ELF header";
    return false;
  }
  Elf64_Ehdr H;
  std::memcpy(&H, D, sizeof(H));
  Type = H.e_type;
  Machine = H.e_machine;

  if (H.e_phnum != 0) {
    if (H.e_phentsize < sizeof(Elf64_Phdr) ||
        !inFile(H.e_phoff, uint64_t(H.e_phnum) * H.e_phentsize)) {
      Err = "truncated file: program header table at " + hex(H.e_phoff) + " (" +
            std::to_string(H.e_phnum) +
            " entries) extends past the end of the file (size " + hex(Size) +
            ")";
      return false;
    }
    for (unsigned I = 0; I < H.e_phnum; ++I) {
      Elf64_Phdr P;
      std::memcpy(&P, D + H.e_phoff + uint64_t(I) * H.e_phentsize, sizeof(P));
      if (P.p_type == PT_LOAD)
        Segments.push_back({P.p_vaddr, P.p_offset, P.p_filesz});
    }
  }

  if (H.e_shoff == 0) {
    Err = "the file has no section headers, so its .nvFatBinSegment cannot "
          "be found";
    return false;
  }
  if (H.e_shentsize < sizeof(Elf64_Shdr) || !inFile(H.e_shoff, H.e_shentsize)) {
    Err = "truncated file: section header table at " + hex(H.e_shoff) +
          " extends past the end of the file (size " + hex(Size) + ")";
    return false;
  }
  auto ShdrAt = [&](uint64_t I) {
    Elf64_Shdr S;
    std::memcpy(&S, D + H.e_shoff + I * H.e_shentsize, sizeof(S));
    return S;
  };
  // Section 0 holds the real count and string table index when they do not
  // fit the ELF header's 16-bit fields.
  Elf64_Shdr First = ShdrAt(0);
  uint64_t Count = H.e_shnum ? H.e_shnum : First.sh_size;
  uint64_t StrIndex = H.e_shstrndx == SHN_XINDEX ? First.sh_link : H.e_shstrndx;
  if (Count > (Size - H.e_shoff) / H.e_shentsize) {
    Err = "truncated file: section header table at " + hex(H.e_shoff) + " (" +
          std::to_string(Count) +
          " entries) extends past the end of the file (size " + hex(Size) + ")";
    return false;
  }
  if (StrIndex >= Count) {
    Err = "section name table index " + std::to_string(StrIndex) +
          " is out of range (" + std::to_string(Count) + " sections)";
    return false;
  }
  Elf64_Shdr Str = ShdrAt(StrIndex);
  if (Str.sh_type == SHT_NOBITS || !inFile(Str.sh_offset, Str.sh_size)) {
    Err = "truncated file: section name table at " + hex(Str.sh_offset) +
          " extends past the end of the file (size " + hex(Size) + ")";
    return false;
  }
  const char *Names = reinterpret_cast<const char *>(D + Str.sh_offset);
  for (uint64_t I = 0; I < Count; ++I) {
    Elf64_Shdr S = ShdrAt(I);
    Section Sec{"",        S.sh_type, S.sh_flags, S.sh_addr,   S.sh_offset,
                S.sh_size, S.sh_link, S.sh_info,  S.sh_entsize};
    if (S.sh_name < Str.sh_size) {
      const char *N = Names + S.sh_name;
      Sec.Name.assign(N, strnlen(N, Str.sh_size - S.sh_name));
    }
    Sections.push_back(std::move(Sec));
  }
  return true;
}

bool ElfView::addressToOffset(uint64_t Addr, uint64_t &Off,
                              uint64_t &Avail) const {
  for (const Segment &S : Segments)
    if (Addr >= S.VAddr && Addr - S.VAddr < S.FileSize) {
      Off = S.Offset + (Addr - S.VAddr);
      Avail = S.FileSize - (Addr - S.VAddr);
      return true;
    }
  // Without program headers (or for an address they do not cover) the
  // allocated sections still give the mapping.
  for (const Section &S : Sections)
    if ((S.Flags & SHF_ALLOC) && S.Type != SHT_NOBITS && S.Addr != 0 &&
        Addr >= S.Addr && Addr - S.Addr < S.Size) {
      Off = S.Offset + (Addr - S.Addr);
      Avail = S.Size - (Addr - S.Addr);
      return true;
    }
  return false;
}

bool ElfView::indexRelocations(size_t SecIndex, std::string &Err) {
  const Section &Sec = Sections[SecIndex];
  for (size_t RI = 0; RI < Sections.size(); ++RI) {
    const Section &R = Sections[RI];
    // Objects tie a relocation section to the section it patches; linked
    // files keep dynamic relocations for all sections together.
    if (R.Type != SHT_RELA || (Type == ET_REL && R.Info != SecIndex))
      continue;
    if (R.EntSize < sizeof(Elf64_Rela) || !inFile(R.Offset, R.Size)) {
      Err = "malformed relocation section " + R.Name;
      return false;
    }
    for (uint64_t I = 0; I + R.EntSize <= R.Size; I += R.EntSize) {
      Elf64_Rela Rel;
      std::memcpy(&Rel, D + R.Offset + I, sizeof(Rel));
      uint64_t Where = Rel.r_offset;
      if (Type != ET_REL) {
        if (Where < Sec.Addr || Where - Sec.Addr >= Sec.Size)
          continue;
        Where -= Sec.Addr;
      }
      Relocs[Where] = {static_cast<uint32_t>(ELF64_R_TYPE(Rel.r_info)),
                       static_cast<uint32_t>(ELF64_R_SYM(Rel.r_info)),
                       static_cast<uint32_t>(RI), Rel.r_addend};
    }
  }
  return true;
}

bool ElfView::resolvePointer(size_t SecIndex, uint64_t SlotInSec,
                             uint64_t &Addr, uint64_t &Off, uint64_t &Avail,
                             std::string &Err) const {
  const Section &Sec = Sections[SecIndex];
  Addr = load<uint64_t>(D + Sec.Offset + SlotInSec);
  auto It = Relocs.find(SlotInSec);
  const Reloc *Rel = It == Relocs.end() ? nullptr : &It->second;

  if (Type == ET_REL) {
    // In an object the pointer is a relocation against a symbol (normally
    // the .nv_fatbin section symbol) plus an addend.
    if (!Rel) {
      Err = "no relocation gives the container pointer in this object";
      return false;
    }
    if (!absolute64Type(Rel->Type)) {
      Err = "unexpected relocation type " + std::to_string(Rel->Type) +
            " for the container pointer";
      return false;
    }
    const Section &RelSec = Sections[Rel->RelocSection];
    const Section *Sym =
        RelSec.Link < Sections.size() ? &Sections[RelSec.Link] : nullptr;
    if (!Sym || Sym->EntSize < sizeof(Elf64_Sym) ||
        !inFile(Sym->Offset, Sym->Size) ||
        Rel->Symbol >= Sym->Size / Sym->EntSize) {
      Err = "relocation of the container pointer names symbol " +
            std::to_string(Rel->Symbol) + " outside the symbol table";
      return false;
    }
    Elf64_Sym S;
    std::memcpy(&S, D + Sym->Offset + Rel->Symbol * Sym->EntSize, sizeof(S));
    if (S.st_shndx == SHN_UNDEF || S.st_shndx >= Sections.size()) {
      Err = "the container pointer refers to an undefined symbol";
      return false;
    }
    const Section &Target = Sections[S.st_shndx];
    uint64_t InTarget = S.st_value + uint64_t(Rel->Addend);
    if (Target.Type == SHT_NOBITS || InTarget >= Target.Size) {
      Err = "the container pointer (" + Target.Name + " + " + hex(InTarget) +
            ") is outside the contents of " + Target.Name;
      return false;
    }
    Addr = 0;
    Off = Target.Offset + InTarget;
    Avail = Target.Size - InTarget;
    return true;
  }

  // Position-independent files leave the pointer to the dynamic loader: the
  // addend of a RELATIVE relocation is the link-time address (the stored
  // value may be 0, as lld leaves it by default).
  if (Rel && relativeType(Rel->Type))
    Addr = uint64_t(Rel->Addend);
  if (Addr == 0) {
    Err = "null container pointer";
    return false;
  }
  if (!addressToOffset(Addr, Off, Avail)) {
    Err = "container address " + hex(Addr) +
          " is not in any loaded segment or section of the file";
    return false;
  }
  return true;
}

bool readWholeFile(const std::string &Path, std::string &Storage,
                   std::string &Err) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    Err = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  struct stat St;
  if (fstat(Fd, &St) != 0) {
    Err = std::string("cannot stat: ") + std::strerror(errno);
    close(Fd);
    return false;
  }
  if (!S_ISREG(St.st_mode)) {
    Err = S_ISDIR(St.st_mode) ? "is a directory" : "not a regular file";
    close(Fd);
    return false;
  }
  Storage.resize(St.st_size);
  size_t Done = 0;
  while (Done < Storage.size()) {
    ssize_t N = read(Fd, Storage.data() + Done, Storage.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Err = std::string("cannot read: ") +
            (N < 0 ? std::strerror(errno) : "file shrank while reading");
      close(Fd);
      return false;
    }
    Done += N;
  }
  close(Fd);
  return true;
}

/// A standalone fatbin file (`nvcc -fatbin`): containers back to back.
bool readFatbinFile(const std::string &Storage, std::vector<Container> &Out,
                    std::string &Err) {
  const auto *D = reinterpret_cast<const uint8_t *>(Storage.data());
  uint64_t Off = 0;
  while (Off < Storage.size()) {
    Container C;
    if (!parseContainer(D + Off, Storage.size() - Off, C, Err)) {
      Err = "container " + std::to_string(Out.size()) + " at file offset " +
            hex(Off) + ": " + Err;
      return false;
    }
    C.FileOffset = Off;
    Off += C.TotalSize;
    Out.push_back(std::move(C));
    // Containers are 8-byte aligned; trailing zero padding ends the file.
    while (Off < Storage.size() && D[Off] == 0)
      ++Off;
  }
  return true;
}

} // namespace

bool readProgramFatbins(const std::string &Path, std::string &Storage,
                        std::vector<Container> &Out, std::string &Err) {
  Out.clear();
  if (!readWholeFile(Path, Storage, Err))
    return false;
  const auto *D = reinterpret_cast<const uint8_t *>(Storage.data());
  if (Storage.size() >= 4 && load<uint32_t>(D) == ContainerMagic)
    return readFatbinFile(Storage, Out, Err);

  ElfView Elf(D, Storage.size());
  if (!Elf.parse(Err))
    return false;
  const Section *Seg = Elf.find(".nvFatBinSegment");
  if (!Seg && Elf.machine() == EM_CUDA) {
    Err = "this is a cubin (device code ELF), not a host program; it holds "
          "no fatbin containers";
    return false;
  }
  if (!Seg) {
    Err = "no .nvFatBinSegment section: the file contains no device code "
          "registered by nvcc";
    return false;
  }
  if (Seg->Type == SHT_NOBITS || Seg->Offset > Storage.size() ||
      Seg->Size > Storage.size() - Seg->Offset) {
    Err = "truncated file: .nvFatBinSegment at " + hex(Seg->Offset) + " (" +
          hex(Seg->Size) + " bytes) extends past the end of the file (size " +
          hex(Storage.size()) + ")";
    return false;
  }
  if (Seg->Size % WrapperSize != 0)
    CUHIP_DEBUG(".nvFatBinSegment size 0x%llx is not a multiple of the "
                "24-byte wrapper; ignoring the last 0x%llx bytes",
                static_cast<unsigned long long>(Seg->Size),
                static_cast<unsigned long long>(Seg->Size % WrapperSize));
  size_t SegIndex = Elf.indexOf(Seg);
  if (!Elf.indexRelocations(SegIndex, Err))
    return false;
  for (uint64_t I = 0; I < Seg->Size / WrapperSize; ++I) {
    uint64_t InSec = I * WrapperSize;
    const uint8_t *W = D + Seg->Offset + InSec;
    std::string Where =
        "wrapper " + std::to_string(I) + " at " +
        hex(Elf.type() == ET_REL ? Seg->Offset + InSec : Seg->Addr + InSec) +
        ": ";
    uint32_t Magic = load<uint32_t>(W);
    uint32_t Version = load<uint32_t>(W + 4);
    if (Magic != WrapperMagic) {
      Err = Where + "bad magic " + hex(Magic) + ", expected 0x466243b1";
      return false;
    }
    if (Version != 1 && Version != 2) {
      Err = Where + "unsupported wrapper version " + std::to_string(Version) +
            " (known: 1, 2)";
      return false;
    }
    uint64_t Addr, Off, Avail;
    if (!Elf.resolvePointer(SegIndex, InSec + 8, Addr, Off, Avail, Err)) {
      Err = Where + Err;
      return false;
    }
    if (Off > Storage.size() || Avail > Storage.size() - Off) {
      Err = Where + "truncated file: the container at file offset " + hex(Off) +
            " (" + hex(Avail) +
            " bytes) extends past the end of the file "
            "(size " +
            hex(Storage.size()) + ")";
      return false;
    }
    Container C;
    if (!parseContainer(D + Off, Avail, C, Err)) {
      Err = Where + Err;
      return false;
    }
    C.WrapperVersion = Version;
    C.WrapperExtra = load<uint64_t>(W + 16);
    C.Address = Addr;
    C.FileOffset = Off;
    if (const Section *S = Elf.sectionAtOffset(Off))
      C.Section = S->Name;
    Out.push_back(std::move(C));
  }
  if (Out.empty()) {
    Err = ".nvFatBinSegment holds no wrappers";
    return false;
  }
  return true;
}

} // namespace cuhip::fatbin
