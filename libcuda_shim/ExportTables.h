//===- ExportTables.h - The driver's undocumented export tables -*- C++ -*-===//
//
// NVIDIA's static CUDA runtime (libcudart_static.a, linked into every program
// that plain `nvcc x.cu` builds) reaches the driver through documented entry
// points and through cuGetExportTable(&Table, &Uuid), which hands out tables
// of function pointers identified by 16-byte UUIDs. libcuda.so.1's
// cuGetExportTable calls cuhipExportTable; docs/static-runtime.md describes
// every table, slot and the evidence for it.
//
// The slots are glue over the documented driver API of the same libcuda.so.1
// (cuDevicePrimaryCtxRetain, cuModuleLoadData, ...; see the list in
// ExportTables.cpp), so the handles they hand out are exactly the ones the
// drop-in's other functions accept. The library that links these tables must
// define those functions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
// The layout cuda.h gives CUuuid (it guards its definition the same way).
typedef struct CUuuid_st {
  char bytes[16];
} CUuuid;
#endif

extern "C" {

/// Looks up the export table Id. Returns a CUresult value: CUDA_SUCCESS (0)
/// with *Table set, CUDA_ERROR_INVALID_VALUE (1) for null arguments, or
/// CUDA_ERROR_NOT_FOUND (500) with *Table = nullptr for a table cuhip does
/// not provide (the runtime copes with that for the optional ones).
int cuhipExportTable(const void **Table, const CUuuid *Id);

/// Runs the destructor callbacks that the runtime registered through the
/// context-local-storage table for Ctx and forgets its entries. libcuda.so.1
/// calls it when a context is destroyed or a primary context is reset, as
/// NVIDIA's driver does.
void cuhipExportTablesContextDestroyed(void *Ctx);
}

namespace cuhip::cuda {

/// Whether NVIDIA's CUDA runtime (linked statically into the program) has
/// asked for its export table: the driver then answers in the ways that
/// runtime expects where they differ from the public API's.
bool nvidiaRuntimeAttached();

/// The answer of the integrity-check table for a given input, exposed for
/// tests: HMAC-MD2 under a fixed key of the 48-byte record (driver version,
/// check version, process id, thread id, the CUDART_INTERFACE table, the
/// integrity table, the check function, Unix seconds) followed by one 28-byte
/// record per device (UUID, PCI domain, bus, device).
struct IntegrityInput {
  uint32_t DriverVersion;
  uint32_t Version;
  uint32_t ProcessId;
  uint32_t ThreadId;
  const void *CudartTable;
  const void *IntegrityTable;
  const void *CheckFunction;
  uint64_t UnixSeconds;
};
struct IntegrityDevice {
  char Uuid[16];
  int32_t PciDomain, PciBus, PciDevice;
};
void integrityHash(const IntegrityInput &In, const IntegrityDevice *Devices,
                   unsigned NumDevices, uint64_t Out[2]);

/// MD2 (RFC 1319) of Data, for tests of the hash above.
void md2(const void *Data, size_t Size, uint8_t Digest[16]);

} // namespace cuhip::cuda
