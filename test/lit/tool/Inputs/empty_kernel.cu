__global__ void k() {}
int main() {
  k<<<1, 1>>>();
  // The launch is asynchronous: work still queued at exit may never run.
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
