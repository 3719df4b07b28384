// The checks test/e2e's API programs share: CHECK counts a call that does
// not return cudaSuccess, EXPECT_ERR one that does not return the wanted
// error (and clears the last error it left), EXPECT a false condition. Each
// prints where; the program prints PASS when `failures` stays 0.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

static int failures = 0;

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #call,                   \
             cudaGetErrorName(e_));                                            \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define EXPECT_ERR(call, want)                                                 \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != (want)) {                                                        \
      printf("%s:%d: %s -> %s, expected %s\n", __FILE__, __LINE__, #call,      \
             cudaGetErrorName(e_), cudaGetErrorName(want));                    \
      ++failures;                                                              \
    }                                                                          \
    cudaGetLastError();                                                        \
  } while (0)

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond);               \
      ++failures;                                                              \
    }                                                                          \
  } while (0)
