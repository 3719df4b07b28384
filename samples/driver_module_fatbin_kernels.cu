// The kernels driver_module_fatbin loads: built with `nvcc -fatbin` into
// driver_module_fatbin.fatbin next to the sample, never linked into it.
// extern "C" keeps the names the host looks up unmangled.

// How many elements the kernels have written, read back with
// cuModuleGetGlobal.
__device__ unsigned int written;

extern "C" __global__ void scale_add(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
    atomicAdd(&written, 1u);
  }
}

extern "C" __global__ void fill(int *out, int value, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = value + i;
}
