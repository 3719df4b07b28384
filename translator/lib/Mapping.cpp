//===- Mapping.cpp - The CUDA-to-HIP mapping rows -------------------------===//
//
// Lookups over the generated tables. The identifier table is sorted by the
// generator, so a lookup is a binary search; headers are few and scanned.
//
//===----------------------------------------------------------------------===//
#include "Mapping.h"

#include <algorithm>

namespace cuhip::translate {
namespace {

using enum MappingKind;
using enum MappingStatus;

// constexpr: the rows are constant data, not a static initializer (which
// GCC would spend minutes optimising for thousands of rows).
constexpr Mapping Rows[] = {
#define CUHIP_MAPPING(Cuda, Hip, Kind, Status, Since, Compat, Family, Note)   \
  {Cuda, Hip, Kind, Status, Since, Compat, Family, Note},
#include "MappingData.inc"
#undef CUHIP_MAPPING
};

struct Snippet {
  llvm::StringRef Name, Text;
};
constexpr Snippet Snippets[] = {
#define CUHIP_COMPAT(Name, Text) {Name, Text},
#include "CompatData.inc"
#undef CUHIP_COMPAT
};

// The generator puts identifier rows first, sorted by name, then headers.
llvm::ArrayRef<Mapping> identifierRows() {
  const Mapping *End =
      std::find_if(std::begin(Rows), std::end(Rows),
                   [](const Mapping &M) { return M.Kind == Header; });
  return llvm::ArrayRef<Mapping>(std::begin(Rows), End);
}

} // namespace

const Mapping *lookupIdentifier(llvm::StringRef Name) {
  static const llvm::ArrayRef<Mapping> Ids = identifierRows();
  auto It = std::lower_bound(
      Ids.begin(), Ids.end(), Name,
      [](const Mapping &M, llvm::StringRef N) { return M.Cuda < N; });
  if (It == Ids.end() || It->Cuda != Name)
    return nullptr;
  return &*It;
}

const Mapping *lookupHeader(llvm::StringRef Name) {
  for (const Mapping &M : Rows)
    if (M.Kind == Header && M.Cuda == Name)
      return &M;
  return nullptr;
}

llvm::ArrayRef<Mapping> allMappings() { return Rows; }

llvm::StringRef compatSnippet(llvm::StringRef Name) {
  for (const Snippet &S : Snippets)
    if (S.Name == Name)
      return S.Text;
  return {};
}

} // namespace cuhip::translate
