// cuDNN becomes MIOpen only where the two APIs correspond: the handle and its
// stream, tensor descriptors, activation and softmax. Everything else is
// reported with the reason and left as written. cuDNN's C++ frontend
// (cudnn_frontend.h) is not part of any toolkit, and cuDNN itself is not in
// every CUDA installation, so the file does not fully parse: it is still
// translated by spelling, and the parse error is a warning.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err

#include <cudnn.h>
#include <cudnn_frontend.h>
// CHECK: {{^ *}}#include <miopen/miopen.h>
// CHECK: {{^ *}}#include <cudnn_frontend.h>

int run(cudnnHandle_t h, cudaStream_t s, float *x, float *y, int n) {
  // CHECK: {{^ *}}int run(miopenHandle_t h, hipStream_t s, float *x, float *y, int n) {
  cudnnSetStream(h, s);
  // CHECK: {{^ *}}miopenSetStream(h, s);
  cudnnTensorDescriptor_t desc;
  cudnnCreateTensorDescriptor(&desc);
  // CHECK: {{^ *}}miopenTensorDescriptor_t desc;
  // CHECK: {{^ *}}miopenCreateTensorDescriptor(&desc);
  cudnnActivationDescriptor_t act;
  cudnnCreateActivationDescriptor(&act);
  // CHECK: {{^ *}}miopenActivationDescriptor_t act;
  // CHECK: {{^ *}}miopenCreateActivationDescriptor(&act);
  float one = 1.0f, zero = 0.0f;
  cudnnStatus_t st = cudnnActivationForward(h, act, &one, desc, x, &zero, desc, y);
  // CHECK: {{^ *}}miopenStatus_t st = miopenActivationForward(h, act, &one, desc, x, &zero, desc, y);
  if (st != CUDNN_STATUS_SUCCESS)
    return 1;
  // CHECK: {{^ *}}if (st != miopenStatusSuccess)
  cudnnConvolutionForward(h, &one, desc, x, nullptr, nullptr, nullptr,
                          CUDNN_CONVOLUTION_FWD_ALGO_GEMM, nullptr, 0, &zero,
                          desc, y);
  // CHECK: {{^ *}}cudnnConvolutionForward(h, &one, desc, x, nullptr, nullptr, nullptr,
  cudnnDestroyActivationDescriptor(act);
  cudnnDestroyTensorDescriptor(desc);
  // CHECK: {{^ *}}miopenDestroyActivationDescriptor(act);
  // CHECK: {{^ *}}miopenDestroyTensorDescriptor(desc);
  return n;
}
// DIAG: warning: parse error: '{{cudnn|cudnn_frontend}}.h' file not found (the code around it is translated by spelling only) [cuhip-parse]
// DIAG: cudnn.cu:34:3: warning: 'cudnnConvolutionForward' has no HIP counterpart: the cuDNN and MIOpen APIs do not correspond here: {{.*}}miopenConvolutionForward{{.*}} [cuhip-unsupported]
