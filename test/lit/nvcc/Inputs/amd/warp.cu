// A lane number computed with a literal 32: the translator warns about it.
__global__ void laneIds(int *out) {
  out[threadIdx.x] = threadIdx.x % 32;
}
