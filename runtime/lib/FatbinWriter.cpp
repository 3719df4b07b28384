//===- FatbinWriter.cpp - Writing fatbin containers around PTX ------------===//
//
// The writing half of Fatbin.cpp's layout, limited to what cuhip produces:
// uncompressed PTX entries for 64-bit Linux. Entry header fields written
// (offsets within the 80-byte header): 0 kind (1, PTX), 4 header size, 8
// padded payload size, 24/26 PTX ISA minor/major, 28 sm, 40 flags (64-bit,
// Linux), 56 uncompressed size. The payload is the text with its NUL,
// padded to 8 bytes, as nvcc stores PTX under --no-compress.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/FatbinWriter.h"

#include "cuhip/runtime/Fatbin.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace cuhip::fatbin {
namespace {

constexpr size_t ContainerHeaderSize = 16;
constexpr size_t PtxEntryHeaderSize = 80;

template <typename T>
void put(std::vector<uint8_t> &Bytes, size_t Offset, T Value) {
  std::memcpy(&Bytes[Offset], &Value, sizeof Value);
}

size_t paddedPayload(const std::string &Ptx) {
  return (Ptx.size() + 1 + 7) & ~size_t(7);
}

} // namespace

bool ptxIsaVersion(const std::string &Ptx, uint16_t &Major, uint16_t &Minor) {
  size_t Pos = 0;
  while ((Pos = Ptx.find(".version", Pos)) != std::string::npos) {
    // Only a directive at the start of a line (after blanks) counts.
    size_t LineStart = Ptx.rfind('\n', Pos);
    LineStart = LineStart == std::string::npos ? 0 : LineStart + 1;
    bool AtLineStart = true;
    for (size_t I = LineStart; I < Pos; ++I)
      if (!std::isspace(static_cast<unsigned char>(Ptx[I])))
        AtLineStart = false;
    Pos += 8;
    if (!AtLineStart)
      continue;
    unsigned Maj = 0, Min = 0;
    int Used = 0;
    if (std::sscanf(Ptx.c_str() + Pos, " %u.%u%n", &Maj, &Min, &Used) == 2 &&
        Maj < 100 && Min < 100) {
      Major = static_cast<uint16_t>(Maj);
      Minor = static_cast<uint16_t>(Min);
      return true;
    }
  }
  return false;
}

std::vector<uint8_t> writePtxContainer(const std::vector<PtxImage> &Images) {
  size_t Total = ContainerHeaderSize;
  for (const PtxImage &I : Images)
    Total += PtxEntryHeaderSize + paddedPayload(I.Ptx);
  std::vector<uint8_t> Bytes(Total, 0);
  put<uint32_t>(Bytes, 0, ContainerMagic);
  put<uint16_t>(Bytes, 4, 1);
  put<uint16_t>(Bytes, 6, ContainerHeaderSize);
  put<uint64_t>(Bytes, 8, Total - ContainerHeaderSize);
  size_t At = ContainerHeaderSize;
  for (const PtxImage &I : Images) {
    uint16_t Major = I.IsaMajor, Minor = I.IsaMinor;
    if (Major == 0 && !ptxIsaVersion(I.Ptx, Major, Minor)) {
      Major = 9;
      Minor = 0;
    }
    size_t Padded = paddedPayload(I.Ptx);
    put<uint16_t>(Bytes, At + 0, static_cast<uint16_t>(EntryKind::PTX));
    put<uint32_t>(Bytes, At + 4, PtxEntryHeaderSize);
    put<uint64_t>(Bytes, At + 8, Padded);
    put<uint16_t>(Bytes, At + 24, Minor);
    put<uint16_t>(Bytes, At + 26, Major);
    put<uint32_t>(Bytes, At + 28, I.Sm);
    put<uint64_t>(Bytes, At + 40, Flag64Bit | FlagLinux);
    put<uint64_t>(Bytes, At + 56, I.Ptx.size() + 1);
    std::memcpy(&Bytes[At + PtxEntryHeaderSize], I.Ptx.data(), I.Ptx.size());
    At += PtxEntryHeaderSize + Padded;
  }
  return Bytes;
}

RegistrableFatbin::RegistrableFatbin(const std::vector<PtxImage> &Images)
    : Bytes(writePtxContainer(Images)),
      Wrapper{WrapperMagic, 1, Bytes.data(), nullptr} {}

RegistrableFatbin::RegistrableFatbin(const std::string &Ptx)
    : RegistrableFatbin(std::vector<PtxImage>{{80, Ptx, 9, 0}}) {}

} // namespace cuhip::fatbin
