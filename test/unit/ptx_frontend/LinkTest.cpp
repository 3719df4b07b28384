//===- LinkTest.cpp - Lowering several PTX modules into one --------------===//
//
// Checks ptx::parseAndLower on joined link units (Link.h): cross-unit calls
// and variables resolve to the defining unit, private symbols of the same
// name stay apart, .weak definitions merge, and unresolved references and
// duplicate strong definitions are errors naming the symbol.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/AmdgpuTarget.h"
#include "cuhip/ptx/Link.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace cuhip::ptx;

namespace {

const char *Header = ".version 8.0\n.target sm_80\n.address_size 64\n";

std::string unit(const std::string &Body) { return Header + Body; }

struct Result {
  std::optional<LoweredModule> Lowered;
  std::string Errors;
};

Result link(const std::vector<std::pair<std::string, std::string>> &Units,
            llvm::LLVMContext &Ctx) {
  std::vector<LinkUnit> LU;
  for (const auto &[N, T] : Units)
    LU.push_back({N, T});
  std::string Text = joinLinkUnits(LU);
  DiagnosticEngine Diags("linked");
  Result R;
  R.Lowered = parseAndLower(Text, "linked", Ctx, Diags);
  R.Errors = Diags.formatAll();
  return R;
}

const std::string Kernel = unit(R"(
.extern .func (.param .b32 r) twice(.param .b32 x);
.extern .global .align 4 .u32 shared_count;
.global .align 1 .b8 $str[2] = {65, 0};
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, $str;
  ld.global.u8 %r3, [%rd2];
  st.global.u32 [%rd1+4], %r3;
  ld.global.u32 %r1, [shared_count];
  {
  .param .b32 p;
  .param .b32 r;
  st.param.b32 [p], %r1;
  call (r), twice, (p);
  ld.param.b32 %r2, [r];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
)");

const std::string Helper = unit(R"(
.visible .global .align 4 .u32 shared_count = 3;
.global .align 1 .b8 $str[2] = {66, 0};
.visible .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, $str;
  ld.global.u8 %r3, [%rd1];
  ld.param.b32 %r1, [x];
  add.s32 %r2, %r1, %r3;
  st.param.b32 [r], %r2;
  ret;
}
)");

TEST(Link, SplitKeepsUnitsWhole) {
  std::string Text = joinLinkUnits({{"a", "one\n"}, {"b", "two"}});
  std::vector<LinkUnit> U = splitLinkUnits(Text);
  ASSERT_EQ(U.size(), 2u);
  EXPECT_EQ(U[0].Name, "a");
  EXPECT_EQ(U[0].Ptx, "one\n");
  EXPECT_EQ(U[1].Name, "b");
  EXPECT_EQ(U[1].Ptx, "two\n");
  // Plain PTX is one unnamed unit.
  U = splitLinkUnits(Kernel);
  ASSERT_EQ(U.size(), 1u);
  EXPECT_TRUE(U[0].Name.empty());
}

TEST(Link, ResolvesCallsAndVariablesAcrossUnits) {
  llvm::LLVMContext Ctx;
  Result R = link({{"kernel.ptx", Kernel}, {"helper.ptx", Helper}}, Ctx);
  ASSERT_TRUE(R.Lowered) << R.Errors;
  llvm::Module &M = *R.Lowered->IR;
  llvm::Function *Twice = M.getFunction("twice");
  ASSERT_TRUE(Twice);
  EXPECT_FALSE(Twice->isDeclaration());
  llvm::GlobalVariable *Count = M.getGlobalVariable("shared_count");
  ASSERT_TRUE(Count);
  EXPECT_FALSE(Count->isDeclaration());
  // Each unit keeps its own private string of the same name.
  unsigned Strings = 0;
  for (const llvm::GlobalVariable &G : M.globals())
    if (G.getName().starts_with("$str"))
      ++Strings;
  EXPECT_EQ(Strings, 2u);
  ASSERT_EQ(R.Lowered->Kernels.size(), 1u);
  EXPECT_EQ(R.Lowered->Kernels[0].Name, "k");
}

TEST(Link, UnresolvedExternNamesTheSymbol) {
  llvm::LLVMContext Ctx;
  Result R = link({{"kernel.ptx", Kernel}}, Ctx);
  EXPECT_FALSE(R.Lowered);
  EXPECT_NE(R.Errors.find("unresolved external function 'twice'"),
            std::string::npos)
      << R.Errors;
  EXPECT_NE(R.Errors.find("unresolved external variable 'shared_count'"),
            std::string::npos)
      << R.Errors;
}

// The calls lowering makes for a target to replace (here the mbarrier
// operations) are not external references a unit has to define: a linked
// module that uses them lowers like a single unit does.
TEST(Link, LoweringCallsAreNotUnresolvedExterns) {
  const std::string Barrier = unit(R"(
.extern .func (.param .b32 r) twice(.param .b32 x);
.visible .entry b(.param .u64 out)
{
  .shared .align 8 .b64 bar;
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 1;
  mbarrier.init.shared.b64 [bar], %r1;
  mbarrier.arrive.shared.b64 %rd2, [bar];
  mbarrier.test_wait.shared.b64 %p1, [bar], %rd2;
  selp.u32 %r2, 1, 0, %p1;
  {
  .param .b32 p;
  .param .b32 r;
  st.param.b32 [p], %r2;
  call (r), twice, (p);
  ld.param.b32 %r2, [r];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
)");
  llvm::LLVMContext Ctx;
  Result R = link({{"barrier.ptx", Barrier}, {"helper.ptx", Helper}}, Ctx);
  ASSERT_TRUE(R.Lowered) << R.Errors;
  EXPECT_EQ(R.Errors.find("unresolved"), std::string::npos) << R.Errors;
  bool CallsMbarrier = false;
  for (const llvm::Function &F : *R.Lowered->IR)
    CallsMbarrier |= F.getName().starts_with("cuhip.mbarrier.") && !F.use_empty();
  EXPECT_TRUE(CallsMbarrier);
}

TEST(Link, DuplicateStrongDefinitionIsAnError) {
  llvm::LLVMContext Ctx;
  Result R = link({{"kernel.ptx", Kernel},
                   {"helper.ptx", Helper},
                   {"again.ptx", Helper}},
                  Ctx);
  EXPECT_FALSE(R.Lowered);
  EXPECT_NE(R.Errors.find(
                "symbol 'twice' is defined in both helper.ptx and again.ptx"),
            std::string::npos)
      << R.Errors;
}

TEST(Link, WeakDefinitionsMerge) {
  const std::string Weak = unit(R"(
.weak .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [x];
  st.param.b32 [r], %r1;
  ret;
}
.visible .global .align 4 .u32 shared_count = 3;
)");
  const std::string WeakToo = unit(R"(
.weak .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [x];
  st.param.b32 [r], %r1;
  ret;
}
)");
  llvm::LLVMContext Ctx;
  Result R = link({{"kernel.ptx", Kernel}, {"w1.ptx", Weak}, {"w2.ptx", WeakToo}},
                  Ctx);
  ASSERT_TRUE(R.Lowered) << R.Errors;
  EXPECT_FALSE(R.Lowered->IR->getFunction("twice")->isDeclaration());
}

TEST(Link, ParseErrorsNameTheUnit) {
  llvm::LLVMContext Ctx;
  Result R = link({{"kernel.ptx", Kernel}, {"bad.ptx", unit("garbage;\n")}},
                  Ctx);
  EXPECT_FALSE(R.Lowered);
  EXPECT_NE(R.Errors.find("in bad.ptx"), std::string::npos) << R.Errors;
}

// When every needed unit is one that may be left out and none lowers, the
// error says why each did not: a user sees the cause, not just "no linked
// unit lowers" with the reason in a debug-level note.
TEST(Link, NoUnitLowersNamesEachCause) {
  llvm::LLVMContext Ctx;
  std::string Text = joinLinkUnits(
      {{"unit0.ptx", unit(".visible .entry a()\n{\n  .reg .b32 %r1;\n"
                          "  mov.u32 %r1, NOT_DECLARED;\n  ret;\n}\n")},
       {"unit1.ptx", unit(".visible .entry b()\n{\n  pmevent 1;\n  ret;\n}\n")}});
  DiagnosticEngine Diags("linked");
  std::vector<std::string> Roots = {"a", "b"};
  auto Lowered = parseAndLower(Text, "linked", Ctx, Diags, {}, &Roots);
  EXPECT_FALSE(Lowered);
  std::string Errors = Diags.formatAll();
  EXPECT_NE(Errors.find("no linked unit lowers"), std::string::npos) << Errors;
  EXPECT_NE(Errors.find("use of undeclared identifier 'NOT_DECLARED'"),
            std::string::npos)
      << Errors;
  EXPECT_NE(Errors.find("pmevent"), std::string::npos) << Errors;
}

// Dynamic parallelism: a kernel launches one another unit defines, which
// it declares as a body-less .entry, through the device runtime's calls.
// NVIDIA's device runtime library, linked into such programs, is left out
// (its functions drive GPU hardware; the backends provide them), and so are
// its own kernels and variables, though the host registers them as roots.
TEST(Link, DeviceRuntimeLibraryIsLeftOut) {
  const std::string Parent = unit(R"(
.extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2
  (.param .b64 f, .param .align 4 .b8 g[12], .param .align 4 .b8 b[12],
   .param .b32 s);
.extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2
  (.param .b64 p, .param .b64 s);
.extern .entry child(.param .u64 out);
.visible .entry parent(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, child;
  {
  .param .b64 f;
  .param .align 4 .b8 g[12];
  .param .align 4 .b8 b[12];
  .param .b32 s;
  .param .b64 r;
  st.param.b64 [f], %rd2;
  st.param.v2.b32 [g], {1, 1};
  st.param.b32 [g+8], 1;
  st.param.v2.b32 [b], {1, 1};
  st.param.b32 [b+8], 1;
  st.param.b32 [s], 0;
  call (r), __cudaCDP2GetParameterBufferV2, (f, g, b, s);
  ld.param.b64 %rd3, [r];
  }
  st.u64 [%rd3], %rd1;
  {
  .param .b64 p;
  .param .b64 s;
  .param .b32 r;
  st.param.b64 [p], %rd3;
  st.param.b64 [s], 0;
  call (r), __cudaCDP2LaunchDeviceV2, (p, s);
  ld.param.b32 %r1, [r];
  }
  ret;
}
)");
  const std::string Child = unit(R"(
.visible .entry child(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], 1;
  ret;
}
)");
  // Stands in for libcudadevrt: it defines the calls in terms of what no
  // backend has, and has a kernel and a variable of its own.
  const std::string DeviceRuntime = unit(R"(
.extern .func (.param .b32 r) __cuda_syscall_launch(.param .b64 p);
.visible .global .align 4 .u32 cudartErrorTable = 1;
.visible .func (.param .b64 r) __cudaCDP2GetParameterBufferV2
  (.param .b64 f, .param .align 4 .b8 g[12], .param .align 4 .b8 b[12],
   .param .b32 s)
{
  st.param.b64 [r], 0;
  ret;
}
.visible .func (.param .b32 r) __cudaCDP2LaunchDeviceV2
  (.param .b64 p, .param .b64 s)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [p];
  {
  .param .b64 q;
  .param .b32 t;
  st.param.b64 [q], %rd1;
  call (t), __cuda_syscall_launch, (q);
  ld.param.b32 %r1, [t];
  }
  st.param.b32 [r], %r1;
  ret;
}
.entry memcpy_device(.param .u64 p)
{
  ret;
}
)");
  std::string Text = joinLinkUnits({{"parent.ptx", Parent},
                                    {"child.ptx", Child},
                                    {"cudadevrt.ptx", DeviceRuntime}});
  llvm::LLVMContext Ctx;
  DiagnosticEngine Diags("linked");
  std::vector<std::string> Roots = {"parent", "child", "memcpy_device",
                                    "cudartErrorTable"};
  auto Lowered = parseAndLower(Text, "linked", Ctx, Diags, {}, &Roots);
  std::string Errors = Diags.formatAll();
  ASSERT_TRUE(Lowered) << Errors;
  EXPECT_NE(Errors.find("cudadevrt.ptx is left out: it is NVIDIA's device "
                        "runtime"),
            std::string::npos)
      << Errors;
  llvm::Module &M = *Lowered->IR;
  // The launch's target is the other unit's kernel; the device runtime's
  // calls stay for the backend, and nothing of its library remains.
  ASSERT_TRUE(M.getFunction("child"));
  EXPECT_FALSE(M.getFunction("child")->isDeclaration());
  ASSERT_TRUE(M.getFunction("__cudaCDP2LaunchDeviceV2"));
  EXPECT_TRUE(M.getFunction("__cudaCDP2LaunchDeviceV2")->isDeclaration());
  EXPECT_FALSE(M.getFunction("__cuda_syscall_launch"));
  EXPECT_FALSE(M.getFunction("memcpy_device"));
  EXPECT_FALSE(M.getGlobalVariable("cudartErrorTable"));
  std::vector<std::string> Names;
  for (const KernelInfo &K : Lowered->Kernels)
    Names.push_back(K.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"parent", "child"}));
}

// A body-less .entry no unit defines is an unresolved reference.
TEST(Link, UndefinedExternKernelIsUnresolved) {
  const std::string Taker = unit(R"(
.extern .entry elsewhere(.param .u64 out);
.visible .entry taker(.param .u64 out)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, elsewhere;
  st.global.u64 [%rd1], %rd2;
  ret;
}
)");
  llvm::LLVMContext Ctx;
  Result R = link({{"taker.ptx", Taker}, {"helper.ptx", Helper}}, Ctx);
  EXPECT_FALSE(R.Lowered);
  EXPECT_NE(R.Errors.find("unresolved external function 'elsewhere'"),
            std::string::npos)
      << R.Errors;
}

TEST(Link, AmdgpuCompilesLinkedUnits) {
  const amdgpu::Target *T = amdgpu::findTarget("gfx90a");
  ASSERT_TRUE(T);
  std::string Text = joinLinkUnits({{"kernel.ptx", Kernel}, {"helper.ptx", Helper}});
  auto CO = amdgpu::compilePtx(Text, "linked", *T, /*CacheDir=*/"");
  ASSERT_TRUE(bool(CO)) << llvm::toString(CO.takeError());
  ASSERT_EQ(CO->Kernels.size(), 1u);
  EXPECT_EQ(CO->Kernels[0].Name, "k");
  // A unit nothing refers to that does not lower is left out.
  std::string WithBad = joinLinkUnits(
      {{"kernel.ptx", Kernel},
       {"helper.ptx", Helper},
       {"devrt.ptx", unit(".visible .entry devrt()\n{\n  pmevent 1;\n  ret;\n}\n")}});
  CO = amdgpu::compilePtx(WithBad, "linked", *T, "");
  ASSERT_TRUE(bool(CO)) << llvm::toString(CO.takeError());
  EXPECT_EQ(CO->Kernels.size(), 1u);
}

} // namespace
