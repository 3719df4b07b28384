//===- FatbinTest.cpp - Tests for the fatbin reader -----------------------===//
//
// Builds fatbin containers, registration wrappers and small ELF files by
// hand (so no CUDA toolkit is needed) and checks that the reader decodes
// them, decompresses zstd and LZ4 payloads, chooses PTX, and turns every
// kind of corruption it can meet in the wild (bad magic, truncation, sizes
// past the end, garbage compressed data, wrappers into unmapped memory) into
// an error message that names the problem instead of a crash.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Fatbin.h"
#include "cuhip/runtime/FatbinWriter.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <elf.h>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#include <lz4.h>
#include <zstd.h>

using namespace cuhip::fatbin;

namespace {

::testing::AssertionResult contains(const std::string &Message,
                                    const std::string &Part) {
  if (Message.find(Part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "message \"" << Message << "\" does not contain \"" << Part << "\"";
}
#define EXPECT_CONTAINS(Message, Part) EXPECT_TRUE(contains(Message, Part))

const char *const SamplePtx = "\n\n.version 9.0\n.target sm_75\n"
                              ".address_size 64\n\n"
                              ".visible .entry k(\n.param .u64 k_param_0\n)\n"
                              "{\n.reg .b64 %rd<2>;\nret;\n}\n";

template <typename T> void put(std::string &S, size_t Off, T V) {
  if (S.size() < Off + sizeof(T))
    S.resize(Off + sizeof(T));
  std::memcpy(S.data() + Off, &V, sizeof(T));
}

/// One entry as nvcc lays it out. The header size follows from the name and
/// options unless HeaderSize overrides it.
struct EntrySpec {
  uint16_t Kind = 1;
  uint32_t Sm = 75;
  uint16_t Major = 9, Minor = 0;
  uint64_t Flags = Flag64Bit | FlagLinux;
  std::string Payload;
  uint32_t CompressedSize = 0;
  uint64_t UncompressedSize = 0;
  std::string Name, Options;
  std::optional<uint32_t> HeaderSize;
  std::optional<uint64_t> PaddedSize;
};

std::string entryBytes(const EntrySpec &E) {
  std::string H(64, '\0');
  if (!E.Options.empty()) {
    // Options descriptor (offset, length) at 64, the string after it.
    put<uint32_t>(H, 20, 64);
    put<uint32_t>(H, 64, 72);
    put<uint32_t>(H, 68, E.Options.size());
    H += E.Options;
  }
  if (!E.Name.empty()) {
    put<uint32_t>(H, 32, H.size());
    put<uint32_t>(H, 36, E.Name.size());
    H += E.Name;
  }
  H.resize((H.size() + 7) & ~size_t(7), '\0');
  // A larger plausible header size is honoured (zero-filled); smaller or
  // absurd ones only go into the field, to test the reader's checks.
  if (E.HeaderSize && *E.HeaderSize > H.size() && *E.HeaderSize <= 256)
    H.resize(*E.HeaderSize, '\0');
  uint64_t Padded = (E.Payload.size() + 7) & ~uint64_t(7);
  put<uint16_t>(H, 0, E.Kind);
  put<uint16_t>(H, 2, 0x0101);
  put<uint32_t>(H, 4, E.HeaderSize.value_or(H.size()));
  put<uint64_t>(H, 8, E.PaddedSize.value_or(Padded));
  put<uint32_t>(H, 16, E.CompressedSize);
  put<uint16_t>(H, 24, E.Minor);
  put<uint16_t>(H, 26, E.Major);
  put<uint32_t>(H, 28, E.Sm);
  put<uint64_t>(H, 40, E.Flags);
  put<uint64_t>(H, 56, E.UncompressedSize);
  std::string Payload = E.Payload;
  Payload.resize(Padded, '\0');
  return H + Payload;
}

std::string containerBytes(const std::vector<EntrySpec> &Entries,
                           std::optional<uint64_t> EntriesSize = {}) {
  std::string Body;
  for (const EntrySpec &E : Entries)
    Body += entryBytes(E);
  std::string C(16, '\0');
  put<uint32_t>(C, 0, ContainerMagic);
  put<uint16_t>(C, 4, 1);
  put<uint16_t>(C, 6, 16);
  put<uint64_t>(C, 8, EntriesSize.value_or(Body.size()));
  return C + Body;
}

EntrySpec plainPtx(uint32_t Sm = 75, uint16_t Major = 9, uint16_t Minor = 0) {
  EntrySpec E;
  E.Sm = Sm;
  E.Major = Major;
  E.Minor = Minor;
  E.Payload = std::string(SamplePtx) + std::string(3, '\0');
  return E;
}

EntrySpec elfEntry(uint32_t Sm = 75) {
  EntrySpec E;
  E.Kind = 2;
  E.Sm = Sm;
  E.Major = 1;
  E.Minor = 8;
  E.Payload = "\x7f"
              "ELF fake cubin bytes";
  return E;
}

std::string zstdCompress(const std::string &In) {
  std::string Out(ZSTD_compressBound(In.size()), '\0');
  size_t N = ZSTD_compress(Out.data(), Out.size(), In.data(), In.size(), 3);
  EXPECT_FALSE(ZSTD_isError(N));
  Out.resize(N);
  return Out;
}

/// A zstd frame whose header does not record the content size, as a
/// streaming compressor writes it.
std::string zstdCompressUnknownSize(const std::string &In) {
  ZSTD_CCtx *C = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(C, ZSTD_c_contentSizeFlag, 0);
  std::string Out(ZSTD_compressBound(In.size()) + 64, '\0');
  ZSTD_inBuffer Src = {In.data(), In.size(), 0};
  ZSTD_outBuffer Dst = {Out.data(), Out.size(), 0};
  size_t R = ZSTD_compressStream2(C, &Dst, &Src, ZSTD_e_end);
  EXPECT_EQ(R, 0u);
  ZSTD_freeCCtx(C);
  Out.resize(Dst.pos);
  return Out;
}

std::string lz4Compress(const std::string &In) {
  std::string Out(LZ4_compressBound(In.size()), '\0');
  int N = LZ4_compress_default(In.data(), Out.data(), In.size(), Out.size());
  EXPECT_GT(N, 0);
  Out.resize(N);
  return Out;
}

EntrySpec zstdPtx(const std::string &Text) {
  EntrySpec E;
  E.Flags = Flag64Bit | FlagLinux | FlagCompressedZstd;
  E.Payload = zstdCompress(Text);
  E.CompressedSize = E.Payload.size();
  E.UncompressedSize = Text.size();
  return E;
}

EntrySpec lz4Ptx(const std::string &Text) {
  EntrySpec E;
  E.Major = 7;
  E.Minor = 3;
  E.Sm = 52;
  E.HeaderSize = 72; // the header size of the LZ4-era toolkits
  E.Flags = Flag64Bit | FlagLinux | FlagCompressedLz4;
  E.Payload = lz4Compress(Text);
  E.CompressedSize = E.Payload.size();
  E.UncompressedSize = Text.size();
  return E;
}

/// Parses and expects failure; returns the message.
std::string parseError(const std::string &Bytes, size_t Avail = SIZE_MAX) {
  Container C;
  std::string Err;
  EXPECT_FALSE(
      parseContainer(Bytes.data(), std::min(Avail, Bytes.size()), C, Err));
  return Err;
}

std::string decompressError(const std::string &Bytes, unsigned Entry = 0) {
  Container C;
  std::string Err, Out;
  EXPECT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  if (C.Entries.size() <= Entry)
    return "no entry";
  EXPECT_FALSE(decompressPayload(C.Entries[Entry], Out, Err));
  EXPECT_TRUE(Out.empty());
  return Err;
}

//===----------------------------------------------------------------------===//
// Well-formed containers
//===----------------------------------------------------------------------===//

TEST(FatbinContainer, UncompressedPtx) {
  std::string Bytes = containerBytes({plainPtx()});
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  EXPECT_EQ(C.Version, 1);
  EXPECT_EQ(C.TotalSize, Bytes.size());
  ASSERT_EQ(C.Entries.size(), 1u);
  const Entry &E = C.Entries[0];
  EXPECT_EQ(E.Kind, EntryKind::PTX);
  EXPECT_EQ(E.RawKind, 1);
  EXPECT_EQ(E.Sm, 75u);
  EXPECT_EQ(E.IsaMajor, 9);
  EXPECT_EQ(E.IsaMinor, 0);
  EXPECT_EQ(E.Comp, Compression::None);
  EXPECT_EQ(E.OffsetInContainer, 16u);
  EXPECT_EQ(E.HeaderSize, 64u);
  EXPECT_EQ(E.Payload, reinterpret_cast<const uint8_t *>(Bytes.data()) + 80);
  EXPECT_EQ(E.StoredSize % 8, 0u);
  EXPECT_EQ(E.Name, "");
  std::string Text;
  ASSERT_TRUE(decompressPayload(E, Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx); // trailing NULs and padding dropped
}

// What `cuhip nvcc` writes around Clang's PTX reads back entry by entry,
// with the ISA version taken from each text's .version directive.
TEST(FatbinWriter, PtxContainerReadsBack) {
  std::string A = "//\n// comment .version 1.0\n.version 8.8\n.target sm_75\n";
  std::string B = ".version 9.0\n.target sm_90\n.address_size 64\n";
  std::vector<uint8_t> Bytes = cuhip::fatbin::writePtxContainer(
      {{75, A, 0, 0}, {90, B, 0, 0}});
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  EXPECT_EQ(C.TotalSize, Bytes.size());
  ASSERT_EQ(C.Entries.size(), 2u);
  EXPECT_EQ(C.Entries[0].Sm, 75u);
  EXPECT_EQ(C.Entries[0].IsaMajor, 8);
  EXPECT_EQ(C.Entries[0].IsaMinor, 8);
  EXPECT_EQ(C.Entries[1].Sm, 90u);
  EXPECT_EQ(C.Entries[1].IsaMajor, 9);
  EXPECT_EQ(C.Entries[1].IsaMinor, 0);
  std::string Text;
  ASSERT_TRUE(decompressPayload(C.Entries[0], Text, Err)) << Err;
  EXPECT_EQ(Text, A);
  ASSERT_TRUE(decompressPayload(C.Entries[1], Text, Err)) << Err;
  EXPECT_EQ(Text, B);
  cuhip::fatbin::RegistrableFatbin R(B);
  EXPECT_EQ(R.Wrapper.Magic, WrapperMagic);
  EXPECT_EQ(R.Wrapper.Data, R.Bytes.data());
}

TEST(FatbinContainer, HeaderSizesNamesAndOptionsComeFromTheData) {
  EntrySpec Ptx = plainPtx();
  Ptx.Name = "kernels.cu";
  Ptx.Options = "--compile-only";
  EntrySpec Elf = elfEntry();
  Elf.Name = " k.cu ";
  std::string Bytes = containerBytes({Elf, Ptx, elfEntry(80)});
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  ASSERT_EQ(C.Entries.size(), 3u);
  EXPECT_EQ(C.Entries[0].Kind, EntryKind::ELF);
  EXPECT_EQ(C.Entries[0].Name, "k.cu");
  EXPECT_EQ(C.Entries[0].HeaderSize, 72u);
  EXPECT_EQ(C.Entries[1].Kind, EntryKind::PTX);
  EXPECT_EQ(C.Entries[1].HeaderSize, 96u);
  EXPECT_EQ(C.Entries[1].Name, "kernels.cu");
  EXPECT_EQ(C.Entries[1].Options, "--compile-only");
  EXPECT_EQ(C.Entries[1].Index, 1u);
  EXPECT_EQ(C.Entries[2].Sm, 80u);
  EXPECT_EQ(C.Entries[2].Index, 2u);
  EXPECT_EQ(C.Entries[2].OffsetInContainer,
            16 + entryBytes(Elf).size() + entryBytes(Ptx).size());
  std::string Text;
  ASSERT_TRUE(decompressPayload(C.Entries[1], Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx);
  ASSERT_TRUE(decompressPayload(C.Entries[0], Text, Err)) << Err;
  EXPECT_EQ(Text.substr(0, 4), "\x7f"
                               "ELF");
}

TEST(FatbinContainer, EmptyContainer) {
  std::string Bytes = containerBytes({});
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  EXPECT_TRUE(C.Entries.empty());
  EXPECT_EQ(choosePtx(C, nullptr), nullptr);
}

TEST(FatbinContainer, ZstdPtx) {
  EntrySpec E = zstdPtx(SamplePtx);
  std::string Bytes = containerBytes({elfEntry(), E});
  Container C;
  std::string Err, Text;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  const Entry &P = C.Entries[1];
  EXPECT_EQ(P.Comp, Compression::Zstd);
  EXPECT_EQ(P.StoredSize, E.Payload.size());
  EXPECT_EQ(P.UncompressedSize, std::strlen(SamplePtx));
  ASSERT_TRUE(decompressPayload(P, Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx);
}

TEST(FatbinContainer, ZstdWithSizeOnlyInTheFrameOrNowhere) {
  EntrySpec FrameOnly = zstdPtx(SamplePtx);
  FrameOnly.UncompressedSize = 0;
  EntrySpec Nowhere = zstdPtx(SamplePtx);
  Nowhere.Payload = zstdCompressUnknownSize(SamplePtx);
  Nowhere.CompressedSize = Nowhere.Payload.size();
  Nowhere.UncompressedSize = 0;
  std::string Bytes = containerBytes({FrameOnly, Nowhere});
  Container C;
  std::string Err, Text;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  ASSERT_TRUE(decompressPayload(C.Entries[0], Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx);
  ASSERT_TRUE(decompressPayload(C.Entries[1], Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx);
}

TEST(FatbinContainer, Lz4Ptx) {
  // Long enough that LZ4 finds matches, so the test covers back-references.
  std::string Text;
  for (int I = 0; I < 50; ++I)
    Text += "add.s32 %r" + std::to_string(I) + ", %r1, %r2;\n";
  EntrySpec E = lz4Ptx(Text);
  ASSERT_LT(E.Payload.size(), Text.size());
  EntrySpec NoSize = lz4Ptx(Text);
  NoSize.UncompressedSize = 0;
  std::string Bytes = containerBytes({E, NoSize});
  Container C;
  std::string Err, Out;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  const Entry &P = C.Entries[0];
  EXPECT_EQ(P.Comp, Compression::Lz4);
  EXPECT_EQ(P.HeaderSize, 72u);
  EXPECT_EQ(P.Sm, 52u);
  EXPECT_EQ(P.StoredSize, E.Payload.size());
  ASSERT_TRUE(decompressPayload(P, Out, Err)) << Err;
  EXPECT_EQ(Out, Text);
  ASSERT_TRUE(decompressPayload(C.Entries[1], Out, Err)) << Err;
  EXPECT_EQ(Out, Text);
}

TEST(FatbinContainer, ZstdMagicWinsOverTheLz4Flag) {
  EntrySpec E = zstdPtx(SamplePtx);
  E.Flags = Flag64Bit | FlagLinux | FlagCompressedLz4;
  std::string Bytes = containerBytes({E});
  Container C;
  std::string Err, Text;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  EXPECT_EQ(C.Entries[0].Comp, Compression::Zstd);
  ASSERT_TRUE(decompressPayload(C.Entries[0], Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx);
}

TEST(FatbinContainer, Names) {
  EXPECT_EQ(kindName(EntryKind::PTX), "ptx");
  EXPECT_EQ(kindName(EntryKind::ELF), "elf");
  EXPECT_EQ(kindName(EntryKind::Unknown), "unknown");
  EXPECT_EQ(compressionName(Compression::None), "none");
  EXPECT_EQ(compressionName(Compression::Zstd), "zstd");
  EXPECT_EQ(compressionName(Compression::Lz4), "lz4");
}

TEST(FatbinChoosePtx, PicksTheNewestAccepted) {
  EntrySpec Old = plainPtx(75, 8, 0);
  EntrySpec Mid = plainPtx(86, 9, 0);
  EntrySpec MidNewerIsa = plainPtx(86, 9, 1);
  EntrySpec New = plainPtx(90, 9, 2);
  std::string Bytes =
      containerBytes({elfEntry(100), Old, New, MidNewerIsa, Mid});
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;

  const Entry *All = choosePtx(C, [](const Entry &) { return true; });
  ASSERT_NE(All, nullptr);
  EXPECT_EQ(All->Sm, 90u); // the sm_100 ELF entry is never chosen

  auto UpToIsa91 = [](const Entry &E) {
    return E.IsaMajor * 10 + E.IsaMinor <= 91;
  };
  const Entry *Limited = choosePtx(C, UpToIsa91);
  ASSERT_NE(Limited, nullptr);
  EXPECT_EQ(Limited->Sm, 86u);
  EXPECT_EQ(Limited->IsaMinor, 1); // same sm: the newer ISA wins

  const Entry *OnlyOld =
      choosePtx(C, [](const Entry &E) { return E.IsaMajor < 9; });
  ASSERT_NE(OnlyOld, nullptr);
  EXPECT_EQ(OnlyOld->Sm, 75u);

  EXPECT_EQ(choosePtx(C, [](const Entry &) { return false; }), nullptr);
  EXPECT_EQ(choosePtx(C, nullptr)->Sm, 90u);
}

TEST(FatbinChoosePtx, PicksWhatTheDeviceWouldRun) {
  // A device of capability 8.6 runs the compute_86 PTX, not the newer
  // compute_90 one, and of two compute_86 entries the newer ISA.
  EntrySpec Old = plainPtx(75, 8, 0);
  EntrySpec Mid = plainPtx(86, 9, 0);
  EntrySpec MidNewerIsa = plainPtx(86, 9, 1);
  EntrySpec New = plainPtx(90, 9, 2);
  std::string Bytes = containerBytes({New, Old, MidNewerIsa, Mid});
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), C, Err)) << Err;
  auto Any = [](const Entry &) { return true; };
  const Entry *E = choosePtx(C, Any, 86);
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->Sm, 86u);
  EXPECT_EQ(E->IsaMinor, 1);
  EXPECT_EQ(choosePtx(C, Any, 80)->Sm, 75u);
  EXPECT_EQ(choosePtx(C, Any, 120)->Sm, 90u);
  EXPECT_EQ(choosePtx(C, Any, 0)->Sm, 90u); // no device limit

  // Nothing the device could run: the lowest newer one, which cuhip
  // compiles anyway.
  std::string Newer = containerBytes({New, plainPtx(100, 9, 0)});
  Container N;
  ASSERT_TRUE(parseContainer(Newer.data(), Newer.size(), N, Err)) << Err;
  EXPECT_EQ(choosePtx(N, Any, 80)->Sm, 90u);
}

//===----------------------------------------------------------------------===//
// Corrupt containers
//===----------------------------------------------------------------------===//

TEST(FatbinCorrupt, WrongMagic) {
  std::string Bytes = containerBytes({plainPtx()});
  put<uint32_t>(Bytes, 0, 0x12345678);
  EXPECT_CONTAINS(parseError(Bytes), "bad magic 0x12345678");
  put<uint32_t>(Bytes, 0, 0x1EE55A01);
  EXPECT_CONTAINS(parseError(Bytes), "old-style fatbin");

  // A failed parse leaves the output alone.
  Container C;
  C.TotalSize = 1234;
  std::string Err;
  EXPECT_FALSE(parseContainer(Bytes.data(), Bytes.size(), C, Err));
  EXPECT_EQ(C.TotalSize, 1234u);
}

TEST(FatbinCorrupt, TruncatedContainerHeader) {
  std::string Bytes = containerBytes({plainPtx()});
  EXPECT_CONTAINS(parseError(Bytes, 10), "truncated header: 0xa bytes");
  Container C;
  std::string Err;
  EXPECT_FALSE(parseContainer(nullptr, 100, C, Err));
  EXPECT_CONTAINS(Err, "null pointer");
}

TEST(FatbinCorrupt, ContainerLargerThanAvailable) {
  std::string Bytes = containerBytes({plainPtx()});
  EXPECT_CONTAINS(
      parseError(Bytes, Bytes.size() - 1), "exceeds the " + [&] {
        char B[32];
        std::snprintf(B, sizeof(B), "0x%zx", Bytes.size() - 1);
        return std::string(B);
      }() + " bytes available");
  put<uint64_t>(Bytes, 8, UINT64_MAX); // would overflow header + entries
  EXPECT_CONTAINS(parseError(Bytes), "exceeds the");
  put<uint16_t>(Bytes, 6, 8);
  EXPECT_CONTAINS(parseError(Bytes),
                  "header size 0x8 is smaller than the 0x10-byte");
}

TEST(FatbinCorrupt, TruncatedEntryHeader) {
  std::string Bytes = containerBytes({plainPtx()});
  put<uint64_t>(Bytes, 8, 20); // the entries end inside the first header
  EXPECT_CONTAINS(parseError(Bytes),
                  "fatbin entry 0 at offset 0x10: truncated header: 0x14 "
                  "bytes left");
}

TEST(FatbinCorrupt, EntryPayloadPastTheEnd) {
  EntrySpec Bad = plainPtx();
  Bad.PaddedSize = 0x10000;
  std::string Bytes = containerBytes({elfEntry(), Bad});
  size_t Second = 16 + entryBytes(elfEntry()).size();
  char Want[128];
  std::snprintf(Want, sizeof(Want),
                "fatbin entry 1 at offset 0x%zx: payload size 0x10000 exceeds "
                "container size 0x%zx",
                Second, Bytes.size());
  EXPECT_CONTAINS(parseError(Bytes), Want);
}

TEST(FatbinCorrupt, EntryHeaderSizeZeroOrHuge) {
  EntrySpec Zero = plainPtx();
  Zero.HeaderSize = 0;
  EXPECT_CONTAINS(parseError(containerBytes({Zero})),
                  "fatbin entry 0 at offset 0x10: header size 0x0 is "
                  "smaller than the 0x40-byte minimum");
  EntrySpec Huge = plainPtx();
  Huge.HeaderSize = 0xffffffff;
  EXPECT_CONTAINS(parseError(containerBytes({elfEntry(), Huge})),
                  "fatbin entry 1 at offset 0x68: header size "
                  "0xffffffff exceeds container size");
}

TEST(FatbinCorrupt, CompressedSizeLargerThanPayload) {
  EntrySpec E = zstdPtx(SamplePtx);
  E.CompressedSize = E.Payload.size() + 100;
  EXPECT_CONTAINS(parseError(containerBytes({E})), "compressed size 0x");
  EXPECT_CONTAINS(parseError(containerBytes({E})),
                  "is larger than the payload size");
}

TEST(FatbinCorrupt, NameOutsideTheHeader) {
  EntrySpec E = plainPtx();
  E.Name = "a.cu";
  std::string Bytes = containerBytes({E});
  put<uint32_t>(Bytes, 16 + 36, 0x1000); // name length
  EXPECT_CONTAINS(parseError(Bytes),
                  "name (offset 0x40, length 0x1000) lies outside the "
                  "0x48-byte entry header");
}

TEST(FatbinCorrupt, GarbageZstd) {
  EntrySpec E = zstdPtx(SamplePtx);
  for (size_t I = 6; I < E.Payload.size(); ++I)
    E.Payload[I] = char(I * 37);
  EXPECT_CONTAINS(decompressError(containerBytes({E})),
                  "fatbin entry 0 at offset 0x10 (ptx sm_75): corrupt "
                  "zstd data");

  EntrySpec NotZstd = zstdPtx(SamplePtx);
  NotZstd.Payload = "\x01\x02\x03\x04 not a frame";
  NotZstd.CompressedSize = NotZstd.Payload.size();
  EXPECT_CONTAINS(decompressError(containerBytes({NotZstd})),
                  "payload is not a zstd frame (starts with 01 02 03 04)");

  EntrySpec Truncated = zstdPtx(SamplePtx);
  Truncated.CompressedSize -= 5;
  EXPECT_CONTAINS(decompressError(containerBytes({Truncated})),
                  "corrupt zstd data");
}

TEST(FatbinCorrupt, ZstdSizeDisagreesWithHeader) {
  EntrySpec E = zstdPtx(SamplePtx);
  E.UncompressedSize += 1;
  EXPECT_CONTAINS(decompressError(containerBytes({E})),
                  "but the entry header says");
}

TEST(FatbinCorrupt, ImplausibleUncompressedSize) {
  EntrySpec E = lz4Ptx(SamplePtx);
  E.UncompressedSize = uint64_t(1) << 40;
  EXPECT_CONTAINS(decompressError(containerBytes({E})),
                  "uncompressed size 0x10000000000 is implausibly large");
}

TEST(FatbinCorrupt, GarbageLz4) {
  EntrySpec E = lz4Ptx(SamplePtx);
  E.Payload = std::string("\xff\xff\xff\xff\xff\xff\x10\x00", 8);
  E.CompressedSize = E.Payload.size();
  EXPECT_CONTAINS(decompressError(containerBytes({E})),
                  "(ptx sm_52): corrupt LZ4 data");
  E.UncompressedSize = 0; // the retry-with-more-room path
  EXPECT_CONTAINS(decompressError(containerBytes({E})), "corrupt LZ4 data");

  // A match offset pointing before the start of the output.
  EntrySpec BackRef = lz4Ptx(SamplePtx);
  BackRef.Payload = std::string("\x14"
                                "a"
                                "\x40\x00"
                                "\x50"
                                "bcdef",
                                10);
  BackRef.CompressedSize = BackRef.Payload.size();
  EXPECT_CONTAINS(decompressError(containerBytes({BackRef})),
                  "corrupt LZ4 data");
}

TEST(FatbinCorrupt, Lz4SizeDisagreesWithHeader) {
  EntrySpec E = lz4Ptx(SamplePtx);
  E.UncompressedSize -= 1; // the output no longer fits
  EXPECT_CONTAINS(decompressError(containerBytes({E})), "corrupt LZ4 data");
  E.UncompressedSize += 2;
  EXPECT_CONTAINS(decompressError(containerBytes({E})),
                  "LZ4 data decompressed to");
}

/// Cutting a valid container anywhere, or damaging any byte of its headers,
/// must give an error or a valid parse, never a crash or a read past the end
/// (run under AddressSanitizer to see the latter).
TEST(FatbinCorrupt, EveryTruncationAndHeaderByteFlip) {
  EntrySpec Named = zstdPtx(SamplePtx);
  Named.Name = "n.cu";
  Named.Options = "-O3";
  std::string Bytes = containerBytes({elfEntry(), Named, lz4Ptx(SamplePtx)});
  for (size_t Len = 0; Len < Bytes.size(); ++Len) {
    // A private copy of exactly Len bytes so ASan catches overreads.
    std::vector<uint8_t> Cut(Bytes.begin(), Bytes.begin() + Len);
    Container C;
    std::string Err;
    EXPECT_FALSE(parseContainer(Cut.data(), Cut.size(), C, Err)) << Len;
    EXPECT_FALSE(Err.empty());
  }
  Container Good;
  std::string Err;
  ASSERT_TRUE(parseContainer(Bytes.data(), Bytes.size(), Good, Err));
  std::vector<size_t> HeaderBytes;
  for (size_t I = 0; I < 16; ++I)
    HeaderBytes.push_back(I);
  for (const Entry &E : Good.Entries)
    for (size_t I = 0; I < E.HeaderSize + 8; ++I)
      HeaderBytes.push_back(E.OffsetInContainer + I);
  for (size_t At : HeaderBytes) {
    for (uint8_t Mask : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xff)}) {
      std::vector<uint8_t> Copy(Bytes.begin(), Bytes.end());
      Copy[At] ^= Mask;
      Container C;
      std::string Why, Out;
      if (!parseContainer(Copy.data(), Copy.size(), C, Why)) {
        EXPECT_FALSE(Why.empty());
        continue;
      }
      for (const Entry &E : C.Entries) {
        if (!decompressPayload(E, Out, Why)) {
          EXPECT_FALSE(Why.empty());
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Wrappers in live memory
//===----------------------------------------------------------------------===//

struct Wrapper {
  uint32_t Magic = WrapperMagic;
  uint32_t Version = 1;
  const void *Data = nullptr;
  const void *Extra = nullptr;
};
static_assert(sizeof(Wrapper) == WrapperSize);

/// A page that was mapped and is no longer: any access would fault.
void *unmappedPage() {
  long Page = sysconf(_SC_PAGESIZE);
  void *P = mmap(nullptr, Page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(P, MAP_FAILED);
  munmap(P, Page);
  return P;
}

TEST(FatbinWrapper, LiveContainer) {
  std::string Bytes = containerBytes({elfEntry(), zstdPtx(SamplePtx)});
  int Extra = 0;
  Wrapper W{WrapperMagic, 2, Bytes.data(), &Extra};
  Container C;
  std::string Err, Text;
  ASSERT_TRUE(parseWrapper(&W, C, Err)) << Err;
  EXPECT_EQ(C.WrapperVersion, 2u);
  EXPECT_EQ(C.WrapperExtra, reinterpret_cast<uintptr_t>(&Extra));
  EXPECT_EQ(C.Address, reinterpret_cast<uintptr_t>(Bytes.data()));
  EXPECT_EQ(C.Base, reinterpret_cast<const uint8_t *>(Bytes.data()));
  ASSERT_EQ(C.Entries.size(), 2u);
  ASSERT_TRUE(decompressPayload(C.Entries[1], Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx);
}

TEST(FatbinWrapper, WrapperInUnmappedMemory) {
  Container C;
  std::string Err;
  EXPECT_FALSE(parseWrapper(unmappedPage(), C, Err));
  EXPECT_CONTAINS(Err, "not readable memory");
  EXPECT_FALSE(parseWrapper(nullptr, C, Err));
  EXPECT_CONTAINS(Err, "fatbin wrapper at 0x0: not readable memory");
}

TEST(FatbinWrapper, ContainerPointerToUnmappedMemory) {
  Wrapper W;
  W.Data = unmappedPage();
  Container C;
  std::string Err;
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  char Want[64];
  std::snprintf(Want, sizeof(Want), "container pointer %p is not readable",
                W.Data);
  EXPECT_CONTAINS(Err, Want);
  W.Data = reinterpret_cast<const void *>(uintptr_t(16));
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  EXPECT_CONTAINS(Err, "container pointer 0x10 is not readable");
}

TEST(FatbinWrapper, ContainerRunsIntoUnmappedMemory) {
  // The container header sits at the end of a mapped page and says its
  // entries continue into the next page, which is unmapped.
  long Page = sysconf(_SC_PAGESIZE);
  auto *P =
      static_cast<uint8_t *>(mmap(nullptr, 2 * Page, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(P, MAP_FAILED);
  munmap(P + Page, Page);
  std::string Bytes = containerBytes({plainPtx()});
  uint8_t *Start = P + Page - 32;
  std::memcpy(Start, Bytes.data(), 32);
  Wrapper W;
  W.Data = Start;
  Container C;
  std::string Err;
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  EXPECT_CONTAINS(Err, "bytes (from its header) are not all readable");

  // Same with a PROT_NONE page instead of a hole.
  munmap(P, Page);
  P = static_cast<uint8_t *>(mmap(nullptr, 2 * Page, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(P, MAP_FAILED);
  mprotect(P + Page, Page, PROT_NONE);
  Start = P + Page - 32;
  std::memcpy(Start, Bytes.data(), 32);
  W.Data = Start;
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  EXPECT_CONTAINS(Err, "not all readable");
  munmap(P, 2 * Page);
}

TEST(FatbinWrapper, BadMagicVersionAndContainer) {
  std::string Bytes = containerBytes({plainPtx()});
  Wrapper W;
  W.Data = Bytes.data();
  W.Magic = 0xdeadbeef;
  Container C;
  std::string Err;
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  EXPECT_CONTAINS(Err, "bad magic 0xdeadbeef, expected 0x466243b1");
  W.Magic = WrapperMagic;
  W.Version = 7;
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  EXPECT_CONTAINS(Err, "unsupported wrapper version 7");
  W.Version = 1;
  put<uint32_t>(Bytes, 0, 0x11111111);
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  EXPECT_CONTAINS(Err, "fatbin container: bad magic 0x11111111");
  put<uint32_t>(Bytes, 0, ContainerMagic);
  put<uint64_t>(Bytes, 8, uint64_t(1) << 60);
  EXPECT_FALSE(parseWrapper(&W, C, Err));
  EXPECT_CONTAINS(Err, "implausibly large");
}

TEST(FatbinWrapper, PrelinkedContainersOfAnRdcProgram) {
  // The shape an -rdc program registers: a version 2 wrapper around the
  // linked SASS, whose last field lists the per-file containers.
  std::string Linked = containerBytes({elfEntry()});
  std::string FileA = containerBytes({elfEntry(), plainPtx(75)});
  std::string FileB = containerBytes({elfEntry(), zstdPtx(SamplePtx)});
  const void *List[] = {FileA.data(), FileB.data(), nullptr};
  Wrapper W{WrapperMagic, 2, Linked.data(), List};
  Container C;
  std::string Err, Text;
  ASSERT_TRUE(parseWrapper(&W, C, Err)) << Err;
  std::vector<Container> Files;
  ASSERT_TRUE(parsePrelinkedContainers(C, Files, Err)) << Err;
  ASSERT_EQ(Files.size(), 2u);
  EXPECT_EQ(Files[0].Address, reinterpret_cast<uintptr_t>(FileA.data()));
  ASSERT_EQ(Files[1].Entries.size(), 2u);
  ASSERT_TRUE(decompressPayload(Files[1].Entries[1], Text, Err)) << Err;
  EXPECT_EQ(Text, SamplePtx);

  // A version 1 wrapper has no list.
  W.Version = 1;
  ASSERT_TRUE(parseWrapper(&W, C, Err)) << Err;
  ASSERT_TRUE(parsePrelinkedContainers(C, Files, Err)) << Err;
  EXPECT_TRUE(Files.empty());
}

TEST(FatbinWrapper, PrelinkedListIntoUnmappedMemory) {
  std::string Linked = containerBytes({elfEntry()});
  std::string FileA = containerBytes({plainPtx()});
  const void *List[] = {FileA.data(), unmappedPage(), nullptr};
  Wrapper W{WrapperMagic, 2, Linked.data(), List};
  Container C;
  std::string Err;
  ASSERT_TRUE(parseWrapper(&W, C, Err)) << Err;
  std::vector<Container> Files;
  EXPECT_FALSE(parsePrelinkedContainers(C, Files, Err));
  EXPECT_CONTAINS(Err, ", item 1: container pointer 0x");
  EXPECT_CONTAINS(Err, "is not readable memory");

  W.Extra = unmappedPage();
  ASSERT_TRUE(parseWrapper(&W, C, Err)) << Err;
  EXPECT_FALSE(parsePrelinkedContainers(C, Files, Err));
  EXPECT_CONTAINS(Err, "item 0: not readable memory");
}

TEST(FatbinWrapper, IsReadable) {
  int Local = 0;
  EXPECT_TRUE(isReadable(&Local, sizeof(Local)));
  EXPECT_TRUE(isReadable(nullptr, 0));
  EXPECT_FALSE(isReadable(nullptr, 1));
  EXPECT_FALSE(isReadable(unmappedPage(), 1));
  EXPECT_FALSE(isReadable(reinterpret_cast<void *>(UINTPTR_MAX - 4), 16));
  std::vector<char> Big(1 << 20);
  EXPECT_TRUE(isReadable(Big.data(), Big.size()));
}

//===----------------------------------------------------------------------===//
// ELF files on disk
//===----------------------------------------------------------------------===//

/// Writes a minimal x86-64 ELF file holding the given containers in
/// .nv_fatbin and one wrapper per container in .nvFatBinSegment, laid out
/// like a linked program (Type ET_DYN: a PT_LOAD at a different virtual
/// address than its file offset; optionally leaving the pointers to RELATIVE
/// relocations) or like an object (ET_REL: pointers by relocation against the
/// .nv_fatbin section symbol).
struct ElfBuilder {
  uint16_t Type = ET_DYN;
  bool PointersByRelocation = false;
  bool WithSegment = true;
  static constexpr uint64_t VBase = 0x400000;

  std::string build(const std::vector<std::string> &Containers) const {
    std::string F(sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr), '\0');
    auto Align = [&](size_t A) { F.resize((F.size() + A - 1) / A * A, '\0'); };
    Align(16);
    uint64_t FatOff = F.size();
    std::vector<uint64_t> At;
    for (const std::string &C : Containers) {
      Align(8);
      At.push_back(F.size() - FatOff);
      F += C;
    }
    uint64_t FatSize = F.size() - FatOff;
    Align(8);
    uint64_t SegOff = F.size();
    bool InPlace = Type != ET_REL && !PointersByRelocation;
    for (uint64_t A : At) {
      std::string W(24, '\0');
      put<uint32_t>(W, 0, WrapperMagic);
      put<uint32_t>(W, 4, 1);
      put<uint64_t>(W, 8, InPlace ? VBase + FatOff + A : 0);
      F += W;
    }
    uint64_t SegSize = F.size() - SegOff;
    uint64_t LoadEnd = F.size();

    // Symbol table (object only): null symbol and the .nv_fatbin section.
    uint64_t SymOff = F.size();
    if (Type == ET_REL) {
      Elf64_Sym Syms[2] = {};
      Syms[1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
      Syms[1].st_shndx = 1;
      F.append(reinterpret_cast<const char *>(Syms), sizeof(Syms));
    }
    uint64_t RelOff = F.size();
    for (size_t I = 0; I < At.size() && !InPlace; ++I) {
      Elf64_Rela R = {};
      if (Type == ET_REL) {
        R.r_offset = I * 24 + 8;
        R.r_info = ELF64_R_INFO(1, R_X86_64_64);
        R.r_addend = At[I];
      } else {
        R.r_offset = VBase + SegOff + I * 24 + 8;
        R.r_info = ELF64_R_INFO(0, R_X86_64_RELATIVE);
        R.r_addend = VBase + FatOff + At[I];
      }
      F.append(reinterpret_cast<const char *>(&R), sizeof(R));
    }
    uint64_t RelSize = F.size() - RelOff;
    const char Names[] = "\0.nv_fatbin\0.nvFatBinSegment\0.rela\0.symtab\0"
                         ".shstrtab\0.other";
    uint64_t StrOff = F.size();
    F.append(Names, sizeof(Names));
    Align(8);
    uint64_t ShOff = F.size();

    auto Sh = [&](uint32_t Name, uint32_t Type_, uint64_t Flags, uint64_t Off,
                  uint64_t Size, uint32_t Link = 0, uint32_t Info = 0,
                  uint64_t EntSize = 0) {
      Elf64_Shdr S = {};
      S.sh_name = Name;
      S.sh_type = Type_;
      S.sh_flags = Flags;
      S.sh_addr = (Flags & SHF_ALLOC) && Type != ET_REL ? VBase + Off : 0;
      S.sh_offset = Off;
      S.sh_size = Size;
      S.sh_link = Link;
      S.sh_info = Info;
      S.sh_addralign = 8;
      S.sh_entsize = EntSize;
      F.append(reinterpret_cast<const char *>(&S), sizeof(S));
    };
    Sh(0, SHT_NULL, 0, 0, 0);
    Sh(1, SHT_PROGBITS, SHF_ALLOC, FatOff, FatSize); // 1
    Sh(WithSegment ? 12 : 53, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, SegOff,
       SegSize); // 2
    Sh(29, SHT_RELA, SHF_ALLOC, RelOff, RelSize, Type == ET_REL ? 4 : 0,
       Type == ET_REL ? 2 : 0, sizeof(Elf64_Rela)); // 3
    Sh(35, SHT_SYMTAB, 0, SymOff, Type == ET_REL ? 2 * sizeof(Elf64_Sym) : 0, 5,
       1, sizeof(Elf64_Sym));                     // 4
    Sh(43, SHT_STRTAB, 0, StrOff, sizeof(Names)); // 5

    Elf64_Ehdr H = {};
    std::memcpy(H.e_ident, ELFMAG, SELFMAG);
    H.e_ident[EI_CLASS] = ELFCLASS64;
    H.e_ident[EI_DATA] = ELFDATA2LSB;
    H.e_ident[EI_VERSION] = EV_CURRENT;
    H.e_type = Type;
    H.e_machine = EM_X86_64;
    H.e_version = EV_CURRENT;
    H.e_ehsize = sizeof(Elf64_Ehdr);
    H.e_shoff = ShOff;
    H.e_shentsize = sizeof(Elf64_Shdr);
    H.e_shnum = 6;
    H.e_shstrndx = 5;
    if (Type != ET_REL) {
      H.e_phoff = sizeof(Elf64_Ehdr);
      H.e_phentsize = sizeof(Elf64_Phdr);
      H.e_phnum = 1;
      Elf64_Phdr P = {};
      P.p_type = PT_LOAD;
      P.p_flags = PF_R | PF_W;
      P.p_offset = 0;
      P.p_vaddr = P.p_paddr = VBase;
      P.p_filesz = P.p_memsz = LoadEnd;
      P.p_align = 0x1000;
      std::memcpy(F.data() + sizeof(Elf64_Ehdr), &P, sizeof(P));
    }
    std::memcpy(F.data(), &H, sizeof(H));
    return F;
  }
};

class FatbinFile : public ::testing::Test {
protected:
  std::string Path;
  void SetUp() override {
    char Tmpl[] = "/tmp/cuhip-fatbin-test-XXXXXX";
    int Fd = mkstemp(Tmpl);
    ASSERT_GE(Fd, 0);
    close(Fd);
    Path = Tmpl;
  }
  void TearDown() override { unlink(Path.c_str()); }
  void write(const std::string &Bytes) {
    FILE *F = std::fopen(Path.c_str(), "wb");
    ASSERT_NE(F, nullptr);
    std::fwrite(Bytes.data(), 1, Bytes.size(), F);
    std::fclose(F);
  }
  std::string readError() {
    std::string Storage, Err;
    std::vector<Container> Out;
    EXPECT_FALSE(readProgramFatbins(Path, Storage, Out, Err));
    return Err;
  }
  void expectTwoContainers(const ElfBuilder &B) {
    std::string A = containerBytes({elfEntry()});
    std::string P = containerBytes({elfEntry(), zstdPtx(SamplePtx)});
    write(B.build({A, P}));
    std::string Storage, Err, Text;
    std::vector<Container> Out;
    ASSERT_TRUE(readProgramFatbins(Path, Storage, Out, Err)) << Err;
    ASSERT_EQ(Out.size(), 2u);
    EXPECT_EQ(Out[0].Entries.size(), 1u);
    ASSERT_EQ(Out[1].Entries.size(), 2u);
    EXPECT_EQ(Out[1].Section, ".nv_fatbin");
    EXPECT_EQ(Out[1].WrapperVersion, 1u);
    EXPECT_GE(Out[1].Base, reinterpret_cast<const uint8_t *>(Storage.data()));
    EXPECT_LE(Out[1].Base + Out[1].TotalSize,
              reinterpret_cast<const uint8_t *>(Storage.data()) +
                  Storage.size());
    EXPECT_EQ(
        std::string(reinterpret_cast<const char *>(Out[1].Base), P.size()), P);
    if (B.Type != ET_REL) {
      EXPECT_EQ(Out[1].Address, ElfBuilder::VBase + Out[1].FileOffset);
    }
    ASSERT_TRUE(decompressPayload(Out[1].Entries[1], Text, Err)) << Err;
    EXPECT_EQ(Text, SamplePtx);
  }
};

TEST_F(FatbinFile, ProgramWithPointersInPlace) { expectTwoContainers({}); }

TEST_F(FatbinFile, ProgramWithRelativeRelocations) {
  ElfBuilder B;
  B.PointersByRelocation = true;
  expectTwoContainers(B);
}

TEST_F(FatbinFile, RelocatableObject) {
  ElfBuilder B;
  B.Type = ET_REL;
  expectTwoContainers(B);
}

TEST_F(FatbinFile, StandaloneFatbin) {
  write(containerBytes({plainPtx()}) + containerBytes({elfEntry()}));
  std::string Storage, Err;
  std::vector<Container> Out;
  ASSERT_TRUE(readProgramFatbins(Path, Storage, Out, Err)) << Err;
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(Out[1].Entries[0].Kind, EntryKind::ELF);
}

TEST_F(FatbinFile, NotElf) {
  write("#include <cstdio>\n");
  EXPECT_CONTAINS(readError(),
                  "not an ELF file or a fatbin (starts with 23 69 6e 63)");
  write("");
  EXPECT_CONTAINS(readError(), "not an ELF file");
  write("!<arch>\n/               0           0     0     0       4  `\n");
  EXPECT_CONTAINS(readError(), "a static library (ar archive)");
  std::string Elf32 = ElfBuilder().build({});
  Elf32[EI_CLASS] = ELFCLASS32;
  write(Elf32);
  EXPECT_CONTAINS(readError(), "not a 64-bit ELF file");
}

TEST_F(FatbinFile, MissingFile) {
  unlink(Path.c_str());
  EXPECT_CONTAINS(readError(), "cannot open: No such file");
}

TEST_F(FatbinFile, NoFatbinSegment) {
  ElfBuilder B;
  B.WithSegment = false;
  write(B.build({containerBytes({plainPtx()})}));
  EXPECT_CONTAINS(readError(), "no .nvFatBinSegment section");
}

TEST_F(FatbinFile, TruncatedFile) {
  std::string F = ElfBuilder().build({containerBytes({plainPtx()})});
  write(F.substr(0, F.size() - 10)); // cuts the section header table
  EXPECT_CONTAINS(readError(), "truncated file: section header table");
  write(F.substr(0, 40));
  EXPECT_CONTAINS(readError(), "truncated file");
}

TEST_F(FatbinFile, BadWrapper) {
  std::string F = ElfBuilder().build({containerBytes({plainPtx()})});
  size_t Seg = F.find(std::string("\xb1\x43\x62\x46", 4));
  ASSERT_NE(Seg, std::string::npos);
  std::string Bad = F;
  put<uint32_t>(Bad, Seg, 0x01020304);
  write(Bad);
  EXPECT_CONTAINS(readError(), "wrapper 0 at 0x");
  EXPECT_CONTAINS(readError(), "bad magic 0x1020304");

  Bad = F;
  put<uint64_t>(Bad, Seg + 8, 0x7777777777);
  write(Bad);
  EXPECT_CONTAINS(readError(), "container address 0x7777777777 is not "
                               "in any loaded segment");

  Bad = F;
  put<uint64_t>(Bad, Seg + 8, 0);
  write(Bad);
  EXPECT_CONTAINS(readError(), "null container pointer");
}

TEST_F(FatbinFile, CorruptContainerInsideProgram) {
  EntrySpec Bad = plainPtx();
  Bad.PaddedSize = 0x100000;
  write(ElfBuilder().build({containerBytes({Bad})}));
  std::string Err = readError();
  EXPECT_CONTAINS(Err, "wrapper 0 at 0x");
  EXPECT_CONTAINS(Err, "fatbin entry 0 at offset 0x10: payload size "
                       "0x100000 exceeds container size");
}

} // namespace
