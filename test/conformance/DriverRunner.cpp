//===- DriverRunner.cpp - Runs PTX conformance cases through a libcuda ----===//
//
// The same cases as ptx_conformance, run through the CUDA driver API of a
// libcuda.so.1 loaded at run time: cuhip's drop-in (ctest passes its path),
// or NVIDIA's on a machine with an NVIDIA GPU, where the results are the
// hardware's and check the expected values themselves. The driver API is
// declared here, from its public signatures, so this file builds with a
// plain C++ compiler and no CUDA headers:
//
//   c++ -std=c++17 -O1 -o ptx_conformance_driver
//       test/conformance/DriverRunner.cpp -ldl
//   ./ptx_conformance_driver [--libcuda PATH] [--timeout S] [--dump]
//       CASE.data...
//
// --dump prints every expected buffer as the device left it. --gpu, for a
// run on an NVIDIA GPU, counts mismatches in expect lines marked
// gpu=differs as the known differences the data file describes.
//
// Each case runs in a child process of its own, because a kernel fault
// leaves a CUDA context unusable. A case whose PTX targets a newer
// architecture than the device and that the driver refuses is reported as
// unchecked (exit status 3), not as a failure of the expected values.
//
//===----------------------------------------------------------------------===//
#include "CaseFile.h"

#include <dlfcn.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace conformance;

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;

/// The driver entry points a case needs, by their exported names.
struct Driver {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(int *, int);
  CUresult (*DeviceGetAttribute)(int *, int, int);
  CUresult (*PrimaryCtxRetain)(void **, int);
  CUresult (*CtxSetCurrent)(void *);
  CUresult (*ModuleLoadDataEx)(void **, const void *, unsigned, int *,
                               void **);
  CUresult (*ModuleGetFunction)(void **, void *, const char *);
  CUresult (*FuncSetAttribute)(void *, int, int);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, void *, void **,
                           void **);
  CUresult (*CtxSynchronize)();
  CUresult (*GetErrorName)(CUresult, const char **);
};

// Values from the driver API's public enumerations.
constexpr int AttrComputeCapabilityMajor = 75;
constexpr int AttrComputeCapabilityMinor = 76;
constexpr int FuncAttrMaxDynamicSharedSizeBytes = 8;
constexpr int JitErrorLogBuffer = 5;
constexpr int JitErrorLogBufferSizeBytes = 6;

bool loadDriver(const char *Path, Driver &D) {
  void *H = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  if (!H) {
    std::fprintf(stderr, "error: cannot load %s: %s\n", Path, dlerror());
    return false;
  }
  bool Ok = true;
  auto get = [&](auto &Fn, const char *Name) {
    void *S = dlsym(H, Name);
    if (!S) {
      std::fprintf(stderr, "error: %s has no %s\n", Path, Name);
      Ok = false;
    }
    std::memcpy(&Fn, &S, sizeof(S));
  };
  get(D.Init, "cuInit");
  get(D.DeviceGet, "cuDeviceGet");
  get(D.DeviceGetAttribute, "cuDeviceGetAttribute");
  get(D.PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  get(D.CtxSetCurrent, "cuCtxSetCurrent");
  get(D.ModuleLoadDataEx, "cuModuleLoadDataEx");
  get(D.ModuleGetFunction, "cuModuleGetFunction");
  get(D.FuncSetAttribute, "cuFuncSetAttribute");
  get(D.MemAlloc, "cuMemAlloc_v2");
  get(D.MemFree, "cuMemFree_v2");
  get(D.MemcpyHtoD, "cuMemcpyHtoD_v2");
  get(D.MemcpyDtoH, "cuMemcpyDtoH_v2");
  get(D.LaunchKernel, "cuLaunchKernel");
  get(D.CtxSynchronize, "cuCtxSynchronize");
  get(D.GetErrorName, "cuGetErrorName");
  return Ok;
}

std::string errorName(const Driver &D, CUresult R) {
  const char *N = nullptr;
  if (D.GetErrorName(R, &N) != 0 || !N)
    return "CUresult " + std::to_string(R);
  return N;
}

/// The runtime API's name for a driver status, as the data files spell
/// launch statuses. Statuses outside this list keep their driver name, and
/// a case that expects one of them fails with both names printed.
std::string runtimeName(const std::string &DriverName) {
  static const struct {
    const char *Driver, *Runtime;
  } Names[] = {{"CUDA_SUCCESS", "cudaSuccess"},
               {"CUDA_ERROR_LAUNCH_FAILED", "cudaErrorLaunchFailure"},
               {"CUDA_ERROR_ILLEGAL_ADDRESS", "cudaErrorIllegalAddress"},
               {"CUDA_ERROR_MISALIGNED_ADDRESS", "cudaErrorMisalignedAddress"},
               {"CUDA_ERROR_ILLEGAL_INSTRUCTION", "cudaErrorIllegalInstruction"},
               {"CUDA_ERROR_INVALID_PC", "cudaErrorInvalidPc"},
               {"CUDA_ERROR_ASSERT", "cudaErrorAssert"},
               {"CUDA_ERROR_HARDWARE_STACK_ERROR", "cudaErrorHardwareStackError"},
               {"CUDA_ERROR_LAUNCH_TIMEOUT", "cudaErrorLaunchTimeout"},
               {"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
                "cudaErrorLaunchOutOfResources"},
               {"CUDA_ERROR_INVALID_VALUE", "cudaErrorInvalidValue"},
               {"CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
                "cudaErrorCooperativeLaunchTooLarge"}};
  for (const auto &N : Names)
    if (DriverName == N.Driver)
      return N.Runtime;
  return DriverName;
}

/// The highest sm_NN a module's .target line names, or 0.
unsigned ptxTarget(const std::string &Ptx) {
  size_t At = Ptx.find(".target");
  if (At == std::string::npos)
    return 0;
  size_t Sm = Ptx.find("sm_", At);
  size_t Eol = Ptx.find('\n', At);
  if (Sm == std::string::npos || Sm > Eol)
    return 0;
  return unsigned(std::strtoul(Ptx.c_str() + Sm + 3, nullptr, 10));
}

int runCase(const Driver &D, const std::string &DataPath) {
  Case C;
  std::string Ptx, Display;
  if (!loadCase(DataPath, C, Ptx, Display))
    return 2;
  auto failed = [&](const char *What, CUresult R) {
    std::printf("FAIL: %s: %s: %s\n", Display.c_str(), What,
                errorName(D, R).c_str());
    return 1;
  };
  int Dev = 0, Major = 0, Minor = 0;
  void *Ctx = nullptr;
  if (CUresult R = D.Init(0))
    return failed("cuInit", R);
  if (CUresult R = D.DeviceGet(&Dev, 0))
    return failed("cuDeviceGet", R);
  D.DeviceGetAttribute(&Major, AttrComputeCapabilityMajor, Dev);
  D.DeviceGetAttribute(&Minor, AttrComputeCapabilityMinor, Dev);
  if (CUresult R = D.PrimaryCtxRetain(&Ctx, Dev))
    return failed("cuDevicePrimaryCtxRetain", R);
  if (CUresult R = D.CtxSetCurrent(Ctx))
    return failed("cuCtxSetCurrent", R);

  std::vector<char> Log(16384, 0);
  int Options[] = {JitErrorLogBuffer, JitErrorLogBufferSizeBytes};
  void *Values[] = {Log.data(), reinterpret_cast<void *>(Log.size())};
  void *Mod = nullptr, *Fn = nullptr;
  if (CUresult R = D.ModuleLoadDataEx(&Mod, Ptx.c_str(), 2, Options, Values)) {
    unsigned Target = ptxTarget(Ptx), DevSm = unsigned(Major * 10 + Minor);
    if (Target > DevSm) {
      std::printf("UNCHECKED: %s: targets sm_%u, the device is sm_%u (%s)\n",
                  Display.c_str(), Target, DevSm, errorName(D, R).c_str());
      return 3;
    }
    failed("loading the module", R);
    if (Log[0])
      std::printf("%s\n", Log.data());
    return 1;
  }
  if (CUresult R = D.ModuleGetFunction(&Fn, Mod, C.Kernel.c_str()))
    return failed(("kernel '" + C.Kernel + "'").c_str(), R);
  if (C.Shared > 48 * 1024)
    if (CUresult R = D.FuncSetAttribute(Fn, FuncAttrMaxDynamicSharedSizeBytes,
                                        int(C.Shared)))
      return failed("cuFuncSetAttribute", R);

  std::vector<CUdeviceptr> Ptrs(C.Buffers.size());
  for (size_t I = 0; I < C.Buffers.size(); ++I) {
    Buffer &B = C.Buffers[I];
    std::vector<uint8_t> Host = initialBytes(B);
    if (CUresult R = D.MemAlloc(&Ptrs[I], Host.size()))
      return failed("cuMemAlloc", R);
    if (CUresult R = D.MemcpyHtoD(Ptrs[I], Host.data(), Host.size()))
      return failed("cuMemcpyHtoD", R);
    std::memcpy(&B.Device, &Ptrs[I], sizeof(void *));
  }
  std::vector<uint64_t> Storage;
  std::vector<void *> Args;
  if (!kernelArgs(C, Storage, Args))
    return 2;
  CUresult R = D.LaunchKernel(Fn, C.Grid.X, C.Grid.Y, C.Grid.Z, C.Block.X,
                              C.Block.Y, C.Block.Z, unsigned(C.Shared),
                              nullptr, Args.data(), nullptr);
  if (R == 0)
    R = D.CtxSynchronize();
  std::string Got = runtimeName(errorName(D, R));
  if (Got != C.LaunchStatus) {
    std::printf("FAIL: %s: launch returned %s, expected %s\n", Display.c_str(),
                Got.c_str(), C.LaunchStatus.c_str());
    return 1;
  }
  if (R != 0) {
    // The expected failure; the context is unusable, so nothing else is
    // read (the data file expects nothing after a failed launch).
    std::printf("PASS: %s: launch returned %s as expected\n", Display.c_str(),
                Got.c_str());
    return 0;
  }
  return checkExpects(C, Display, [&](Buffer &B, std::vector<uint8_t> &Host) {
    CUdeviceptr P;
    std::memcpy(&P, &B.Device, sizeof(P));
    if (CUresult E = D.MemcpyDtoH(Host.data(), P, Host.size()))
      std::printf("  reading '%s': %s\n", B.Name.c_str(),
                  errorName(D, E).c_str());
  });
}

/// Runs one case in a child process: this program again, with --one.
/// A child that outlives \p Timeout seconds is killed and the case fails:
/// a kernel that hangs on a GPU (a barrier some threads never reach) must
/// not hang the suite.
int runChild(const char *Self, const std::string &Lib,
             const std::string &DataPath, unsigned Timeout) {
  // A case that hangs on a GPU is given a few seconds, not the whole limit.
  Case C;
  std::string Err;
  bool Hangs = parseCase(DataPath, C, Err) && C.GpuHangs;
  if (Hangs)
    Timeout = std::min(Timeout, 5u);
  std::vector<std::string> Argv = {Self, "--libcuda", Lib, "--one", DataPath};
  if (DumpValues)
    Argv.push_back("--dump");
  if (AllowGpuDifferences)
    Argv.push_back("--gpu");
  std::vector<char *> Ptrs;
  for (auto &A : Argv)
    Ptrs.push_back(A.data());
  Ptrs.push_back(nullptr);
  std::fflush(stdout);
  pid_t Pid;
  if (posix_spawn(&Pid, "/proc/self/exe", nullptr, nullptr, Ptrs.data(),
                  environ) != 0) {
    std::fprintf(stderr, "error: cannot start a child for %s\n",
                 DataPath.c_str());
    return 2;
  }
  int WS = 0;
  for (unsigned Waited = 0;; Waited += 10) {
    pid_t Done = waitpid(Pid, &WS, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR) {
      std::fprintf(stderr, "error: waiting for the child of %s\n",
                   DataPath.c_str());
      return 2;
    }
    if (Waited >= Timeout * 1000) {
      kill(Pid, SIGKILL);
      waitpid(Pid, &WS, 0);
      if (Hangs) {
        std::printf("PASS: %s: still running after %u s, as the case says "
                    "it does on a GPU\n",
                    DataPath.c_str(), Timeout);
        return 0;
      }
      std::printf("FAIL: %s: still running after %u s, killed\n",
                  DataPath.c_str(), Timeout);
      return 1;
    }
    usleep(10000);
  }
  if (WIFEXITED(WS))
    return WEXITSTATUS(WS);
  std::printf("FAIL: %s: the runner died (signal %d)\n", DataPath.c_str(),
              WIFSIGNALED(WS) ? WTERMSIG(WS) : 0);
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string Lib = "libcuda.so.1";
  unsigned Timeout = 120;
  bool One = false;
  std::vector<std::string> Cases;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--libcuda" && I + 1 < argc)
      Lib = argv[++I];
    else if (A == "--timeout" && I + 1 < argc)
      Timeout = unsigned(std::strtoul(argv[++I], nullptr, 10));
    else if (A == "--one")
      One = true;
    else if (A == "--dump")
      DumpValues = true;
    else if (A == "--gpu")
      AllowGpuDifferences = true;
    else
      Cases.push_back(A);
  }
  if (Cases.empty()) {
    std::fprintf(stderr, "usage: ptx_conformance_driver [--libcuda PATH] "
                         "[--timeout SECONDS] [--dump] [--gpu] CASE.data...\n");
    return 2;
  }
  if (One) {
    Driver D;
    if (!loadDriver(Lib.c_str(), D))
      return 2;
    return runCase(D, Cases.front());
  }
  unsigned Counts[4] = {0, 0, 0, 0};
  int Worst = 0;
  for (const auto &C : Cases) {
    int S = runChild(argv[0], Lib, C, Timeout);
    ++Counts[S >= 0 && S <= 3 ? S : 1];
    Worst = std::max(Worst, S);
  }
  std::printf("%zu cases: %u pass, %u fail, %u malformed, %u unchecked "
              "(target above the device)\n",
              Cases.size(), Counts[0], Counts[1], Counts[2], Counts[3]);
  return Worst;
}
