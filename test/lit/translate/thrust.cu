// Thrust is rocThrust's API: its headers and namespace stay as written, and
// the references count as converted.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path --print-stats=json 2>%t.err -o %t.hip | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t.hip
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
// CHECK: {{^ *}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^ *}}#include <thrust/device_vector.h>
// CHECK-NEXT: {{^ *}}#include <thrust/host_vector.h>
#include <thrust/reduce.h>

float total(const thrust::host_vector<float> &h) {
  thrust::device_vector<float> d = h;
  // CHECK: {{^ *}}thrust::device_vector<float> d = h;
  return thrust::reduce(d.begin(), d.end(), 0.0f);
  // CHECK: {{^ *}}return thrust::reduce(d.begin(), d.end(), 0.0f);
}
// STATS: "thrust"
// DIAG-NOT: warning
