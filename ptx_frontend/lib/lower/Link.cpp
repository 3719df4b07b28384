//===- Link.cpp - Linking several PTX modules into one -------------------===//
//
// Implements Link.h. Each unit is lowered on its own (so its private
// symbols, string constants and helper declarations stay its own), then the
// lowered modules are linked into the first with llvm::Linker, which renames
// colliding internal symbols and resolves declarations against definitions.
// Duplicate strong definitions are found on the ASTs first, so the error
// names both units; unresolved references are found on the linked IR, where
// only declarations something still uses remain.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/Link.h"

#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"

#include <map>

using namespace llvm;

namespace cuhip::ptx {

namespace {
/// Functions PTX may declare .extern that the backends provide themselves.
bool isBackendFunction(StringRef Name) {
  return Name == "vprintf" || Name == "__assertfail" || Name == "malloc" ||
         Name == "free";
}

/// Whether a global of space S takes part in linking (shared, local and
/// register variables never do).
bool isLinkableSpace(StateSpace S) {
  return S == StateSpace::Global || S == StateSpace::Const;
}
} // namespace

std::string joinLinkUnits(const std::vector<LinkUnit> &Units) {
  std::string Out;
  for (const LinkUnit &U : Units) {
    Out += LinkUnitMarker;
    // A unit name is one line.
    for (char C : U.Name)
      Out += (C == '\n' || C == '\r') ? ' ' : C;
    Out += '\n';
    Out += U.Ptx;
    if (!U.Ptx.empty() && U.Ptx.back() != '\n')
      Out += '\n';
  }
  return Out;
}

std::vector<LinkUnit> splitLinkUnits(std::string_view Text) {
  std::vector<LinkUnit> Units;
  if (Text.substr(0, LinkUnitMarker.size()) != LinkUnitMarker)
    return {{"", Text}};
  size_t Pos = 0;
  while (Pos < Text.size()) {
    // Pos is at a marker line.
    size_t NameStart = Pos + LinkUnitMarker.size();
    size_t NameEnd = Text.find('\n', NameStart);
    if (NameEnd == std::string_view::npos)
      NameEnd = Text.size();
    size_t BodyStart = std::min(NameEnd + 1, Text.size());
    size_t Next = BodyStart;
    for (;;) {
      Next = Text.find(LinkUnitMarker, Next);
      if (Next == std::string_view::npos || Text[Next - 1] == '\n')
        break;
      Next += LinkUnitMarker.size();
    }
    if (Next == std::string_view::npos)
      Next = Text.size();
    Units.push_back({std::string(Text.substr(NameStart, NameEnd - NameStart)),
                     Text.substr(BodyStart, Next - BodyStart)});
    Pos = Next;
  }
  return Units;
}

std::optional<LoweredModule>
lowerLinkedModules(const std::vector<const Module *> &Units,
                   const std::vector<std::string> &UnitNames,
                   LLVMContext &Ctx, DiagnosticEngine &Diags,
                   const LowerOptions &Options) {
  auto unitName = [&](size_t I) {
    return I < UnitNames.size() && !UnitNames[I].empty()
               ? UnitNames[I]
               : "unit " + std::to_string(I);
  };
  if (Units.empty()) {
    Diags.error({}, "nothing to link");
    return std::nullopt;
  }
  // Strong (.visible) definitions may appear once; .weak and .common ones
  // merge with each other and yield to a strong one.
  std::map<std::string, size_t> Strong;
  auto define = [&](const std::string &Name, Linkage L, size_t I) {
    if (L != Linkage::Visible)
      return;
    auto [It, New] = Strong.emplace(Name, I);
    if (!New)
      Diags.error({}, "symbol '" + Name + "' is defined in both " +
                          unitName(It->second) + " and " + unitName(I));
  };
  for (size_t I = 0; I < Units.size(); ++I) {
    for (const Function &F : Units[I]->Functions)
      if (F.Body)
        define(F.Name, F.IsEntry ? Linkage::Visible : F.Link, I);
    for (const VarDecl &V : Units[I]->Globals)
      if (isLinkableSpace(V.Space))
        define(V.Name, V.Link, I);
  }
  if (Diags.hasErrors())
    return std::nullopt;

  std::unique_ptr<llvm::Module> Linked;
  std::vector<KernelInfo> Kernels;
  std::unique_ptr<Linker> L;
  for (size_t I = 0; I < Units.size(); ++I) {
    std::optional<LoweredModule> LM = lowerModule(*Units[I], Ctx, Diags,
                                                  Options);
    if (!LM)
      return std::nullopt;
    for (KernelInfo &K : LM->Kernels)
      Kernels.push_back(std::move(K));
    if (!Linked) {
      Linked = std::move(LM->IR);
      L = std::make_unique<Linker>(*Linked);
      continue;
    }
    if (L->linkInModule(std::move(LM->IR))) {
      Diags.error({}, "cannot link " + unitName(I) + " with the units before "
                      "it");
      return std::nullopt;
    }
  }
  // What is still only declared and used was defined by no unit.
  for (const llvm::Function &F : *Linked)
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty() &&
        !isBackendFunction(F.getName()) && !F.getName().starts_with("llvm."))
      Diags.error({}, "unresolved external function '" + F.getName().str() +
                          "': no linked unit defines it");
  for (const GlobalVariable &G : Linked->globals())
    if (G.isDeclaration() && !G.use_empty() &&
        !G.hasMetadata("cuhip.dynamic_shared"))
      Diags.error({}, "unresolved external variable '" + G.getName().str() +
                          "': no linked unit defines it");
  if (Diags.hasErrors())
    return std::nullopt;
  LoweredModule Out;
  Out.IR = std::move(Linked);
  Out.Kernels = std::move(Kernels);
  return Out;
}

std::optional<LoweredModule> parseAndLower(std::string_view Text,
                                           const std::string &FileName,
                                           LLVMContext &Ctx,
                                           DiagnosticEngine &Diags,
                                           const LowerOptions &Options) {
  std::vector<LinkUnit> Units = splitLinkUnits(Text);
  if (Units.size() == 1 && Units[0].Name.empty()) {
    std::optional<Module> Parsed = parseModule(Text, Diags);
    if (!Parsed)
      return std::nullopt;
    Parsed->FileName = FileName;
    return lowerModule(*Parsed, Ctx, Diags, Options);
  }
  std::vector<Module> Parsed;
  std::vector<std::string> Names;
  Parsed.reserve(Units.size());
  for (const LinkUnit &U : Units) {
    // Line numbers are the unit's own; the message names the unit.
    DiagnosticEngine UnitDiags(U.Name);
    std::optional<Module> M = parseModule(U.Ptx, UnitDiags);
    for (const Diagnostic &D : UnitDiags.diagnostics()) {
      std::string Msg = "in " + U.Name + ": " + D.Message;
      if (D.Sev == Severity::Error)
        Diags.error(D.Loc, Msg);
      else if (D.Sev == Severity::Warning)
        Diags.warning(D.Loc, Msg);
      else
        Diags.note(D.Loc, Msg);
    }
    if (!M)
      return std::nullopt;
    M->FileName = FileName;
    Parsed.push_back(std::move(*M));
    Names.push_back(U.Name);
  }
  std::vector<const Module *> Ptrs;
  for (const Module &M : Parsed)
    Ptrs.push_back(&M);
  return lowerLinkedModules(Ptrs, Names, Ctx, Diags, Options);
}

} // namespace cuhip::ptx
