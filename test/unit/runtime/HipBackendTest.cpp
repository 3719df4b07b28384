//===- HipBackendTest.cpp - Backend selection and the HIP backend ---------===//
//
// CUHIP_BACKEND is read once per process by the runtime core (a process
// singleton), so each case runs in a fresh child process: a "threadsafe"
// death test re-executes this binary for just that case, sets the
// environment, drives the core and exits with a bit mask of failed checks,
// while the parent matches the child's log lines on stderr. The HIP cases
// load the real libamdhip64 (Debian's libamdhip64-5, installed by
// scripts/bootstrap) on a machine without an AMD GPU: HIP must report "no
// device", `hip` must fail CUDA calls with cudaErrorNoDevice saying why, and
// `auto` must run the kernel on the CPU backend.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace cuhip::rt;

namespace {

// Writes %tid.x to out[%tid.x].
const char *FillPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry fill(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

/// Is a HIP runtime library loadable here (as cuhip looks for it)?
bool haveHipLibrary() {
  for (const char *N : {"libamdhip64.so.7", "libamdhip64.so.6",
                        "libamdhip64.so.5", "libamdhip64.so"})
    if (void *H = dlopen(N, RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(H);
      return true;
    }
  return false;
}

void setEnvironment(const char *Backend, const char *Library,
                    const char *Log) {
  setenv("CUHIP_BACKEND", Backend, 1);
  if (Library)
    setenv("CUHIP_HIP_LIBRARY", Library, 1);
  else
    unsetenv("CUHIP_HIP_LIBRARY");
  setenv("CUHIP_LOG", Log, 1);
}

/// With no usable GPU under CUHIP_BACKEND=hip, every device operation fails
/// with cudaErrorNoDevice. Returns a bit per check that failed.
int checkNoDevice() {
  Runtime &R = Runtime::get();
  int Failed = 0;
  void *Ptr = nullptr;
  if (R.malloc(&Ptr, 64) != cudaErrorNoDevice || Ptr)
    Failed |= 1;
  Module *M = nullptr;
  if (R.loadModuleData(FillPtx, 0, "fill.ptx", &M) != cudaErrorNoDevice || M)
    Failed |= 2;
  if (R.launch(nullptr, Dim3{}, Dim3{}, nullptr, 0, nullptr) !=
      cudaErrorNoDevice)
    Failed |= 4;
  if (R.setDevice(0) != cudaErrorNoDevice)
    Failed |= 8;
  if (R.synchronize() != cudaErrorNoDevice)
    Failed |= 16;
  if (R.getLastError() != cudaErrorNoDevice)
    Failed |= 32;
  int X = 0;
  if (R.memcpy(&X, &X, sizeof(X), CopyKind::HostToHost) != cudaErrorNoDevice)
    Failed |= 64;
  return Failed;
}

/// Runs `fill` on 32 threads and checks the result: what auto must still do
/// when HIP finds no GPU. Returns a bit per check that failed.
int checkKernelRunsOnCpu() {
  Runtime &R = Runtime::get();
  Module *M = nullptr;
  if (R.loadModuleData(FillPtx, 0, "fill.ptx", &M) != cudaSuccess)
    return 1;
  Kernel *K = nullptr;
  if (R.moduleGetFunction(M, "fill", &K) != cudaSuccess)
    return 2;
  void *Out = nullptr;
  if (R.malloc(&Out, 32 * 4) != cudaSuccess)
    return 4;
  void *Args[] = {&Out};
  if (R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, nullptr) !=
      cudaSuccess)
    return 8;
  unsigned Host[32] = {};
  if (R.memcpy(Host, Out, sizeof(Host), CopyKind::DeviceToHost) != cudaSuccess)
    return 16;
  for (unsigned I = 0; I < 32; ++I)
    if (Host[I] != I)
      return 32;
  if (R.deviceInfo(0).Name.rfind("cuhip CPU", 0) != 0)
    return 64;
  return R.free(Out) == cudaSuccess ? 0 : 128;
}

class HipBackendDeathTest : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(HipBackendDeathTest, HipWithoutGpuFailsWithNoDevice) {
  if (!haveHipLibrary())
    GTEST_SKIP() << "libamdhip64 is not installed (scripts/bootstrap "
                    "installs Debian's libamdhip64-5)";
  EXPECT_EXIT(
      {
        setEnvironment("hip", nullptr, "warn");
        std::exit(checkNoDevice());
      },
      ::testing::ExitedWithCode(0),
      "cuhip: error: CUHIP_BACKEND=hip: no AMD GPU found by HIP "
      "\\(libamdhip64\\.so[.0-9]*\\): hipGetDeviceCount: hipErrorNoDevice");
}

TEST_F(HipBackendDeathTest, AutoWithoutGpuRunsKernelOnCpu) {
  if (!haveHipLibrary())
    GTEST_SKIP() << "libamdhip64 is not installed";
  EXPECT_EXIT(
      {
        setEnvironment("auto", nullptr, "info");
        std::exit(checkKernelRunsOnCpu());
      },
      ::testing::ExitedWithCode(0),
      "cuhip: info: no AMD GPU \\(no AMD GPU found by HIP "
      "\\(libamdhip64\\.so[.0-9]*\\): hipGetDeviceCount: hipErrorNoDevice"
      "[^\n]*\\): running kernels on the CPU backend");
}

TEST_F(HipBackendDeathTest, HipWithoutLibraryReportsLibraryNotFound) {
  EXPECT_EXIT(
      {
        setEnvironment("hip", "/nonexistent/libamdhip64.so", "warn");
        std::exit(checkNoDevice());
      },
      ::testing::ExitedWithCode(0),
      "cuhip: error: CUHIP_BACKEND=hip: HIP library not found \\(tried "
      "/nonexistent/libamdhip64\\.so\\)");
}

TEST_F(HipBackendDeathTest, AutoWithoutLibraryRunsKernelOnCpu) {
  EXPECT_EXIT(
      {
        setEnvironment("auto", "/nonexistent/libamdhip64.so", "info");
        std::exit(checkKernelRunsOnCpu());
      },
      ::testing::ExitedWithCode(0),
      "cuhip: info: no AMD GPU \\(HIP library not found \\(tried "
      "/nonexistent/libamdhip64\\.so\\)[^\n]*\\): running kernels on the CPU "
      "backend");
}

TEST_F(HipBackendDeathTest, CpuNeverLoadsHip) {
  EXPECT_EXIT(
      {
        setEnvironment("cpu", nullptr, "debug");
        int Failed = checkKernelRunsOnCpu();
        // The CPU backend was chosen without asking HIP.
        if (dlopen("libamdhip64.so.5", RTLD_NOLOAD | RTLD_LAZY))
          Failed |= 256;
        std::fprintf(stderr, "done\n");
        std::exit(Failed);
      },
      ::testing::ExitedWithCode(0), "done");
}

} // namespace
