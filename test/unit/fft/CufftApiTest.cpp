//===- CufftApiTest.cpp - libcufft.so.12 through the toolkit's cufft.h ----===//
//
// cuFFT's API as programs call it: plans of every kind on device memory,
// stream order and graph capture, the typed cufftXt plans, the error codes
// for bad arguments, and the export list against NVIDIA's library.
//
//===----------------------------------------------------------------------===//
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cufftXt.h>

#include <gtest/gtest.h>

#include "../ElfExports.h"
#include "../HipChild.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

using CD = std::complex<double>;

/// The DFT of X summed directly in double.
std::vector<CD> directDft(const std::vector<CD> &X, int Sign) {
  size_t N = X.size();
  std::vector<CD> Y(N);
  for (size_t K = 0; K < N; ++K) {
    CD S = 0;
    for (size_t J = 0; J < N; ++J)
      S += X[J] * std::polar(1.0, Sign * 2 * M_PI * double((J * K) % N) / N);
    Y[K] = S;
  }
  return Y;
}

std::vector<cufftComplex> randomComplex(size_t N, unsigned Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_real_distribution<float> U(-1, 1);
  std::vector<cufftComplex> V(N);
  for (auto &E : V)
    E = {U(Gen), U(Gen)};
  return V;
}

template <typename T> T *deviceCopy(const std::vector<T> &H) {
  T *D = nullptr;
  EXPECT_EQ(cudaMalloc(&D, H.size() * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(D, H.data(), H.size() * sizeof(T), cudaMemcpyHostToDevice),
            cudaSuccess);
  return D;
}

template <typename T> std::vector<T> hostCopy(const T *D, size_t N) {
  std::vector<T> H(N);
  EXPECT_EQ(cudaMemcpy(H.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost),
            cudaSuccess);
  return H;
}

} // namespace

TEST(Cufft, BatchedComplexOnAStream) {
  const int N = 120, Batch = 3;
  auto H = randomComplex(N * Batch, 1);
  cufftComplex *D = deviceCopy(H);
  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  cufftHandle P;
  ASSERT_EQ(cufftPlan1d(&P, N, CUFFT_C2C, Batch), CUFFT_SUCCESS);
  ASSERT_EQ(cufftSetStream(P, S), CUFFT_SUCCESS);
  ASSERT_EQ(cufftExecC2C(P, D, D, CUFFT_FORWARD), CUFFT_SUCCESS);
  ASSERT_EQ(cudaStreamSynchronize(S), cudaSuccess);
  auto Out = hostCopy(D, N * Batch);
  for (int B = 0; B < Batch; ++B) {
    std::vector<CD> X(N);
    for (int I = 0; I < N; ++I)
      X[I] = {H[B * N + I].x, H[B * N + I].y};
    auto Want = directDft(X, -1);
    for (int I = 0; I < N; ++I)
      ASSERT_NEAR(std::abs(CD(Out[B * N + I].x, Out[B * N + I].y) - Want[I]), 0, 1e-4)
          << B << "," << I;
  }
  // Inverse after forward is N times the input.
  ASSERT_EQ(cufftExecC2C(P, D, D, CUFFT_INVERSE), CUFFT_SUCCESS);
  ASSERT_EQ(cudaStreamSynchronize(S), cudaSuccess);
  Out = hostCopy(D, N * Batch);
  for (int I = 0; I < N * Batch; ++I) {
    EXPECT_NEAR(Out[I].x / N, H[I].x, 1e-5);
    EXPECT_NEAR(Out[I].y / N, H[I].y, 1e-5);
  }
  EXPECT_EQ(cufftDestroy(P), CUFFT_SUCCESS);
  cudaStreamDestroy(S);
  cudaFree(D);
}

TEST(Cufft, KeepsStreamOrderWithCopies) {
  // Copy in, transform, copy out, all queued before one synchronize.
  const int N = 64;
  auto H = randomComplex(N, 2);
  std::vector<cufftComplex> Out(N);
  cufftComplex *D;
  ASSERT_EQ(cudaMalloc(&D, N * sizeof(cufftComplex)), cudaSuccess);
  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  cufftHandle P;
  ASSERT_EQ(cufftPlan1d(&P, N, CUFFT_C2C, 1), CUFFT_SUCCESS);
  ASSERT_EQ(cufftSetStream(P, S), CUFFT_SUCCESS);
  ASSERT_EQ(cudaMemcpyAsync(D, H.data(), N * sizeof(cufftComplex),
                            cudaMemcpyHostToDevice, S),
            cudaSuccess);
  ASSERT_EQ(cufftExecC2C(P, D, D, CUFFT_FORWARD), CUFFT_SUCCESS);
  ASSERT_EQ(cudaMemcpyAsync(Out.data(), D, N * sizeof(cufftComplex),
                            cudaMemcpyDeviceToHost, S),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(S), cudaSuccess);
  float Sx = 0, Sy = 0;
  for (auto &E : H) {
    Sx += E.x;
    Sy += E.y;
  }
  EXPECT_NEAR(Out[0].x, Sx, 1e-4);
  EXPECT_NEAR(Out[0].y, Sy, 1e-4);
  cufftDestroy(P);
  cudaStreamDestroy(S);
  cudaFree(D);
}

TEST(Cufft, CapturedIntoAGraphRunsEachLaunch) {
  const int N = 16;
  std::vector<cufftComplex> H(N, {1, 0});
  cufftComplex *D = deviceCopy(H);
  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  cufftHandle P;
  ASSERT_EQ(cufftPlan1d(&P, N, CUFFT_C2C, 1), CUFFT_SUCCESS);
  ASSERT_EQ(cufftSetStream(P, S), CUFFT_SUCCESS);
  cudaGraph_t G;
  ASSERT_EQ(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(cufftExecC2C(P, D, D, CUFFT_FORWARD), CUFFT_SUCCESS);
  ASSERT_EQ(cudaStreamEndCapture(S, &G), cudaSuccess);
  // Capturing ran nothing.
  EXPECT_EQ(hostCopy(D, N)[0].x, 1.0f);
  cudaGraphExec_t E;
  ASSERT_EQ(cudaGraphInstantiate(&E, G, 0), cudaSuccess);
  // A constant becomes N at k = 0; a second transform of that is N again
  // at every k.
  ASSERT_EQ(cudaGraphLaunch(E, S), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(S), cudaSuccess);
  auto Once = hostCopy(D, N);
  EXPECT_EQ(Once[0].x, float(N));
  EXPECT_EQ(Once[5].x, 0.0f);
  ASSERT_EQ(cudaGraphLaunch(E, S), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(S), cudaSuccess);
  auto Twice = hostCopy(D, N);
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Twice[I].x, float(N)) << I;
  cudaGraphExecDestroy(E);
  cudaGraphDestroy(G);
  cufftDestroy(P);
  cudaStreamDestroy(S);
  cudaFree(D);
}

TEST(Cufft, RealTransformsTwoAndThreeDimensions) {
  for (int Rank : {2, 3}) {
    int Nx = 6, Ny = 10, Nz = Rank == 3 ? 5 : 1;
    int Total = Nx * Ny * Nz, Last = Rank == 3 ? Nz : Ny;
    int Half = Total / Last * (Last / 2 + 1);
    std::vector<float> H(Total);
    for (int I = 0; I < Total; ++I)
      H[I] = float((I * 37) % 17) / 8 - 1;
    float *In = deviceCopy(H);
    cufftComplex *Spec;
    ASSERT_EQ(cudaMalloc(&Spec, Half * sizeof(cufftComplex)), cudaSuccess);
    cufftHandle F, I;
    if (Rank == 2) {
      ASSERT_EQ(cufftPlan2d(&F, Nx, Ny, CUFFT_R2C), CUFFT_SUCCESS);
      ASSERT_EQ(cufftPlan2d(&I, Nx, Ny, CUFFT_C2R), CUFFT_SUCCESS);
    } else {
      ASSERT_EQ(cufftPlan3d(&F, Nx, Ny, Nz, CUFFT_R2C), CUFFT_SUCCESS);
      ASSERT_EQ(cufftPlan3d(&I, Nx, Ny, Nz, CUFFT_C2R), CUFFT_SUCCESS);
    }
    ASSERT_EQ(cufftExecR2C(F, In, Spec), CUFFT_SUCCESS);
    // The DC term is the sum.
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    float Sum = 0;
    for (float V : H)
      Sum += V;
    EXPECT_NEAR(hostCopy(Spec, 1)[0].x, Sum, 1e-4);
    ASSERT_EQ(cufftExecC2R(I, Spec, In), CUFFT_SUCCESS);
    auto Back = hostCopy(In, Total);
    for (int K = 0; K < Total; ++K)
      EXPECT_NEAR(Back[K] / Total, H[K], 1e-5) << "rank " << Rank << " " << K;
    cufftDestroy(F);
    cufftDestroy(I);
    cudaFree(In);
    cudaFree(Spec);
  }
}

TEST(Cufft, DoublePrecisionAndAdvancedLayout) {
  // Two 8-point D2Z transforms over interleaved real data (stride 2,
  // distance 1), written to a packed spectrum.
  const int N = 8;
  std::vector<double> H(2 * N);
  for (int I = 0; I < 2 * N; ++I)
    H[I] = std::sin(0.3 * I) + (I % 2);
  double *In = deviceCopy(H);
  cufftDoubleComplex *Out;
  ASSERT_EQ(cudaMalloc(&Out, 2 * (N / 2 + 1) * sizeof(cufftDoubleComplex)),
            cudaSuccess);
  int Dims[1] = {N}, InEmbed[1] = {N}, OnEmbed[1] = {N / 2 + 1};
  cufftHandle P;
  ASSERT_EQ(cufftPlanMany(&P, 1, Dims, InEmbed, 2, 1, OnEmbed, 1, N / 2 + 1,
                          CUFFT_D2Z, 2),
            CUFFT_SUCCESS);
  ASSERT_EQ(cufftExecD2Z(P, In, Out), CUFFT_SUCCESS);
  auto Got = hostCopy(Out, 2 * (N / 2 + 1));
  for (int B = 0; B < 2; ++B) {
    std::vector<CD> X(N);
    for (int I = 0; I < N; ++I)
      X[I] = H[B + 2 * I];
    auto Want = directDft(X, -1);
    for (int K = 0; K <= N / 2; ++K)
      EXPECT_NEAR(std::abs(CD(Got[B * (N / 2 + 1) + K].x, Got[B * (N / 2 + 1) + K].y) -
                           Want[K]),
                  0, 1e-12)
          << B << "," << K;
  }
  cufftDestroy(P);
  cudaFree(In);
  cudaFree(Out);
}

TEST(Cufft, XtPlansInHalfPrecision) {
  const long long N = 32;
  std::vector<__half2> H(N);
  for (int I = 0; I < N; ++I)
    H[I] = __floats2half2_rn(float(I % 3), 0.0f);
  __half2 *D = deviceCopy(H);
  cufftHandle P;
  ASSERT_EQ(cufftCreate(&P), CUFFT_SUCCESS);
  long long Dims[1] = {N};
  size_t Work = 123;
  ASSERT_EQ(cufftXtMakePlanMany(P, 1, Dims, nullptr, 1, 0, CUDA_C_16F, nullptr,
                                1, 0, CUDA_C_16F, 1, &Work, CUDA_C_16F),
            CUFFT_SUCCESS);
  EXPECT_EQ(Work, 0u);
  ASSERT_EQ(cufftXtExec(P, D, D, CUFFT_FORWARD), CUFFT_SUCCESS);
  auto Out = hostCopy(D, N);
  float Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += float(I % 3);
  EXPECT_EQ(__low2float(Out[0]), Sum);
  // A legacy exec call of another type is refused.
  EXPECT_EQ(cufftExecC2C(P, reinterpret_cast<cufftComplex *>(D),
                         reinterpret_cast<cufftComplex *>(D), CUFFT_FORWARD),
            CUFFT_INVALID_VALUE);
  // The execution type must be the transform's complex type.
  cufftHandle Q;
  ASSERT_EQ(cufftCreate(&Q), CUFFT_SUCCESS);
  EXPECT_EQ(cufftXtMakePlanMany(Q, 1, Dims, nullptr, 1, 0, CUDA_R_32F, nullptr,
                                1, 0, CUDA_C_32F, 1, &Work, CUDA_C_64F),
            CUFFT_INVALID_TYPE);
  cufftDestroy(Q);
  cufftDestroy(P);
  cudaFree(D);
}

TEST(Cufft, ErrorsForBadArguments) {
  cufftHandle P = 12345;
  EXPECT_EQ(cufftPlan1d(&P, 0, CUFFT_C2C, 1), CUFFT_INVALID_SIZE);
  EXPECT_EQ(cufftPlan1d(&P, 8, CUFFT_C2C, 0), CUFFT_INVALID_SIZE);
  EXPECT_EQ(cufftPlan1d(&P, 8, cufftType(0x99), 1), CUFFT_INVALID_TYPE);
  EXPECT_EQ(P, 12345) << "a failed plan call set the handle";
  int Dims[4] = {2, 2, 2, 2};
  EXPECT_EQ(cufftPlanMany(&P, 4, Dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1),
            CUFFT_INVALID_SIZE);
  EXPECT_EQ(cufftPlan1d(nullptr, 8, CUFFT_C2C, 1), CUFFT_INVALID_VALUE);

  ASSERT_EQ(cufftPlan1d(&P, 128, CUFFT_C2C, 1), CUFFT_SUCCESS);
  size_t Work = 7;
  EXPECT_EQ(cufftMakePlan1d(P, 128, CUFFT_C2C, 1, &Work), CUFFT_INVALID_PLAN)
      << "a plan is made once";
  cufftComplex *Small;
  ASSERT_EQ(cudaMalloc(&Small, 64 * sizeof(cufftComplex)), cudaSuccess);
  std::vector<cufftComplex> Ones(64, {1, 1});
  ASSERT_EQ(cudaMemcpy(Small, Ones.data(), 64 * sizeof(cufftComplex),
                       cudaMemcpyHostToDevice),
            cudaSuccess);
  // 128 points do not fit a 64-point allocation: refused, nothing written.
  EXPECT_EQ(cufftExecC2C(P, Small, Small, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
  EXPECT_EQ(hostCopy(Small, 64)[0].x, 1.0f);
  cufftComplex *Big;
  ASSERT_EQ(cudaMalloc(&Big, 128 * sizeof(cufftComplex)), cudaSuccess);
  EXPECT_EQ(cufftExecC2C(P, Big, Big, 0), CUFFT_INVALID_VALUE);
  EXPECT_EQ(cufftExecC2C(P, nullptr, Big, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
  EXPECT_EQ(cufftExecR2C(P, reinterpret_cast<float *>(Big), Big),
            CUFFT_INVALID_VALUE);
  EXPECT_EQ(cufftSetStream(P, reinterpret_cast<cudaStream_t>(0x1234)),
            CUFFT_INVALID_VALUE);
  EXPECT_EQ(cufftDestroy(P), CUFFT_SUCCESS);
  EXPECT_EQ(cufftDestroy(P), CUFFT_INVALID_PLAN);
  EXPECT_EQ(cufftExecC2C(P, Big, Big, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
  cudaFree(Small);
  cudaFree(Big);
}

TEST(Cufft, SizesVersionsAndProperties) {
  size_t Work = 99;
  EXPECT_EQ(cufftEstimate2d(16, 16, CUFFT_R2C, &Work), CUFFT_SUCCESS);
  EXPECT_EQ(Work, 0u);
  EXPECT_EQ(cufftEstimate1d(-1, CUFFT_R2C, 1, &Work), CUFFT_INVALID_SIZE);
  cufftHandle P;
  ASSERT_EQ(cufftCreate(&P), CUFFT_SUCCESS);
  Work = 99;
  EXPECT_EQ(cufftGetSize3d(P, 4, 4, 4, CUFFT_Z2Z, &Work), CUFFT_SUCCESS);
  EXPECT_EQ(Work, 0u);
  EXPECT_EQ(cufftGetSize(P, &Work), CUFFT_SUCCESS);
  int V = 0;
  EXPECT_EQ(cufftGetVersion(&V), CUFFT_SUCCESS);
  EXPECT_EQ(V / 1000, CUFFT_VER_MAJOR);
  EXPECT_EQ(cufftGetProperty(MAJOR_VERSION, &V), CUFFT_SUCCESS);
  EXPECT_EQ(V, CUFFT_VER_MAJOR);

  long long Threads = 0;
  EXPECT_EQ(cufftSetPlanPropertyInt64(P, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, 1),
            CUFFT_SUCCESS);
  EXPECT_EQ(cufftGetPlanPropertyInt64(P, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, &Threads),
            CUFFT_SUCCESS);
  EXPECT_EQ(Threads, 1);
  EXPECT_EQ(cufftSetPlanPropertyInt64(P, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, 0),
            CUFFT_INVALID_VALUE);
  EXPECT_EQ(cufftResetPlanProperty(P, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS),
            CUFFT_SUCCESS);
  EXPECT_EQ(cufftGetPlanPropertyInt64(P, cufftProperty(77), &Threads),
            CUFFT_NOT_SUPPORTED);

  // Not provided: callbacks and several GPUs.
  EXPECT_EQ(cufftXtSetCallback(P, nullptr, CUFFT_CB_LD_COMPLEX, nullptr),
            CUFFT_NOT_SUPPORTED);
  EXPECT_EQ(cufftXtClearCallback(P, CUFFT_CB_LD_COMPLEX), CUFFT_SUCCESS);
  int Gpus[2] = {0, 7};
  EXPECT_EQ(cufftXtSetGPUs(P, 2, Gpus), CUFFT_INVALID_DEVICE);
  EXPECT_EQ(cufftXtMalloc(P, nullptr, CUFFT_XT_FORMAT_INPUT), CUFFT_NOT_SUPPORTED);
  cufftDestroy(P);
}

TEST(Cufft, EveryNameNvidiasLibraryExports) {
  std::string Nvidia = CUHIP_CUDA_PATH "/lib64/libcufft.so.12";
  if (access(Nvidia.c_str(), R_OK) != 0)
    GTEST_SKIP() << Nvidia << " is not installed";
  void *Ours = dlopen("libcufft.so.12", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(Ours, nullptr) << "cuhip's libcufft.so.12 is not loaded";
  std::vector<std::string> Names = dynamicExports(Nvidia.c_str());
  std::vector<std::string> Missing;
  size_t Checked = 0;
  for (const std::string &Name : Names)
    if (Name.compare(0, 5, "cufft") == 0) {
      ++Checked;
      if (!dlvsym(Ours, Name.c_str(), "libcufft.so.12"))
        Missing.push_back(Name);
    }
  EXPECT_GT(Checked, 50u);
  EXPECT_TRUE(Missing.empty())
      << Missing.size() << " missing, first " << Missing.front();
  EXPECT_EQ(dlvsym(Ours, "cufftNoSuchCall", "libcufft.so.12"), nullptr);
  dlclose(Ours);
}

TEST(CufftHipBackend, PlansAnswerNotSupported) {
  if (!onHipBackendOrRerun(STANDIN_HIP_PATH, "CufftHipBackend.*"))
    return;
  // No FFT library is used on the HIP backend: every plan is refused
  // before a handle is made, and bad arguments are still reported first.
  cufftHandle P = 77;
  EXPECT_EQ(cufftPlan1d(&P, 64, CUFFT_C2C, 1), CUFFT_NOT_SUPPORTED);
  EXPECT_EQ(cufftCreate(&P), CUFFT_NOT_SUPPORTED);
  EXPECT_EQ(P, 77);
  EXPECT_EQ(cufftPlan1d(nullptr, 64, CUFFT_C2C, 1), CUFFT_INVALID_VALUE);
  EXPECT_EQ(cufftExecC2C(P, nullptr, nullptr, CUFFT_FORWARD),
            CUFFT_NOT_SUPPORTED);
}
