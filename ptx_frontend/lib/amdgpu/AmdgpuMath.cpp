//===- AmdgpuMath.cpp - Math functions through the ROCm device libraries --===//
//
// An llvm.{sin,cos,exp2,log2,tanh} call in the IR (the neutral lowering
// computes the .approx transcendentals inline and emits none today, see
// lib/lower/ApproxMath.cpp) has no f64 lowering in the AMDGPU backend (it
// would emit an unresolvable libcall), so each call becomes the matching
// ocml function (__ocml_sin_f64, ...; _f32 for f32 calls) from the ROCm
// device libraries (Debian package rocm-device-libs). ocml's functions meet
// the OpenCL full-profile bounds (f64: sin/cos 4 ulp, exp2/log2 3 ulp, tanh
// 5 ulp). The library is linked lazily with llvm::Linker, keeping
// only the functions the module calls, then internalized so the optimizer
// inlines them and drops the rest. ocml reads __oclc_* control constants;
// they are linked from the package's oclc_*.bc modules with the values this
// target needs, and generated here when the package has no module for the
// target (Debian's 5.2 package lacks gfx942, gfx1100 and gfx1201).
//
//===----------------------------------------------------------------------===//
#include "AmdgpuMath.h"

#include "cuhip/ptx/AmdgpuTarget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>

using namespace llvm;

namespace cuhip::ptx::amdgpu {

// The PTX AST has its own Module/Function; here they are LLVM's.
using llvm::Function;
using llvm::Module;

namespace {

/// The ocml name stem of a math intrinsic the neutral IR uses.
const char *ocmlStem(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::sin:
    return "sin";
  case Intrinsic::cos:
    return "cos";
  case Intrinsic::exp2:
    return "exp2";
  case Intrinsic::log2:
    return "log2";
  case Intrinsic::tanh:
    return "tanh";
  default:
    return nullptr;
  }
}

/// The directory holding the device libraries (found by ocml.bc; ockl.bc
/// is in the same package): $CUHIP_ROCM_DEVICE_LIBS, else the Debian
/// package's, else a ROCm installation's.
std::optional<std::string> deviceLibDir() {
  std::vector<std::string> Dirs;
  if (std::optional<std::string> Env =
          sys::Process::GetEnv("CUHIP_ROCM_DEVICE_LIBS"))
    Dirs.push_back(*Env);
  else
    Dirs = {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
            "/usr/lib/aarch64-linux-gnu/amdgcn/bitcode",
            "/usr/lib/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode"};
  for (const std::string &D : Dirs) {
    SmallString<256> P(D);
    sys::path::append(P, "ocml.bc");
    if (sys::fs::exists(P))
      return D;
  }
  return std::nullopt;
}

/// oclc_isa_version_<N>'s value: major * 1000 + minor * 100 + stepping,
/// where gfx<major><minor><stepping> has hex minor and stepping digits
/// (gfx90a -> 9010, gfx1201 -> 12001).
std::optional<unsigned> isaVersion(StringRef Name) {
  if (!Name.consume_front("gfx") || Name.size() < 3)
    return std::nullopt;
  unsigned Major, Minor, Step;
  if (Name.drop_back(2).getAsInteger(10, Major) ||
      Name.substr(Name.size() - 2, 1).getAsInteger(16, Minor) ||
      Name.substr(Name.size() - 1).getAsInteger(16, Step))
    return std::nullopt;
  return Major * 1000 + Minor * 100 + Step;
}

/// One control constant: its global, the package module defining it for
/// this target, and the value cuhip needs.
struct Control {
  const char *Global;
  std::string File;
  unsigned Bits;
  uint64_t Value;
};

std::vector<Control> controlsFor(const Target &T, unsigned IsaVersion) {
  auto onOff = [](const char *Stem, bool On) {
    return std::string(Stem) + (On ? "_on" : "_off");
  };
  return {
      // ockl reads the hidden kernel arguments (the hostcall buffer) at
      // the offsets of the code object version cuhip emits.
      {"__oclc_ABI_version",
       "oclc_abi_version_" + std::to_string(CodeObjectVersion * 100), 32,
       CodeObjectVersion * 100},
      {"__oclc_ISA_version",
       std::string("oclc_isa_version_") + (T.Name + 3), 32, IsaVersion},
      {"__oclc_wavefrontsize64", onOff("oclc_wavefrontsize64",
                                       T.WavefrontSize == 64),
       8, T.WavefrontSize == 64},
      // Kernels run with f32 denormals preserved (docs/amdgpu.md); .ftz is
      // applied by the neutral IR around the call.
      {"__oclc_daz_opt", onOff("oclc_daz_opt", false), 8, 0},
      // PTX gives NaN and infinity results; no fast-math assumptions.
      {"__oclc_finite_only_opt", onOff("oclc_finite_only", false), 8, 0},
      {"__oclc_unsafe_math_opt", onOff("oclc_unsafe_math", false), 8, 0},
      {"__oclc_correctly_rounded_sqrt32",
       onOff("oclc_correctly_rounded_sqrt", true), 8, 1},
  };
}

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg.str());
}

} // namespace

bool lowerMathCall(CallBase &CB) {
  Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return false;
  const char *Stem = ocmlStem(Callee->getIntrinsicID());
  Type *Ty = CB.getType();
  if (!Stem || !(Ty->isFloatTy() || Ty->isDoubleTy()))
    return false;
  Module &M = *CB.getModule();
  std::string Name = std::string("__ocml_") + Stem +
                     (Ty->isFloatTy() ? "_f32" : "_f64");
  FunctionCallee F =
      M.getOrInsertFunction(Name, FunctionType::get(Ty, {Ty}, false));
  auto *Call = CallInst::Create(F, {CB.getArgOperand(0)}, "", CB.getIterator());
  Call->takeName(&CB);
  CB.replaceAllUsesWith(Call);
  CB.eraseFromParent();
  if (Callee->use_empty())
    Callee->eraseFromParent();
  return true;
}

Error linkDeviceLibraries(Module &M, const Target &T) {
  bool NeedsOcml = false, NeedsOckl = false;
  for (Function &F : M)
    if (F.isDeclaration()) {
      NeedsOcml |= F.getName().starts_with("__ocml_");
      NeedsOckl |= F.getName().starts_with("__ockl_");
    }
  if (!NeedsOcml && !NeedsOckl)
    return Error::success();
  std::optional<std::string> Dir = deviceLibDir();
  if (!Dir)
    return fail(Twine(NeedsOcml ? "math functions" : "printf and assert") +
                " need the ROCm device libraries: " +
                (NeedsOcml ? "ocml.bc" : "ockl.bc") +
                " not found (install the Debian package rocm-device-libs or "
                "set CUHIP_ROCM_DEVICE_LIBS)");
  std::optional<unsigned> Isa = isaVersion(T.Name);
  if (!Isa)
    return fail(Twine("no ISA version for target ") + T.Name);

  // Everything defined before linking stays as it is; what the libraries
  // add is internalized afterwards.
  SmallPtrSet<const GlobalValue *, 32> Own;
  for (GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration())
      Own.insert(&GV);

  LLVMContext &Ctx = M.getContext();
  auto linkFile = [&](StringRef File) -> Error {
    SmallString<256> P(*Dir);
    sys::path::append(P, File);
    SMDiagnostic Diag;
    std::unique_ptr<Module> Lib = getLazyIRFileModule(P, Diag, Ctx);
    if (!Lib)
      return fail("cannot read " + P + ": " + Diag.getMessage());
    Lib->setDataLayout(M.getDataLayout());
    Lib->setTargetTriple(M.getTargetTriple());
    if (Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded))
      return fail("cannot link " + P);
    return Error::success();
  };
  if (NeedsOcml)
    if (Error E = linkFile("ocml.bc"))
      return E;
  if (NeedsOckl)
    if (Error E = linkFile("ockl.bc"))
      return E;

  // The control constants the libraries read: the package's module when it
  // has one for this setting (its value is checked), else a constant made
  // here.
  for (const Control &C : controlsFor(T, *Isa)) {
    GlobalVariable *GV = M.getGlobalVariable(C.Global, true);
    if (!GV || !GV->isDeclaration())
      continue;
    SmallString<256> P(*Dir);
    sys::path::append(P, C.File + ".bc");
    if (sys::fs::exists(P)) {
      if (Error E = linkFile(C.File + ".bc"))
        return E;
      GV = M.getGlobalVariable(C.Global, true);
    } else {
      GV->setInitializer(ConstantInt::get(IntegerType::get(Ctx, C.Bits),
                                          C.Value));
      GV->setConstant(true);
    }
    auto *Init = GV && GV->hasInitializer()
                     ? dyn_cast<ConstantInt>(GV->getInitializer())
                     : nullptr;
    if (!Init || Init->getBitWidth() != C.Bits ||
        Init->getZExtValue() != C.Value)
      return fail(Twine("device library control constant ") + C.Global +
                  " from " + P + " does not have the value " +
                  Twine(C.Value));
  }

  std::string Missing;
  for (GlobalValue &GV : M.global_values()) {
    StringRef N = GV.getName();
    if (GV.isDeclaration() &&
        (N.starts_with("__ocml_") || N.starts_with("__oclc_") ||
         N.starts_with("__ockl_")))
      Missing += (Missing.empty() ? "" : ", ") + N.str();
  }
  if (!Missing.empty())
    return fail("the ROCm device libraries in " + *Dir +
                " do not define " + Missing);

  for (GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration() && !Own.contains(&GV)) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setVisibility(GlobalValue::DefaultVisibility);
      // The asm printer calls unnamed globals __unnamed_N, names nvcc
      // also gives PTX globals (e.g. an assert's function name).
      if (!GV.hasName())
        GV.setName("devlib.anon");
    }
  return Error::success();
}

} // namespace cuhip::ptx::amdgpu
