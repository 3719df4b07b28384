//===- ApproxMathTest.cpp - Accuracy sweep of the f32 .approx functions ---===//
//
// Runs ex2, lg2, sin, cos and tanh.approx.f32 (with and without .ftz)
// through the real lowering and host JIT over a strided sweep of all 2^32
// f32 bit patterns (every 4099th pattern, which visits every exponent and
// both signs, plus the neighbourhood of each special value) and checks each
// result against a long double reference: the PTX ISA bound always, and the
// tighter bound the inline sequences are designed for (ApproxMath.cpp):
// 1 ulp for ex2, lg2 and tanh. CUHIP_APPROX_EXHAUSTIVE=1 tests every
// pattern instead (minutes, a manual check). The 16-bit ex2 and tanh forms
// are checked on every f16 and bf16 input.
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
                     "cos.approx.f32",     "tanh.approx.f32",
                     "ex2.approx.f16",     "ex2.approx.ftz.bf16",
                     "tanh.approx.f16",    "tanh.approx.bf16"};

/// Whether kernel \p K works on 16-bit values.
bool isHalf(unsigned K) { return K >= 8; }

std::string kernelPtx() {
  std::string Ptx = ".version 9.0\n.target sm_90\n.address_size 64\n";
  for (unsigned K = 0; K < std::size(Ops); ++K) {
    std::string Reg = isHalf(K) ? "%h" : "%f";
    std::string Size = isHalf(K) ? "2" : "4";
    std::string Move = isHalf(K) ? "b16" : "f32";
    Ptx += ".visible .entry k" + std::to_string(K) + R"((.param .u64 out,
    .param .u64 in, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b16 %h<3>;
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
  mul.wide.u32 %rd3, %r5, )" + Size + R"(;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.)" + Move + " " + Reg + R"(1, [%rd4];
  )" + Ops[K] + " " + Reg + "2, " + Reg + R"(1;
  add.s64 %rd5, %rd1, %rd3;
  st.global.)" + Move + " [%rd5], " + Reg + R"(2;
$L_end:
  ret;
}
)";
  }
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
template <typename T>
std::vector<T> run(unsigned Idx, const std::vector<T> &In) {
  const host::CompiledKernel &K = kernels().K.at(Idx);
  std::vector<T> Out(In.size());
  constexpr unsigned Block = 256;
  unsigned N = In.size();
  std::vector<uint8_t> Params(24);
  T *OutP = Out.data();
  const T *InP = In.data();
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

/// The value of 16-bit pattern \p B (f16, or bf16 when \p BF).
long double decode16(uint16_t B, bool BF) {
  if (BF)
    return std::bit_cast<float>(uint32_t(B) << 16);
  int Exp = (B >> 10) & 31, Man = B & 1023;
  long double Mag = Exp == 31 ? (Man ? NAN : INFINITY)
                    : Exp == 0 ? std::ldexp((long double)Man, -24)
                               : std::ldexp((long double)(Man | 1024), Exp - 25);
  return B & 0x8000 ? -Mag : Mag;
}

/// Every f16 or bf16 input of a 16-bit kernel: within the ISA bound, and
/// within 0.51 ulp of the format (the single rounding of an accurate f64).
void sweepHalf(unsigned Op) {
  ASSERT_GT(kernels().K.size(), Op);
  std::string_view Name = Ops[Op];
  bool BF = Name.ends_with("bf16"), Ex2 = Name.starts_with("ex2");
  int Digits = BF ? 8 : 11, MinExp = BF ? -126 : -14;
  long double MaxFinite = BF ? 0x1.fep127L : 65504.0L;
  std::vector<uint16_t> In(1 << 16);
  for (unsigned I = 0; I < In.size(); ++I)
    In[I] = I;
  std::vector<uint16_t> Out = run(Op, In);
  unsigned Failures = 0;
  double MaxUlp = 0;
  for (unsigned I = 0; I < In.size(); ++I) {
    long double X = decode16(In[I], BF), Got = decode16(Out[I], BF);
    if (BF && Ex2 && std::fabs(X) < 0x1p-126L)
      X = 0; // .ftz
    long double Ref = Ex2 ? std::exp2(X) : std::tanh(X);
    std::string Why;
    if (std::isnan(X)) {
      if (!std::isnan(Got))
        Why = "expected NaN";
    } else if (std::isinf(Got) || Ref > MaxFinite) {
      if (!(std::isinf(Got) && Ref > MaxFinite))
        Why = "overflow mismatch";
    } else if (X == 0 && !Ex2) {
      if (Out[I] != In[I])
        Why = "expected the signed zero";
    } else if (BF && Ex2 && Ref < 0x1p-126L && Got == 0) {
      // Flushed.
    } else {
      int E;
      std::frexp(std::max(std::fabs(Ref), std::ldexp(1.0L, MinExp)), &E);
      long double Ulp = std::ldexp(1.0L, E - Digits);
      long double Err = std::fabs(Got - Ref);
      MaxUlp = std::max(MaxUlp, double(Err / Ulp));
      // A relative bound cannot hold for subnormal results; there the
      // spacing of the format is the yardstick.
      bool Isa =
          // ISA: tanh 2^-10.987 (f16) / 2^-8 (bf16) absolute, ex2 2^-9.9 /
          // 2^-7 relative.
          !Ex2 ? Err <= (BF ? 0x1p-8L : 0x1.0251353756991p-11L)
          : std::fabs(Ref) < std::ldexp(1.0L, MinExp)
              ? Err <= Ulp
              : Err <= std::fabs(Ref) * (BF ? 0x1p-7L : 0x1.125fbee250663p-10L);
      if (!Isa || Err > 0.51L * Ulp)
        Why = Isa ? "more than 0.51 ulp" : "outside the ISA bound";
    }
    if (!Why.empty() && ++Failures <= 10)
      ADD_FAILURE() << Name << " of 0x" << std::hex << In[I] << " = 0x"
                    << Out[I] << std::dec << ": " << Why;
  }
  EXPECT_EQ(Failures, 0u);
  std::printf("%s: max error %.4f ulp over all inputs\n", Ops[Op], MaxUlp);
}

TEST(ApproxMath, Ex2) { sweep(0); }
TEST(ApproxMath, Ex2Ftz) { sweep(1); }
TEST(ApproxMath, Lg2) { sweep(2); }
TEST(ApproxMath, Lg2Ftz) { sweep(3); }
TEST(ApproxMath, Sin) { sweep(4); }
TEST(ApproxMath, SinFtz) { sweep(5); }
TEST(ApproxMath, Cos) { sweep(6); }
TEST(ApproxMath, Tanh) { sweep(7); }
TEST(ApproxMath, Ex2F16) { sweepHalf(8); }
TEST(ApproxMath, Ex2FtzBF16) { sweepHalf(9); }
TEST(ApproxMath, TanhF16) { sweepHalf(10); }
TEST(ApproxMath, TanhBF16) { sweepHalf(11); }

} // namespace
