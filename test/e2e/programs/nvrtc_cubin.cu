// Run-time compilation with NVRTC as NVIDIA's samples do it: compile for the
// device's own sm_XY, take the cubin and load it with cuModuleLoadData.
// cuhip's NVRTC bridge compiles for compute_XY instead and hands back PTX
// as the cubin. Both spellings of the target option are covered, the PTX of
// a program stays available, and a program that asks for a virtual target
// itself still gets NVRTC's own answer to a cubin request.
#include "ExpectNvrtc.h"
#include <string>
#include <vector>

static const char *Source = R"(
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";

// Compiles Source with Options and returns what nvrtcGetCUBIN gives.
static std::vector<char> compileCubin(std::vector<const char *> Options) {
  nvrtcProgram Prog;
  CHECK_NVRTC(nvrtcCreateProgram(&Prog, Source, "axpy.cu", 0, nullptr, nullptr));
  nvrtcResult R = nvrtcCompileProgram(Prog, int(Options.size()), Options.data());
  if (R != NVRTC_SUCCESS) {
    size_t LogSize = 0;
    nvrtcGetProgramLogSize(Prog, &LogSize);
    std::string Log(LogSize, '\0');
    nvrtcGetProgramLog(Prog, &Log[0]);
    printf("compile failed: %s\n%s\n", nvrtcGetErrorString(R), Log.c_str());
    ++failures;
  }
  size_t PtxSize = 0;
  CHECK_NVRTC(nvrtcGetPTXSize(Prog, &PtxSize));
  EXPECT(PtxSize > 0);
  size_t Size = 0;
  CHECK_NVRTC(nvrtcGetCUBINSize(Prog, &Size));
  std::vector<char> Cubin(Size);
  CHECK_NVRTC(nvrtcGetCUBIN(Prog, Cubin.data()));
  CHECK_NVRTC(nvrtcDestroyProgram(&Prog));
  return Cubin;
}

static void runAxpy(const std::vector<char> &Image) {
  CUmodule Mod;
  CHECK_CU(cuModuleLoadData(&Mod, Image.data()));
  CUfunction F;
  CHECK_CU(cuModuleGetFunction(&F, Mod, "axpy"));
  const int N = 1000;
  std::vector<float> X(N), Y(N);
  for (int i = 0; i < N; ++i) {
    X[i] = float(i);
    Y[i] = 1.0f;
  }
  CUdeviceptr DX, DY;
  CHECK_CU(cuMemAlloc(&DX, N * sizeof(float)));
  CHECK_CU(cuMemAlloc(&DY, N * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(DX, X.data(), N * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(DY, Y.data(), N * sizeof(float)));
  float A = 2.0f;
  int Count = N;
  void *Args[] = {&A, &DX, &DY, &Count};
  CHECK_CU(cuLaunchKernel(F, (N + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr,
                          Args, nullptr));
  CHECK_CU(cuMemcpyDtoH(Y.data(), DY, N * sizeof(float)));
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    Bad += Y[i] != 2.0f * float(i) + 1.0f;
  EXPECT(Bad == 0);
  CHECK_CU(cuMemFree(DX));
  CHECK_CU(cuMemFree(DY));
  CHECK_CU(cuModuleUnload(Mod));
}

int main() {
  CHECK_CU(cuInit(0));
  CUdevice Dev;
  CHECK_CU(cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  CHECK_CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CHECK_CU(cuCtxSetCurrent(Ctx));
  int Major = 0, Minor = 0;
  CHECK_CU(cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev));
  CHECK_CU(cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev));
  std::string Joined = "--gpu-architecture=sm_" + std::to_string(Major) +
                       std::to_string(Minor);
  std::string Arch = "sm_" + std::to_string(Major) + std::to_string(Minor);
  runAxpy(compileCubin({Joined.c_str(), "-default-device"}));
  runAxpy(compileCubin({"-arch", Arch.c_str()}));

  // A virtual target asked for by the program: NVRTC has no cubin for it.
  nvrtcProgram Prog;
  CHECK_NVRTC(nvrtcCreateProgram(&Prog, Source, "axpy.cu", 0, nullptr, nullptr));
  const char *Virtual[] = {"--gpu-architecture=compute_80"};
  CHECK_NVRTC(nvrtcCompileProgram(Prog, 1, Virtual));
  size_t Size = 0;
  nvrtcResult R = nvrtcGetCUBINSize(Prog, &Size);
  EXPECT(R != NVRTC_SUCCESS || Size == 0);
  CHECK_NVRTC(nvrtcDestroyProgram(&Prog));
  CHECK_CU(cuDevicePrimaryCtxRelease(Dev));
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
