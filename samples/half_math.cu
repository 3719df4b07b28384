// half_math: fp16 and bf16 arithmetic and conversions (cuda_fp16.h,
// cuda_bf16.h) against host converters written here from the IEEE formats.
// Checked exactly: __half2float and __bfloat162float over all 65536
// encodings; __float2half_rn, __float2half_rz and __float2bfloat16_rn over
// random and boundary floats (ties, subnormals, overflow, infinities, NaN);
// __hadd2, __hmul2 and __hfma2 over random __half2 operands, whose exact
// results the host computes in double (exact for these operand ranges) and
// rounds once; __hmax/__hmin and the ordered/unordered comparisons with NaN
// and infinity operands. Checked within a stated ulp bound: the approximate
// h2exp, hsqrt and hrsqrt. Prints PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorName(err_), cudaGetErrorString(err_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

//===----------------------------------------------------------------------===//
// Device side: every kernel works on raw 16-bit encodings.
//===----------------------------------------------------------------------===//

__device__ __half asHalf(uint16_t bits) {
  __half_raw r;
  r.x = bits;
  return __half(r);
}
__device__ uint16_t halfBits(__half h) { return __half_raw(h).x; }

__global__ void widen(float *fromHalf, float *fromBF16, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  fromHalf[i] = __half2float(asHalf(uint16_t(i)));
  __nv_bfloat16_raw b;
  b.x = uint16_t(i);
  fromBF16[i] = __bfloat162float(__nv_bfloat16(b));
}

__global__ void narrow(uint16_t *rn, uint16_t *rz, uint16_t *bf,
                       const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  rn[i] = halfBits(__float2half_rn(in[i]));
  rz[i] = halfBits(__float2half_rz(in[i]));
  bf[i] = __nv_bfloat16_raw(__float2bfloat16_rn(in[i])).x;
}

// a, b, c hold pairs; sum, prod, fma receive pairs.
__global__ void arith2(__half2 *sum, __half2 *prod, __half2 *fma,
                       const __half2 *a, const __half2 *b, const __half2 *c,
                       int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2)
    return;
  sum[i] = __hadd2(a[i], b[i]);
  prod[i] = __hmul2(a[i], b[i]);
  fma[i] = __hfma2(a[i], b[i], c[i]);
}

__global__ void approx(__half2 *exps, uint16_t *sqrts, uint16_t *rsqrts,
                       const __half2 *expIn, int n2, int nAll) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    exps[i] = h2exp(expIn[i]);
  if (i < nAll) {
    sqrts[i] = halfBits(hsqrt(asHalf(uint16_t(i))));
    rsqrts[i] = halfBits(hrsqrt(asHalf(uint16_t(i))));
  }
}

// flags: bit 0 lt, 1 gt, 2 eq, 3 ne, 4 ltu, 5 neu, 6 isnan(a)
__global__ void compare(uint16_t *maxes, uint16_t *mins, int *flags,
                        const uint16_t *a, const uint16_t *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half x = asHalf(a[i]), y = asHalf(b[i]);
  maxes[i] = halfBits(__hmax(x, y));
  mins[i] = halfBits(__hmin(x, y));
  flags[i] = int(__hlt(x, y)) | int(__hgt(x, y)) << 1 | int(__heq(x, y)) << 2 |
             int(__hne(x, y)) << 3 | int(__hltu(x, y)) << 4 |
             int(__hneu(x, y)) << 5 | int(__hisnan(x)) << 6;
}

//===----------------------------------------------------------------------===//
// Host reference converters.
//===----------------------------------------------------------------------===//

static double hostHalfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v;
  if (exp == 0x1f)
    v = man ? NAN : INFINITY;
  else if (exp == 0)
    v = std::ldexp(double(man), -24); // subnormal
  else
    v = std::ldexp(double(man | 0x400), exp - 25);
  return sign ? -v : v;
}

// Rounds a double to half once, to nearest-even or toward zero. Exact for
// every double input, so it also serves as the correctly rounded result of
// any operation whose exact value is a double.
static uint16_t hostDoubleToHalf(double d, bool towardZero) {
  if (std::isnan(d))
    return 0x7e00;
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  double a = std::fabs(d);
  if (std::isinf(a))
    return sign | 0x7c00;
  auto roundInt = [&](double x) {
    return towardZero ? std::trunc(x) : std::nearbyint(x); // ties to even
  };
  if (a < std::ldexp(1.0, -14)) // subnormal range: units of 2^-24
    return sign | uint16_t(roundInt(std::ldexp(a, 24)));
  int e;
  // a = m * 2^e with m in [0.5, 1); keep 11 significant bits.
  std::frexp(a, &e);
  double q = roundInt(std::ldexp(a, 11 - e));
  // q == 2048 carries into the exponent field through the addition.
  uint32_t bits = uint32_t(e - 1 + 15) << 10;
  bits += uint32_t(q) - 1024;
  if (bits >= 0x7c00) // overflow: infinity, or the largest finite toward zero
    bits = towardZero ? 0x7bff : 0x7c00;
  return sign | uint16_t(bits);
}

static uint16_t hostFloatToBF16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u); // round to nearest, ties to even
  return uint16_t(u >> 16);
}

static float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

static bool isHalfNaN(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

static bool sameHalf(uint16_t got, uint16_t want) {
  return got == want || (isHalfNaN(got) && isHalfNaN(want));
}

// Distance in ulps between two finite halves of the same sign.
static int halfUlps(uint16_t a, uint16_t b) {
  return std::abs(int(a & 0x7fff) - int(b & 0x7fff));
}

int main() {
  int bad = 0;
  auto fail = [&](const char *what, long i, double in, uint32_t got,
                  uint32_t want) {
    if (bad++ < 12)
      std::fprintf(stderr, "%s[%ld] (in %.9g): got %#x, want %#x\n", what, i,
                   in, got, want);
  };
  unsigned state = 777u;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state;
  };
  const int all = 1 << 16, threads = 256;

  // 1. Widening: every half and bfloat16 encoding.
  {
    float *dH, *dB;
    CHECK(cudaMalloc(&dH, all * sizeof(float)));
    CHECK(cudaMalloc(&dB, all * sizeof(float)));
    widen<<<all / threads, threads>>>(dH, dB, all);
    CHECK(cudaGetLastError());
    std::vector<float> h(all), b(all);
    CHECK(
        cudaMemcpy(h.data(), dH, all * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(
        cudaMemcpy(b.data(), dB, all * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < all; ++i) {
      double want = hostHalfToDouble(uint16_t(i));
      bool ok = std::isnan(want) ? std::isnan(h[i])
                                 : (h[i] == want &&
                                    std::signbit(h[i]) == std::signbit(want));
      if (!ok)
        fail("__half2float", i, i, 0, 0);
      float wantB = bitsToFloat(uint32_t(i) << 16);
      uint32_t gotBits;
      std::memcpy(&gotBits, &b[i], 4);
      if (std::isnan(wantB) ? !std::isnan(b[i]) : gotBits != uint32_t(i) << 16)
        fail("__bfloat162float", i, i, gotBits, uint32_t(i) << 16);
    }
    CHECK(cudaFree(dH));
    CHECK(cudaFree(dB));
  }

  // 2. Narrowing: random floats around the half range plus boundary cases.
  {
    std::vector<float> in;
    for (int i = 0; i < 100000; ++i) {
      // Exponents from 2^-30 to 2^17 cover subnormal, normal and overflow.
      uint32_t u = next();
      uint32_t exp = 97 + (u >> 8) % 48;
      in.push_back(
          bitsToFloat((u & 0x80000000u) | exp << 23 | (next() & 0x7fffff)));
    }
    for (int h = 0; h < 0x7c00; h += 37) {
      // Exactly halfway between neighbouring halves, and just off it.
      double lo = hostHalfToDouble(uint16_t(h)),
             hi = hostHalfToDouble(uint16_t(h + 1));
      float mid = float((lo + hi) / 2);
      in.push_back(mid);
      in.push_back(-mid);
      in.push_back(std::nextafter(mid, 0.0f));
      in.push_back(std::nextafter(mid, INFINITY));
    }
    for (float f : {0.0f,
                    -0.0f,
                    65504.0f,
                    65519.996f,
                    65520.0f,
                    65536.0f,
                    1e10f,
                    -1e10f,
                    INFINITY,
                    -INFINITY,
                    NAN,
                    5.9604645e-8f,
                    2.9802322e-8f,
                    2.9802326e-8f,
                    1e-9f,
                    6.1035156e-5f,
                    6.1031e-5f,
                    1.0f,
                    1.0009766f,
                    1.00048828125f,
                    3.3895314e38f,
                    bitsToFloat(0x7f7fffff),
                    bitsToFloat(0x00000001)})
      in.push_back(f);
    int n = int(in.size());
    float *dIn;
    uint16_t *dRn, *dRz, *dBf;
    CHECK(cudaMalloc(&dIn, n * sizeof(float)));
    CHECK(cudaMalloc(&dRn, n * 2));
    CHECK(cudaMalloc(&dRz, n * 2));
    CHECK(cudaMalloc(&dBf, n * 2));
    CHECK(
        cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    narrow<<<(n + threads - 1) / threads, threads>>>(dRn, dRz, dBf, dIn, n);
    CHECK(cudaGetLastError());
    std::vector<uint16_t> rn(n), rz(n), bf(n);
    CHECK(cudaMemcpy(rn.data(), dRn, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rz.data(), dRz, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bf.data(), dBf, n * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      uint16_t want = hostDoubleToHalf(in[i], false);
      if (!sameHalf(rn[i], want))
        fail("__float2half_rn", i, in[i], rn[i], want);
      want = hostDoubleToHalf(in[i], true);
      if (!sameHalf(rz[i], want))
        fail("__float2half_rz", i, in[i], rz[i], want);
      want = hostFloatToBF16(in[i]);
      bool nan = std::isnan(in[i]);
      if (nan ? (bf[i] & 0x7fff) <= 0x7f80 : bf[i] != want)
        fail("__float2bfloat16_rn", i, in[i], bf[i], want);
    }
    CHECK(cudaFree(dIn));
    CHECK(cudaFree(dRn));
    CHECK(cudaFree(dRz));
    CHECK(cudaFree(dBf));
  }

  // 3. __half2 arithmetic. Sums and products of two halves are exact in
  // double (at most 41 and 22 significant bits); for the fma the operands'
  // exponents are kept within [-8, 6] so that a*b + c spans at most 51 bits
  // (2^-36 to 2^15) and is exact in double too. One rounding of the exact value
  // is what IEEE asks of these operations.
  {
    const int n2 = 60000, n = 2 * n2;
    std::vector<uint16_t> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) {
      if (i % 2 == 0) { // any finite half
        auto finite = [&] {
          uint16_t h;
          do
            h = uint16_t(next() >> 16);
          while ((h & 0x7c00) == 0x7c00);
          return h;
        };
        a[i] = finite();
        b[i] = finite();
        c[i] = finite();
      } else { // moderate exponents for the fma check
        auto moderate = [&] {
          uint32_t u = next();
          return uint16_t((u >> 31) << 15 | (7 + (u >> 10) % 15) << 10 |
                          (u & 0x3ff));
        };
        a[i] = moderate();
        b[i] = moderate();
        c[i] = moderate();
      }
    }
    __half2 *dA, *dB, *dC, *dSum, *dProd, *dFma;
    for (__half2 **p : {&dA, &dB, &dC, &dSum, &dProd, &dFma})
      CHECK(cudaMalloc(p, n * 2));
    CHECK(cudaMemcpy(dA, a.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, b.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, c.data(), n * 2, cudaMemcpyHostToDevice));
    arith2<<<(n2 + threads - 1) / threads, threads>>>(dSum, dProd, dFma, dA, dB,
                                                      dC, n2);
    CHECK(cudaGetLastError());
    std::vector<uint16_t> sum(n), prod(n), fma(n);
    CHECK(cudaMemcpy(sum.data(), dSum, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(prod.data(), dProd, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fma.data(), dFma, n * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      double x = hostHalfToDouble(a[i]), y = hostHalfToDouble(b[i]),
             z = hostHalfToDouble(c[i]);
      uint16_t want = hostDoubleToHalf(x + y, false);
      if (!sameHalf(sum[i], want))
        fail("__hadd2", i, x + y, sum[i], want);
      want = hostDoubleToHalf(x * y, false);
      if (!sameHalf(prod[i], want))
        fail("__hmul2", i, x * y, prod[i], want);
      if (i % 2) {
        volatile double p = x * y; // exact; kept apart from the addition
        want = hostDoubleToHalf(p + z, false);
        if (!sameHalf(fma[i], want))
          fail("__hfma2", i, p + z, fma[i], want);
      }
    }
    for (__half2 *p : {dA, dB, dC, dSum, dProd, dFma})
      CHECK(cudaFree(p));
  }

  // 4. Approximate functions. h2exp on inputs in [-10, 10] (results from
  // the subnormal range up to 22026), hsqrt and hrsqrt on every
  // non-negative finite half. The device computes them with an
  // approximate float instruction whose relative error is far below half a
  // half-precision ulp, then rounds once, so the result is the correctly
  // rounded value or its neighbour: one ulp is allowed.
  {
    const int n2 = 8192, n = 2 * n2;
    std::vector<uint16_t> in(n);
    for (int i = 0; i < n; ++i)
      in[i] = hostDoubleToHalf(-10.0 + 20.0 * i / (n - 1), false);
    __half2 *dIn, *dExp;
    uint16_t *dSqrt, *dRsqrt;
    CHECK(cudaMalloc(&dIn, n * 2));
    CHECK(cudaMalloc(&dExp, n * 2));
    CHECK(cudaMalloc(&dSqrt, all * 2));
    CHECK(cudaMalloc(&dRsqrt, all * 2));
    CHECK(cudaMemcpy(dIn, in.data(), n * 2, cudaMemcpyHostToDevice));
    approx<<<all / threads, threads>>>(dExp, dSqrt, dRsqrt, dIn, n2, all);
    CHECK(cudaGetLastError());
    std::vector<uint16_t> ex(n), sq(all), rs(all);
    CHECK(cudaMemcpy(ex.data(), dExp, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sq.data(), dSqrt, all * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rs.data(), dRsqrt, all * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      double x = hostHalfToDouble(in[i]);
      uint16_t want = hostDoubleToHalf(std::exp(x), false);
      if (halfUlps(ex[i], want) > 1 || (ex[i] & 0x8000))
        fail("h2exp", i, x, ex[i], want);
    }
    for (int h = 0; h < 0x7c00; ++h) { // +0 up to the largest finite half
      double x = hostHalfToDouble(uint16_t(h));
      uint16_t want = hostDoubleToHalf(std::sqrt(x), false);
      if (halfUlps(sq[h], want) > 1 || (sq[h] & 0x8000))
        fail("hsqrt", h, x, sq[h], want);
      if (h == 0)
        continue; // rsqrt(+0) = +inf, checked below
      want = hostDoubleToHalf(1.0 / std::sqrt(x), false);
      bool ok = want == 0x7c00
                    ? rs[h] == 0x7c00 || rs[h] == 0x7bff
                    : halfUlps(rs[h], want) <= 1 && !(rs[h] & 0x8000);
      if (!ok)
        fail("hrsqrt", h, x, rs[h], want);
    }
    if (rs[0] != 0x7c00)
      fail("hrsqrt", 0, 0.0, rs[0], 0x7c00);
    CHECK(cudaFree(dIn));
    CHECK(cudaFree(dExp));
    CHECK(cudaFree(dSqrt));
    CHECK(cudaFree(dRsqrt));
  }

  // 5. __hmax/__hmin and comparisons, with NaN and infinity operands mixed
  // into random finite ones. __hmax/__hmin return the other operand when one
  // is NaN and a NaN when both are; pairs of zeros are left out because
  // the sign of the result for max(+0, -0) is not the same on all
  // architectures.
  {
    const int n = 40000;
    std::vector<uint16_t> a(n), b(n);
    const uint16_t specials[] = {0x7e00, 0xfe00, 0x7c00, 0xfc00,
                                 0x7bff, 0x0001, 0x3c00, 0xbc00};
    for (int i = 0; i < n; ++i) {
      a[i] = i % 5 == 0 ? specials[next() >> 29] : uint16_t(next() >> 16);
      b[i] = i % 7 == 0 ? specials[next() >> 29] : uint16_t(next() >> 16);
      if (i % 11 == 0)
        b[i] = a[i]; // equal operands
      if ((a[i] & 0x7fff) == 0 && (b[i] & 0x7fff) == 0)
        b[i] = 0x3c00;
    }
    uint16_t *dA, *dB, *dMax, *dMin;
    int *dFlags;
    CHECK(cudaMalloc(&dA, n * 2));
    CHECK(cudaMalloc(&dB, n * 2));
    CHECK(cudaMalloc(&dMax, n * 2));
    CHECK(cudaMalloc(&dMin, n * 2));
    CHECK(cudaMalloc(&dFlags, n * sizeof(int)));
    CHECK(cudaMemcpy(dA, a.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, b.data(), n * 2, cudaMemcpyHostToDevice));
    compare<<<(n + threads - 1) / threads, threads>>>(dMax, dMin, dFlags, dA,
                                                      dB, n);
    CHECK(cudaGetLastError());
    std::vector<uint16_t> mx(n), mn(n);
    std::vector<int> flags(n);
    CHECK(cudaMemcpy(mx.data(), dMax, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(mn.data(), dMin, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(flags.data(), dFlags, n * sizeof(int),
                     cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      double x = hostHalfToDouble(a[i]), y = hostHalfToDouble(b[i]);
      bool nx = std::isnan(x), ny = std::isnan(y);
      uint16_t wantMax = nx ? b[i] : ny ? a[i] : (x >= y ? a[i] : b[i]);
      uint16_t wantMin = nx ? b[i] : ny ? a[i] : (x <= y ? a[i] : b[i]);
      if (!sameHalf(mx[i], wantMax))
        fail("__hmax", i, x, mx[i], wantMax);
      if (!sameHalf(mn[i], wantMin))
        fail("__hmin", i, x, mn[i], wantMin);
      bool unordered = nx || ny;
      int want = int(x < y) | int(x > y) << 1 | int(x == y) << 2 |
                 int(!unordered && x != y) << 3 | int(unordered || x < y) << 4 |
                 int(x != y) << 5 | int(nx) << 6;
      if (flags[i] != want)
        fail("comparisons", i, x, flags[i], want);
    }
    for (void *p :
         {(void *)dA, (void *)dB, (void *)dMax, (void *)dMin, (void *)dFlags})
      CHECK(cudaFree(p));
  }

  std::printf("half_math: %s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
