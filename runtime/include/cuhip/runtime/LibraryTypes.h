//===- LibraryTypes.h - The C types the CUDA libraries' headers share -----===//
//
// library_types.h's data types and library properties, and the stream
// handle, as the drop-in libraries (cuBLAS, cuBLASLt, cuFFT) take them:
// written down once as facts of the public API, so the libraries build
// without a CUDA toolkit and cannot disagree on a number.
//
//===----------------------------------------------------------------------===//
#pragma once

extern "C" {

typedef struct CUstream_st *cudaStream_t;

typedef enum cudaDataType_t {
  CUDA_R_16F = 2,
  CUDA_C_16F = 6,
  CUDA_R_16BF = 14,
  CUDA_C_16BF = 15,
  CUDA_R_32F = 0,
  CUDA_C_32F = 4,
  CUDA_R_64F = 1,
  CUDA_C_64F = 5,
  CUDA_R_8I = 3,
  CUDA_C_8I = 7,
  CUDA_R_8U = 8,
  CUDA_C_8U = 9,
  CUDA_R_32I = 10,
  CUDA_C_32I = 11,
  CUDA_R_8F_E4M3 = 28,
  CUDA_R_8F_E5M2 = 29,
} cudaDataType;
typedef enum cudaDataType_t cudaDataType_t;

typedef enum libraryPropertyType_t {
  MAJOR_VERSION,
  MINOR_VERSION,
  PATCH_LEVEL
} libraryPropertyType;
typedef enum libraryPropertyType_t libraryPropertyType_t;

} // extern "C"
