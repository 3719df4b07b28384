//===- Runner.cpp - Runs one PTX conformance case on the CPU backend ------===//
//
// A case is a PTX file and a data file beside it (same name, .data) that
// says how to launch the kernel, what its buffers hold before the launch,
// and what they must hold after it. The runner loads the PTX through the
// runtime core (as cuModuleLoadData would), runs it on the CPU backend and
// compares every expected element. The data format is described in
// README.md next to this file; DriverRunner.cpp runs the same cases through
// a libcuda.so.1.
//
//===----------------------------------------------------------------------===//
#include "CaseFile.h"
#include "cuhip/runtime/Runtime.h"

using namespace cuhip::rt;
using namespace conformance;

namespace {

int runCase(const std::string &DataPath) {
  Case C;
  std::string Ptx, Display;
  if (!loadCase(DataPath, C, Ptx, Display))
    return 2;

  Runtime &R = Runtime::get();
  Module *M = nullptr;
  if (Status S = R.loadModuleData(Ptx.data(), Ptx.size(), Display, &M)) {
    std::printf("FAIL: %s: loading the module: %s\n", Display.c_str(),
                statusName(S));
    return 1;
  }
  Kernel *K = nullptr;
  if (Status S = R.moduleGetFunction(M, C.Kernel.c_str(), &K)) {
    std::printf("FAIL: %s: kernel '%s': %s\n", Display.c_str(),
                C.Kernel.c_str(), statusName(S));
    return 1;
  }
  for (auto &B : C.Buffers) {
    std::vector<uint8_t> Host = initialBytes(B);
    if (R.malloc(&B.Device, Host.size()) != cudaSuccess) {
      std::printf("FAIL: cannot allocate %zu bytes\n", Host.size());
      return 1;
    }
    R.memcpy(B.Device, Host.data(), Host.size(), CopyKind::HostToDevice);
  }
  std::vector<uint64_t> Storage;
  std::vector<void *> Args;
  if (!kernelArgs(C, Storage, Args))
    return 2;
  ::cuhip::rt::Dim3 Grid{C.Grid.X, C.Grid.Y, C.Grid.Z},
      Block{C.Block.X, C.Block.Y, C.Block.Z};
  Status S = R.launch(K, Grid, Block, Args.data(), C.Shared, nullptr);
  // A launch is queued; what goes wrong while the kernel runs (a trap, a
  // block that cannot go on) is reported by the synchronisation after it.
  if (S == cudaSuccess)
    S = R.synchronize();
  R.getLastError();
  if (std::string(statusName(S)) != C.LaunchStatus) {
    std::printf("FAIL: %s: launch returned %s, expected %s\n", Display.c_str(),
                statusName(S), C.LaunchStatus.c_str());
    return 1;
  }
  int Result = checkExpects(C, Display, [&](Buffer &B, std::vector<uint8_t> &Host) {
    R.memcpy(Host.data(), B.Device, Host.size(), CopyKind::DeviceToHost);
  });
  for (auto &B : C.Buffers)
    R.free(B.Device);
  return Result;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ptx_conformance CASE.data...\n");
    return 2;
  }
  int Worst = 0;
  for (int I = 1; I < argc; ++I)
    Worst = std::max(Worst, runCase(argv[I]));
  return Worst;
}
