//===- ExportTables.cpp - The driver's undocumented export tables ---------===//
//
// No export table is provided yet: every request is logged with its UUID
// (so that a program's needs show in the log) and refused, which the
// statically linked CUDA runtime reports as a driver error.
//
//===----------------------------------------------------------------------===//
#include "ExportTables.h"

#include "cuhip/runtime/Log.h"

#include <cstdio>

CUresult cuhipExportTable(const void **Table, const CUuuid *Id) {
  *Table = nullptr;
  char Text[16 * 3] = {};
  for (int I = 0; I < 16; ++I)
    std::snprintf(Text + 2 * I, 3, "%02x", unsigned(uint8_t(Id->bytes[I])));
  CUHIP_WARN("cuGetExportTable(%.8s-%.4s-%.4s-%.4s-%.12s): this export table "
             "is not implemented; returning CUDA_ERROR_NOT_SUPPORTED",
             Text, Text + 8, Text + 12, Text + 16, Text + 20);
  return CUDA_ERROR_NOT_SUPPORTED;
}
