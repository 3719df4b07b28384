//===- Fatbin.h - Reading nvcc fatbin containers ----------------*- C++ -*-===//
//
// nvcc embeds device code as "fatbin" containers: a 16-byte header followed
// by entries, each a header plus a PTX or ELF (cubin) payload that may be
// zstd or LZ4 compressed. This reader finds them (through the 24-byte
// registration wrappers of a live process or of an ELF file on disk),
// validates every size and offset against the bytes that really exist, and
// decompresses payloads. Input is untrusted: every failure is a returned
// message naming the entry, the offset and the reason, never a crash. The
// layout is documented where it is decoded, in Fatbin.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cuhip::fatbin {

/// Magic of a fatbin container (bytes 50 ed 55 ba).
inline constexpr uint32_t ContainerMagic = 0xBA55ED50;
/// Magic of the registration wrapper (`__fatBinC_Wrapper_t`).
inline constexpr uint32_t WrapperMagic = 0x466243B1;
/// Size of a registration wrapper: u32 magic, u32 version, u64 container
/// pointer, u64 extra pointer (version 2: see parsePrelinkedContainers).
inline constexpr size_t WrapperSize = 24;

/// Entry header flag bits that the reader interprets.
inline constexpr uint64_t Flag64Bit = 0x1;
inline constexpr uint64_t FlagDebug = 0x2;
inline constexpr uint64_t FlagLinux = 0x10;
/// Compression flag of toolkits before CUDA 12.4 (LZ4 block format).
inline constexpr uint64_t FlagCompressedLz4 = 0x2000;
/// Compression flag of CUDA 12.4 and later (zstd frames).
inline constexpr uint64_t FlagCompressedZstd = 0x8000;

enum class EntryKind : uint16_t { PTX = 1, ELF = 2, Unknown = 0xffff };
enum class Compression { None, Zstd, Lz4 };

struct Entry {
  EntryKind Kind = EntryKind::Unknown;
  uint16_t RawKind = 0;
  uint32_t Sm = 0; // e.g. 75
  // PTX ISA version for PTX entries, ELF (cubin ABI) version for ELF ones.
  uint16_t IsaMajor = 0, IsaMinor = 0;
  uint64_t Flags = 0;
  Compression Comp = Compression::None;
  /// Bytes of payload actually stored (the compressed size when compressed).
  uint64_t StoredSize = 0;
  /// Size after decompression, from the header; 0 if unknown.
  uint64_t UncompressedSize = 0;
  /// Source name recorded by `fatbinary --ident` (nvcc records it for -G
  /// builds), else "".
  std::string Name;
  /// ptxas options recorded for PTX entries (`--compile-only` under -rdc,
  /// `fatbinary --cmdline`), else "".
  std::string Options;
  /// Points into the container memory.
  const uint8_t *Payload = nullptr;
  /// Offset of the entry header from the container start.
  uint64_t OffsetInContainer = 0;
  /// Position of the entry in its container (for messages).
  unsigned Index = 0;
  /// Size of the entry header (the payload starts this far after it).
  uint32_t HeaderSize = 0;
  /// Size reserved for the payload, including padding.
  uint64_t PaddedSize = 0;
};

struct Container {
  const uint8_t *Base = nullptr;
  /// Container header plus all entries.
  uint64_t TotalSize = 0;
  uint16_t Version = 0;
  std::vector<Entry> Entries;

  // Where the container came from; filled by parseWrapper and
  // readProgramFatbins, left at the defaults by parseContainer.
  /// Version of the wrapper that points here: 1 for a translation unit's
  /// code, 2 for the device-linked image (see parsePrelinkedContainers); 0
  /// when not reached through a wrapper. In a file, nvcc 13 programs always
  /// have a version 2 wrapper (with no or an empty image unless -rdc); only
  /// -rdc programs register it.
  uint32_t WrapperVersion = 0;
  /// The wrapper's last field (version 2: the prelinked fatbin array), as an
  /// address of the process or of the file.
  uint64_t WrapperExtra = 0;
  /// Address of the container: in the process (parseWrapper), or the
  /// virtual address in a linked file (readProgramFatbins); 0 in objects and
  /// standalone fatbin files, which have no addresses.
  uint64_t Address = 0;
  /// readProgramFatbins: the section holding the container, or "".
  std::string Section;
  /// readProgramFatbins: offset of the container in the file.
  uint64_t FileOffset = 0;
};

/// Parse a container (magic 0xBA55ED50) at Data; Avail is the number of bytes
/// known to be readable there (SIZE_MAX if unknown). Every size and offset is
/// checked against the container and Avail; on bad input returns false with
/// a message naming the entry, its offset and the problem, and leaves Out
/// unchanged.
bool parseContainer(const void *Data, size_t Avail, Container &Out,
                    std::string &Err);

/// Parse the container a registration wrapper (what __cudaRegisterFatBinary
/// receives) points to, in this process. Each range is checked to be
/// readable before it is touched, so a wrapper pointing to garbage or to
/// unmapped memory gives an error, not a crash.
bool parseWrapper(const void *Wrapper, Container &Out, std::string &Err);

/// The per-translation-unit containers behind the device-linked image of an
/// -rdc program. Such a program calls __cudaRegisterFatBinary once, with a
/// version 2 wrapper whose container holds only the linked SASS; its last
/// field points to a null-terminated array of pointers to the containers the
/// device linker started from (each with ELF and PTX entries), filled in by
/// the __cudaRegisterLinkedBinary_* functions before registration. Linked
/// comes from parseWrapper; for a version 1 wrapper Out is empty. Every
/// pointer is checked to be readable before it is followed.
bool parsePrelinkedContainers(const Container &Linked,
                              std::vector<Container> &Out, std::string &Err);

/// The payload of E as plain bytes: PTX text without trailing NULs, or the
/// ELF image. Corrupt compressed data gives an error naming the entry.
bool decompressPayload(const Entry &E, std::string &Out, std::string &Err);

/// All fatbin containers of an ELF program, shared library or relocatable
/// object on disk, found through the wrappers of its `.nvFatBinSegment`
/// section (a standalone `nvcc -fatbin` file is accepted too). The file is
/// read into Storage, which the returned containers point into.
bool readProgramFatbins(const std::string &Path, std::string &Storage,
                        std::vector<Container> &Out, std::string &Err);

/// The PTX entry Accept returns true for that a device of compute
/// capability DeviceSm (major * 10 + minor) would run: the highest sm not
/// above DeviceSm, as NVIDIA's driver chooses (a program's host code that
/// reads the capability then agrees with the kernels it gets). When every
/// entry is for a newer sm, the lowest of them: cuhip compiles any PTX it
/// accepts, where NVIDIA's driver would refuse. Among entries of one sm,
/// the newest ISA version. DeviceSm 0 means no device limit (the highest
/// sm). nullptr if Accept takes none.
const Entry *choosePtx(const Container &C,
                       const std::function<bool(const Entry &)> &Accept,
                       unsigned DeviceSm = 0);

/// "ptx", "elf" or "unknown".
std::string_view kindName(EntryKind K);
/// "none", "zstd" or "lz4".
std::string_view compressionName(Compression C);

/// Whether [Addr, Addr + Size) is readable in this process (used by
/// parseWrapper; exposed for callers that validate other registration data).
bool isReadable(const void *Addr, size_t Size);

} // namespace cuhip::fatbin
