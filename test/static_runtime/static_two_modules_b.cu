// The second translation unit of static_two_modules: its own fatbin.
__global__ void scale(int *p, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= k;
}

void launchScale(int *p, int k, int n) {
  scale<<<(n + 63) / 64, 64>>>(p, k, n);
}
