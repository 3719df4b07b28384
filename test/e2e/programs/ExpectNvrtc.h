// Expect.h's checks for NVRTC and driver-API calls: CHECK_NVRTC counts a
// call that does not return NVRTC_SUCCESS, CHECK_CU one that does not
// return CUDA_SUCCESS; each prints where.
#pragma once
#include "Expect.h"
#include <cuda.h>
#include <nvrtc.h>

#define CHECK_NVRTC(call)                                                      \
  do {                                                                         \
    nvrtcResult r_ = (call);                                                   \
    if (r_ != NVRTC_SUCCESS) {                                                 \
      printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #call,                   \
             nvrtcGetErrorString(r_));                                         \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      printf("%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, int(r_));         \
      ++failures;                                                              \
    }                                                                          \
  } while (0)
