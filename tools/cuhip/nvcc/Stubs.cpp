//===- Stubs.cpp - Pipelines not built yet ---------------------------------===//
#include "Nvcc.h"

#include <cstdio>

namespace cuhip::nvcc {
int runCpu(const Invocation &, const Environment &, Runner &) {
  std::fprintf(stderr, "cuhip nvcc: error: CPU mode is not built yet\n");
  return 1;
}
} // namespace cuhip::nvcc
