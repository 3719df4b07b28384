//===- HostCompiler.cpp - ORC JIT for block functions ---------------------===//
//
// One LLJIT per process. Each loaded PTX module gets a JITDylib of its own
// (two modules may define the same global names), linked against the process
// so generated code can call libm. Compilation is synchronous: the first
// launch of a kernel pays for it.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

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

HostCompiler::~HostCompiler() = default;

Expected<std::unique_ptr<TargetMachine>> HostCompiler::createHostTargetMachine() {
  auto JTMB = hostBuilder();
  if (!JTMB)
    return JTMB.takeError();
  return JTMB->createTargetMachine();
}

Expected<std::unique_ptr<HostCompiler>> HostCompiler::create() {
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
  add("cuhip_barrier_step", &cuhip_barrier_step);
  add("cuhip_globaltimer", &cuhip_globaltimer);
  add("cuhip_trap", &cuhip_trap);
  for (const char *Name : {"vprintf", "__assertfail", "malloc", "free"})
    add((std::string("cuhip_device_") + Name).c_str(),
        deviceLibraryFunction(Name));
  if (Error E = (*J)->getMainJITDylib().define(absoluteSymbols(std::move(Helpers))))
    return std::move(E);
  std::unique_ptr<HostCompiler> HC(new HostCompiler());
  HC->JIT = std::move(*J);
  HC->TM = std::move(*TM);
  return HC;
}

std::string HostCompiler::targetDescription() const {
  return (TM->getTargetTriple().str() + " " + TM->getTargetCPU()).str();
}

Expected<std::vector<CompiledKernel>>
HostCompiler::compile(std::unique_ptr<LLVMContext> Ctx, LoweredModule LM,
                      const std::string &ModuleName) {
  std::lock_guard<std::mutex> G(Lock);
  // On failure the module must go before the context that owns its types.
  auto DropModuleFirst = make_scope_exit([&] { LM.IR.reset(); });
  llvm::Module &M = *LM.IR;
  M.setDataLayout(JIT->getDataLayout());
  M.setTargetTriple(TM->getTargetTriple());
  std::vector<HostKernelLayout> Layouts;
  if (Error E = prepareHostModule(M, LM.Kernels, Layouts, TM.get()))
    return std::move(E);

  auto JD = JIT->createJITDylib("cuhip.module." + std::to_string(NextDylib++));
  if (!JD)
    return JD.takeError();
  JD->addToLinkOrder(JIT->getMainJITDylib());
  if (Error E = JIT->addIRModule(
          *JD, ThreadSafeModule(std::move(LM.IR), std::move(Ctx))))
    return std::move(E);

  std::vector<CompiledKernel> Out;
  for (size_t I = 0; I < LM.Kernels.size(); ++I) {
    auto Sym = JIT->lookup(*JD, Layouts[I].BlockFunctionName);
    if (!Sym)
      return Sym.takeError();
    CompiledKernel K;
    K.Info = LM.Kernels[I];
    K.Info.StaticSharedBytes = Layouts[I].StaticSharedBytes;
    K.Layout = Layouts[I];
    K.Fn = Sym->toPtr<BlockFunction>();
    Out.push_back(std::move(K));
  }
  (void)ModuleName;
  return Out;
}

} // namespace cuhip::ptx::host
