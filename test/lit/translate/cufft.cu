// cuFFT becomes hipFFT: plans, executions, the transform types and the
// direction macros (CUFFT_INVERSE is HIPFFT_BACKWARD).
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err

#include <cufft.h>
// CHECK: {{^ *}}#include <hipfft/hipfft.h>

int transform(cufftComplex *data, cufftReal *real, int n, cudaStream_t s) {
  // CHECK: {{^ *}}int transform(hipfftComplex *data, hipfftReal *real, int n, hipStream_t s) {
  cufftHandle plan, r2c;
  // CHECK: {{^ *}}hipfftHandle plan, r2c;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS)
    return 1;
  // CHECK: {{^ *}}if (hipfftPlan1d(&plan, n, HIPFFT_C2C, 1) != HIPFFT_SUCCESS)
  cufftSetStream(plan, s);
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cufftExecC2C(plan, data, data, CUFFT_INVERSE);
  // CHECK: {{^ *}}hipfftSetStream(plan, s);
  // CHECK: {{^ *}}hipfftExecC2C(plan, data, data, HIPFFT_FORWARD);
  // CHECK: {{^ *}}hipfftExecC2C(plan, data, data, HIPFFT_BACKWARD);
  cufftPlanMany(&r2c, 1, &n, nullptr, 1, n, nullptr, 1, n / 2 + 1, CUFFT_R2C, 4);
  cufftSetCompatibilityMode(r2c, CUFFT_COMPATIBILITY_DEFAULT);
  cufftResult r = cufftExecR2C(r2c, real, data);
  // CHECK: {{^ *}}hipfftPlanMany(&r2c, 1, &n, nullptr, 1, n, nullptr, 1, n / 2 + 1, HIPFFT_R2C, 4);
  // CHECK: {{^ *}}cufftSetCompatibilityMode(r2c, CUFFT_COMPATIBILITY_DEFAULT);
  // CHECK: {{^ *}}hipfftResult r = hipfftExecR2C(r2c, real, data);
  cufftDestroy(plan);
  cufftDestroy(r2c);
  // CHECK: {{^ *}}hipfftDestroy(plan);
  return r;
}
// DIAG: cufft.cu:24:3: warning: 'cufftSetCompatibilityMode' has no HIP counterpart: hipFFT has only its native data layout; remove the call [cuhip-unsupported]
