// Cube-map textures and surfaces from a real program: a cudaArrayCubemap
// array and a layered one (cudaArrayCubemap | cudaArrayLayered) filled by
// cudaMemcpy3D with the faces as layers, sampled by texCubemap and
// texCubemapLayered (and their Lod and Grad forms) along directions that hit
// every face, its edges and its corners, with point and linear filtering
// and every address mode. The results are compared with a host reference
// that projects each direction by the CUDA programming guide's cubemap
// table and samples the face by its texture fetching rules; face centres,
// NVIDIA's simpleCubemapTexture lookups, and seamless filtering across a
// face edge are checked against values written out by hand. Also: integer
// texels, surfCubemap and surfCubemapLayered reads and writes, the arrays'
// info, partial copies of one face, the device attributes of cube maps and
// the errors of badly shaped cube-map arrays. Prints PASS when every check
// holds.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "Expect.h"

constexpr int N = 6;     // the face size
constexpr int Cubes = 3; // in the layered array

// Layer l (face l % 6 of cube l / 6) holds 100 l + 10 y + x at (x, y).
static float texel(int layer, int x, int y) {
  return float(100 * layer + 10 * y + x);
}

// --- the host reference -----------------------------------------------------

struct FaceCoord {
  int face;
  float u, v;
};

// The CUDA programming guide's "Cubemap Fetch" table: the component of
// largest magnitude m picks the face, addressed at ((s/m+1)/2, (t/m+1)/2).
// The table leaves ties open; cuhip gives them to z, then y.
static FaceCoord project(float x, float y, float z) {
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  int face;
  float m, s, t;
  if (ax > ay && ax > az) {
    face = x >= 0 ? 0 : 1;
    m = ax;
    s = x >= 0 ? -z : z;
    t = -y;
  } else if (ay > az) {
    face = y >= 0 ? 2 : 3;
    m = ay;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az;
    s = z >= 0 ? x : -x;
    t = -y;
  }
  return {face, (s / m + 1) / 2, (t / m + 1) / 2};
}

// The direction through (s, t) of a face: the table solved with m = 1.
static float3 direction(int face, float s, float t) {
  switch (face) {
  case 0:
    return make_float3(1, -t, -s);
  case 1:
    return make_float3(-1, -t, s);
  case 2:
    return make_float3(s, 1, t);
  case 3:
    return make_float3(s, -1, -t);
  case 4:
    return make_float3(s, -t, 1);
  default:
    return make_float3(-s, -t, -1);
  }
}

static float fetchRef(int layer, cudaTextureAddressMode m, int i, int j) {
  auto address = [&](int k, bool &outside) {
    outside = false;
    switch (m) {
    case cudaAddressModeWrap:
      return ((k % N) + N) % N;
    case cudaAddressModeMirror: {
      int p = ((k % (2 * N)) + 2 * N) % (2 * N);
      return p < N ? p : 2 * N - 1 - p;
    }
    case cudaAddressModeBorder:
      outside = k < 0 || k >= N;
      return k;
    default:
      return k < 0 ? 0 : k >= N ? N - 1 : k;
    }
  };
  bool bx, by;
  int x = address(i, bx), y = address(j, by);
  return bx || by ? 0.0f : texel(layer, x, y);
}

// The face sampled at normalized (u, v) by the texture fetching rules.
static float sampleRef(int layer, cudaTextureAddressMode m, bool linear,
                       float u, float v) {
  double x = double(u) * N, y = double(v) * N;
  if (!linear) {
    if (m == cudaAddressModeMirror) {
      auto mirror = [](double c) {
        double f = c - std::floor(c);
        if (long(std::floor(c)) % 2)
          f = 1 - f;
        int i = int(std::floor(f * N));
        return i < N ? i : N - 1;
      };
      return fetchRef(layer, m, mirror(u), mirror(v));
    }
    return fetchRef(layer, m, int(std::floor(x)), int(std::floor(y)));
  }
  double xb = x - 0.5, yb = y - 0.5;
  int i = int(std::floor(xb)), j = int(std::floor(yb));
  float a = float(std::nearbyint((xb - i) * 256) / 256);
  float b = float(std::nearbyint((yb - j) * 256) / 256);
  return (1 - a) * (1 - b) * fetchRef(layer, m, i, j) +
         a * (1 - b) * fetchRef(layer, m, i + 1, j) +
         (1 - a) * b * fetchRef(layer, m, i, j + 1) +
         a * b * fetchRef(layer, m, i + 1, j + 1);
}

static bool near(float got, float want) {
  return std::fabs(got - want) <= 1e-4f * (1 + std::fabs(want));
}

// --- kernels ----------------------------------------------------------------

// dirs[k].w is the cube of a layered texture.
__global__ void sampleCube(cudaTextureObject_t t, const float4 *dirs,
                           float *out, int n, bool layered) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n)
    return;
  float4 d = dirs[k];
  out[k] = layered ? texCubemapLayered<float>(t, d.x, d.y, d.z, int(d.w))
                   : texCubemap<float>(t, d.x, d.y, d.z);
}

// The Lod and Grad forms read level 0: there are no mipmaps.
__global__ void sampleLevels(cudaTextureObject_t cube,
                             cudaTextureObject_t layered, const float4 *dirs,
                             float *out, int n) {
  int k = threadIdx.x;
  if (k >= n)
    return;
  float4 d = dirs[k];
  float4 dx = make_float4(0.1f, 0, 0, 0), dy = make_float4(0, 0.1f, 0, 0);
  out[4 * k] = texCubemapLod<float>(cube, d.x, d.y, d.z, 1.5f);
  out[4 * k + 1] = texCubemapGrad<float>(cube, d.x, d.y, d.z, dx, dy);
  out[4 * k + 2] =
      texCubemapLayeredLod<float>(layered, d.x, d.y, d.z, int(d.w), 2.0f);
  out[4 * k + 3] =
      texCubemapLayeredGrad<float>(layered, d.x, d.y, d.z, int(d.w), dx, dy);
}

__global__ void sampleBytes(cudaTextureObject_t t, const float4 *dirs,
                            uchar4 *out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    out[k] = texCubemap<uchar4>(t, dirs[k].x, dirs[k].y, dirs[k].z);
}

// Each block is one face (of a cube, for the layered array): every element
// becomes 2 v + 1 + the layer.
__global__ void surfaceFaces(cudaSurfaceObject_t s, int cube, bool layered) {
  int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
  if (layered) {
    int layer = face + 6 * cube;
    float v = surfCubemapLayeredread<float>(s, x * 4, y, layer);
    surfCubemapLayeredwrite(2 * v + 1 + layer, s, x * 4, y, layer);
  } else {
    float v = surfCubemapread<float>(s, x * 4, y, face);
    surfCubemapwrite(2 * v + 1 + face, s, x * 4, y, face);
  }
}

// --- the checks -------------------------------------------------------------

static cudaArray_t
makeCube(int layers, unsigned flags,
         cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>()) {
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(N, N, layers), flags));
  return a;
}

static void fill(cudaArray_t a, int layers) {
  std::vector<float> host(size_t(N) * N * layers);
  for (int l = 0; l < layers; ++l)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x)
        host[(size_t(l) * N + y) * N + x] = texel(l, x, y);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host.data(), N * sizeof(float), N, N);
  p.dstArray = a;
  p.extent = make_cudaExtent(N, N, layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
}

static cudaTextureObject_t
makeTexture(cudaArray_t a, cudaTextureAddressMode m, cudaTextureFilterMode f,
            bool seamless = false,
            cudaTextureReadMode read = cudaReadModeElementType) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
  td.filterMode = f;
  td.readMode = read;
  td.normalizedCoords = 1;
  td.seamlessCubemap = seamless;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

static std::vector<float> run(cudaTextureObject_t t,
                              const std::vector<float4> &dirs, bool layered) {
  int n = int(dirs.size());
  float4 *dDirs;
  float *dOut;
  CHECK(cudaMalloc(&dDirs, n * sizeof(float4)));
  CHECK(cudaMalloc(&dOut, n * sizeof(float)));
  CHECK(cudaMemcpy(dDirs, dirs.data(), n * sizeof(float4),
                   cudaMemcpyHostToDevice));
  sampleCube<<<(n + 63) / 64, 64>>>(t, dDirs, dOut, n, layered);
  CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CHECK(
      cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dDirs));
  CHECK(cudaFree(dOut));
  return out;
}

// Directions over every face: a grid of face coordinates from edge to edge
// (the edges and corners themselves, where two or three components tie,
// and just inside them), at several lengths, plus scattered directions.
static std::vector<float4> directions(int cubes) {
  const float st[] = {-1.0f, -0.999f, -0.9f,  -0.37f, 0.0f,
                      0.2f,  0.55f,   0.999f, 1.0f};
  const float lengths[] = {1.0f, 2.5f, 0.3f};
  std::vector<float4> dirs;
  int k = 0;
  for (int face = 0; face < 6; ++face)
    for (float s : st)
      for (float t : st) {
        float3 d = direction(face, s, t);
        float len = lengths[k % 3];
        dirs.push_back(
            make_float4(d.x * len, d.y * len, d.z * len, float(k % cubes)));
        ++k;
      }
  unsigned seed = 12345;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return float(int(seed >> 8) % 20001 - 10000) / 4096.0f;
  };
  for (int i = 0; i < 300; ++i) {
    float x = next(), y = next(), z = next();
    dirs.push_back(make_float4(x, y, z, float(i % cubes)));
  }
  return dirs;
}

static const cudaTextureAddressMode modes[] = {
    cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
    cudaAddressModeBorder};

static void compare(const char *what, cudaTextureObject_t t,
                    const std::vector<float4> &dirs, bool layered,
                    cudaTextureAddressMode m, bool linear) {
  std::vector<float> out = run(t, dirs, layered);
  int bad = 0;
  std::vector<int> faces(6);
  for (size_t k = 0; k < dirs.size(); ++k) {
    FaceCoord c = project(dirs[k].x, dirs[k].y, dirs[k].z);
    ++faces[c.face];
    int layer = c.face + (layered ? 6 * int(dirs[k].w) : 0);
    float want = sampleRef(layer, m, linear, c.u, c.v);
    if (!near(out[k], want) && bad++ < 3)
      printf("%s mode %d filter %d at (%g, %g, %g) cube %g: %g, expected "
             "%g\n",
             what, int(m), int(linear), dirs[k].x, dirs[k].y, dirs[k].z,
             dirs[k].w, out[k], want);
  }
  failures += bad;
  for (int f = 0; f < 6; ++f)
    EXPECT(faces[f] > 40); // every face is hit, by many directions
}

static void cubeSampling() {
  cudaArray_t a = makeCube(6, cudaArrayCubemap);
  fill(a, 6);
  cudaChannelFormatDesc got;
  cudaExtent ext;
  unsigned flags = 0;
  CHECK(cudaArrayGetInfo(&got, &ext, &flags, a));
  EXPECT(ext.width == N && ext.height == N && ext.depth == 6);
  EXPECT(flags == cudaArrayCubemap);
  EXPECT(got.x == 32 && got.f == cudaChannelFormatKindFloat);

  std::vector<float4> dirs = directions(1);
  for (cudaTextureAddressMode m : modes)
    for (bool linear : {false, true}) {
      cudaTextureObject_t t = makeTexture(
          a, m, linear ? cudaFilterModeLinear : cudaFilterModePoint);
      compare("cube", t, dirs, false, m, linear);
      CHECK(cudaDestroyTextureObject(t));
    }

  // The centre of each face, written out: +X, -X, +Y, -Y, +Z, -Z are
  // layers 0 to 5, and the centre of a face of even size is texel N / 2.
  std::vector<float4> centres = {
      make_float4(1, 0, 0, 0), make_float4(-2, 0, 0, 0),
      make_float4(0, 3, 0, 0), make_float4(0, -0.5f, 0, 0),
      make_float4(0, 0, 1, 0), make_float4(0, 0, -7, 0),
      // Off centre: +X at s = -z = 0.5, t = -y = -0.5; -Z at s = -x =
      // -0.5, t = -y = 0.5.
      make_float4(1, 0.5f, -0.5f, 0), make_float4(0.5f, -0.5f, -1, 0)};
  cudaTextureObject_t point =
      makeTexture(a, cudaAddressModeClamp, cudaFilterModePoint);
  std::vector<float> out = run(point, centres, false);
  for (int f = 0; f < 6; ++f)
    EXPECT(out[f] == texel(f, N / 2, N / 2));
  EXPECT(out[6] == texel(0, 3 * N / 4, N / 4));
  EXPECT(out[7] == texel(5, N / 4, 3 * N / 4));

  // NVIDIA's simpleCubemapTexture: the direction through each texel's
  // centre, linearly filtered, reads that texel.
  std::vector<float4> through;
  for (int face = 0; face < 6; ++face)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) {
        float u = (x + 0.5f) / N * 2 - 1, v = (y + 0.5f) / N * 2 - 1;
        float3 d = face == 0   ? make_float3(1, -v, -u)
                   : face == 1 ? make_float3(-1, -v, u)
                   : face == 2 ? make_float3(u, 1, v)
                   : face == 3 ? make_float3(u, -1, -v)
                   : face == 4 ? make_float3(u, -v, 1)
                               : make_float3(-u, -v, -1);
        through.push_back(make_float4(d.x, d.y, d.z, 0));
      }
  cudaTextureObject_t linear =
      makeTexture(a, cudaAddressModeWrap, cudaFilterModeLinear);
  out = run(linear, through, false);
  for (int k = 0; k < 6 * N * N; ++k)
    if (!near(out[k], texel(k / (N * N), k % N, k / N % N)) && failures++ < 3)
      printf("through texel %d: %g\n", k, out[k]);

  // Seamless filtering ignores the address mode (wrap here): point
  // sampling clamps, and linear filtering at a face's edge takes the
  // texels beyond it from the next face. The left edge of +Z (s = -1) is
  // the right edge of -X (s = 1), row for row.
  cudaTextureObject_t seamPoint =
      makeTexture(a, cudaAddressModeWrap, cudaFilterModePoint, true);
  cudaTextureObject_t seamLinear =
      makeTexture(a, cudaAddressModeWrap, cudaFilterModeLinear, true);
  cudaTextureDesc td;
  CHECK(cudaGetTextureObjectTextureDesc(&td, seamLinear));
  EXPECT(td.seamlessCubemap == 1);
  const int j = 2;
  float t = (j + 0.5f) / N * 2 - 1; // row j's centre
  float s = 0.5f / N - 1;           // a quarter texel inside the edge
  std::vector<float4> edge = {make_float4(-1, -t, 1, 0), // on the edge
                              make_float4(s, -t, 1, 0),
                              make_float4(1, 0, 1, 0)}; // +Z at s = 1
  out = run(seamLinear, edge, false);
  float left = texel(4, 0, j), right = texel(1, N - 1, j);
  EXPECT(near(out[0], 0.5f * left + 0.5f * right));
  EXPECT(near(out[1], 0.75f * left + 0.25f * right));
  out = run(seamPoint, edge, false);
  EXPECT(out[2] == texel(4, N - 1, N / 2)); // clamped, not wrapped to 0
  // Without seamless filtering the edge is this face's own (wrap).
  out = run(linear, edge, false);
  EXPECT(near(out[0], 0.5f * left + 0.5f * texel(4, N - 1, j)));

  for (cudaTextureObject_t o : {point, linear, seamPoint, seamLinear})
    CHECK(cudaDestroyTextureObject(o));

  // One face back out: face 3 alone, by a partial cudaMemcpy3D.
  std::vector<float> face3(N * N, -1);
  cudaMemcpy3DParms p = {};
  p.srcArray = a;
  p.srcPos = make_cudaPos(0, 0, 3);
  p.dstPtr = make_cudaPitchedPtr(face3.data(), N * sizeof(float), N, N);
  p.extent = make_cudaExtent(N, N, 1);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  for (int k = 0; k < N * N; ++k)
    EXPECT(face3[k] == texel(3, k % N, k / N));
  CHECK(cudaFreeArray(a));
}

static void layeredSampling() {
  cudaArray_t a = makeCube(6 * Cubes, cudaArrayCubemap | cudaArrayLayered);
  fill(a, 6 * Cubes);
  cudaExtent ext;
  unsigned flags = 0;
  CHECK(cudaArrayGetInfo(nullptr, &ext, &flags, a));
  EXPECT(ext.width == N && ext.height == N && ext.depth == 6 * Cubes);
  EXPECT(flags == (cudaArrayCubemap | cudaArrayLayered));
  std::vector<float4> dirs = directions(Cubes);
  for (cudaTextureAddressMode m : modes)
    for (bool linear : {false, true}) {
      cudaTextureObject_t t = makeTexture(
          a, m, linear ? cudaFilterModeLinear : cudaFilterModePoint);
      compare("layered", t, dirs, true, m, linear);
      CHECK(cudaDestroyTextureObject(t));
    }

  // The Lod and Grad forms, of both kinds, read the base level.
  cudaArray_t single = makeCube(6, cudaArrayCubemap);
  fill(single, 6);
  cudaTextureObject_t cube =
      makeTexture(single, cudaAddressModeClamp, cudaFilterModeLinear);
  cudaTextureObject_t layered =
      makeTexture(a, cudaAddressModeClamp, cudaFilterModeLinear);
  const int n = 32;
  float4 *dDirs;
  float *dOut;
  CHECK(cudaMalloc(&dDirs, n * sizeof(float4)));
  CHECK(cudaMalloc(&dOut, 4 * n * sizeof(float)));
  CHECK(cudaMemcpy(dDirs, dirs.data() + 40, n * sizeof(float4),
                   cudaMemcpyHostToDevice));
  sampleLevels<<<1, n>>>(cube, layered, dDirs, dOut, n);
  std::vector<float> out(4 * n);
  CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    const float4 &d = dirs[40 + k];
    FaceCoord c = project(d.x, d.y, d.z);
    float one = sampleRef(c.face, cudaAddressModeClamp, true, c.u, c.v);
    float many =
        sampleRef(c.face + 6 * int(d.w), cudaAddressModeClamp, true, c.u, c.v);
    EXPECT(near(out[4 * k], one) && near(out[4 * k + 1], one));
    EXPECT(near(out[4 * k + 2], many) && near(out[4 * k + 3], many));
  }
  CHECK(cudaDestroyTextureObject(cube));
  CHECK(cudaDestroyTextureObject(layered));
  CHECK(cudaFree(dDirs));
  CHECK(cudaFree(dOut));
  CHECK(cudaFreeArray(single));
  CHECK(cudaFreeArray(a));
}

static void integerTexels() {
  cudaArray_t a =
      makeCube(6, cudaArrayCubemap, cudaCreateChannelDesc<uchar4>());
  std::vector<uchar4> host(6 * N * N);
  for (int k = 0; k < 6 * N * N; ++k)
    host[k] = make_uchar4(k % 251, k / N, 200 + k / (N * N), 7);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host.data(), N * sizeof(uchar4), N, N);
  p.dstArray = a;
  p.extent = make_cudaExtent(N, N, 6);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  std::vector<float4> dirs = directions(1);
  cudaTextureObject_t t =
      makeTexture(a, cudaAddressModeClamp, cudaFilterModePoint);
  float4 *dDirs;
  uchar4 *dOut;
  int n = int(dirs.size());
  CHECK(cudaMalloc(&dDirs, n * sizeof(float4)));
  CHECK(cudaMalloc(&dOut, n * sizeof(uchar4)));
  CHECK(cudaMemcpy(dDirs, dirs.data(), n * sizeof(float4),
                   cudaMemcpyHostToDevice));
  sampleBytes<<<(n + 63) / 64, 64>>>(t, dDirs, dOut, n);
  std::vector<uchar4> out(n);
  CHECK(
      cudaMemcpy(out.data(), dOut, n * sizeof(uchar4), cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    FaceCoord c = project(dirs[k].x, dirs[k].y, dirs[k].z);
    int x = std::min(int(std::floor(double(c.u) * N)), N - 1);
    int y = std::min(int(std::floor(double(c.v) * N)), N - 1);
    uchar4 want = host[(c.face * N + y) * N + x];
    EXPECT(out[k].x == want.x && out[k].y == want.y && out[k].z == want.z &&
           out[k].w == want.w);
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(dDirs));
  CHECK(cudaFree(dOut));
  CHECK(cudaFreeArray(a));
}

static void surfaces() {
  for (bool layered : {false, true}) {
    int layers = layered ? 6 * Cubes : 6;
    cudaArray_t a =
        makeCube(layers, cudaArrayCubemap | cudaArraySurfaceLoadStore |
                             (layered ? cudaArrayLayered : 0));
    fill(a, layers);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &res));
    // The single cube map, or cube 1 of the layered one.
    surfaceFaces<<<6, dim3(N, N)>>>(s, 1, layered);
    CHECK(cudaGetLastError());
    std::vector<float> back(size_t(N) * N * layers);
    cudaMemcpy3DParms p = {};
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(back.data(), N * sizeof(float), N, N);
    p.extent = make_cudaExtent(N, N, layers);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    int bad = 0;
    for (int l = 0; l < layers; ++l)
      for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) {
          float v = texel(l, x, y);
          bool written = !layered || l / 6 == 1;
          float want = written ? 2 * v + 1 + l : v;
          if (back[(size_t(l) * N + y) * N + x] != want && bad++ < 3)
            printf("surface layered %d layer %d (%d, %d): %g, expected %g\n",
                   int(layered), l, x, y, back[(size_t(l) * N + y) * N + x],
                   want);
        }
    failures += bad;
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
  }
}

static void attributesAndErrors() {
  int v = 0;
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTextureCubemapWidth, 0));
  EXPECT(v == 32768);
  CHECK(
      cudaDeviceGetAttribute(&v, cudaDevAttrMaxTextureCubemapLayeredWidth, 0));
  EXPECT(v == 32768);
  CHECK(
      cudaDeviceGetAttribute(&v, cudaDevAttrMaxTextureCubemapLayeredLayers, 0));
  EXPECT(v == 2046);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSurfaceCubemapWidth, 0));
  EXPECT(v == 32768);
  CHECK(
      cudaDeviceGetAttribute(&v, cudaDevAttrMaxSurfaceCubemapLayeredWidth, 0));
  EXPECT(v == 32768);
  CHECK(
      cudaDeviceGetAttribute(&v, cudaDevAttrMaxSurfaceCubemapLayeredLayers, 0));
  EXPECT(v == 2046);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(prop.maxTextureCubemap == 32768 &&
         prop.maxTextureCubemapLayered[1] == 2046 &&
         prop.maxSurfaceCubemapLayered[0] == 32768);

  // Faces are square; a cube map has 6 layers, a layered one whole cubes.
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  EXPECT_ERR(
      cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 5, 6), cudaArrayCubemap),
      cudaErrorInvalidValue);
  EXPECT_ERR(
      cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 4, 5), cudaArrayCubemap),
      cudaErrorInvalidValue);
  EXPECT_ERR(
      cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 4, 12), cudaArrayCubemap),
      cudaErrorInvalidValue);
  EXPECT_ERR(cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 4, 15),
                               cudaArrayCubemap | cudaArrayLayered),
             cudaErrorInvalidValue);
  EXPECT_ERR(cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 4, 0),
                               cudaArrayCubemap | cudaArrayLayered),
             cudaErrorInvalidValue);
  EXPECT_ERR(
      cudaMalloc3DArray(&a, &desc, make_cudaExtent(4, 0, 6), cudaArrayCubemap),
      cudaErrorInvalidValue);
  // A copy past the sixth face.
  a = makeCube(6, cudaArrayCubemap);
  std::vector<float> host(N * N * 2);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host.data(), N * sizeof(float), N, N);
  p.dstArray = a;
  p.dstPos = make_cudaPos(0, 0, 5);
  p.extent = make_cudaExtent(N, N, 2);
  p.kind = cudaMemcpyHostToDevice;
  EXPECT_ERR(cudaMemcpy3D(&p), cudaErrorInvalidValue);
  CHECK(cudaFreeArray(a));
}

int main() {
  cubeSampling();
  layeredSampling();
  integerTexels();
  surfaces();
  attributesAndErrors();
  if (failures) {
    printf("FAIL (%d)\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
