//===- PtxFatbin.h - A registrable fatbin around PTX text, for tests ------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

/// A fatbin container with one uncompressed PTX entry and the wrapper that
/// registration receives (the layout in CUDA-BINARY-NOTES.md).
struct PtxFatbin {
  std::vector<uint8_t> Bytes;
  struct {
    uint32_t Magic, Version;
    const void *Data;
    void *Unused;
  } Wrapper;

  template <typename T> void put(size_t Offset, T Value) {
    std::memcpy(&Bytes[Offset], &Value, sizeof Value);
  }
  explicit PtxFatbin(const std::string &Ptx) {
    size_t Payload = (Ptx.size() + 1 + 7) & ~size_t(7);
    Bytes.assign(16 + 80 + Payload, 0);
    put<uint32_t>(0, 0xBA55ED50u);
    put<uint16_t>(4, 1);
    put<uint16_t>(6, 16);
    put<uint64_t>(8, 80 + Payload);
    put<uint16_t>(16, 1);  // PTX
    put<uint32_t>(20, 80); // entry header size
    put<uint64_t>(24, Payload);
    put<uint16_t>(42, 9); // ISA 9.0
    put<uint32_t>(44, 80);
    put<uint64_t>(56, 0x11);
    put<uint64_t>(72, Ptx.size() + 1);
    std::memcpy(&Bytes[96], Ptx.data(), Ptx.size());
    Wrapper = {0x466243B1u, 1, Bytes.data(), nullptr};
  }
};
