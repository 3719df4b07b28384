//===- CufftTypes.h - The C types of cuFFT's API, as its headers define them ===//
//
// libcufft is compiled without NVIDIA's headers: these are the types and
// enumerator values of cufft.h and cufftXt.h that the exported functions
// take, written from the public API (library_types.h's are the runtime's
// LibraryTypes.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/LibraryTypes.h"

#include <cstddef>

extern "C" {

typedef int cufftHandle;

typedef enum cufftResult_t {
  CUFFT_SUCCESS = 0x0,
  CUFFT_INVALID_PLAN = 0x1,
  CUFFT_ALLOC_FAILED = 0x2,
  CUFFT_INVALID_TYPE = 0x3,
  CUFFT_INVALID_VALUE = 0x4,
  CUFFT_INTERNAL_ERROR = 0x5,
  CUFFT_EXEC_FAILED = 0x6,
  CUFFT_SETUP_FAILED = 0x7,
  CUFFT_INVALID_SIZE = 0x8,
  CUFFT_UNALIGNED_DATA = 0x9,
  CUFFT_INVALID_DEVICE = 0xB,
  CUFFT_NO_WORKSPACE = 0xD,
  CUFFT_NOT_IMPLEMENTED = 0xE,
  CUFFT_NOT_SUPPORTED = 0x10,
  CUFFT_MISSING_DEPENDENCY = 0x11,
  CUFFT_NVRTC_FAILURE = 0x12,
  CUFFT_NVJITLINK_FAILURE = 0x13,
  CUFFT_NVSHMEM_FAILURE = 0x14
} cufftResult;

typedef enum cufftType_t {
  CUFFT_R2C = 0x2a,
  CUFFT_C2R = 0x2c,
  CUFFT_C2C = 0x29,
  CUFFT_D2Z = 0x6a,
  CUFFT_Z2D = 0x6c,
  CUFFT_Z2Z = 0x69
} cufftType;

#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1

typedef float cufftReal;
typedef double cufftDoubleReal;
typedef struct {
  float x, y;
} cufftComplex;
typedef struct {
  double x, y;
} cufftDoubleComplex;

typedef enum cufftProperty_t {
  NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT = 0x1,
  NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS = 0x2
} cufftProperty;

typedef struct cudaLibXtDesc_t cudaLibXtDesc;

typedef enum cufftXtSubFormat_t {
  CUFFT_XT_FORMAT_INPUT = 0x00,
  CUFFT_FORMAT_UNDEFINED = 0x07
} cufftXtSubFormat;

typedef enum cufftXtCopyType_t {
  CUFFT_COPY_HOST_TO_DEVICE = 0x00,
  CUFFT_COPY_UNDEFINED = 0x03
} cufftXtCopyType;

typedef enum cufftXtQueryType_t {
  CUFFT_QUERY_1D_FACTORS = 0x00,
  CUFFT_QUERY_UNDEFINED = 0x01
} cufftXtQueryType;

typedef enum cufftXtCallbackType_t {
  CUFFT_CB_LD_COMPLEX = 0x0,
  CUFFT_CB_UNDEFINED = 0x8
} cufftXtCallbackType;

typedef enum cufftXtWorkAreaPolicy_t {
  CUFFT_WORKAREA_MINIMAL = 0,
  CUFFT_WORKAREA_USER = 1,
  CUFFT_WORKAREA_PERFORMANCE = 2
} cufftXtWorkAreaPolicy;

} // extern "C"
