// Link-time optimization at run time, as NVIDIA's jitLto sample does it:
// two sources compiled by NVRTC with -dlto, where a kernel in one calls a
// device function defined in the other, linked by nvJitLink into a cubin
// that cuModuleLoadData loads. Through `cuhip run`, NVRTC's "LTO-IR" is
// relocatable PTX and cuhip's nvJitLink links it. Then the same link from
// files: the helper's PTX as a file, and this program's own executable as a
// host object, whose fatbin brings the `marker` kernel. Also checks
// nvJitLink's errors: a missing -arch, a cubin input, an unreadable file,
// an unresolved function. Prints PASS when all hold.
#include "ExpectNvrtc.h"
#include <nvJitLink.h>
#include <string>
#include <unistd.h>
#include <vector>

// In this program's own fatbin, which the file link takes from the
// executable.
extern "C" __global__ void marker(int *P) { *P = 42; }

static const char *Kernel = R"(
extern __device__ float scaled(float x);
extern "C" __global__ void apply(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scaled(y[i]) + 1.0f;
}
)";

static const char *Helper = R"(
__device__ float scaled(float x) { return 3.0f * x; }
)";

#define CHECK_LINK(call)                                                       \
  do {                                                                         \
    nvJitLinkResult r_ = (call);                                               \
    if (r_ != NVJITLINK_SUCCESS) {                                             \
      printf("%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int)r_);        \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static std::vector<char> ltoIr(const char *Source, const char *Name) {
  nvrtcProgram P;
  CHECK_NVRTC(nvrtcCreateProgram(&P, Source, Name, 0, nullptr, nullptr));
  const char *Opts[] = {"-arch=sm_80", "-dlto"};
  CHECK_NVRTC(nvrtcCompileProgram(P, 2, Opts));
  size_t Size = 0;
  CHECK_NVRTC(nvrtcGetLTOIRSize(P, &Size));
  std::vector<char> Ir(Size);
  if (Size)
    CHECK_NVRTC(nvrtcGetLTOIR(P, Ir.data()));
  CHECK_NVRTC(nvrtcDestroyProgram(&P));
  return Ir;
}

int main() {
  CHECK_CU(cuInit(0));
  CUdevice Dev;
  CUcontext Ctx;
  CHECK_CU(cuDeviceGet(&Dev, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CHECK_CU(cuCtxSetCurrent(Ctx));

  std::vector<char> K = ltoIr(Kernel, "kernel.cu");
  std::vector<char> H = ltoIr(Helper, "helper.cu");
  EXPECT(!K.empty() && !H.empty());

  const char *LinkOpts[] = {"-lto", "-arch=sm_80"};
  nvJitLinkHandle L;
  CHECK_LINK(nvJitLinkCreate(&L, 2, LinkOpts));
  CHECK_LINK(nvJitLinkAddData(L, NVJITLINK_INPUT_LTOIR, K.data(), K.size(), "kernel"));
  CHECK_LINK(nvJitLinkAddData(L, NVJITLINK_INPUT_LTOIR, H.data(), H.size(), "helper"));
  CHECK_LINK(nvJitLinkComplete(L));
  size_t CubinSize = 0;
  CHECK_LINK(nvJitLinkGetLinkedCubinSize(L, &CubinSize));
  std::vector<char> Cubin(CubinSize);
  CHECK_LINK(nvJitLinkGetLinkedCubin(L, Cubin.data()));
  CHECK_LINK(nvJitLinkDestroy(&L));

  CUmodule M;
  CUfunction F;
  CHECK_CU(cuModuleLoadData(&M, Cubin.data()));
  CHECK_CU(cuModuleGetFunction(&F, M, "apply"));
  const int N = 100;
  std::vector<float> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = float(I);
  CUdeviceptr D;
  CHECK_CU(cuMemAlloc(&D, N * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(D, Host.data(), N * sizeof(float)));
  int Count = N;
  void *Args[] = {&D, &Count};
  CHECK_CU(cuLaunchKernel(F, 1, 1, 1, 128, 1, 1, 0, nullptr, Args, nullptr));
  CHECK_CU(cuMemcpyDtoH(Host.data(), D, N * sizeof(float)));
  for (int I = 0; I < N; ++I)
    EXPECT(Host[I] == 3.0f * I + 1.0f);
  CHECK_CU(cuMemFree(D));
  CHECK_CU(cuModuleUnload(M));

  // The same link from files: PTX, and a host executable's fatbin.
  char PtxPath[] = "/tmp/nvrtc_jit_lto_XXXXXX";
  int Fd = mkstemp(PtxPath);
  EXPECT(Fd >= 0 && write(Fd, H.data(), H.size()) == ssize_t(H.size()));
  close(Fd);
  CHECK_LINK(nvJitLinkCreate(&L, 2, LinkOpts));
  CHECK_LINK(nvJitLinkAddData(L, NVJITLINK_INPUT_LTOIR, K.data(), K.size(), "kernel"));
  CHECK_LINK(nvJitLinkAddFile(L, NVJITLINK_INPUT_PTX, PtxPath));
  CHECK_LINK(nvJitLinkAddFile(L, NVJITLINK_INPUT_OBJECT, "/proc/self/exe"));
  CHECK_LINK(nvJitLinkComplete(L));
  CHECK_LINK(nvJitLinkGetLinkedCubinSize(L, &CubinSize));
  Cubin.assign(CubinSize, 0);
  CHECK_LINK(nvJitLinkGetLinkedCubin(L, Cubin.data()));
  CHECK_LINK(nvJitLinkDestroy(&L));
  unlink(PtxPath);
  CUfunction Marker;
  CHECK_CU(cuModuleLoadData(&M, Cubin.data()));
  CHECK_CU(cuModuleGetFunction(&F, M, "apply"));
  CHECK_CU(cuModuleGetFunction(&Marker, M, "marker"));
  CUdeviceptr Flag;
  CHECK_CU(cuMemAlloc(&Flag, sizeof(int)));
  void *MarkerArgs[] = {&Flag};
  CHECK_CU(cuLaunchKernel(Marker, 1, 1, 1, 1, 1, 1, 0, nullptr, MarkerArgs, nullptr));
  int FlagValue = 0;
  CHECK_CU(cuMemcpyDtoH(&FlagValue, Flag, sizeof(int)));
  EXPECT(FlagValue == 42);
  CHECK_CU(cuMemFree(Flag));
  CHECK_CU(cuModuleUnload(M));

  // Errors: no -arch; a cubin (machine code) input; an unresolved call.
  const char *NoArch[] = {"-lto"};
  EXPECT(nvJitLinkCreate(&L, 1, NoArch) == NVJITLINK_ERROR_MISSING_ARCH);
  CHECK_LINK(nvJitLinkCreate(&L, 2, LinkOpts));
  const char Elf[] = "\x7f" "ELF\2\1\1";
  EXPECT(nvJitLinkAddData(L, NVJITLINK_INPUT_CUBIN, Elf, sizeof(Elf), "sass") ==
         NVJITLINK_ERROR_INVALID_INPUT);
  EXPECT(nvJitLinkAddFile(L, NVJITLINK_INPUT_PTX, "/nonexistent/x.ptx") ==
         NVJITLINK_ERROR_INVALID_INPUT);
  CHECK_LINK(nvJitLinkAddData(L, NVJITLINK_INPUT_LTOIR, K.data(), K.size(), "kernel"));
  EXPECT(nvJitLinkComplete(L) != NVJITLINK_SUCCESS);
  size_t LogSize = 0;
  CHECK_LINK(nvJitLinkGetErrorLogSize(L, &LogSize));
  std::string Log(LogSize, '\0');
  CHECK_LINK(nvJitLinkGetErrorLog(L, &Log[0]));
  EXPECT(Log.find("sass") != std::string::npos);
  EXPECT(Log.find("/nonexistent/x.ptx: cannot be read") != std::string::npos);
  EXPECT(Log.find("scaled") != std::string::npos);
  if (Log.find("scaled") == std::string::npos)
    printf("error log: %s\n", Log.c_str());
  CHECK_LINK(nvJitLinkDestroy(&L));

  CHECK_CU(cuDevicePrimaryCtxRelease(Dev));
  if (failures == 0)
    printf("PASS\n");
  return failures ? 1 : 0;
}
