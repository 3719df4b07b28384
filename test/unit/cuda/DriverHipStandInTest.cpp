//===- DriverHipStandInTest.cpp - libcuda.so.1 on the HIP backend ---------===//
//
// Driver API programs written against the toolkit's cuda.h, run on the HIP
// backend against the recording stand-in libamdhip64 (StandInHip.cpp; there
// is no AMD GPU here): virtual memory management and module variables go
// from libcuda's exported functions through the runtime core to HIP's
// calls, with CUDA's error codes where the stand-in lacks them. Each case
// runs in a child process, since the backend is chosen once per process.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <string>

namespace {

const char *VariablePtx = R"(
.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 counter;
.global .attribute(.managed) .align 4 .u32 total;
.visible .entry bump()
{
  .reg .b32 %r<3>;
  atom.global.add.u32 %r1, [counter], 1;
  atom.global.add.u32 %r2, [total], 1;
  ret;
}
)";

bool logHas(const char *Library, const std::string &Line) {
  void *H = dlopen(Library, RTLD_NOW | RTLD_NOLOAD);
  auto Fn = H ? reinterpret_cast<const char *(*)()>(dlsym(H, "standInHipLog"))
              : nullptr;
  std::string Log = Fn ? Fn() : "";
  if (Log.find(Line) != std::string::npos)
    return true;
  std::fprintf(stderr, "missing in the HIP call log: %s\nlog:\n%s\n",
               Line.c_str(), Log.c_str());
  return false;
}

/// Sets up the HIP backend over Library and a current context.
bool start(const char *Library, const char *CacheDir) {
  setenv("CUHIP_BACKEND", "hip", 1);
  setenv("CUHIP_HIP_LIBRARY", Library, 1);
  setenv("CUHIP_CACHE_DIR", CacheDir, 1);
  CUdevice Dev;
  CUcontext Ctx;
  return cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&Dev, 0) == CUDA_SUCCESS &&
         cuDevicePrimaryCtxRetain(&Ctx, Dev) == CUDA_SUCCESS &&
         cuCtxSetCurrent(Ctx) == CUDA_SUCCESS;
}

/// Returns 1 + the number of the first failed check, 0 if all hold.
int checkVirtualMemory(const char *Lib) {
  int Failed = 0;
  auto check = [&](bool Ok, int Number) {
    if (!Ok && !Failed)
      Failed = Number + 1;
  };
  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = 0;
  size_t Gran = 0;
  check(cuMemGetAllocationGranularity(
            &Gran, &Prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) == CUDA_SUCCESS &&
            Gran == 64 << 10 &&
            logHas(Lib, "hipMemGetAllocationGranularity type 1 location 1,0 "
                        "option 0"),
        0);
  CUmemGenericAllocationHandle H = 0;
  check(cuMemCreate(&H, Gran, &Prop, 0) == CUDA_SUCCESS && H == 0x701 &&
            logHas(Lib, "hipMemCreate 65536 type 1 location 1,0 flags 0"),
        1);
  CUdeviceptr Va = 0;
  check(cuMemAddressReserve(&Va, 2 * Gran, 0, 0, 0) == CUDA_SUCCESS && Va &&
            logHas(Lib, "hipMemAddressReserve 131072 align 0 addr (nil)"),
        2);
  // The same physical memory twice, side by side.
  check(cuMemMap(Va, Gran, 0, H, 0) == CUDA_SUCCESS &&
            cuMemMap(Va + Gran, Gran, 0, H, 0) == CUDA_SUCCESS &&
            logHas(Lib, "offset 0 handle 0x701 flags 0"),
        3);
  CUmemAccessDesc Access = {};
  Access.location = Prop.location;
  Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  // Once accessible, the range is device memory that copies accept.
  unsigned Value = 7;
  unsigned Across[2] = {1, 2};
  check(cuMemcpyHtoD(Va, &Value, 4) == CUDA_ERROR_INVALID_VALUE &&
            cuMemSetAccess(Va, Gran, &Access, 1) == CUDA_SUCCESS &&
            cuMemSetAccess(Va + Gran, Gran, &Access, 1) == CUDA_SUCCESS &&
            logHas(Lib, "count 1 [location 1,0 flags 3]") &&
            cuMemcpyHtoD(Va, &Value, 4) == CUDA_SUCCESS &&
            // A copy may cross from one mapping into the next.
            cuMemcpyHtoD(Va + Gran - 4, Across, 8) == CUDA_SUCCESS,
        4);
  // Part of a mapping is refused; both at once are unmapped one HIP call
  // each.
  char Second[64];
  std::snprintf(Second, sizeof(Second), "hipMemUnmap %p 65536",
                reinterpret_cast<void *>(Va + Gran));
  check(cuMemUnmap(Va, Gran + Gran / 2) == CUDA_ERROR_INVALID_VALUE &&
            cuMemcpyHtoD(Va, &Value, 4) == CUDA_SUCCESS &&
            cuMemUnmap(Va, 2 * Gran) == CUDA_SUCCESS && logHas(Lib, Second) &&
            cuMemcpyHtoD(Va, &Value, 4) == CUDA_ERROR_INVALID_VALUE &&
            cuMemcpyHtoD(Va + Gran, &Value, 4) == CUDA_ERROR_INVALID_VALUE &&
            cuMemRelease(H) == CUDA_SUCCESS &&
            logHas(Lib, "hipMemRelease 0x701") &&
            cuMemAddressFree(Va, 2 * Gran) == CUDA_SUCCESS &&
            logHas(Lib, "hipMemAddressFree 131072"),
        5);
  return Failed;
}

int checkModuleGlobal(const char *Lib) {
  CUmodule M;
  CUdeviceptr Ptr = 0;
  size_t Bytes = 0;
  if (cuModuleLoadData(&M, VariablePtx) != CUDA_SUCCESS)
    return 1;
  if (cuModuleGetGlobal(&Ptr, &Bytes, M, "counter") != CUDA_SUCCESS ||
      Bytes != 4 || !logHas(Lib, "hipModuleGetGlobal counter bytes 4"))
    return 2;
  unsigned Value = 5, Back = 0;
  if (cuMemcpyHtoD(Ptr, &Value, 4) != CUDA_SUCCESS ||
      cuMemcpyDtoH(&Back, Ptr, 4) != CUDA_SUCCESS || Back != 5)
    return 3;
  if (cuModuleGetGlobal(&Ptr, &Bytes, M, "other") != CUDA_ERROR_NOT_FOUND)
    return 4;
  // A __managed__ variable's storage would be the code object's device
  // memory, which the host cannot dereference.
  CUlibrary L;
  if (cuLibraryLoadData(&L, VariablePtx, nullptr, nullptr, 0, nullptr, nullptr,
                        0) != CUDA_SUCCESS ||
      cuLibraryGetManaged(&Ptr, &Bytes, L, "total") !=
          CUDA_ERROR_NOT_SUPPORTED ||
      cuLibraryGetGlobal(&Ptr, &Bytes, L, "counter") != CUDA_SUCCESS ||
      Bytes != 4)
    return 5;
  return 0;
}

int checkNotSupported() {
  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  size_t Gran = 0;
  CUmemGenericAllocationHandle H = 0;
  CUdeviceptr Va = 0;
  CUmodule M;
  if (cuMemGetAllocationGranularity(&Gran, &Prop,
                                    CU_MEM_ALLOC_GRANULARITY_MINIMUM) !=
          CUDA_ERROR_NOT_SUPPORTED ||
      cuMemCreate(&H, 2 << 20, &Prop, 0) != CUDA_ERROR_NOT_SUPPORTED ||
      cuMemAddressReserve(&Va, 2 << 20, 0, 0, 0) != CUDA_ERROR_NOT_SUPPORTED)
    return 1;
  if (cuModuleLoadData(&M, VariablePtx) != CUDA_SUCCESS ||
      cuModuleGetGlobal(&Va, &Gran, M, "counter") != CUDA_ERROR_NOT_SUPPORTED)
    return 2;
  return 0;
}

class DriverHipStandInTest : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    if (const char *D = std::getenv("STANDIN_HIP_CACHE_DIR")) {
      CacheDir = D;
      return;
    }
    char Template[] = "/tmp/cuhip-hip-cache-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    CacheDir = Template;
    setenv("STANDIN_HIP_CACHE_DIR", Template, 1);
  }
  void TearDown() override {
    unsetenv("STANDIN_HIP_CACHE_DIR");
    std::string Cmd = "rm -rf '" + CacheDir + "'";
    ASSERT_EQ(std::system(Cmd.c_str()), 0);
  }
  std::string CacheDir;
};

TEST_F(DriverHipStandInTest, VirtualMemoryGoesToHip) {
  EXPECT_EXIT(
      {
        if (!start(STANDIN_HIP_PATH, CacheDir.c_str()))
          std::exit(100);
        std::exit(checkVirtualMemory(STANDIN_HIP_PATH));
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(DriverHipStandInTest, ModuleGlobalGoesToHip) {
  EXPECT_EXIT(
      {
        if (!start(STANDIN_HIP_PATH, CacheDir.c_str()))
          std::exit(100);
        std::exit(checkModuleGlobal(STANDIN_HIP_PATH));
      },
      ::testing::ExitedWithCode(0),
      "__managed__ variable 'total' is not supported on the HIP backend");
}

TEST_F(DriverHipStandInTest, MissingEntryPointsAreNotSupported) {
  EXPECT_EXIT(
      {
        if (!start(STANDIN_HIP_MINIMAL_PATH, CacheDir.c_str()))
          std::exit(100);
        std::exit(checkNotSupported());
      },
      ::testing::ExitedWithCode(0), "lacks hipMemGetAllocationGranularity");
}

} // namespace
