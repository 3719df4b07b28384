// texture_sampling: an image in a cudaArray read through texture objects.
// A bilinear resize samples it with linear filtering at normalized
// coordinates (clamp addressing), and a 3x3 box filter reads texels with
// point sampling and border addressing and writes its result through a
// surface object into a second array. Both are compared with a host
// reference computed by the CUDA programming guide's texture fetching
// rules (linear weights in 9-bit fixed point with 8 fraction bits).
// Prints PASS or FAIL.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
             cudaGetErrorString(err_));                                        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int W = 64, H = 48;     // the source image
constexpr int OW = 100, OH = 70;  // the resized image

__global__ void resize(cudaTextureObject_t src, float *dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < OW && y < OH)
    dst[y * OW + x] = tex2D<float>(src, (x + 0.5f) / OW, (y + 0.5f) / OH);
}

__global__ void boxFilter(cudaTextureObject_t src, cudaSurfaceObject_t dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H)
    return;
  float sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += tex2D<float>(src, x + dx + 0.5f, y + dy + 0.5f);
  surf2Dwrite(sum / 9.0f, dst, x * (int)sizeof(float), y);
}

static float pixel(const std::vector<float> &img, int x, int y) {
  x = x < 0 ? 0 : x >= W ? W - 1 : x;
  y = y < 0 ? 0 : y >= H ? H - 1 : y;
  return img[y * W + x];
}

static float bilinear(const std::vector<float> &img, float u, float v) {
  // xB = x * W - 0.5, i = floor(xB), a = frac(xB) in 9-bit fixed point.
  double xb = double(u) * W - 0.5, yb = double(v) * H - 0.5;
  int i = (int)std::floor(xb), j = (int)std::floor(yb);
  float a = float(std::nearbyint((xb - i) * 256) / 256);
  float b = float(std::nearbyint((yb - j) * 256) / 256);
  return (1 - a) * (1 - b) * pixel(img, i, j) + a * (1 - b) * pixel(img, i + 1, j) +
         (1 - a) * b * pixel(img, i, j + 1) + a * b * pixel(img, i + 1, j + 1);
}

int main() {
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      img[y * W + x] = std::sin(x * 0.21f) * std::cos(y * 0.17f) * 100.0f;

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t src, out;
  CHECK(cudaMallocArray(&src, &desc, W, H));
  CHECK(cudaMallocArray(&out, &desc, W, H, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(src, 0, 0, img.data(), W * sizeof(float),
                            W * sizeof(float), H, cudaMemcpyHostToDevice));

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = src;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t linearTex, pointTex;
  CHECK(cudaCreateTextureObject(&linearTex, &res, &td, nullptr));
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
  td.filterMode = cudaFilterModePoint;
  td.normalizedCoords = 0;
  CHECK(cudaCreateTextureObject(&pointTex, &res, &td, nullptr));
  res.res.array.array = out;
  cudaSurfaceObject_t outSurf;
  CHECK(cudaCreateSurfaceObject(&outSurf, &res));

  float *dResized;
  CHECK(cudaMalloc(&dResized, OW * OH * sizeof(float)));
  dim3 block(16, 16);
  resize<<<dim3((OW + 15) / 16, (OH + 15) / 16), block>>>(linearTex, dResized);
  CHECK(cudaGetLastError());
  boxFilter<<<dim3((W + 15) / 16, (H + 15) / 16), block>>>(pointTex, outSurf);
  CHECK(cudaGetLastError());

  std::vector<float> resized(OW * OH), filtered(W * H);
  CHECK(cudaMemcpy(resized.data(), dResized, resized.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(filtered.data(), W * sizeof(float), out, 0, 0,
                              W * sizeof(float), H, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int y = 0; y < OH; ++y)
    for (int x = 0; x < OW; ++x) {
      float want = bilinear(img, (x + 0.5f) / OW, (y + 0.5f) / OH);
      if (std::fabs(resized[y * OW + x] - want) > 1e-3f && bad++ < 5)
        printf("resized (%d, %d): %f, expected %f\n", x, y,
               resized[y * OW + x], want);
    }
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int sx = x + dx, sy = y + dy;
          if (sx >= 0 && sx < W && sy >= 0 && sy < H) // border reads 0
            sum += img[sy * W + sx];
        }
      float want = sum / 9.0f;
      if (std::fabs(filtered[y * W + x] - want) > 1e-3f && bad++ < 10)
        printf("filtered (%d, %d): %f, expected %f\n", x, y,
               filtered[y * W + x], want);
    }

  CHECK(cudaDestroyTextureObject(linearTex));
  CHECK(cudaDestroyTextureObject(pointTex));
  CHECK(cudaDestroySurfaceObject(outSurf));
  CHECK(cudaFreeArray(src));
  CHECK(cudaFreeArray(out));
  CHECK(cudaFree(dResized));
  printf("texture_sampling: %dx%d -> %dx%d resize and 3x3 box filter\n", W, H,
         OW, OH);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
