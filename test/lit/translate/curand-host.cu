// cuRAND's host API becomes hipRAND's (hipRAND 5.3's header is what the
// translated file is compiled against). curandGenerateLongLong has no hipRAND
// counterpart and is reported.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path -o %t.hip 2>%t.err
// RUN: FileCheck %s < %t.hip
// RUN: FileCheck --check-prefix=DIAG %s < %t.err

#include <curand.h>
// CHECK: {{^ *}}#include <hiprand/hiprand.h>
#include <cuda_runtime.h>

#define RAND_OK(call) ((call) == CURAND_STATUS_SUCCESS)
// CHECK: {{^ *}}#define RAND_OK(call) ((call) == HIPRAND_STATUS_SUCCESS)

int fill(float *dev, double *dev64, size_t n, cudaStream_t s) {
  curandGenerator_t gen;
  // CHECK: {{^ *}}hiprandGenerator_t gen;
  if (!RAND_OK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10)))
    return 1;
  // CHECK: {{^ *}}if (!RAND_OK(hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_PHILOX4_32_10)))
  curandSetStream(gen, s);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  // CHECK: {{^ *}}hiprandSetStream(gen, s);
  // CHECK: {{^ *}}hiprandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandStatus_t st = curandGenerateUniform(gen, dev, n);
  st = curandGenerateNormal(gen, dev, n, 0.0f, 1.0f);
  st = curandGenerateNormalDouble(gen, dev64, n, 0.0, 1.0);
  // CHECK: {{^ *}}hiprandStatus_t st = hiprandGenerateUniform(gen, dev, n);
  // CHECK: {{^ *}}st = hiprandGenerateNormal(gen, dev, n, 0.0f, 1.0f);
  // CHECK: {{^ *}}st = hiprandGenerateNormalDouble(gen, dev64, n, 0.0, 1.0);
#ifdef USE_LONG_LONG
  st = curandGenerateLongLong(gen, (unsigned long long *)dev64, n);
  // CHECK: {{^ *}}st = curandGenerateLongLong(gen, (unsigned long long *)dev64, n);
#endif
  curandDestroyGenerator(gen);
  // CHECK: {{^ *}}hiprandDestroyGenerator(gen);
  return st == CURAND_STATUS_SUCCESS ? 0 : 1;
  // CHECK: {{^ *}}return st == HIPRAND_STATUS_SUCCESS ? 0 : 1;
}
// DIAG: curand-host.cu:33:8: warning: 'curandGenerateLongLong' has no HIP counterpart: hipRAND has no 64-bit integer generation [cuhip-unsupported]
