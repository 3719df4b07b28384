//===- ApproxMathTest.cpp - Accuracy sweep of the f32 .approx functions ---===//
//
// Runs ex2, lg2, sin, cos and tanh.approx.f32 (with and without .ftz)
// through the real lowering and host JIT over a strided sweep of all 2^32
// f32 bit patterns (every 4099th pattern, which visits every exponent and
// both signs, plus the neighbourhood of each special value) and checks each
// result against a long double reference: the PTX ISA bound always, and the
// tighter bound the inline sequences are designed for (ApproxMath.cpp):
// 1 ulp for ex2, lg2 and tanh. CUHIP_APPROX_EXHAUSTIVE=1 tests every
// pattern instead (minutes, a manual check).
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace cuhip::ptx;

namespace {

const char *Ops[] = {"ex2.approx.f32",     "ex2.approx.ftz.f32",
                     "lg2.approx.f32",     "lg2.approx.ftz.f32",
                     "sin.approx.f32",     "sin.approx.ftz.f32",
                     "cos.approx.f32",     "tanh.approx.f32"};

std::string kernelPtx() {
  std::string Ptx = ".version 9.0\n.target sm_90\n.address_size 64\n";
  for (unsigned K = 0; K < std::size(Ops); ++K)
    Ptx += ".visible .entry k" + std::to_string(K) + R"((.param .u64 out,
    .param .u64 in, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra $L_end;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  )" + Ops[K] + R"( %f2, %f1;
  add.s64 %rd5, %rd1, %rd3;
  st.global.f32 [%rd5], %f2;
$L_end:
  ret;
}
)";
  return Ptx;
}

struct Kernels {
  std::unique_ptr<host::HostCompiler> Compiler;
  std::vector<host::CompiledKernel> K;
};

Kernels &kernels() {
  static Kernels Ks = [] {
    Kernels Out;
    auto HC = host::HostCompiler::create();
    if (!HC) {
      ADD_FAILURE() << llvm::toString(HC.takeError());
      return Out;
    }
    Out.Compiler = std::move(*HC);
    DiagnosticEngine Diags("approx.ptx");
    std::string Ptx = kernelPtx();
    auto M = parseModule(Ptx, Diags);
    if (!M) {
      ADD_FAILURE() << Diags.formatAll();
      return Out;
    }
    auto Ctx = std::make_unique<llvm::LLVMContext>();
    auto L = lowerModule(*M, *Ctx, Diags);
    if (!L) {
      ADD_FAILURE() << Diags.formatAll();
      return Out;
    }
    auto C = Out.Compiler->compile(std::move(Ctx), std::move(*L), "approx.ptx");
    if (!C) {
      ADD_FAILURE() << llvm::toString(C.takeError());
      return Out;
    }
    Out.K = std::move(*C);
    return Out;
  }();
  return Ks;
}

/// Runs kernel \p Idx over \p In on this thread, the way the CPU backend
/// runs a grid's blocks.
std::vector<float> run(unsigned Idx, const std::vector<float> &In) {
  const host::CompiledKernel &K = kernels().K.at(Idx);
  std::vector<float> Out(In.size());
  constexpr unsigned Block = 256;
  unsigned N = In.size();
  std::vector<uint8_t> Params(24);
  float *OutP = Out.data();
  const float *InP = In.data();
  std::memcpy(Params.data(), &OutP, 8);
  std::memcpy(Params.data() + 8, &InP, 8);
  std::memcpy(Params.data() + 16, &N, 4);
  std::vector<uint8_t> Shared(K.Layout.StaticSharedBytes + 64);
  std::vector<uint8_t> Frames(size_t(K.Layout.FrameBytesPerThread) * Block +
                              16);
  unsigned Grid = (N + Block - 1) / Block;
  for (unsigned B = 0; B < Grid; ++B) {
    host::BlockContext Ctx;
    std::memset(&Ctx, 0, sizeof(Ctx));
    Ctx.CtaId[0] = B;
    Ctx.NCtaId[0] = Grid;
    Ctx.NCtaId[1] = Ctx.NCtaId[2] = 1;
    Ctx.NTid[0] = Block;
    Ctx.NTid[1] = Ctx.NTid[2] = 1;
    Ctx.Shared = Shared.data();
    Ctx.Frames = Frames.data();
    K.Fn(Params.data(), &Ctx);
  }
  return Out;
}

/// The spacing of f32 values around |V| (subnormal spacing below 2^-126).
long double ulpOf(long double V) {
  V = std::fabs(V);
  if (V < 0x1p-126L)
    return 0x1p-149L;
  int E;
  std::frexp(V, &E);
  return std::ldexp(1.0L, E - 24);
}

bool isSubnormal(float V) {
  return V != 0 && std::fabs(V) < 0x1p-126f;
}

struct Stats {
  double MaxUlp = 0, MaxAbs = 0;
  unsigned Failures = 0;
  uint32_t Worst = 0;
};

/// Checks one result; returns an explanation when it is outside the bounds.
std::string check(unsigned Op, float X, float Got, Stats &S) {
  bool Ftz = std::strstr(Ops[Op], ".ftz") != nullptr;
  std::string_view Name = Ops[Op];
  float XIn = Ftz && isSubnormal(X) ? std::copysign(0.0f, X) : X;
  long double XL = XIn, Ref;
  if (Name.starts_with("ex2"))
    Ref = std::exp2(XL);
  else if (Name.starts_with("lg2"))
    Ref = std::log2(XL);
  else if (Name.starts_with("sin"))
    Ref = std::sin(XL);
  else if (Name.starts_with("cos"))
    Ref = std::cos(XL);
  else
    Ref = std::tanh(XL);
  if (std::isnan(Ref))
    return std::isnan(Got) ? "" : "expected NaN";
  if (std::isinf(Ref) || std::fabs(Ref) > 0x1.ffffffp127L)
    return std::isinf(Got) && std::signbit(Got) == std::signbit(Ref)
               ? ""
               : "expected an infinity";
  if (std::isinf(XL)) {
    // The f32 result is exact: 0, +-1.
    return Got == static_cast<float>(Ref) ? "" : "expected the exact value";
  }
  if (Ref == 0 || XIn == 0) {
    float Exact = static_cast<float>(Ref);
    bool SameBits = std::bit_cast<uint32_t>(Got) ==
                    std::bit_cast<uint32_t>(Exact);
    return SameBits ? "" : "expected an exact (signed) value";
  }
  if (Ftz && std::fabs(Ref) < 0x1p-126L &&
      (Got == 0 || std::fabs(Got) == 0x1p-126f)) {
    // Flushed (or rounded up to the smallest normal).
    return "";
  }
  long double Err = std::fabs(static_cast<long double>(Got) - Ref);
  double Ulp = static_cast<double>(Err / ulpOf(Ref));
  if (Ulp > S.MaxUlp) {
    S.MaxUlp = Ulp;
    S.Worst = std::bit_cast<uint32_t>(X);
  }
  S.MaxAbs = std::max(S.MaxAbs, static_cast<double>(Err));
  if (Name.starts_with("ex2") || Name.starts_with("tanh")) {
    // ISA: ex2 2 ulp, tanh 2^-11 relative; designed for 1 ulp.
    return Ulp <= 1.0 ? "" : "more than 1 ulp";
  }
  if (Name.starts_with("lg2")) {
    // ISA: 2^-22 absolute in (0.5, 2), 2^-22 relative elsewhere.
    bool Near1 = XL > 0.5L && XL < 2.0L;
    if (Near1 ? Err > 0x1p-22L : Err > 0x1p-22L * std::fabs(Ref))
      return "outside the ISA bound";
    return Ulp <= 1.0 ? "" : "more than 1 ulp";
  }
  // sin/cos: ISA 2^-20.5 absolute; held over the whole f32 range.
  return Err <= 0x1.6a09e6p-21L ? "" : "more than 2^-20.5 absolute";
}

void sweep(unsigned Op) {
  ASSERT_GT(kernels().K.size(), Op);
  bool Exhaustive = std::getenv("CUHIP_APPROX_EXHAUSTIVE") != nullptr;
  uint64_t Stride = Exhaustive ? 1 : 4099;
  Stats S;
  std::vector<float> In;
  auto flushChunk = [&] {
    std::vector<float> Out = run(Op, In);
    for (size_t I = 0; I < In.size(); ++I) {
      std::string Why = check(Op, In[I], Out[I], S);
      if (!Why.empty() && ++S.Failures <= 10)
        ADD_FAILURE() << Ops[Op] << " of " << In[I] << " (0x" << std::hex
                      << std::bit_cast<uint32_t>(In[I]) << std::dec
                      << ") = " << Out[I] << ": " << Why;
    }
    In.clear();
  };
  auto add = [&](uint32_t Bits) {
    In.push_back(std::bit_cast<float>(Bits));
    if (In.size() == (1u << 22))
      flushChunk();
  };
  for (uint64_t Bits = 0; Bits < (1ull << 32); Bits += Stride)
    add(static_cast<uint32_t>(Bits));
  // Around the special values and the ends of the ranges.
  for (uint32_t Base : {0x00000000u, 0x00800000u, 0x3f800000u, 0x3f000000u,
                        0x40000000u, 0x7f7fffffu, 0x7f800000u, 0x42fe0000u,
                        0x43000000u, 0x43150000u, 0x40490fdbu, 0x3fc90fdbu})
    for (uint32_t D = 0; D < 512; ++D) {
      add(Base + D);
      add((Base + D) | 0x80000000u);
      add(Base - D);
      add((Base - D) | 0x80000000u);
    }
  flushChunk();
  EXPECT_EQ(S.Failures, 0u);
  std::printf("%s: max error %.4f ulp (at 0x%08x), %.3g absolute\n", Ops[Op],
              S.MaxUlp, S.Worst, S.MaxAbs);
}

TEST(ApproxMath, Ex2) { sweep(0); }
TEST(ApproxMath, Ex2Ftz) { sweep(1); }
TEST(ApproxMath, Lg2) { sweep(2); }
TEST(ApproxMath, Lg2Ftz) { sweep(3); }
TEST(ApproxMath, Sin) { sweep(4); }
TEST(ApproxMath, SinFtz) { sweep(5); }
TEST(ApproxMath, Cos) { sweep(6); }
TEST(ApproxMath, Tanh) { sweep(7); }

} // namespace
