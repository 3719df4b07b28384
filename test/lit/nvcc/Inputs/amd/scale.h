// A project header: translated into the mirror, named in the deps file.
#pragma once
#include <cuda_runtime.h>
inline cudaError_t scaleSync() { return cudaDeviceSynchronize(); }
