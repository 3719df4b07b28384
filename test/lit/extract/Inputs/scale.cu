// Input for extract.test: one kernel, so the program's fatbin holds one SASS
// and one PTX entry for the -arch given.
__global__ void scale(float *X, float A, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= A;
}

int main() {
  float *D = nullptr;
  cudaMalloc(&D, 16 * sizeof(float));
  scale<<<1, 16>>>(D, 2.0f, 16);
  cudaDeviceSynchronize();
  cudaFree(D);
  return 0;
}
