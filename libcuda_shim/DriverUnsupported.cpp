//===- DriverUnsupported.cpp - Every other name libcuda exports -----------===//
//
// A program that imports a driver function cuhip does not implement must
// still load, and calling it must say what is missing instead of crashing.
// Every name the toolkit's libcuda exports (DriverSymbols.def) is defined
// here as a weak function that logs its name once and returns
// CUDA_ERROR_NOT_SUPPORTED; the implemented functions in the other files
// are strong definitions and take their place at link time. A driver
// function's result is a CUresult in the return register whatever its
// parameters, so one parameterless body serves every signature.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"

#define CUHIP_DRIVER_SYMBOL(Name)                                              \
  extern "C" __attribute__((weak, visibility("default"))) CUresult Name() {    \
    return cuhip::cuda::notSupported(#Name);                                   \
  }
#include "DriverSymbols.def"
#undef CUHIP_DRIVER_SYMBOL
