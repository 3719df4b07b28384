//===- RuntimeUnsupported.cpp - Every other name libcudart exports --------===//
//
// A program that imports a runtime function cuhip does not implement must
// still load, and calling it must say what is missing instead of crashing
// at start-up with an undefined symbol. Every name the toolkit's libcudart
// exports (RuntimeSymbols.def, from scripts/gen-runtime-symbols.py) is
// defined here as a weak function that logs its name once and returns
// cudaErrorNotSupported; the implemented functions in the other files are
// strong definitions and take their place at link time. These functions
// return a cudaError_t in the return register whatever their parameters,
// so one parameterless body serves every signature. The one exported
// function that returns a structure, cudaCreateChannelDesc, is implemented
// for real below, since a struct result travels through memory the caller
// names.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <mutex>
#include <set>
#include <string>

namespace {
cudaError_t notSupported(const char *Name) {
  static std::mutex Lock;
  static std::set<std::string> *Logged = new std::set<std::string>;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (Logged->insert(Name).second)
      CUHIP_WARN("%s is not implemented by cuhip's libcudart; it returns "
                 "cudaErrorNotSupported",
                 Name);
  }
  return cuhip::cudart::runtime().record(cuhip::rt::cudaErrorNotSupported);
}
} // namespace

#define CUHIP_RUNTIME_SYMBOL(Name)                                             \
  extern "C" __attribute__((weak, visibility("default"))) cudaError_t Name() { \
    return notSupported(#Name);                                                \
  }
#include "RuntimeSymbols.def"
#undef CUHIP_RUNTIME_SYMBOL

CUHIP_EXPORT struct cudaChannelFormatDesc
cudaCreateChannelDesc(int X, int Y, int Z, int W,
                      enum cudaChannelFormatKind F) {
  return {X, Y, Z, W, F};
}
