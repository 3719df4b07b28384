// Built with plain nvcc (the static CUDA runtime) from two translation units,
// so the runtime loads two fatbins; kernels of both run from the main thread
// and from a second host thread, which the runtime binds to the primary
// context on its own, and again after cudaDeviceReset, which destroys the
// runtime's per-context state and makes it load its modules anew.
#include <cstdio>
#include <thread>

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}

void launchScale(int *p, int k, int n); // static_two_modules_b.cu

static bool check(const int *h, int n, int scale, const char *what) {
  for (int i = 0; i < n; ++i) {
    if (h[i] != (7 + i) * scale) {
      std::printf("FAIL: %s: element %d is %d, expected %d\n", what, i, h[i],
                  (7 + i) * scale);
      return false;
    }
  }
  return true;
}

static bool run(int scale, const char *what) {
  const int n = 300;
  int *d = nullptr;
  int h[n];
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) {
    std::printf("FAIL: %s: cudaMalloc\n", what);
    return false;
  }
  fill<<<3, 128>>>(d, 7, n);
  launchScale(d, scale, n);
  cudaError_t e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  if (e != cudaSuccess) {
    std::printf("FAIL: %s: %s\n", what, cudaGetErrorName(e));
    return false;
  }
  return check(h, n, scale, what);
}

int main() {
  bool ok = run(3, "main thread");
  bool okThread = false;
  std::thread t([&] { okThread = run(5, "second thread"); });
  t.join();
  cudaError_t e = cudaDeviceReset();
  if (e != cudaSuccess) {
    std::printf("FAIL: cudaDeviceReset: %s\n", cudaGetErrorName(e));
    return 1;
  }
  bool okReset = run(2, "after reset");
  if (!ok || !okThread || !okReset)
    return 1;
  std::printf("PASS\n");
  return 0;
}
