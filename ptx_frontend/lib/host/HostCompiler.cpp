//===- HostCompiler.cpp - ORC JIT for block functions ---------------------===//
//
// One LLJIT per process. Each loaded PTX module gets a JITDylib of its own
// (two modules may define the same global names), linked against the process
// so generated code can call libm. Compilation is synchronous: the first
// launch of a kernel pays for it. Each module is compiled to a relocatable
// object, which the JIT links; the same object goes to the on-disk compile
// cache (CompileCache.h), from which a later process loads it instead of
// compiling.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/TextureDescriptor.h"

#include "../CodegenDiagnostics.h"

#include "CompileCache.h"
#include "HostPasses.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace cuhip::ptx::host {

namespace {
void initializeNativeTarget() {
  static bool Done = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)Done;
}

Expected<JITTargetMachineBuilder> hostBuilder() {
  initializeNativeTarget();
  auto JTMB = JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  JTMB->setCodeGenOptLevel(CodeGenOptLevel::Aggressive);
  return JTMB;
}
} // namespace

HostCompiler::HostCompiler() = default;
HostCompiler::~HostCompiler() = default;

Expected<std::unique_ptr<TargetMachine>> HostCompiler::createHostTargetMachine() {
  auto JTMB = hostBuilder();
  if (!JTMB)
    return JTMB.takeError();
  return JTMB->createTargetMachine();
}

Expected<std::unique_ptr<HostCompiler>>
HostCompiler::create(const HostCompileOptions &Options) {
  auto JTMB = hostBuilder();
  if (!JTMB)
    return JTMB.takeError();
  auto TM = JTMB->createTargetMachine();
  if (!TM)
    return TM.takeError();
  auto J = LLJITBuilder().setJITTargetMachineBuilder(std::move(*JTMB)).create();
  if (!J)
    return J.takeError();
  auto Gen = DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*J)->getDataLayout().getGlobalPrefix());
  if (!Gen)
    return Gen.takeError();
  (*J)->getMainJITDylib().addGenerator(std::move(*Gen));
  // The helpers generated code calls, whether or not this binary exports
  // them dynamically.
  SymbolMap Helpers;
  auto add = [&](const char *Name, auto *Fn) {
    Helpers[(*J)->mangleAndIntern(Name)] = {ExecutorAddr::fromPtr(Fn),
                                           JITSymbolFlags::Exported};
  };
  add("cuhip_warp_step", &cuhip_warp_step);
  add("cuhip_matrix_lanes", &cuhip_matrix_lanes);
  add("cuhip_barrier_step", &cuhip_barrier_step);
  add("cuhip_globaltimer", &cuhip_globaltimer);
  add("cuhip_trap", &cuhip_trap);
  add("cuhip_block_yield", &cuhip_block_yield);
  add("cuhip_memcheck", &cuhip_memcheck);
  add("cuhip_tex_fetch", &cuhip_tex_fetch); // TextureSampler.cpp
  add("cuhip_tex_gather", &cuhip_tex_gather);
  add("cuhip_tex_query", &cuhip_tex_query);
  add("cuhip_surf_load", &cuhip_surf_load);
  add("cuhip_surf_store", &cuhip_surf_store);
  for (const std::string &Name : deviceLibraryNames())
    add(("cuhip_device_" + Name).c_str(), deviceLibraryFunction(Name));
  if (Error E = (*J)->getMainJITDylib().define(absoluteSymbols(std::move(Helpers))))
    return std::move(E);
  std::unique_ptr<HostCompiler> HC(new HostCompiler());
  HC->JIT = std::move(*J);
  HC->TM = std::move(*TM);
  HC->Options = Options;
  return HC;
}

std::string HostCompiler::targetDescription() const {
  return (TM->getTargetTriple().str() + " " + TM->getTargetCPU()).str();
}

void HostCompiler::enableCompileCache(const std::string &Directory,
                                      CompileCacheLogger Log) {
  std::lock_guard<std::mutex> G(Lock);
  Cache = std::make_unique<CompileCache>(Directory, std::move(Log));
}

bool HostCompiler::compileCacheEnabled() const {
  return Cache && Cache->enabled();
}

std::string HostCompiler::cacheKey(std::string_view Ptx) const {
  // The settings of the target machine that change the generated code;
  // the rest of the pipeline is covered by compilerVersion().
  std::string Opts =
      "O3 reloc=" + std::to_string(static_cast<int>(TM->getRelocationModel())) +
      " cm=" + std::to_string(static_cast<int>(TM->getCodeModel())) +
      " lanes=" + std::to_string(warpVectorWidth(TM.get()));
  if (Options.Memcheck)
    Opts += " memcheck";
  return compileCacheKey(StringRef(Ptx.data(), Ptx.size()),
                         TM->getTargetTriple().str(), TM->getTargetCPU(),
                         TM->getTargetFeatureString(), Opts);
}

namespace {
/// With CUHIP_PERF_MAP=1, appends each kernel's block function to
/// /tmp/perf-PID.map, the file through which `perf report` names code that
/// a JIT generated. Sizes come from the object's symbol table.
void writePerfMap(StringRef Object,
                  const std::vector<CompiledKernel> &Kernels) {
  const char *Env = std::getenv("CUHIP_PERF_MAP");
  if (!Env || StringRef(Env) != "1")
    return;
  auto Obj = object::ObjectFile::createObjectFile(
      MemoryBufferRef(Object, "cuhip-host-object"));
  if (!Obj) {
    consumeError(Obj.takeError());
    return;
  }
  StringMap<uint64_t> Sizes;
  for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    Sizes[*Name] = object::ELFSymbolRef(Sym).getSize();
  }
  std::string Path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
  std::error_code EC;
  raw_fd_ostream Out(Path, EC, sys::fs::OF_Append | sys::fs::OF_Text);
  if (EC)
    return;
  for (const CompiledKernel &K : Kernels)
    Out << format("%llx %llx %s\n",
                  (unsigned long long)reinterpret_cast<uintptr_t>(K.Fn),
                  (unsigned long long)Sizes.lookup(K.Layout.BlockFunctionName),
                  K.Layout.BlockFunctionName.c_str());
}

/// The module-scope variables of M that the host may address: PTX gives
/// variables without `.visible` internal linkage (nvcc's whole-program mode
/// declares every `__device__` and `__constant__` variable so), which would
/// leave them nameless in the object. They become external symbols of the
/// module's own JITDylib, so modules cannot clash. PTX identifiers have no
/// '.', so names with one are function-scope or cuhip's own.
void exposeModuleVariables(llvm::Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    unsigned AS = GV.getAddressSpace();
    if ((AS != addrspace::Global && AS != addrspace::Const) ||
        GV.isDeclaration() || GV.getName().contains('.') ||
        !GV.hasLocalLinkage())
      continue;
    GV.setLinkage(GlobalValue::ExternalLinkage);
    GV.setVisibility(GlobalValue::DefaultVisibility);
    GV.setDSOLocal(true); // addressed directly, as before, not via a GOT
  }
}

/// Each defined data symbol of Object with its address in JD.
Error collectVariables(LLJIT &JIT, JITDylib &JD, StringRef Object,
                       std::vector<ModuleVariable> &Variables) {
  auto Obj = object::ObjectFile::createObjectFile(
      MemoryBufferRef(Object, "cuhip-host-object"));
  if (!Obj)
    return Obj.takeError();
  for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
    Expected<object::SymbolRef::Type> Type = Sym.getType();
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<StringRef> Name = Sym.getName();
    if (!Type || !Flags || !Name) {
      consumeError(Type.takeError());
      consumeError(Flags.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if (*Type != object::SymbolRef::ST_Data ||
        !(*Flags & object::SymbolRef::SF_Global) ||
        (*Flags & object::SymbolRef::SF_Undefined) || Name->contains('.'))
      continue;
    auto Addr = JIT.lookup(JD, *Name);
    if (!Addr)
      return Addr.takeError();
    Variables.push_back({Name->str(), Addr->toPtr<void *>(),
                         object::ELFSymbolRef(Sym).getSize()});
  }
  return Error::success();
}

/// Links Object into a fresh JITDylib and resolves each kernel's block
/// function. On failure the JITDylib is removed again. In memcheck mode the
/// module's variables become memory the checks accept.
Expected<std::vector<CompiledKernel>>
linkObject(LLJIT &JIT, unsigned &NextDylib, std::string Object,
           std::vector<CompiledKernel> Kernels, bool Memcheck,
           std::vector<ModuleVariable> *Variables) {
  auto JD = JIT.createJITDylib("cuhip.module." + std::to_string(NextDylib++));
  if (!JD)
    return JD.takeError();
  JD->addToLinkOrder(JIT.getMainJITDylib());
  auto Fail = [&](Error E) -> Error {
    if (Error R = JIT.getExecutionSession().removeJITDylib(*JD))
      return joinErrors(std::move(E), std::move(R));
    return E;
  };
  if (Error E = JIT.addObjectFile(
          *JD, MemoryBuffer::getMemBufferCopy(Object, "cuhip-host-object")))
    return Fail(std::move(E));
  for (CompiledKernel &K : Kernels) {
    auto Sym = JIT.lookup(*JD, K.Layout.BlockFunctionName);
    if (!Sym)
      return Fail(Sym.takeError());
    K.Fn = Sym->toPtr<BlockFunction>();
  }
  writePerfMap(Object, Kernels);
  if (Variables)
    if (Error E = collectVariables(JIT, *JD, Object, *Variables))
      return Fail(std::move(E));
  if (Memcheck) {
    // { i64 count, [count x { ptr, i64 }] }, see MemcheckInstrumentation.
    auto Table = JIT.lookup(*JD, MemcheckGlobalsSymbol);
    if (!Table)
      return Fail(Table.takeError());
    const uint64_t *T = Table->toPtr<const uint64_t *>();
    registerMemcheckRanges(reinterpret_cast<const MemRange *>(T + 1), T[0]);
  }
  return Kernels;
}
} // namespace

std::optional<std::vector<CompiledKernel>>
HostCompiler::loadCached(std::string_view Ptx, const std::string &ModuleName,
                         std::vector<ModuleVariable> *Variables) {
  std::lock_guard<std::mutex> G(Lock);
  if (!Cache || !Cache->enabled())
    return std::nullopt;
  std::string Key = cacheKey(Ptx);
  std::optional<CompileCacheEntry> E = Cache->load(Key);
  if (!E) {
    Cache->debug("compile cache miss for " + ModuleName + " (" + Key + ")");
    return std::nullopt;
  }
  auto Linked = linkObject(*JIT, NextDylib, std::move(E->Object),
                           std::move(E->Kernels), Options.Memcheck, Variables);
  if (!Linked) {
    Cache->debug("compile cache: ignoring " + Cache->pathFor(Key) +
                  ": the object does not load: " +
                  toString(Linked.takeError()));
    return std::nullopt;
  }
  Cache->debug("compile cache hit for " + ModuleName + " (" + Key + ")");
  return std::move(*Linked);
}

Expected<std::vector<CompiledKernel>>
HostCompiler::compile(std::unique_ptr<LLVMContext> Ctx, LoweredModule LM,
                      const std::string &ModuleName,
                      std::string_view CacheSource,
                      std::vector<ModuleVariable> *Variables) {
  std::lock_guard<std::mutex> G(Lock);
  // On every path the module must go before the context that owns its types.
  auto DropModuleFirst = make_scope_exit([&] {
    LM.IR.reset();
    Ctx.reset();
  });
  llvm::Module &M = *LM.IR;
  M.setDataLayout(JIT->getDataLayout());
  M.setTargetTriple(TM->getTargetTriple());
  exposeModuleVariables(M);
  std::vector<HostKernelLayout> Layouts;
  if (Error E = prepareHostModule(M, LM.Kernels, Layouts, TM.get(), Options))
    return std::move(E);

  // Code generation to an object, as the JIT's own compile layer would do,
  // so that the object can also be cached.
  std::string Object;
  {
    raw_string_ostream OS(Object);
    buffer_ostream BOS(OS);
    legacy::PassManager PM;
    if (TM->addPassesToEmitFile(PM, BOS, nullptr, CodeGenFileType::ObjectFile))
      return createStringError(inconvertibleErrorCode(),
                               "%s: the host target cannot emit objects",
                               ModuleName.c_str());
    std::string Errors = runCodegenCollectingErrors(PM, M);
    if (!Errors.empty())
      return createStringError(inconvertibleErrorCode(),
                               "%s: the host target cannot compile it: %s",
                               ModuleName.c_str(), Errors.c_str());
  }

  std::vector<CompiledKernel> Kernels;
  for (size_t I = 0; I < LM.Kernels.size(); ++I) {
    CompiledKernel K;
    K.Info = LM.Kernels[I];
    K.Info.StaticSharedBytes = Layouts[I].StaticSharedBytes;
    K.Layout = Layouts[I];
    Kernels.push_back(std::move(K));
  }
  CompileCacheEntry Entry;
  bool Store = Cache && Cache->enabled() && !CacheSource.empty();
  if (Store) {
    Entry.Kernels = Kernels;
    Entry.Object = Object;
  }
  auto Linked = linkObject(*JIT, NextDylib, std::move(Object),
                           std::move(Kernels), Options.Memcheck, Variables);
  if (!Linked)
    return Linked.takeError();
  // Only what compiled and linked is cached.
  if (Store)
    Cache->store(cacheKey(CacheSource), Entry);
  return std::move(*Linked);
}

} // namespace cuhip::ptx::host
