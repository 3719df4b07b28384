// The kernel the driver API tests load from a fatbin, an object file and a
// cubin built by nvcc.
extern "C" __global__ void scale(float *Data, float Factor, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}
