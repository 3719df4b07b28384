//===- Mapping.h - The CUDA-to-HIP mapping rows ----------------*- C++ -*-===//
//
// The rows of translator/mappings/*.tsv, compiled in by
// scripts/gen-translator-tables.py, and the compat snippets of
// translator/compat/ that stand in for HIP names an older HIP lacks. This is
// the only place the translator learns a CUDA name's HIP counterpart.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/translate/Translate.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace cuhip::translate {

enum class MappingKind {
  Function,
  Type,
  Enumerator,
  Macro,
  Device,
  Namespace,
  Header
};
enum class MappingStatus { Supported, Unsupported };

struct Mapping {
  llvm::StringRef Cuda;
  llvm::StringRef Hip; // empty: none
  MappingKind Kind;
  MappingStatus Status;
  unsigned Since; // HipVersion::code() of the first HIP with Hip; 0: any
  llvm::StringRef Compat; // snippet name, or empty
  llvm::StringRef Family;
  llvm::StringRef Note;

  bool supported() const { return Status == MappingStatus::Supported; }
  /// Does HIP version Target have the HIP name?
  bool availableIn(HipVersion Target) const {
    return Since == 0 || Target.code() >= Since;
  }
};

/// The row for an identifier (any kind but Header), or null.
const Mapping *lookupIdentifier(llvm::StringRef Name);
/// The row for a header as written between <> or "", or null.
const Mapping *lookupHeader(llvm::StringRef Name);
/// Every row, in table order.
llvm::ArrayRef<Mapping> allMappings();
/// The text of compat snippet Name (translator/compat/Name.h), or empty.
llvm::StringRef compatSnippet(llvm::StringRef Name);

/// Mapping::Since of a name no HIP release has (`since` is `never`): its
/// compat snippet stands in for every target.
constexpr unsigned NeverSince = 9999;

/// The HIP_VERSION value of the first release of Since (X.Y.0).
inline unsigned long hipVersionMacroValue(unsigned Since) {
  return (Since / 100) * 10000000ul + (Since % 100) * 100000ul;
}

} // namespace cuhip::translate
