//===- Stubs.cpp - Pipelines not built yet ---------------------------------===//
#include "Nvcc.h"

#include <cstdio>

namespace cuhip::nvcc {
bool resolveAmdArchs(const Invocation &, std::vector<std::string> &Out,
                     std::string &) {
  Out = {"gfx942", "gfx1100"};
  return true;
}
std::vector<std::string> cudaArchsForAmd(const std::vector<std::string> &) {
  return {"90", "89"};
}
int runAmd(const Invocation &, const Environment &, Runner &) {
  std::fprintf(stderr, "cuhip nvcc: error: AMD mode is not built yet\n");
  return 1;
}
int runCpu(const Invocation &, const Environment &, Runner &) {
  std::fprintf(stderr, "cuhip nvcc: error: CPU mode is not built yet\n");
  return 1;
}
} // namespace cuhip::nvcc
