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
#include "cuhip/ptx/DeviceRuntimeApi.h"

#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"

#include <map>
#include <set>

using namespace llvm;

namespace cuhip::ptx {

namespace {
/// Functions PTX may declare .extern, or the lowering calls, that the
/// backends provide themselves.
bool isBackendFunction(StringRef Name) {
  // "cuhip." names are calls the lowering itself makes (mbarrier operations,
  // warp and block primitives) for a target to replace; PTX identifiers
  // cannot contain a dot, so no unit can define or clash with one.
  return Name.starts_with("cuhip.") || Name == "vprintf" || Name == "__assertfail" || Name == "malloc" ||
         Name == "free" ||
         // The texture sampler the texture instructions call (LowerTexture.cpp).
         Name == "cuhip_tex_fetch" || Name == "cuhip_tex_gather" ||
         Name == "cuhip_tex_query" || Name == "cuhip_surf_load" ||
         Name == "cuhip_surf_store" ||
         // Dynamic parallelism's device runtime (DeviceRuntimeApi.h).
         isDeviceRuntimeFunction(Name);
}

/// Whether M is NVIDIA's device runtime library (libcudadevrt, linked into
/// -rdc programs that launch kernels from the device). Its functions drive
/// the GPU's own launch hardware; the backends provide them instead.
bool isDeviceRuntimeLibrary(const Module &M) {
  for (const Function &F : M.Functions)
    if (F.Body && isDeviceRuntimeDefinition(F.Name))
      return true;
  return false;
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
                   const LowerOptions &Options,
                   const std::vector<bool> *Optional) {
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
  std::vector<std::string> LeftOut; // why each dropped unit did not lower
  for (size_t I = 0; I < Units.size(); ++I) {
    bool MayDrop = Optional && I < Optional->size() && (*Optional)[I];
    DiagnosticEngine UnitDiags(Diags.fileName());
    std::optional<LoweredModule> LM =
        lowerModule(*Units[I], Ctx, MayDrop ? UnitDiags : Diags, Options);
    if (!LM && MayDrop) {
      // Nothing else refers to this unit: leave it out, and its kernels
      // with it (a launch of one fails), rather than the whole program.
      Diags.note({}, unitName(I) + " is left out: it does not lower (" +
                         UnitDiags.firstError() + ")");
      LeftOut.push_back(unitName(I) + ": " + UnitDiags.firstError());
      continue;
    }
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
  if (!Linked) {
    // Every unit was optional and none lowered: their causes are the
    // errors, not notes a user only sees at debug level.
    std::string Why;
    for (const std::string &W : LeftOut)
      Why += "\n  " + W;
    Diags.error({}, "no linked unit lowers" + (Why.empty() ? "" : ":" + Why));
    return std::nullopt;
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

namespace {
/// The units Roots needs (see parseAndLower), in their original order.
std::vector<size_t> neededUnits(const std::vector<Module> &Units,
                                const std::vector<std::string> &Roots,
                                std::vector<bool> &Referenced) {
  std::map<std::string, std::vector<size_t>> Definers;
  std::vector<std::vector<std::string>> Refs(Units.size());
  for (size_t I = 0; I < Units.size(); ++I) {
    for (const Function &F : Units[I].Functions) {
      if (F.Body && (F.IsEntry || F.Link != Linkage::Internal))
        Definers[F.Name].push_back(I);
      else if (!F.Body)
        Refs[I].push_back(F.Name);
    }
    for (const VarDecl &V : Units[I].Globals) {
      if (!isLinkableSpace(V.Space))
        continue;
      if (V.Link == Linkage::Extern)
        Refs[I].push_back(V.Name);
      else if (V.Link != Linkage::Internal)
        Definers[V.Name].push_back(I);
    }
  }
  std::vector<bool> Needed(Units.size(), false);
  std::vector<std::string> Work(Roots.begin(), Roots.end());
  std::set<std::string> Seen;
  while (!Work.empty()) {
    std::string Name = std::move(Work.back());
    Work.pop_back();
    if (!Seen.insert(Name).second)
      continue;
    auto It = Definers.find(Name);
    if (It == Definers.end())
      continue; // reported as unresolved after linking, if used
    for (size_t I : It->second)
      if (!Needed[I]) {
        Needed[I] = true;
        for (const std::string &R : Refs[I])
          Work.push_back(R);
        // A needed unit's own definitions come along whole.
        for (const Function &F : Units[I].Functions)
          if (F.Body && (F.IsEntry || F.Link != Linkage::Internal))
            Work.push_back(F.Name);
      }
  }
  // Which needed units another needed unit refers to: those must lower.
  Referenced.assign(Units.size(), false);
  for (size_t I = 0; I < Units.size(); ++I)
    if (Needed[I])
      for (const std::string &R : Refs[I])
        if (auto It = Definers.find(R); It != Definers.end())
          for (size_t J : It->second)
            if (J != I)
              Referenced[J] = true;
  std::vector<size_t> Out;
  for (size_t I = 0; I < Units.size(); ++I)
    if (Needed[I])
      Out.push_back(I);
  return Out;
}
} // namespace

std::optional<LoweredModule>
parseAndLower(std::string_view Text, const std::string &FileName,
              LLVMContext &Ctx, DiagnosticEngine &Diags,
              const LowerOptions &Options,
              const std::vector<std::string> *Roots) {
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
  // With Roots, a unit that does not parse only matters if a root is then
  // left undefined: it may be a library member the program never uses.
  std::vector<std::unique_ptr<DiagnosticEngine>> Unparsed;
  std::set<std::string> DeviceRuntimeSymbols;
  auto forward = [&](const DiagnosticEngine &UnitDiags, const LinkUnit &U) {
    for (const Diagnostic &D : UnitDiags.diagnostics()) {
      // Line numbers are the unit's own; the message names the unit.
      std::string Msg = "in " + U.Name + ": " + D.Message;
      if (D.Sev == Severity::Error)
        Diags.error(D.Loc, Msg);
      else if (D.Sev == Severity::Warning)
        Diags.warning(D.Loc, Msg);
      else
        Diags.note(D.Loc, Msg);
    }
  };
  for (const LinkUnit &U : Units) {
    auto UnitDiags = std::make_unique<DiagnosticEngine>(U.Name);
    std::optional<Module> M = parseModule(U.Ptx, *UnitDiags);
    if (!M && Roots) {
      Unparsed.push_back(std::move(UnitDiags));
      continue;
    }
    forward(*UnitDiags, U);
    if (!M)
      return std::nullopt;
    if (isDeviceRuntimeLibrary(*M)) {
      Diags.note({}, U.Name + " is left out: it is NVIDIA's device runtime, "
                              "which the backend provides itself");
      // Its own kernels (device-side copies and fills) and variables are
      // registered by the host like the program's; nothing else uses them.
      for (const Function &F : M->Functions)
        if (F.Body && F.IsEntry)
          DeviceRuntimeSymbols.insert(F.Name);
      for (const VarDecl &V : M->Globals)
        if (V.Link != Linkage::Extern)
          DeviceRuntimeSymbols.insert(V.Name);
      continue;
    }
    M->FileName = FileName;
    Parsed.push_back(std::move(*M));
    Names.push_back(U.Name);
  }
  std::vector<const Module *> Ptrs;
  std::vector<std::string> PtrNames;
  std::vector<bool> Optional;
  if (Roots) {
    std::vector<bool> Referenced;
    std::vector<std::string> AllDefined, OwnRoots;
    if (!DeviceRuntimeSymbols.empty() && !Roots->empty()) {
      for (const std::string &R : *Roots)
        if (!DeviceRuntimeSymbols.count(R))
          OwnRoots.push_back(R);
      if (OwnRoots.empty()) {
        Diags.error({}, "the program's only kernels and variables are the "
                        "device runtime's");
        return std::nullopt;
      }
      Roots = &OwnRoots;
    }
    if (Roots->empty()) {
      // Every definition is a root; only unreferenced units are optional.
      for (const Module &M : Parsed) {
        for (const Function &F : M.Functions)
          if (F.Body && (F.IsEntry || F.Link != Linkage::Internal))
            AllDefined.push_back(F.Name);
      }
      Roots = &AllDefined;
    }
    for (size_t I : neededUnits(Parsed, *Roots, Referenced)) {
      Ptrs.push_back(&Parsed[I]);
      PtrNames.push_back(Names[I]);
      Optional.push_back(!Referenced[I]);
    }
    std::set<std::string> Defined;
    for (const Module *M : Ptrs) {
      for (const Function &F : M->Functions)
        if (F.Body)
          Defined.insert(F.Name);
      for (const VarDecl &V : M->Globals)
        if (V.Link != Linkage::Extern)
          Defined.insert(V.Name);
    }
    bool Missing = false;
    for (const std::string &R : *Roots)
      if (!Defined.count(R)) {
        Missing = true;
        if (Unparsed.empty())
          Diags.error({}, "no linked unit defines '" + R + "'");
      }
    if (Missing && !Unparsed.empty()) {
      for (const auto &UD : Unparsed)
        forward(*UD, {UD->fileName(), {}});
      return std::nullopt;
    }
    if (Diags.hasErrors())
      return std::nullopt;
  } else {
    for (const Module &M : Parsed)
      Ptrs.push_back(&M);
    PtrNames = Names;
  }
  return lowerLinkedModules(Ptrs, PtrNames, Ctx, Diags, Options,
                            Roots ? &Optional : nullptr);
}

} // namespace cuhip::ptx
