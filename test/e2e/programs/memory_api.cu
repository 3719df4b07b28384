// The CUDA runtime's memory family from a real program: device variables
// set and read by symbol, pitched 2D and 3D copies used by kernels, mapped
// page-locked and registered host memory written by kernels, managed
// memory, stream-ordered allocation, pointer attributes and memory
// information. Prints PASS when every check holds.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Expect.h"

__constant__ float coef[8];
__device__ int hits;
__device__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};

__global__ void scaleByCoef(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = coef[i % 8] * table[i % 4];
  atomicAdd(&hits, 1);
}

// Adds x + 1000 * y to each element of a pitched width x height image.
__global__ void addIndex2D(float *img, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float *row = reinterpret_cast<float *>(reinterpret_cast<char *>(img) +
                                           y * pitch);
    row[x] += x + 1000.0f * y;
  }
}

__global__ void fill(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = base + i;
}

static void deviceVariables() {
  float c[8];
  for (int i = 0; i < 8; ++i)
    c[i] = float(i + 1);
  CHECK(cudaMemcpyToSymbol(coef, c, sizeof c));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, coef));
  EXPECT(size == sizeof c);
  void *tableAddr = nullptr;
  CHECK(cudaGetSymbolAddress(&tableAddr, table));
  EXPECT(tableAddr != nullptr);

  const int n = 40;
  float *out;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  scaleByCoef<<<2, 32>>>(out, n);
  CHECK(cudaGetLastError());
  std::vector<float> host(n);
  CHECK(cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDefault));
  for (int i = 0; i < n; ++i)
    EXPECT(host[i] == c[i % 8] * (1.5f + (i % 4)));
  int h = 0;
  CHECK(cudaMemcpyFromSymbol(&h, hits, sizeof h));
  EXPECT(h == 64);
  // Part of a variable, at an offset, through its device address.
  float t = 0;
  CHECK(cudaMemcpyFromSymbol(&t, table, sizeof t, 2 * sizeof(float)));
  EXPECT(t == 3.5f);
  CHECK(cudaMemcpy(&t, static_cast<float *>(tableAddr) + 3, sizeof t,
                   cudaMemcpyDeviceToHost));
  EXPECT(t == 4.5f);
  EXPECT_ERR(cudaMemcpyToSymbol(coef, c, sizeof c, 4), cudaErrorInvalidValue);
  static int notASymbol;
  EXPECT_ERR(cudaMemcpyToSymbol(notASymbol, c, 4), cudaErrorInvalidSymbol);
  CHECK(cudaFree(out));
}

static void pitched() {
  const int w = 37, h = 9;
  float *img;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&img, &pitch, w * sizeof(float), h));
  EXPECT(pitch >= w * sizeof(float));
  std::vector<float> host(w * h), back(w * h);
  for (int i = 0; i < w * h; ++i)
    host[i] = float(i % 5);
  CHECK(cudaMemcpy2D(img, pitch, host.data(), w * sizeof(float),
                     w * sizeof(float), h, cudaMemcpyHostToDevice));
  addIndex2D<<<dim3(3, 3), dim3(16, 4)>>>(img, pitch, w, h);
  CHECK(cudaGetLastError());
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpy2DAsync(back.data(), w * sizeof(float), img, pitch,
                          w * sizeof(float), h, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      EXPECT(back[y * w + x] == host[y * w + x] + x + 1000.0f * y);
  EXPECT_ERR(cudaMemcpy2D(img, w, host.data(), w * sizeof(float),
                          w * sizeof(float), h, cudaMemcpyHostToDevice),
             cudaErrorInvalidPitchValue);
  CHECK(cudaMemset2D(img, pitch, 0, w * sizeof(float), h));
  CHECK(cudaMemcpy2D(back.data(), w * sizeof(float), img, pitch,
                     w * sizeof(float), h, cudaMemcpyDeviceToHost));
  EXPECT(back[w * h - 1] == 0.0f);
  CHECK(cudaFree(img));

  // A 3D volume: copy a box in at a position, read the whole volume back.
  cudaExtent vol = make_cudaExtent(8 * sizeof(int), 4, 3);
  cudaPitchedPtr dev;
  CHECK(cudaMalloc3D(&dev, vol));
  EXPECT(dev.pitch >= vol.width && dev.xsize == vol.width && dev.ysize == 4);
  CHECK(cudaMemset3D(dev, 0, vol));
  std::vector<int> box(2 * 2 * 2);
  for (int i = 0; i < 8; ++i)
    box[i] = i + 1;
  cudaMemcpy3DParms in = {};
  in.srcPtr = make_cudaPitchedPtr(box.data(), 2 * sizeof(int), 2, 2);
  in.dstPtr = dev;
  in.dstPos = make_cudaPos(3 * sizeof(int), 1, 1);
  in.extent = make_cudaExtent(2 * sizeof(int), 2, 2);
  in.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&in));
  std::vector<int> whole(8 * 4 * 3, -1);
  cudaMemcpy3DParms out = {};
  out.srcPtr = dev;
  out.dstPtr = make_cudaPitchedPtr(whole.data(), 8 * sizeof(int), 8, 4);
  out.extent = vol;
  out.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3DAsync(&out, 0));
  CHECK(cudaDeviceSynchronize());
  // Box element (x=1, y=1, z=1) is at (4, 2, 2) of the volume.
  EXPECT(whole[2 * 32 + 2 * 8 + 4] == 8);
  EXPECT(whole[1 * 32 + 1 * 8 + 3] == 1);
  EXPECT(whole[0] == 0);
  cudaMemcpy3DParms both = in;
  both.srcArray = reinterpret_cast<cudaArray_t>(&box);
  EXPECT_ERR(cudaMemcpy3D(&both), cudaErrorInvalidValue);
  CHECK(cudaFree(dev.ptr));
}

static void hostMemory() {
  const int n = 256;
  int *mapped;
  CHECK(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped));
  int *devView = nullptr;
  CHECK(cudaHostGetDevicePointer(&devView, mapped, 0));
  fill<<<(n + 63) / 64, 64>>>(devView, n, 100);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i)
    EXPECT(mapped[i] == 100 + i);
  unsigned flags = 0;
  CHECK(cudaHostGetFlags(&flags, mapped));
  EXPECT(flags & cudaHostAllocMapped);
  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, mapped));
  EXPECT(a.type == cudaMemoryTypeHost && a.hostPointer == mapped);
  EXPECT_ERR(cudaFree(mapped), cudaErrorInvalidValue);
  CHECK(cudaFreeHost(mapped));

  std::vector<int> plain(n, 0);
  CHECK(cudaHostRegister(plain.data(), n * sizeof(int), cudaHostRegisterMapped));
  EXPECT_ERR(cudaHostRegister(plain.data(), n * sizeof(int), 0),
             cudaErrorHostMemoryAlreadyRegistered);
  int *regView = nullptr;
  CHECK(cudaHostGetDevicePointer(&regView, plain.data(), 0));
  fill<<<(n + 63) / 64, 64>>>(regView, n, 7);
  CHECK(cudaDeviceSynchronize());
  EXPECT(plain[n - 1] == 7 + n - 1);
  CHECK(cudaHostUnregister(plain.data()));
  EXPECT_ERR(cudaHostUnregister(plain.data()), cudaErrorHostMemoryNotRegistered);

  int *pinned;
  CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
  int *dev;
  CHECK(cudaMalloc(&dev, n * sizeof(int)));
  fill<<<(n + 63) / 64, 64>>>(dev, n, -5);
  CHECK(cudaMemcpyAsync(pinned, dev, n * sizeof(int), cudaMemcpyDefault, 0));
  CHECK(cudaStreamSynchronize(0));
  EXPECT(pinned[10] == 5);
  CHECK(cudaPointerGetAttributes(&a, dev + 3));
  EXPECT(a.type == cudaMemoryTypeDevice && a.devicePointer == dev + 3);
  CHECK(cudaPointerGetAttributes(&a, plain.data()));
  EXPECT(a.type == cudaMemoryTypeUnregistered);
  CHECK(cudaMemcpyPeer(pinned, 0, dev, 0, n * sizeof(int)));
  EXPECT_ERR(cudaMemcpyPeer(pinned, 1, dev, 0, 4), cudaErrorInvalidDevice);
  CHECK(cudaFree(dev));
  CHECK(cudaFreeHost(pinned));
}

static void managed() {
  const int n = 1000;
  int *m;
  CHECK(cudaMallocManaged(&m, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    m[i] = -1;
  cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation,
                      dev));
  CHECK(cudaMemPrefetchAsync(m, n * sizeof(int), dev, 0, 0));
  fill<<<(n + 127) / 128, 128>>>(m, n, 3);
  CHECK(cudaDeviceSynchronize());
  EXPECT(m[0] == 3 && m[n - 1] == 3 + n - 1);
  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, m));
  EXPECT(a.type == cudaMemoryTypeManaged);
  EXPECT_ERR(cudaMallocManaged(&m, 0), cudaErrorInvalidValue);
  CHECK(cudaFree(m));
}

static void streamOrdered() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t threshold = 64 << 20;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                &threshold));
  const int n = 4096;
  int *p;
  CHECK(cudaMallocAsync(&p, n * sizeof(int), s));
  fill<<<n / 256, 256, 0, s>>>(p, n, 11);
  std::vector<int> host(n);
  CHECK(cudaMemcpyAsync(host.data(), p, n * sizeof(int),
                        cudaMemcpyDeviceToHost, s));
  uint64_t used = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  EXPECT(used >= n * sizeof(int));
  CHECK(cudaFreeAsync(p, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT(host[n - 1] == 11 + n - 1);
  uint64_t reserved = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent,
                                &reserved));
  EXPECT(reserved >= n * sizeof(int));
  CHECK(cudaMemPoolTrimTo(pool, 0));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent,
                                &reserved));
  EXPECT(reserved == 0);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t own;
  CHECK(cudaMemPoolCreate(&own, &props));
  int *q;
  CHECK(cudaMallocFromPoolAsync(&q, 1024, own, s));
  CHECK(cudaMemsetAsync(q, 0, 1024, s));
  CHECK(cudaFreeAsync(q, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemPoolDestroy(own));
  EXPECT_ERR(cudaMemPoolDestroy(pool), cudaErrorInvalidValue);
  CHECK(cudaStreamDestroy(s));
}

int main() {
  size_t freeBytes = 0, total = 0;
  CHECK(cudaMemGetInfo(&freeBytes, &total));
  EXPECT(total > 0 && freeBytes <= total);
  deviceVariables();
  pitched();
  hostMemory();
  managed();
  streamOrdered();
  EXPECT_ERR(cudaFree(&failures), cudaErrorInvalidValue);
  CHECK(cudaFree(nullptr));
  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
