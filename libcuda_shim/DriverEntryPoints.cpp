//===- DriverEntryPoints.cpp - cuGetProcAddress and cuGetExportTable ------===//
//
// The two ways a program asks the driver for functions by name or by UUID.
// The name table lives in DriverProcAddress.cpp; the UUID tables in
// ExportTables.cpp.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"
#include "ExportTables.h"

using namespace cuhip;
using namespace cuhip::cuda;

namespace {
enum : int { Found = 0 };
} // namespace

CUHIP_EXPORT CUresult cuGetProcAddress_v2(const char *Symbol, void **Fn,
                                          int CudaVersion, cuuint64_t Flags,
                                          CUdriverProcAddressQueryResult *Status) {
  int S = Found;
  CUresult R = getProcAddress(Symbol, Fn, CudaVersion, Flags, &S);
  if (R == CUDA_SUCCESS && Status)
    *Status = S;
  return R;
}

/// CUDA 11.3's form reports a missing symbol as an error rather than
/// through a status.
CUHIP_EXPORT CUresult cuGetProcAddress(const char *Symbol, void **Fn,
                                       int CudaVersion, cuuint64_t Flags) {
  int S = Found;
  CUresult R = getProcAddress(Symbol, Fn, CudaVersion, Flags, &S);
  if (R == CUDA_SUCCESS && S != Found)
    return CUDA_ERROR_NOT_FOUND;
  return R;
}

CUHIP_EXPORT CUresult cuGetExportTable(const void **Table, const CUuuid *Id) {
  if (!Table || !Id)
    return CUDA_ERROR_INVALID_VALUE;
  *Table = nullptr;
  return static_cast<CUresult>(cuhipExportTable(Table, Id));
}
