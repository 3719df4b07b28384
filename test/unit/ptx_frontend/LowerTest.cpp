//===- LowerTest.cpp - PTX to IR, and IR to host block functions ----------===//
//
// Lowers small PTX kernels, JIT-compiles them for the host and runs their
// block functions directly, checking the results: the parameter layout,
// arithmetic, predication, shared memory and barriers inside loops, and
// threads that exit before a barrier.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace cuhip::ptx;

namespace {

host::HostCompiler &compiler() {
  static std::unique_ptr<host::HostCompiler> C = [] {
    auto HC = host::HostCompiler::create();
    if (!HC) {
      ADD_FAILURE() << llvm::toString(HC.takeError());
      return std::unique_ptr<host::HostCompiler>();
    }
    return std::move(*HC);
  }();
  return *C;
}

struct Compiled {
  std::vector<host::CompiledKernel> Kernels;
  std::string Errors;
};

Compiled compile(const std::string &Ptx) {
  Compiled Out;
  DiagnosticEngine Diags("test.ptx");
  auto M = parseModule(Ptx, Diags);
  if (!M) {
    Out.Errors = Diags.formatAll();
    return Out;
  }
  auto Ctx = std::make_unique<llvm::LLVMContext>();
  auto L = lowerModule(*M, *Ctx, Diags);
  if (!L) {
    Out.Errors = Diags.formatAll();
    return Out;
  }
  auto K = compiler().compile(std::move(Ctx), std::move(*L), "test.ptx");
  if (!K) {
    Out.Errors = llvm::toString(K.takeError());
    return Out;
  }
  Out.Kernels = std::move(*K);
  return Out;
}

/// Runs every block of a grid on this thread, the way the CPU backend does.
void runGrid(const host::CompiledKernel &K, unsigned Grid, unsigned BlockX,
             unsigned BlockY, std::vector<uint8_t> &Params,
             uint32_t *StatusOut = nullptr) {
  unsigned Threads = BlockX * BlockY;
  std::vector<uint8_t> Shared(K.Layout.StaticSharedBytes + 64);
  std::vector<uint8_t> Frames(size_t(K.Layout.FrameBytesPerThread) * Threads + 16);
  for (unsigned B = 0; B < Grid; ++B) {
    host::BlockContext Ctx;
    std::memset(&Ctx, 0, sizeof(Ctx));
    Ctx.CtaId[0] = B;
    Ctx.NCtaId[0] = Grid;
    Ctx.NCtaId[1] = Ctx.NCtaId[2] = 1;
    Ctx.NTid[0] = BlockX;
    Ctx.NTid[1] = BlockY;
    Ctx.NTid[2] = 1;
    Ctx.Shared = Shared.data();
    Ctx.Frames = Frames.data();
    K.Fn(Params.data(), &Ctx);
    if (StatusOut)
      *StatusOut |= Ctx.Status;
  }
}

template <typename T> void put(std::vector<uint8_t> &P, uint32_t Off, T V) {
  if (P.size() < Off + sizeof(T))
    P.resize(Off + sizeof(T));
  std::memcpy(P.data() + Off, &V, sizeof(T));
}

const char *Header = ".version 9.0\n.target sm_75\n.address_size 64\n";

TEST(Lower, ParameterLayoutFollowsPtxAlignment) {
  std::string Ptx = std::string(Header) + R"(
.visible .entry k(.param .u32 a, .param .u64 b, .param .align 16 .b8 s[24], .param .f32 c)
{ ret; }
)";
  Compiled C = compile(Ptx);
  ASSERT_EQ(C.Errors, "");
  ASSERT_EQ(C.Kernels.size(), 1u);
  const KernelInfo &I = C.Kernels[0].Info;
  ASSERT_EQ(I.Params.size(), 4u);
  EXPECT_EQ(I.Params[0].Offset, 0u);
  EXPECT_EQ(I.Params[1].Offset, 8u);
  EXPECT_EQ(I.Params[2].Offset, 16u);
  EXPECT_EQ(I.Params[2].Size, 24u);
  EXPECT_EQ(I.Params[3].Offset, 40u);
  EXPECT_EQ(I.ParamBufferSize, 48u);
}

TEST(Lower, GuardedArithmeticAndLoads) {
  // out[i] = i < n ? a[i] * 3 - 1 : untouched
  std::string Ptx = std::string(Header) + R"(
.visible .entry k(.param .u64 out, .param .u64 in, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra $L_end;
  mul.wide.s32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r6, [%rd4];
  mul.lo.s32 %r6, %r6, 3;
  sub.s32 %r6, %r6, 1;
  add.s64 %rd5, %rd1, %rd3;
  st.global.u32 [%rd5], %r6;
$L_end:
  ret;
}
)";
  Compiled C = compile(Ptx);
  ASSERT_EQ(C.Errors, "");
  std::vector<int> In(100), Out(128, -7);
  for (int I = 0; I < 100; ++I)
    In[I] = I - 50;
  std::vector<uint8_t> P;
  put(P, C.Kernels[0].Info.Params[0].Offset, Out.data());
  put(P, C.Kernels[0].Info.Params[1].Offset, In.data());
  put(P, C.Kernels[0].Info.Params[2].Offset, 100u);
  runGrid(C.Kernels[0], 4, 32, 1, P);
  for (int I = 0; I < 100; ++I)
    EXPECT_EQ(Out[I], (I - 50) * 3 - 1) << I;
  for (int I = 100; I < 128; ++I)
    EXPECT_EQ(Out[I], -7) << I;
}

// A block-wide reduction through shared memory: a barrier inside a loop
// whose trip count depends on the block size, and threads reading what
// other threads wrote before the barrier.
TEST(Lower, BarrierInsideLoopReduction) {
  std::string Ptx = std::string(Header) + R"(
.visible .entry reduce(.param .u64 out, .param .u64 in)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mad.lo.s32 %r4, %r3, %r2, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  mov.u32 %r6, buf;
  shl.b32 %r7, %r1, 2;
  add.s32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r5;
  bar.sync 0;
  shr.u32 %r9, %r2, 1;
$L_loop:
  setp.eq.s32 %p1, %r9, 0;
  @%p1 bra $L_done;
  setp.ge.u32 %p2, %r1, %r9;
  @%p2 bra $L_skip;
  shl.b32 %r10, %r9, 2;
  add.s32 %r11, %r8, %r10;
  ld.shared.u32 %r12, [%r11];
  ld.shared.u32 %r13, [%r8];
  add.s32 %r13, %r13, %r12;
  st.shared.u32 [%r8], %r13;
$L_skip:
  bar.sync 0;
  shr.u32 %r9, %r9, 1;
  bra $L_loop;
$L_done:
  setp.ne.s32 %p3, %r1, 0;
  @%p3 bra $L_end;
  ld.shared.u32 %r14, [buf];
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r14;
$L_end:
  ret;
}
)";
  Compiled C = compile(Ptx);
  ASSERT_EQ(C.Errors, "");
  EXPECT_GT(C.Kernels[0].Layout.NumRegions, 1u);
  EXPECT_EQ(C.Kernels[0].Layout.StaticSharedBytes, 1024u);
  const unsigned Blocks = 3, Threads = 256;
  std::vector<uint32_t> In(Blocks * Threads), Out(Blocks, 0);
  for (unsigned I = 0; I < In.size(); ++I)
    In[I] = I * 7 + 1;
  std::vector<uint8_t> P;
  put(P, 0, Out.data());
  put(P, 8, In.data());
  runGrid(C.Kernels[0], Blocks, Threads, 1, P);
  for (unsigned B = 0; B < Blocks; ++B) {
    uint32_t Want = 0;
    for (unsigned T = 0; T < Threads; ++T)
      Want += In[B * Threads + T];
    EXPECT_EQ(Out[B], Want) << "block " << B;
  }
}

// Threads that return before a barrier no longer take part in it; the rest
// of the block still synchronises and sees each other's writes.
TEST(Lower, ExitedThreadsDoNotBlockBarriers) {
  std::string Ptx = std::string(Header) + R"(
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[512];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra $L_exit;
  mov.u32 %r3, s;
  shl.b32 %r4, %r2, 2;
  add.s32 %r5, %r3, %r4;
  add.s32 %r6, %r2, 100;
  st.shared.u32 [%r5], %r6;
  bar.sync 0;
  add.s32 %r7, %r2, 1;
  rem.u32 %r8, %r7, %r1;
  shl.b32 %r9, %r8, 2;
  add.s32 %r10, %r3, %r9;
  ld.shared.u32 %r11, [%r10];
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r11;
$L_exit:
  ret;
}
)";
  Compiled C = compile(Ptx);
  ASSERT_EQ(C.Errors, "");
  std::vector<uint32_t> Out(128, 0);
  std::vector<uint8_t> P;
  put(P, 0, Out.data());
  put(P, 8, 70u);
  uint32_t Status = 0;
  runGrid(C.Kernels[0], 1, 128, 1, P, &Status);
  EXPECT_EQ(Status, 0u);
  for (unsigned T = 0; T < 70; ++T)
    EXPECT_EQ(Out[T], (T + 1) % 70 + 100) << T;
  for (unsigned T = 70; T < 128; ++T)
    EXPECT_EQ(Out[T], 0u) << T;
}

TEST(Lower, TwoDimensionalBlockIndices) {
  std::string Ptx = std::string(Header) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  shl.b32 %r5, %r2, 8;
  or.b32 %r6, %r5, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}
)";
  Compiled C = compile(Ptx);
  ASSERT_EQ(C.Errors, "");
  std::vector<uint32_t> Out(6 * 5, 0);
  std::vector<uint8_t> P;
  put(P, 0, Out.data());
  runGrid(C.Kernels[0], 1, 6, 5, P);
  for (unsigned Y = 0; Y < 5; ++Y)
    for (unsigned X = 0; X < 6; ++X)
      EXPECT_EQ(Out[Y * 6 + X], (Y << 8) | X);
}

TEST(Lower, UnsupportedInstructionIsADiagnosticWithLocation) {
  std::string Ptx = std::string(Header) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 1;
  pmevent 3;
  ret;
}
)";
  Compiled C = compile(Ptx);
  EXPECT_TRUE(C.Kernels.empty());
  EXPECT_NE(C.Errors.find("test.ptx:9:3: error: unsupported PTX instruction "
                          "'pmevent' in function 'k'"),
            std::string::npos)
      << C.Errors;
}

TEST(Lower, UndeclaredRegisterIsADiagnostic) {
  std::string Ptx = std::string(Header) + R"(
.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r9, 1;
  ret;
}
)";
  Compiled C = compile(Ptx);
  EXPECT_NE(C.Errors.find("test.ptx:8:11: error: use of undeclared register '%r9'"),
            std::string::npos)
      << C.Errors;
}

TEST(Lower, UnimplementedFloatFormIsReportedNotGuessed) {
  // Packed f32x2 arithmetic (sm_100) is not lowered yet.
  std::string Ptx = std::string(Header) + R"(
.visible .entry k()
{
  .reg .b64 %rd<4>;
  add.rz.f32x2 %rd1, %rd2, %rd3;
  ret;
}
)";
  Compiled C = compile(Ptx);
  EXPECT_NE(C.Errors.find("unsupported PTX instruction 'add.rz.f32x2'"),
            std::string::npos)
      << C.Errors;
}

TEST(Lower, IntegerDivisionByZeroDoesNotTrap) {
  std::string Ptx = std::string(Header) + R"(
.visible .entry k(.param .u64 out, .param .u32 d)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [d];
  mov.u32 %r2, 7;
  div.u32 %r3, %r2, %r1;
  rem.s32 %r4, %r2, %r1;
  mov.u32 %r5, -2147483648;
  div.s32 %r5, %r5, -1;
  st.global.u32 [%rd1], %r3;
  st.global.u32 [%rd1+4], %r4;
  st.global.u32 [%rd1+8], %r5;
  ret;
}
)";
  Compiled C = compile(Ptx);
  ASSERT_EQ(C.Errors, "");
  uint32_t Out[3] = {1, 1, 1};
  std::vector<uint8_t> P;
  put(P, 0, &Out[0]);
  put(P, 8, 0u);
  runGrid(C.Kernels[0], 1, 1, 1, P);
  EXPECT_EQ(Out[0], 0xffffffffu);
  EXPECT_EQ(Out[1], 7u);
  EXPECT_EQ(Out[2], 0x80000000u);
}

} // namespace
