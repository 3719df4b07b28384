// CUDA arrays, texture objects and surface objects from a real program: an
// image copied into a cudaArray is sampled with point and linear filtering,
// unnormalized and normalized coordinates and every address mode, and the
// results are compared with a host reference computed by the texture
// fetching rules of the CUDA programming guide (linear weights in 9-bit
// fixed point). Also: 8-bit texels read as normalized floats, integer
// texels, tex1Dfetch over linear memory, a pitch-2D resource, a layered
// array, a 3D array filled by cudaMemcpy3D, tex2Dgather, surfaces read and
// written with byte coordinates and boundary modes, and the API's error
// codes. Prints PASS when every check holds. With the argument "trap" a
// surface read outside the array in trap mode must fail the launch with
// cudaErrorIllegalAddress.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "Expect.h"

constexpr int W = 13, H = 7;

static float texel(int x, int y) { return float((x * 7 + y * 13) % 17) + 0.25f * x; }

// --- the host reference -----------------------------------------------------

static int addressIndex(cudaTextureAddressMode m, bool normalized, int i, int n,
                        bool &border) {
  border = false;
  if (!normalized && (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
    m = cudaAddressModeClamp;
  switch (m) {
  case cudaAddressModeWrap:
    return ((i % n) + n) % n;
  case cudaAddressModeMirror: {
    int p = ((i % (2 * n)) + 2 * n) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  case cudaAddressModeBorder:
    border = i < 0 || i >= n;
    return i;
  default:
    return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

static float fetchRef(const std::vector<float> &img, cudaTextureAddressMode m,
                      bool normalized, int i, int j) {
  bool bx, by;
  int x = addressIndex(m, normalized, i, W, bx);
  int y = addressIndex(m, normalized, j, H, by);
  return bx || by ? 0.0f : img[y * W + x];
}

static float sampleRef(const std::vector<float> &img, cudaTextureAddressMode m,
                       bool normalized, bool linear, float u, float v) {
  double x = normalized ? double(u) * W : u, y = normalized ? double(v) * H : v;
  if (!linear) {
    if (normalized && m == cudaAddressModeMirror) {
      // The guide: frac(x) where floor(x) is even, 1 - frac(x) where odd.
      auto mirror = [](double c, int n) {
        double f = c - std::floor(c);
        if (long(std::floor(c)) % 2)
          f = 1 - f;
        int i = int(std::floor(f * n));
        return i < n ? i : n - 1;
      };
      return fetchRef(img, m, true, mirror(u, W), mirror(v, H));
    }
    return fetchRef(img, m, normalized, int(std::floor(x)), int(std::floor(y)));
  }
  // tex(x, y) = (1-a)(1-b)T[i,j] + a(1-b)T[i+1,j] + (1-a)b T[i,j+1] +
  // ab T[i+1,j+1]; xB = x - 0.5, a = frac(xB) in 9-bit fixed point.
  double xb = x - 0.5, yb = y - 0.5;
  int i = int(std::floor(xb)), j = int(std::floor(yb));
  float a = float(std::nearbyint((xb - i) * 256) / 256);
  float b = float(std::nearbyint((yb - j) * 256) / 256);
  return (1 - a) * (1 - b) * fetchRef(img, m, normalized, i, j) +
         a * (1 - b) * fetchRef(img, m, normalized, i + 1, j) +
         (1 - a) * b * fetchRef(img, m, normalized, i, j + 1) +
         a * b * fetchRef(img, m, normalized, i + 1, j + 1);
}

// --- kernels ----------------------------------------------------------------

__global__ void sample2D(cudaTextureObject_t t, const float2 *at, float *out,
                         int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    out[k] = tex2D<float>(t, at[k].x, at[k].y);
}

__global__ void sampleRgba(cudaTextureObject_t t, float4 *out) {
  out[threadIdx.x] = tex2D<float4>(t, threadIdx.x * 0.5f + 0.25f, 0.75f);
}

__global__ void sampleInt(cudaTextureObject_t t, int2 *out) {
  out[threadIdx.x] = tex2D<int2>(t, threadIdx.x + 0.5f, 1.5f);
}

__global__ void fetchLinear(cudaTextureObject_t t, int *out, int n) {
  // Index n + 3 lies outside: border mode reads zero.
  out[threadIdx.x] = tex1Dfetch<int>(t, threadIdx.x == n ? n + 3 : threadIdx.x);
}

__global__ void sampleLayered(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = tex2DLayered<float>(t, 1.5f, 2.5f, threadIdx.x);
}

__global__ void sample3D(cudaTextureObject_t t, float *out) {
  int k = threadIdx.x;
  out[k] = tex3D<float>(t, k % 4 + 0.5f, k / 4 % 3 + 0.5f, k / 12 + 0.5f);
}

__global__ void gather(cudaTextureObject_t t, float4 *out) {
  out[0] = tex2Dgather<float4>(t, 3.0f, 2.0f, 0);
}

__global__ void surfaceDouble(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) {
    unsigned v = surf2Dread<unsigned>(s, x * 4, y);
    surf2Dwrite(v * 2 + 1, s, x * 4, y);
  }
}

__global__ void surfaceEdges(cudaSurfaceObject_t s, int w, unsigned *out) {
  out[0] = surf2Dread<unsigned>(s, w * 4, 0, cudaBoundaryModeZero);
  out[1] = surf2Dread<unsigned>(s, w * 4 + 8, 1, cudaBoundaryModeClamp);
  out[2] = surf2Dread<unsigned>(s, -4, 0, cudaBoundaryModeClamp);
  surf2Dwrite(99u, s, -4, 0, cudaBoundaryModeZero); // dropped
}

__global__ void surfaceTrap(cudaSurfaceObject_t s, int w, unsigned *out) {
  out[0] = surf2Dread<unsigned>(s, w * 4, 0, cudaBoundaryModeTrap);
}

// --- the checks -------------------------------------------------------------

static cudaTextureObject_t makeTexture(cudaArray_t a, cudaTextureAddressMode m,
                                       cudaTextureFilterMode f, bool normalized,
                                       cudaTextureReadMode read =
                                           cudaReadModeElementType) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
  td.filterMode = f;
  td.readMode = read;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

static void imageSampling() {
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      img[y * W + x] = texel(x, y);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &desc, W, H));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, img.data(), W * sizeof(float),
                            W * sizeof(float), H, cudaMemcpyHostToDevice));
  cudaChannelFormatDesc got;
  cudaExtent ext;
  unsigned flags = 77;
  CHECK(cudaArrayGetInfo(&got, &ext, &flags, a));
  EXPECT(got.x == 32 && got.y == 0 && got.f == cudaChannelFormatKindFloat);
  EXPECT(ext.width == W && ext.height == H && ext.depth == 0 && flags == 0);
  CHECK(cudaGetChannelDesc(&got, a));
  EXPECT(got.x == 32);
  // Back out of the array, unchanged.
  std::vector<float> back(W * H, -1);
  CHECK(cudaMemcpy2DFromArray(back.data(), W * sizeof(float), a, 0, 0,
                              W * sizeof(float), H, cudaMemcpyDeviceToHost));
  EXPECT(back == img);

  // Sample points: inside, on texel edges and centres, and outside, at
  // fractions the 9-bit weights round (steps that are no multiple of 1/256).
  std::vector<float2> at;
  for (float v = -1.25f; v < H + 1.5f; v += 0.7371f)
    for (float u = -2.5f; u < W + 2.5f; u += 0.613f)
      at.push_back(make_float2(u, v));
  const int n = int(at.size());
  float2 *dAt;
  float *dOut;
  CHECK(cudaMalloc(&dAt, n * sizeof(float2)));
  CHECK(cudaMalloc(&dOut, n * sizeof(float)));
  std::vector<float> out(n);
  const cudaTextureAddressMode modes[] = {cudaAddressModeWrap,
                                          cudaAddressModeClamp,
                                          cudaAddressModeMirror,
                                          cudaAddressModeBorder};
  for (int normalized = 0; normalized < 2; ++normalized) {
    std::vector<float2> coords = at;
    if (normalized)
      for (float2 &c : coords) // multiples of 1/1024: exact in float
        c = make_float2(std::floor(c.x / W * 1024) / 1024,
                        std::floor(c.y / H * 1024) / 1024);
    CHECK(cudaMemcpy(dAt, coords.data(), n * sizeof(float2),
                     cudaMemcpyHostToDevice));
    for (cudaTextureAddressMode m : modes)
      for (cudaTextureFilterMode f : {cudaFilterModePoint, cudaFilterModeLinear}) {
        cudaTextureObject_t t = makeTexture(a, m, f, normalized);
        sample2D<<<(n + 63) / 64, 64>>>(t, dAt, dOut, n);
        CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(float),
                         cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int k = 0; k < n; ++k) {
          float want = sampleRef(img, m, normalized, f == cudaFilterModeLinear,
                                 coords[k].x, coords[k].y);
          if (std::fabs(out[k] - want) > 1e-4f * (1 + std::fabs(want)) &&
              bad++ < 3)
            printf("mode %d filter %d normalized %d at (%g, %g): %g, "
                   "expected %g\n",
                   int(m), int(f), normalized, coords[k].x, coords[k].y,
                   out[k], want);
        }
        failures += bad;
        CHECK(cudaDestroyTextureObject(t));
      }
  }
  // What a texture object was made from comes back.
  cudaTextureObject_t t =
      makeTexture(a, cudaAddressModeMirror, cudaFilterModeLinear, true);
  cudaResourceDesc res;
  cudaTextureDesc td;
  CHECK(cudaGetTextureObjectResourceDesc(&res, t));
  CHECK(cudaGetTextureObjectTextureDesc(&td, t));
  EXPECT(res.resType == cudaResourceTypeArray && res.res.array.array == a);
  EXPECT(td.addressMode[1] == cudaAddressModeMirror &&
         td.filterMode == cudaFilterModeLinear && td.normalizedCoords == 1);
  CHECK(cudaDestroyTextureObject(t));
  EXPECT_ERR(cudaDestroyTextureObject(t), cudaErrorInvalidValue);
  EXPECT_ERR(cudaGetTextureObjectTextureDesc(&td, t), cudaErrorInvalidValue);

  // tex2Dgather: component x of the four texels around (3, 2).
  float4 *dG;
  CHECK(cudaMalloc(&dG, sizeof(float4)));
  t = makeTexture(a, cudaAddressModeClamp, cudaFilterModePoint, false);
  gather<<<1, 1>>>(t, dG);
  float4 g;
  CHECK(cudaMemcpy(&g, dG, sizeof(g), cudaMemcpyDeviceToHost));
  EXPECT(g.x == texel(2, 2) && g.y == texel(3, 2) && g.z == texel(3, 1) &&
         g.w == texel(2, 1));
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(dG));
  CHECK(cudaFree(dAt));
  CHECK(cudaFree(dOut));
  CHECK(cudaFreeArray(a));
  EXPECT_ERR(cudaFreeArray(a), cudaErrorInvalidValue);
}

static void formats() {
  // uchar4 read as normalized floats, linearly filtered along x.
  const int n = 6;
  unsigned char rgba[n * 4];
  for (int k = 0; k < n * 4; ++k)
    rgba[k] = (unsigned char)(k * 37 % 256);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, n, 1));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, rgba, sizeof(rgba), sizeof(rgba), 1,
                            cudaMemcpyHostToDevice));
  cudaTextureObject_t t = makeTexture(a, cudaAddressModeClamp,
                                      cudaFilterModeLinear, false,
                                      cudaReadModeNormalizedFloat);
  float4 *dOut, out[n];
  CHECK(cudaMalloc(&dOut, sizeof(out)));
  sampleRgba<<<1, n>>>(t, dOut);
  CHECK(cudaMemcpy(out, dOut, sizeof(out), cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    // x = k/2 + 1/4: xB = x - 1/2; both are exact, so is a.
    double xb = k * 0.5 + 0.25 - 0.5;
    int i = int(std::floor(xb));
    float w = float(xb - i);
    int i0 = i < 0 ? 0 : i, i1 = i + 1 > n - 1 ? n - 1 : i + 1;
    const float *o = &out[k].x;
    for (int c = 0; c < 4; ++c) {
      float want = (1 - w) * rgba[i0 * 4 + c] / 255.0f + w * rgba[i1 * 4 + c] / 255.0f;
      if (std::fabs(o[c] - want) > 1e-5f) {
        printf("rgba texel %d channel %d: %g, expected %g\n", k, c, o[c], want);
        ++failures;
      }
    }
  }
  CHECK(cudaDestroyTextureObject(t));
  // Linear filtering of integers read as integers is refused.
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModeLinear;
  EXPECT_ERR(cudaCreateTextureObject(&t, &res, &td, nullptr),
             cudaErrorInvalidValue);
  CHECK(cudaFreeArray(a));

  // short2 texels read as integers: signed values sign-extended.
  short2 s[4 * 2];
  for (int k = 0; k < 8; ++k)
    s[k] = make_short2(short(-1000 * k - 7), short(k * 3));
  desc = cudaCreateChannelDesc<short2>();
  CHECK(cudaMallocArray(&a, &desc, 4, 2));
  CHECK(cudaMemcpyToArray(a, 0, 0, s, sizeof(s), cudaMemcpyHostToDevice));
  t = makeTexture(a, cudaAddressModeClamp, cudaFilterModePoint, false);
  int2 *dI, gotI[4];
  CHECK(cudaMalloc(&dI, sizeof(gotI)));
  sampleInt<<<1, 4>>>(t, dI);
  CHECK(cudaMemcpy(gotI, dI, sizeof(gotI), cudaMemcpyDeviceToHost));
  for (int k = 0; k < 4; ++k)
    EXPECT(gotI[k].x == s[4 + k].x && gotI[k].y == s[4 + k].y);
  short2 back[8];
  CHECK(cudaMemcpyFromArray(back, a, 0, 0, sizeof(back),
                            cudaMemcpyDeviceToHost));
  EXPECT(memcmp(back, s, sizeof(s)) == 0);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(dI));
  CHECK(cudaFree(dOut));
}

static void linearAndPitched() {
  // tex1Dfetch over linear memory, border mode.
  const int n = 40;
  int host[n];
  for (int k = 0; k < n; ++k)
    host[k] = k * k - 5;
  int *dLin, *dOut, out[n + 1];
  CHECK(cudaMalloc(&dLin, sizeof(host)));
  CHECK(cudaMalloc(&dOut, sizeof(out)));
  CHECK(cudaMemcpy(dLin, host, sizeof(host), cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = dLin;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = sizeof(host);
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeBorder;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  fetchLinear<<<1, n + 1>>>(t, dOut, n);
  CHECK(cudaMemcpy(out, dOut, sizeof(out), cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k)
    EXPECT(out[k] == host[k]);
  EXPECT(out[n] == 0);
  CHECK(cudaDestroyTextureObject(t));
  // A linear resource that declares more than its allocation holds is
  // accepted, as CUDA accepts it (convolutionFFT2D does this); it ends
  // with the allocation, so the fetch past it reads the border.
  res.res.linear.sizeInBytes = sizeof(host) + 4096;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  fetchLinear<<<1, n + 1>>>(t, dOut, n);
  CHECK(cudaMemcpy(out, dOut, sizeof(out), cudaMemcpyDeviceToHost));
  EXPECT(out[n - 1] == host[n - 1]);
  EXPECT(out[n] == 0);
  CHECK(cudaDestroyTextureObject(t));
  // One that starts outside any allocation is refused.
  res.res.linear.devPtr = host;
  res.res.linear.sizeInBytes = sizeof(host);
  EXPECT_ERR(cudaCreateTextureObject(&t, &res, &td, nullptr),
             cudaErrorInvalidValue);

  // A pitch-2D resource over cudaMallocPitch memory, point sampled.
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      img[y * W + x] = texel(x, y);
  float *dImg;
  size_t pitch;
  CHECK(cudaMallocPitch(&dImg, &pitch, W * sizeof(float), H));
  CHECK(cudaMemcpy2D(dImg, pitch, img.data(), W * sizeof(float),
                     W * sizeof(float), H, cudaMemcpyHostToDevice));
  res = {};
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = dImg;
  res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  res.res.pitch2D.width = W;
  res.res.pitch2D.height = H;
  res.res.pitch2D.pitchInBytes = pitch;
  td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  float2 at[3] = {make_float2(4.5f, 3.5f), make_float2(-3, 1.5f),
                  make_float2(12.9f, 100)};
  float2 *dAt;
  float *dF, f[3];
  CHECK(cudaMalloc(&dAt, sizeof(at)));
  CHECK(cudaMalloc(&dF, sizeof(f)));
  CHECK(cudaMemcpy(dAt, at, sizeof(at), cudaMemcpyHostToDevice));
  sample2D<<<1, 3>>>(t, dAt, dF, 3);
  CHECK(cudaMemcpy(f, dF, sizeof(f), cudaMemcpyDeviceToHost));
  EXPECT(f[0] == texel(4, 3) && f[1] == texel(0, 1) && f[2] == texel(12, H - 1));
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(dAt));
  CHECK(cudaFree(dF));
  CHECK(cudaFree(dImg));
  CHECK(cudaFree(dLin));
  CHECK(cudaFree(dOut));
}

static void layeredAnd3D() {
  // Four layers of 3x4, each layer's texels offset by 1000 * layer.
  const int lw = 3, lh = 4, layers = 4;
  float host[layers][lh][lw];
  for (int l = 0; l < layers; ++l)
    for (int y = 0; y < lh; ++y)
      for (int x = 0; x < lw; ++x)
        host[l][y][x] = 1000.0f * l + 10 * y + x;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(lw, lh, layers),
                          cudaArrayLayered));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, lw * sizeof(float), lw, lh);
  p.dstArray = a;
  p.extent = make_cudaExtent(lw, lh, layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaTextureObject_t t =
      makeTexture(a, cudaAddressModeClamp, cudaFilterModePoint, false);
  float *dOut, out[layers + 1];
  CHECK(cudaMalloc(&dOut, sizeof(out)));
  sampleLayered<<<1, layers + 1>>>(t, dOut);
  CHECK(cudaMemcpy(out, dOut, sizeof(out), cudaMemcpyDeviceToHost));
  for (int l = 0; l < layers; ++l)
    EXPECT(out[l] == host[l][2][1]);
  EXPECT(out[layers] == host[layers - 1][2][1]); // the layer is clamped
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));

  // A 4x3x2 volume, copied in by cudaMemcpy3D and out again at an offset.
  float vol[2][3][4];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        vol[z][y][x] = 100.0f * z + 10 * y + x;
  CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 3, 2)));
  p = {};
  p.srcPtr = make_cudaPitchedPtr(vol, 4 * sizeof(float), 4, 3);
  p.dstArray = a;
  p.extent = make_cudaExtent(4, 3, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  t = makeTexture(a, cudaAddressModeClamp, cudaFilterModePoint, false);
  float *d3, got[24];
  CHECK(cudaMalloc(&d3, sizeof(got)));
  sample3D<<<1, 24>>>(t, d3);
  CHECK(cudaMemcpy(got, d3, sizeof(got), cudaMemcpyDeviceToHost));
  for (int k = 0; k < 24; ++k)
    EXPECT(got[k] == vol[k / 12][k / 4 % 3][k % 4]);
  float part[2][2] = {};
  p = {};
  p.srcArray = a;
  p.srcPos = make_cudaPos(1, 1, 1); // elements
  p.dstPtr = make_cudaPitchedPtr(part, 2 * sizeof(float), 2, 2);
  p.extent = make_cudaExtent(2, 2, 1);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  EXPECT(part[0][0] == vol[1][1][1] && part[1][1] == vol[1][2][2]);
  p.srcPos = make_cudaPos(3, 1, 1); // runs past the array's width
  EXPECT_ERR(cudaMemcpy3D(&p), cudaErrorInvalidValue);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(dOut));
  CHECK(cudaFree(d3));
}

static cudaSurfaceObject_t surfaceFor(cudaArray_t a) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &res));
  return s;
}

static void surfaces() {
  const int sw = 9, sh = 5;
  unsigned host[sh][sw];
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      host[y][x] = 100u * y + x;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, sw, sh, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, host, sizeof(host[0]), sizeof(host[0]),
                            sh, cudaMemcpyHostToDevice));
  cudaSurfaceObject_t s = surfaceFor(a);
  surfaceDouble<<<sh, 32>>>(s, sw, sh);
  CHECK(cudaGetLastError());
  unsigned *dEdge, edge[3];
  CHECK(cudaMalloc(&dEdge, sizeof(edge)));
  surfaceEdges<<<1, 1>>>(s, sw, dEdge);
  CHECK(cudaMemcpy(edge, dEdge, sizeof(edge), cudaMemcpyDeviceToHost));
  unsigned back[sh][sw];
  CHECK(cudaMemcpy2DFromArray(back, sizeof(back[0]), a, 0, 0, sizeof(back[0]),
                              sh, cudaMemcpyDeviceToHost));
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      EXPECT(back[y][x] == host[y][x] * 2 + 1);
  EXPECT(edge[0] == 0);                       // .zero outside
  EXPECT(edge[1] == host[1][sw - 1] * 2 + 1); // clamped to the last column
  EXPECT(edge[2] == host[0][0] * 2 + 1);      // clamped to the first
  cudaResourceDesc res;
  CHECK(cudaGetSurfaceObjectResourceDesc(&res, s));
  EXPECT(res.res.array.array == a);
  CHECK(cudaDestroySurfaceObject(s));
  EXPECT_ERR(cudaDestroySurfaceObject(s), cudaErrorInvalidValue);
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(dEdge));

  // Surfaces need arrays made for them.
  CHECK(cudaMallocArray(&a, &desc, sw, sh));
  res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  EXPECT_ERR(cudaCreateSurfaceObject(&s, &res), cudaErrorInvalidValue);
  CHECK(cudaFreeArray(a));
}

static void errors() {
  cudaArray_t a = nullptr;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  EXPECT_ERR(cudaMallocArray(&a, nullptr, 4, 4), cudaErrorInvalidValue);
  EXPECT_ERR(cudaMallocArray(nullptr, &desc, 4, 4), cudaErrorInvalidValue);
  EXPECT_ERR(cudaMallocArray(&a, &desc, 0, 4), cudaErrorInvalidValue);
  cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0,
                                                      cudaChannelFormatKindUnsigned);
  EXPECT_ERR(cudaMallocArray(&a, &three, 4, 4), cudaErrorInvalidValue);
  cudaChannelFormatDesc mixed = cudaCreateChannelDesc(8, 16, 0, 0,
                                                      cudaChannelFormatKindUnsigned);
  EXPECT_ERR(cudaMallocArray(&a, &mixed, 4, 4), cudaErrorInvalidValue);
  EXPECT_ERR(cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 4, 0),
                               cudaArraySparse),
             cudaErrorNotSupported);
  EXPECT_ERR(cudaFreeArray(nullptr), cudaSuccess);
  cudaTextureObject_t t;
  cudaTextureDesc td = {};
  EXPECT_ERR(cudaCreateTextureObject(&t, nullptr, &td, nullptr),
             cudaErrorInvalidValue);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  EXPECT_ERR(cudaCreateTextureObject(&t, &res, &td, nullptr),
             cudaErrorInvalidValue); // no array
  CHECK(cudaMallocArray(&a, &desc, 4, 4));
  res.res.array.array = a;
  EXPECT_ERR(cudaCreateTextureObject(&t, &res, nullptr, nullptr),
             cudaErrorInvalidValue);
  float row[8] = {};
  EXPECT_ERR(cudaMemcpy2DToArray(a, 4, 0, row, sizeof(row), 16, 1,
                                 cudaMemcpyHostToDevice),
             cudaErrorInvalidValue); // past the row
  EXPECT_ERR(cudaMemcpy2DToArray(a, 0, 4, row, sizeof(row), 16, 1,
                                 cudaMemcpyHostToDevice),
             cudaErrorInvalidValue); // past the last row
  CHECK(cudaFreeArray(a));
  EXPECT_ERR(cudaMemcpy2DToArray(a, 0, 0, row, sizeof(row), 16, 1,
                                 cudaMemcpyHostToDevice),
             cudaErrorInvalidValue); // a freed array
  EXPECT_ERR(cudaArrayGetInfo(&desc, nullptr, nullptr, a),
             cudaErrorInvalidValue);
}

static int trap() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, 4, 4, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s = surfaceFor(a);
  unsigned *d;
  CHECK(cudaMalloc(&d, 4));
  surfaceTrap<<<1, 1>>>(s, 4, d);
  EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  if (failures)
    printf("FAIL (%d)\n", failures);
  else
    printf("PASS\n");
  return failures != 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "trap") == 0)
    return trap();
  imageSampling();
  formats();
  linearAndPitched();
  layeredAnd3D();
  surfaces();
  errors();
  if (failures) {
    printf("FAIL (%d)\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
