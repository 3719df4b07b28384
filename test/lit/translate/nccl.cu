// NCCL is RCCL's API under the same names: only the header changes.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s

#include <nccl.h>
// CHECK: {{^ *}}#include <rccl/rccl.h>

int allReduce(float *buf, size_t n, ncclComm_t comm, cudaStream_t s) {
  // CHECK: {{^ *}}int allReduce(float *buf, size_t n, ncclComm_t comm, hipStream_t s) {
  ncclGroupStart();
  ncclResult_t r = ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  ncclGroupEnd();
  // CHECK: {{^ *}}ncclGroupStart();
  // CHECK: {{^ *}}ncclResult_t r = ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  return r == ncclSuccess ? 0 : 1;
  // CHECK: {{^ *}}return r == ncclSuccess ? 0 : 1;
}
