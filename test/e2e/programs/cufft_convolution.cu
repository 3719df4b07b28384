// A program linked against NVIDIA's libcufft, run through `cuhip run`,
// which serves cuhip's libcufft.so.12 instead: a circular 2D convolution
// done as convolutionFFT2D does it (R2C transforms of the data and the
// kernel, a pointwise product in a kernel of our own, C2R back), all on one
// stream without synchronising in between, compared with the convolution
// summed directly on the host. Then a 1D complex transform read through a
// linear texture object that declares more bytes than its allocation holds,
// as convolutionFFT2D's custom path does. Prints PASS when all hold.
#include "Expect.h"

#include <cufft.h>

#include <cmath>
#include <vector>

#define CHECK_FFT(call)                                                        \
  do {                                                                         \
    cufftResult r_ = (call);                                                   \
    if (r_ != CUFFT_SUCCESS) {                                                 \
      printf("%s:%d: %s -> cufftResult %d\n", __FILE__, __LINE__, #call,      \
             (int)r_);                                                         \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

__global__ void multiplyAndScale(cufftComplex *A, const cufftComplex *B, int N,
                                 float Scale) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    cufftComplex X = A[I], Y = B[I];
    A[I].x = (X.x * Y.x - X.y * Y.y) * Scale;
    A[I].y = (X.x * Y.y + X.y * Y.x) * Scale;
  }
}

__global__ void readThroughTexture(cudaTextureObject_t T, float2 *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch<float2>(T, I);
}

static void convolution2d() {
  const int H = 24, W = 30, Cols = W / 2 + 1;
  std::vector<float> Data(H * W), Kernel(H * W, 0.0f);
  for (int I = 0; I < H * W; ++I)
    Data[I] = float((I * 13) % 7) - 3.0f;
  // A small kernel around the origin, wrapping as a circular one does.
  Kernel[0] = 0.5f;
  Kernel[1] = 0.25f;
  Kernel[W] = -0.25f;
  Kernel[(H - 1) * W + W - 1] = 0.125f;

  float *DData, *DKernel;
  cufftComplex *DDataSpec, *DKernelSpec;
  CHECK(cudaMalloc(&DData, H * W * sizeof(float)));
  CHECK(cudaMalloc(&DKernel, H * W * sizeof(float)));
  CHECK(cudaMalloc(&DDataSpec, H * Cols * sizeof(cufftComplex)));
  CHECK(cudaMalloc(&DKernelSpec, H * Cols * sizeof(cufftComplex)));
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  cufftHandle Fwd, Inv;
  CHECK_FFT(cufftPlan2d(&Fwd, H, W, CUFFT_R2C));
  CHECK_FFT(cufftPlan2d(&Inv, H, W, CUFFT_C2R));
  CHECK_FFT(cufftSetStream(Fwd, S));
  CHECK_FFT(cufftSetStream(Inv, S));
  std::vector<float> Out(H * W, 0.0f);
  CHECK(cudaMemcpyAsync(DData, Data.data(), H * W * sizeof(float),
                        cudaMemcpyHostToDevice, S));
  CHECK(cudaMemcpyAsync(DKernel, Kernel.data(), H * W * sizeof(float),
                        cudaMemcpyHostToDevice, S));
  CHECK_FFT(cufftExecR2C(Fwd, DData, DDataSpec));
  CHECK_FFT(cufftExecR2C(Fwd, DKernel, DKernelSpec));
  multiplyAndScale<<<(H * Cols + 127) / 128, 128, 0, S>>>(
      DDataSpec, DKernelSpec, H * Cols, 1.0f / (H * W));
  CHECK_FFT(cufftExecC2R(Inv, DDataSpec, DData));
  CHECK(cudaMemcpyAsync(Out.data(), DData, H * W * sizeof(float),
                        cudaMemcpyDeviceToHost, S));
  CHECK(cudaStreamSynchronize(S));

  double Worst = 0;
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      double Sum = 0;
      for (int KY = 0; KY < H; ++KY)
        for (int KX = 0; KX < W; ++KX)
          Sum += Kernel[KY * W + KX] *
                 Data[((Y - KY + H) % H) * W + (X - KX + W) % W];
      Worst = std::fmax(Worst, std::fabs(Sum - Out[Y * W + X]));
    }
  EXPECT(Worst < 1e-4);
  if (Worst >= 1e-4)
    printf("convolution: largest difference %g\n", Worst);
  cufftDestroy(Fwd);
  cufftDestroy(Inv);
  cudaStreamDestroy(S);
  cudaFree(DData);
  cudaFree(DKernel);
  cudaFree(DDataSpec);
  cudaFree(DKernelSpec);
}

static void transformThroughTexture() {
  const int N = 64;
  std::vector<cufftComplex> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = {float(I % 4), 0.0f};
  cufftComplex *D;
  float2 *Got;
  CHECK(cudaMalloc(&D, N * sizeof(cufftComplex)));
  CHECK(cudaMalloc(&Got, N * sizeof(float2)));
  CHECK(cudaMemcpy(D, In.data(), N * sizeof(cufftComplex), cudaMemcpyHostToDevice));
  cufftHandle P;
  CHECK_FFT(cufftPlan1d(&P, N, CUFFT_C2C, 1));
  CHECK_FFT(cufftExecC2C(P, D, D, CUFFT_FORWARD));
  // The texture declares twice the allocation, as convolutionFFT2D's
  // padded spectra do; CUDA accepts it.
  cudaResourceDesc Res = {};
  Res.resType = cudaResourceTypeLinear;
  Res.res.linear.devPtr = D;
  Res.res.linear.sizeInBytes = 2 * N * sizeof(cufftComplex);
  Res.res.linear.desc = cudaCreateChannelDesc<float2>();
  cudaTextureDesc Tex = {};
  Tex.filterMode = cudaFilterModeLinear;
  Tex.addressMode[0] = cudaAddressModeWrap;
  Tex.readMode = cudaReadModeElementType;
  cudaTextureObject_t T = 0;
  CHECK(cudaCreateTextureObject(&T, &Res, &Tex, nullptr));
  readThroughTexture<<<1, N>>>(T, Got, N);
  std::vector<float2> Host(N);
  CHECK(cudaMemcpy(Host.data(), Got, N * sizeof(float2), cudaMemcpyDeviceToHost));
  // x[i] = i mod 4 has period 4: its spectrum is nonzero only at multiples
  // of N/4; the sum (k = 0) is 1.5 N, and k = N/4 is (-2 + 2i) N/4.
  EXPECT(Host[0].x == 1.5f * N && Host[0].y == 0.0f);
  EXPECT(std::fabs(Host[N / 4].x + N / 2) < 1e-3 &&
         std::fabs(Host[N / 4].y - N / 2) < 1e-3);
  EXPECT(std::fabs(Host[1].x) < 1e-3 && std::fabs(Host[1].y) < 1e-3);
  CHECK(cudaDestroyTextureObject(T));
  cufftDestroy(P);
  cudaFree(D);
  cudaFree(Got);
}

int main() {
  convolution2d();
  transformThroughTexture();
  if (failures == 0)
    printf("PASS\n");
  return failures ? 1 : 0;
}
