//===- OptionsTest.cpp - cuhip nvcc's command-line parsing ---------------===//
#include "Nvcc.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace cuhip::nvcc;

namespace {

Invocation parse(std::vector<std::string> Args) {
  Invocation Inv;
  std::string Err;
  EXPECT_TRUE(parseArgs(Args, Inv, Err)) << Err;
  return Inv;
}

std::string parseError(std::vector<std::string> Args) {
  Invocation Inv;
  std::string Err;
  EXPECT_FALSE(parseArgs(Args, Inv, Err));
  return Err;
}

// The compile line CMake's Ninja generator writes for a CUDA object.
TEST(NvccOptions, CMakeCompileLine) {
  Invocation Inv = parse(
      {"-forward-unknown-to-host-compiler", "-DLIB=1", "-I/p/include",
       "-isystem=/p/sys", "-O3", "-DNDEBUG", "-std=c++17",
       "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
       "-Xcompiler=-fPIC", "-pthread", "-MD", "-MT", "a.o", "-MF", "a.o.d",
       "-x", "cu", "-rdc=true", "-c", "/p/a.cu", "-o", "a.o"});
  EXPECT_EQ(Inv.Phase, Phase::Compile);
  EXPECT_TRUE(Inv.Rdc);
  ASSERT_EQ(Inv.Inputs.size(), 1u);
  EXPECT_EQ(Inv.Inputs[0].Kind, InputKind::Cuda);
  EXPECT_EQ(Inv.Output, "a.o");
  EXPECT_EQ(Inv.Defines, (std::vector<std::string>{"-DLIB=1", "-DNDEBUG"}));
  EXPECT_EQ(Inv.IncludeDirs, (std::vector<std::string>{"/p/include"}));
  EXPECT_EQ(Inv.SystemIncludeDirs, (std::vector<std::string>{"/p/sys"}));
  EXPECT_EQ(Inv.OptLevel, "-O3");
  EXPECT_EQ(Inv.Std, "c++17");
  ASSERT_EQ(Inv.GpuCodes.size(), 2u);
  EXPECT_EQ(Inv.GpuCodes[0].Virtual, "compute_80");
  EXPECT_EQ(Inv.GpuCodes[0].Real, "compute_80");
  EXPECT_EQ(Inv.GpuCodes[1].Real, "sm_80");
  EXPECT_EQ(Inv.HostCompilerFlags,
            (std::vector<std::string>{"-fPIC", "-pthread"}));
  EXPECT_TRUE(Inv.DepsMD);
  EXPECT_EQ(Inv.DepsFile, "a.o.d");
  EXPECT_EQ(Inv.DepsTargets, (std::vector<std::string>{"a.o"}));
}

// CMake's separable-compilation device link.
TEST(NvccOptions, CMakeDeviceLinkLine) {
  Invocation Inv = parse({"-Xcompiler=-fPIC", "-Wno-deprecated-gpu-targets",
                          "-shared", "-dlink", "a.o", "libk.a", "-o",
                          "cmake_device_link.o", "-lcudadevrt",
                          "-lcudart_static", "-lrt", "-lpthread", "-ldl"});
  EXPECT_EQ(Inv.Phase, Phase::DeviceLink);
  EXPECT_TRUE(Inv.Shared);
  ASSERT_EQ(Inv.Inputs.size(), 2u);
  EXPECT_EQ(Inv.Inputs[0].Kind, InputKind::Object);
  EXPECT_EQ(Inv.Inputs[1].Kind, InputKind::Archive);
  EXPECT_EQ(Inv.Libs, (std::vector<std::string>{"cudadevrt", "cudart_static",
                                                "rt", "pthread", "dl"}));
}

// The spellings Makefiles and setup.py builds use.
TEST(NvccOptions, Spellings) {
  Invocation Inv = parse(
      {"--compiler-options", "'-fPIC'", "-Xcompiler", "-Wall,-O2",
       "--expt-relaxed-constexpr", "--extended-lambda", "-gencode",
       "arch=compute_90,code=sm_90", "-arch=sm_86", "--use_fast_math",
       "-lineinfo", "-G", "-g", "-ccbin", "/usr/bin/g++", "-Xlinker",
       "-rpath,/x", "-Xptxas", "-v", "-Xcudafe", "--diag_suppress=177",
       "--library-path=/l", "-lfoo", "-L", "/m", "--verbose", "--dryrun",
       "-cudart", "shared", "-dc", "k.cu"});
  EXPECT_TRUE(Inv.RelaxedConstexpr);
  EXPECT_TRUE(Inv.ExtendedLambda);
  EXPECT_TRUE(Inv.FastMath && Inv.LineInfo && Inv.DeviceDebug && Inv.HostDebug);
  EXPECT_EQ(Inv.HostCompiler, "/usr/bin/g++");
  EXPECT_EQ(Inv.LinkerFlags, (std::vector<std::string>{"-rpath", "/x"}));
  EXPECT_EQ(Inv.PtxasFlags, (std::vector<std::string>{"-v"}));
  EXPECT_EQ(Inv.LibDirs, (std::vector<std::string>{"/l", "/m"}));
  EXPECT_EQ(Inv.Libs, (std::vector<std::string>{"foo"}));
  EXPECT_TRUE(Inv.Verbose && Inv.DryRun);
  EXPECT_EQ(Inv.Cudart, "shared");
  EXPECT_EQ(Inv.Phase, Phase::DeviceCompile);
  EXPECT_TRUE(Inv.Rdc);
  // -arch=sm_86 gives SASS and PTX for 86, after -gencode's 90.
  ASSERT_EQ(Inv.GpuCodes.size(), 3u);
  EXPECT_EQ(Inv.GpuCodes[0].Real, "sm_90");
  EXPECT_EQ(Inv.GpuCodes[1].Real, "sm_86");
  EXPECT_EQ(Inv.GpuCodes[2].Real, "compute_86");
  // The quotes a shell would have removed are removed; the flags are split.
  EXPECT_EQ(Inv.HostCompilerFlags,
            (std::vector<std::string>{"-fPIC", "-Wall", "-O2"}));
  // -Xptxas and -Xcudafe are noted for -v.
  EXPECT_EQ(Inv.Notes.size(), 2u);
}

// -M alone is a phase; with -MD it rides along with the compile.
TEST(NvccOptions, DependencyPhases) {
  EXPECT_EQ(parse({"-M", "a.cu"}).Phase, Phase::DepsOnly);
  EXPECT_EQ(parse({"-MM", "-c", "a.cu"}).Phase, Phase::DepsOnly);
  EXPECT_EQ(parse({"-MD", "-c", "a.cu"}).Phase, Phase::Compile);
  EXPECT_EQ(parse({"-M", "-MD", "-c", "a.cu"}).Phase, Phase::Compile);
  EXPECT_EQ(parse({"-E", "-M", "a.cu"}).Phase, Phase::Preprocess);
}

// --use_fast_math changes the defaults of the math modes; explicit ones win.
TEST(NvccOptions, MathModes) {
  Invocation Plain = parse({"a.cu"});
  EXPECT_FALSE(Plain.ftz());
  EXPECT_TRUE(Plain.precDiv() && Plain.precSqrt() && Plain.fmad());
  Invocation Fast = parse({"--use_fast_math", "a.cu"});
  EXPECT_TRUE(Fast.ftz());
  EXPECT_FALSE(Fast.precDiv() || Fast.precSqrt());
  EXPECT_TRUE(Fast.fmad());
  Invocation Mixed =
      parse({"--use_fast_math", "--ftz=false", "--fmad=false", "a.cu"});
  EXPECT_FALSE(Mixed.ftz() || Mixed.fmad() || Mixed.precDiv());
  Invocation Given = parse({"--prec-div=false", "--ftz", "true", "a.cu"});
  EXPECT_TRUE(Given.ftz());
  EXPECT_FALSE(Given.precDiv());
  EXPECT_TRUE(Given.precSqrt());
}

TEST(NvccOptions, ArchWithCode) {
  Invocation Inv = parse({"-arch=compute_75", "-code=sm_75,compute_75", "a.cu"});
  ASSERT_EQ(Inv.GpuCodes.size(), 2u);
  EXPECT_EQ(Inv.GpuCodes[0].Virtual, "compute_75");
  EXPECT_EQ(Inv.GpuCodes[0].Real, "sm_75");
  EXPECT_EQ(Inv.GpuCodes[1].Real, "compute_75");
}

TEST(NvccOptions, CuhipOptions) {
  Invocation Inv = parse({"--cuhip-backend=cpu", "--amdgpu-arch=gfx90a,gfx1030",
                          "--cuhip-device-compiler=clang", "a.cu"});
  EXPECT_EQ(Inv.Mode, Mode::Cpu);
  EXPECT_EQ(Inv.AmdArchOption,
            (std::vector<std::string>{"gfx90a", "gfx1030"}));
  EXPECT_EQ(Inv.DeviceCompiler, "clang");
}

TEST(NvccOptions, Errors) {
  EXPECT_EQ(parseError({"-fPIC", "a.cu"}), "unknown option '-fPIC'");
  EXPECT_EQ(parseError({"--no-such-flag"}), "unknown option '--no-such-flag'");
  EXPECT_EQ(parseError({"a.cu", "-o"}), "option '-o' needs a value");
  EXPECT_EQ(parseError({"-c=1"}), "option '-c=1' takes no value");
  EXPECT_NE(parseError({"-arch=gfx90a"}).find("'gfx90a' is not a GPU"),
            std::string::npos);
  EXPECT_NE(parseError({"-rdc=maybe"}).find("true or false"),
            std::string::npos);
  EXPECT_NE(parseError({"-std=c++99"}).find("-std takes"), std::string::npos);
  EXPECT_NE(parseError({"-code=sm_80"}).find("-code needs -arch"),
            std::string::npos);
  EXPECT_NE(parseError({"--cuhip-backend=gpu"}).find("amd or cpu"),
            std::string::npos);
}

TEST(NvccOptions, ResponseFiles) {
  std::string Path = ::testing::TempDir() + "/nvcc-options.rsp";
  std::string Inner = ::testing::TempDir() + "/nvcc-inner.rsp";
  {
    std::ofstream(Inner) << "-DFROM_INNER=\"a b\"\n";
    std::ofstream(Path) << "-I/with\\ space -c\n'quoted arg.cu' @" << Inner
                        << "\n";
  }
  std::vector<std::string> Args = {"-O2", "@" + Path, "-o", "x.o"};
  std::string Err;
  ASSERT_TRUE(expandResponseFiles(Args, Err)) << Err;
  EXPECT_EQ(Args, (std::vector<std::string>{"-O2", "-I/with space", "-c",
                                            "quoted arg.cu",
                                            "-DFROM_INNER=a b", "-o", "x.o"}));
  Args = {"@" + ::testing::TempDir() + "/does-not-exist.rsp"};
  EXPECT_FALSE(expandResponseFiles(Args, Err));
  EXPECT_NE(Err.find("cannot read response file"), std::string::npos);
  // A file that includes itself stops with an error, not a hang.
  std::ofstream(Path) << "@" << Path << "\n";
  Args = {"@" + Path};
  EXPECT_FALSE(expandResponseFiles(Args, Err));
  EXPECT_NE(Err.find("nests more than 16 deep"), std::string::npos);
}

} // namespace
