//===- FatbinWriter.h - Writing fatbin containers around PTX ----*- C++ -*-===//
//
// `cuhip nvcc` in CPU mode without the toolkit's nvcc compiles device code to
// PTX with Clang and needs the container nvcc would have embedded: a fatbin
// holding one uncompressed PTX entry per virtual architecture. The reader in
// Fatbin.h (whose Fatbin.cpp documents the layout) is the other half; tests
// also use this writer to register PTX of their own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuhip::fatbin {

/// One PTX text for one virtual architecture (Sm = 75 for compute_75).
struct PtxImage {
  uint32_t Sm = 0;
  std::string Ptx;
  /// PTX ISA version the text declares (`.version 8.8`); 0.0 takes it from
  /// the text itself.
  uint16_t IsaMajor = 0, IsaMinor = 0;
};

/// A fatbin container (16-byte header, then one 80-byte entry header and the
/// NUL-terminated, 8-byte-padded PTX per image), as a standalone `-fatbin`
/// file holds it and as __cudaRegisterFatBinary's wrapper points to it.
std::vector<uint8_t> writePtxContainer(const std::vector<PtxImage> &Images);

/// Reads `.version X.Y` from PTX text; false when it has none.
bool ptxIsaVersion(const std::string &Ptx, uint16_t &Major, uint16_t &Minor);

/// A container plus the 24-byte registration wrapper that points to it, as
/// nvcc's generated code passes to __cudaRegisterFatBinary. Not copyable:
/// the wrapper points into Bytes.
struct RegistrableFatbin {
  std::vector<uint8_t> Bytes;
  struct {
    uint32_t Magic, Version;
    const void *Data;
    void *Unused;
  } Wrapper;

  explicit RegistrableFatbin(const std::vector<PtxImage> &Images);
  /// One PTX text, registered as sm_80 PTX ISA 9.0 (what the runtime's unit
  /// tests write by hand).
  explicit RegistrableFatbin(const std::string &Ptx);
  RegistrableFatbin(const RegistrableFatbin &) = delete;
  RegistrableFatbin &operator=(const RegistrableFatbin &) = delete;
};

} // namespace cuhip::fatbin
