// The device compiler's errors reach the user with the user's file and line.
// REQUIRES: cuda-headers
// RUN: not %cuhip nvcc --cuhip-backend=cpu --cuhip-device-compiler=clang \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: {{^}}{{.*}}cpu-device-error.cu:[[@LINE+8]]:10: error: use of undeclared identifier 'undefinedThing'{{$}}
// RUN: %if nvcc %{ not %cuhip nvcc --cuhip-backend=cpu \
// RUN:   --cuhip-device-compiler=nvcc -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NVCC %}
// NVCC: {{^}}{{.*}}cpu-device-error.cu([[@LINE+4]]): error: identifier "undefinedThing" is undefined{{$}}

__global__ void kernel(int *p) {
  // The line both compilers must name:
  p[0] = undefinedThing;
}
