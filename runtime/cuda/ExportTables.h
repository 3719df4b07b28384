//===- ExportTables.h - The driver's undocumented export tables -----------===//
//
// cuGetExportTable hands out tables of functions identified by 16-byte
// UUIDs, which the statically linked CUDA runtime asks for (module loading
// from fatbins, primary-context handling, context-local storage, tool
// callbacks, an integrity check). cuGetExportTable calls this one function;
// ExportTables.cpp implements it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CudaDriverTypes.h"

/// Sets *Table to the table Id names and returns CUDA_SUCCESS, or returns
/// CUDA_ERROR_NOT_SUPPORTED (logged with the UUID) for a table cuhip does
/// not provide. Table and Id are not null.
CUresult cuhipExportTable(const void **Table, const CUuuid *Id);
