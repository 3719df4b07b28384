// Device functions the way C++ CUDA code produces them: non-inlined
// functions with struct arguments and results, recursion, virtual calls
// through a vtable, device malloc/free, and printf from several threads
// (its output is checked by the test driver). Prints PASS when all match.
#include <cstdio>
#include <cuda_runtime.h>

struct Pair {
  int a;
  float b;
  double c;
};

__device__ __noinline__ Pair combine(Pair x, int k) {
  Pair r = {x.a * k, x.b + k, x.c * 0.5};
  return r;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  float s;
  __device__ Square(float s) : s(s) {}
  __device__ float area() const override { return s * s; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(float w, float h) : w(w), h(h) {}
  __device__ float area() const override { return w * h; }
};

__global__ void calls(int *ints, float *floats, double *doubles) {
  int t = threadIdx.x;
  Pair p = combine(Pair{t, 0.5f, 3.0}, 3);
  ints[t] = p.a;
  floats[t] = p.b;
  doubles[t] = p.c;
  ints[32 + t] = fib(t % 12);
  Shape *s = (t & 1) ? (Shape *)new Square(float(t)) : (Shape *)new Rect(float(t), 2.0f);
  floats[32 + t] = s->area();
  delete s;
}

__global__ void hello(int base) {
  if (threadIdx.x < 3)
    printf("hello from thread %d of block %d: %d %.2f %s\n", threadIdx.x,
           blockIdx.x, base + threadIdx.x, 0.25 * threadIdx.x, "ok");
  // Width and precision given as arguments, and a 64-bit value after them.
  if (threadIdx.x == 0 && blockIdx.x == 0)
    printf("star: [%*d] [%-*.*f] [%lld]\n", 6, 42, 8, 3, 3.14159,
           (long long)base << 33);
}

int main() {
  int *di, hi[64];
  float *df, hf[64];
  double *dd, hd[32];
  cudaMalloc(&di, sizeof(hi));
  cudaMalloc(&df, sizeof(hf));
  cudaMalloc(&dd, sizeof(hd));
  calls<<<1, 32>>>(di, df, dd);
  cudaError_t e = cudaGetLastError();
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost);
  int fibs[12] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  bool ok = e == cudaSuccess;
  for (int t = 0; t < 32; ++t) {
    ok = ok && hi[t] == 3 * t && hf[t] == 3.5f && hd[t] == 1.5;
    ok = ok && hi[32 + t] == fibs[t % 12];
    ok = ok && hf[32 + t] == ((t & 1) ? float(t) * float(t) : float(t) * 2.0f);
  }
  std::printf("calls, recursion, virtual functions, device malloc: %s\n",
              ok ? "ok" : "FAILED");
  hello<<<2, 8>>>(100);
  e = cudaDeviceSynchronize();
  ok = ok && e == cudaSuccess;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
