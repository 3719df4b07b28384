//===- CompilePtx.cpp - PTX text to a cached AMDGPU code object -----------===//
//
// The whole AMDGPU pipeline for one module, as the HIP backend needs it:
// parse, lower to the target-neutral IR, lower to AMDGPU, generate code and
// link with lld. Code objects go through the same on-disk compile cache as
// the host target's objects: an entry holds the kernels' parameter layouts
// (what a launch packs its arguments by) and the linked .hsaco, so a hit
// needs neither the parser nor LLVM's backend. The key names the target
// triple, the gfx name, its features and the code object version besides the
// PTX text, and compileCacheKey adds the compiler's version and identity.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/AmdgpuTarget.h"

#include "../host/CompileCache.h"

#include "cuhip/ptx/Diagnostics.h"
#include "cuhip/ptx/Link.h"
#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace cuhip::ptx::amdgpu {

namespace {
constexpr const char *AmdgpuTriple = "amdgcn-amd-amdhsa";

std::string cacheKey(std::string_view Ptx, const Target &T) {
  std::string Options = "O3 code-object-v" + std::to_string(CodeObjectVersion) +
                        " ld.lld -shared";
  return host::compileCacheKey(StringRef(Ptx.data(), Ptx.size()), AmdgpuTriple,
                               T.Name, T.Features, Options);
}
} // namespace

Expected<CodeObject> compilePtx(std::string_view Ptx, const std::string &Name,
                                const Target &T, const std::string &CacheDir,
                                CodeObjectCacheLogger Log) {
  std::unique_ptr<host::CompileCache> Cache;
  std::string Key;
  if (!CacheDir.empty()) {
    Cache = std::make_unique<host::CompileCache>(CacheDir, Log);
    if (Cache->enabled()) {
      Key = cacheKey(Ptx, T);
      if (std::optional<host::CompileCacheEntry> E = Cache->load(Key)) {
        CodeObject CO;
        CO.FromCache = true;
        CO.Bytes = std::move(E->Object);
        for (host::CompiledKernel &K : E->Kernels)
          CO.Kernels.push_back(std::move(K.Info));
        Cache->debug("compile cache hit for " + Name + " on " + T.Name + " (" +
                     Key + ")");
        return CO;
      }
      Cache->debug("compile cache miss for " + Name + " on " + T.Name + " (" +
                   Key + ")");
    }
  }

  DiagnosticEngine Diags(Name);
  auto diagnostics = [&] {
    std::string S;
    for (const Diagnostic &D : Diags.diagnostics())
      if (D.Sev == Severity::Error)
        S += (S.empty() ? "" : "\n") + Diags.format(D);
    return S.empty() ? Name + ": the PTX frontend failed without a diagnostic"
                     : S;
  };
  LLVMContext Ctx;
  // One module, or linked units (Link.h), taken as archive members so that
  // an -rdc program's device runtime unit, which does not lower, stays out.
  std::vector<std::string> EveryDefinition;
  std::optional<LoweredModule> Lowered =
      parseAndLower(Ptx, Name, Ctx, Diags, {}, &EveryDefinition);
  if (!Lowered)
    return createStringError(inconvertibleErrorCode(), diagnostics());

  auto TM = createTargetMachine(T);
  if (!TM)
    return TM.takeError();
  if (Error E = lowerToAmdgpu(*Lowered->IR, Lowered->Kernels, T, **TM))
    return createStringError(inconvertibleErrorCode(),
                             Name + ": --arch " + T.Name + ": " +
                                 toString(std::move(E)));
  // Kernels that read the dynamic shared size take it as an extra kernel
  // argument the launch must fill.
  for (KernelInfo &KI : Lowered->Kernels)
    if (std::optional<uint32_t> Off =
            dynamicSharedSizeArgOffset(*Lowered->IR, KI.Name))
      KI.DynamicSharedSizeArgOffset = static_cast<int32_t>(*Off);
  SmallVector<char, 0> Object, Linked;
  if (Error E = emitObject(*Lowered->IR, **TM, Object))
    return createStringError(inconvertibleErrorCode(),
                             Name + ": " + toString(std::move(E)));
  if (Error E = linkCodeObject(Object, Linked))
    return createStringError(inconvertibleErrorCode(),
                             Name + ": " + toString(std::move(E)));

  CodeObject CO;
  CO.Bytes.assign(Linked.begin(), Linked.end());
  CO.Kernels = std::move(Lowered->Kernels);
  if (Cache && Cache->enabled()) {
    host::CompileCacheEntry E;
    for (const KernelInfo &KI : CO.Kernels) {
      host::CompiledKernel K;
      K.Info = KI;
      E.Kernels.push_back(std::move(K));
    }
    E.Object = CO.Bytes;
    Cache->store(Key, E);
  }
  return CO;
}

} // namespace cuhip::ptx::amdgpu
