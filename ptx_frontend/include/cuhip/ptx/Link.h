//===- Link.h - Linking several PTX modules into one ---------------------===//
//
// Relocatable device code (nvcc -rdc=true, cuLinkAddData) comes as several
// PTX modules, one per translation unit, whose functions and variables refer
// to each other through .extern declarations. cuhip keeps such a program as
// one PTX text holding every unit whole, each after a marker line (a PTX
// comment, so the text stays one string for the compile cache and dumps),
// and lowers it by lowering each unit on its own and linking the results
// with llvm::Linker: .visible definitions are shared, .weak ones merge, and
// everything else stays private to its unit. A symbol defined .visible in
// two units, or an .extern reference that no unit defines (other than the
// functions the backends provide: vprintf, __assertfail, malloc, free), is
// an error that names the symbol and the units.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Diagnostics.h"
#include "cuhip/ptx/Lower.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuhip::ptx {

/// One translation unit of a linked program.
struct LinkUnit {
  std::string Name; // shown in link errors, e.g. "prog.fatbin0.unit2"
  std::string_view Ptx;
};

/// The line that starts each unit of a joined text; the unit's name follows
/// it on the same line.
inline constexpr std::string_view LinkUnitMarker = "//.cuhip.link_unit ";

/// Joins units into one text that splitLinkUnits takes apart again.
std::string joinLinkUnits(const std::vector<LinkUnit> &Units);

/// The units of Text: one unnamed unit (the whole text) when it has no
/// marker line. The returned views point into Text.
std::vector<LinkUnit> splitLinkUnits(std::string_view Text);

/// Lowers already parsed units into one module: each is lowered into Ctx,
/// then they are linked. Errors (duplicate definitions, unresolved externs,
/// and each unit's own lowering errors) go to Diags. A unit marked in
/// Optional that does not lower is left out (a note says why) instead.
std::optional<LoweredModule>
lowerLinkedModules(const std::vector<const Module *> &Units,
                   const std::vector<std::string> &UnitNames,
                   llvm::LLVMContext &Ctx, DiagnosticEngine &Diags,
                   const LowerOptions &Options = {},
                   const std::vector<bool> *Optional = nullptr);

/// Parses and lowers PTX text that is either one module or units joined by
/// joinLinkUnits. FileName becomes each parsed Module's FileName.
///
/// With Roots, only the units needed for those symbols are linked, as a
/// linker takes members of an archive: the units defining a root, then those
/// defining what they reference, and so on. An -rdc program lists the
/// kernels and variables its files registered, so that the device runtime
/// library nvcc links into every such program (libcudadevrt, PTX for a much
/// newer target) is lowered only when the program uses it. Its kernels are
/// registered too, so a needed unit that no other needed unit refers to and
/// that does not lower is left out rather than failing the program (a
/// launch of one of its kernels then fails). Empty Roots: every function
/// any unit defines is a root (a linked image loaded without registration,
/// as the static runtime loads one). Without Roots every unit is linked and
/// must lower.
std::optional<LoweredModule>
parseAndLower(std::string_view Text, const std::string &FileName,
              llvm::LLVMContext &Ctx, DiagnosticEngine &Diags,
              const LowerOptions &Options = {},
              const std::vector<std::string> *Roots = nullptr);

} // namespace cuhip::ptx
