//===- CompileCacheTest.cpp - The host target's on-disk compile cache -----===//
//
// Compiles a small kernel with the cache on, loads it back in a fresh
// compiler (as a second process would), and checks that a changed PTX byte
// misses, that truncated, damaged or unloadable entries are misses that
// recompile into a working kernel, that entries are replaced atomically,
// and that an unusable directory turns the cache off with one warning.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"

#include "host/CompileCache.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

using namespace cuhip::ptx;

namespace {

const char *KernelPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 add)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [add];
  mov.u32 %r2, %tid.x;
  mad.lo.u32 %r3, %r2, 3, %r1;
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

/// A cache directory of its own for each test, removed afterwards.
class CompileCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cuhip-cache-test", D));
    Dir = D.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// A compiler as a new process would have it, logging into Log.
  std::unique_ptr<host::HostCompiler> newCompiler(const std::string &CacheDir) {
    auto HC = host::HostCompiler::create();
    if (!HC) {
      ADD_FAILURE() << llvm::toString(HC.takeError());
      return nullptr;
    }
    (*HC)->enableCompileCache(CacheDir, [this](bool Warning, const std::string &M) {
      (Warning ? Warnings : Log) += M + "\n";
    });
    return std::move(*HC);
  }

  /// Parses, lowers and compiles Ptx, storing it in the cache.
  std::vector<host::CompiledKernel> compile(host::HostCompiler &HC,
                                            const std::string &Ptx) {
    DiagnosticEngine Diags("test.ptx");
    auto M = parseModule(Ptx, Diags);
    EXPECT_TRUE(M) << Diags.formatAll();
    if (!M)
      return {};
    auto Ctx = std::make_unique<llvm::LLVMContext>();
    auto L = lowerModule(*M, *Ctx, Diags);
    EXPECT_TRUE(L) << Diags.formatAll();
    if (!L)
      return {};
    auto K = HC.compile(std::move(Ctx), std::move(*L), "test.ptx", Ptx);
    if (!K) {
      ADD_FAILURE() << llvm::toString(K.takeError());
      return {};
    }
    return std::move(*K);
  }

  /// Runs the kernel with 32 threads and checks out[i] == 3 * i + Add.
  void expectWorks(const std::vector<host::CompiledKernel> &Ks, uint32_t Add) {
    ASSERT_EQ(Ks.size(), 1u);
    const host::CompiledKernel &K = Ks[0];
    ASSERT_NE(K.Fn, nullptr);
    EXPECT_EQ(K.Info.Name, "k");
    ASSERT_EQ(K.Info.Params.size(), 2u);
    EXPECT_EQ(K.Info.Params[1].Offset, 8u);
    EXPECT_EQ(K.Info.Params[1].Size, 4u);
    EXPECT_EQ(K.Info.ParamBufferSize, 16u);
    std::vector<uint32_t> Out(32, 0xdeadbeef);
    uint8_t Params[16] = {};
    uint32_t *P = Out.data();
    std::memcpy(Params, &P, 8);
    std::memcpy(Params + 8, &Add, 4);
    std::vector<uint8_t> Frames(size_t(K.Layout.FrameBytesPerThread) * 32 + 16);
    std::vector<uint8_t> Shared(K.Layout.StaticSharedBytes + 64);
    host::BlockContext Ctx;
    std::memset(&Ctx, 0, sizeof(Ctx));
    Ctx.NCtaId[0] = Ctx.NCtaId[1] = Ctx.NCtaId[2] = 1;
    Ctx.NTid[0] = 32;
    Ctx.NTid[1] = Ctx.NTid[2] = 1;
    Ctx.Frames = Frames.data();
    Ctx.Shared = Shared.data();
    EXPECT_EQ(host::runBlockGuarded(K.Fn, Params, &Ctx), host::TrapNone);
    for (uint32_t I = 0; I < 32; ++I)
      EXPECT_EQ(Out[I], 3 * I + Add) << "thread " << I;
  }

  /// The files in the cache directory.
  std::vector<std::string> files() {
    std::vector<std::string> Names;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      Names.push_back(llvm::sys::path::filename(It->path()).str());
    return Names;
  }

  std::string entryPath() {
    auto Names = files();
    EXPECT_EQ(Names.size(), 1u);
    return Names.empty() ? std::string() : Dir + "/" + Names[0];
  }

  std::string read(const std::string &Path) {
    auto B = llvm::MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : std::string();
  }
  void write(const std::string &Path, const std::string &Data) {
    std::ofstream(Path, std::ios::binary | std::ios::trunc) << Data;
  }

  std::string Dir, Log, Warnings;
};

TEST_F(CompileCacheTest, MissThenHitInANewCompiler) {
  auto HC1 = newCompiler(Dir);
  ASSERT_TRUE(HC1 && HC1->compileCacheEnabled());
  EXPECT_FALSE(HC1->loadCached(KernelPtx, "test.ptx"));
  EXPECT_NE(Log.find("compile cache miss for test.ptx"), std::string::npos) << Log;
  expectWorks(compile(*HC1, KernelPtx), 5);
  // One entry and no temporary left behind.
  auto Names = files();
  ASSERT_EQ(Names.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(Names[0]).ends_with(".cuhipobj")) << Names[0];

  Log.clear();
  auto HC2 = newCompiler(Dir);
  auto Hit = HC2->loadCached(KernelPtx, "test.ptx");
  ASSERT_TRUE(Hit) << Log;
  EXPECT_NE(Log.find("compile cache hit for test.ptx"), std::string::npos) << Log;
  expectWorks(*Hit, 11);
  EXPECT_EQ(Warnings, "");
}

TEST_F(CompileCacheTest, KeyIsSensitiveToEveryInput) {
  std::string Base = host::compileCacheKey("ptx", "x86_64", "znver4", "+avx", "O3");
  EXPECT_EQ(Base.size(), 64u);
  EXPECT_EQ(Base, host::compileCacheKey("ptx", "x86_64", "znver4", "+avx", "O3"));
  EXPECT_NE(Base, host::compileCacheKey("ptX", "x86_64", "znver4", "+avx", "O3"));
  EXPECT_NE(Base, host::compileCacheKey("ptx", "x86_64", "znver3", "+avx", "O3"));
  EXPECT_NE(Base, host::compileCacheKey("ptx", "x86_64", "znver4", "-avx", "O3"));
  EXPECT_NE(Base, host::compileCacheKey("ptx", "x86_64", "znver4", "+avx", "O2"));
  // Bytes moved between fields do not collide.
  EXPECT_NE(host::compileCacheKey("ab", "c", "", "", ""),
            host::compileCacheKey("a", "bc", "", "", ""));

  auto HC = newCompiler(Dir);
  expectWorks(compile(*HC, KernelPtx), 1);
  std::string Changed = KernelPtx;
  Changed[Changed.find("3, %r1")] = '5'; // mad by 5: a different kernel
  EXPECT_FALSE(HC->loadCached(Changed, "test.ptx"));
  EXPECT_TRUE(HC->loadCached(KernelPtx, "test.ptx"));
}

TEST_F(CompileCacheTest, CorruptEntriesRecompile) {
  auto HC = newCompiler(Dir);
  expectWorks(compile(*HC, KernelPtx), 2);
  std::string Path = entryPath();
  std::string Good = read(Path);
  ASSERT_GT(Good.size(), 100u);

  struct Damage {
    const char *What;
    std::string Data;
  };
  std::string BadHeader = Good;
  BadHeader[0] ^= 0x20;
  std::string BadObject = Good;
  BadObject[Good.size() / 2] ^= 1;
  std::string BadVersion = Good;
  BadVersion[8] = 99;
  for (const Damage &D : {Damage{"empty", ""},
                          Damage{"truncated", Good.substr(0, Good.size() / 2)},
                          Damage{"one byte short", Good.substr(0, Good.size() - 1)},
                          Damage{"header flipped", BadHeader},
                          Damage{"object byte flipped", BadObject},
                          Damage{"other format version", BadVersion}}) {
    SCOPED_TRACE(D.What);
    write(Path, D.Data);
    Log.clear();
    auto Fresh = newCompiler(Dir);
    EXPECT_FALSE(Fresh->loadCached(KernelPtx, "test.ptx"));
    if (!D.Data.empty()) {
      EXPECT_NE(Log.find("ignoring"), std::string::npos) << Log;
    }
    // The miss compiles, works, and replaces the damaged entry.
    expectWorks(compile(*Fresh, KernelPtx), 7);
    EXPECT_EQ(read(Path), Good);
    auto Again = newCompiler(Dir);
    auto Hit = Again->loadCached(KernelPtx, "test.ptx");
    ASSERT_TRUE(Hit);
    expectWorks(*Hit, 9);
  }
  EXPECT_EQ(Warnings, "");
}

TEST_F(CompileCacheTest, ObjectThatDoesNotLoadIsAMiss) {
  auto HC = newCompiler(Dir);
  expectWorks(compile(*HC, KernelPtx), 2);
  std::string Path = entryPath();
  std::string Why;
  auto E = host::parseCompileCacheEntry(read(Path), Why);
  ASSERT_TRUE(E) << Why;
  // A well-formed entry whose object is not an object: the checksum holds,
  // so only loading it can tell.
  E->Object = "not an ELF object";
  write(Path, host::serializeCompileCacheEntry(*E));
  auto Fresh = newCompiler(Dir);
  EXPECT_FALSE(Fresh->loadCached(KernelPtx, "test.ptx"));
  EXPECT_NE(Log.find("does not load"), std::string::npos) << Log;
  expectWorks(compile(*Fresh, KernelPtx), 4);
  // A block function missing from a real object is a miss too.
  E = host::parseCompileCacheEntry(read(Path), Why);
  ASSERT_TRUE(E) << Why;
  E->Kernels[0].Layout.BlockFunctionName = "no_such_function";
  write(Path, host::serializeCompileCacheEntry(*E));
  auto Other = newCompiler(Dir);
  EXPECT_FALSE(Other->loadCached(KernelPtx, "test.ptx"));
  expectWorks(compile(*Other, KernelPtx), 6);
}

TEST_F(CompileCacheTest, EntriesRoundTrip) {
  host::CompileCacheEntry E;
  host::CompiledKernel K;
  K.Info.Name = "kern";
  K.Info.Params = {{"a", 0, 8, 8}, {"b", 8, 24, 16}};
  K.Info.ParamBufferSize = 32;
  K.Info.StaticSharedBytes = 1024;
  K.Info.UsesDynamicShared = true;
  K.Info.ReqNTid[0] = 128;
  K.Info.MaxNTid[2] = 4;
  K.Layout = {"kern", "kern.block", 96, 1024, 32, 3};
  E.Kernels = {K, K};
  E.Kernels[1].Info.Name = "";
  E.Object = std::string("\0\x7f" "ELF", 5);
  std::string Why;
  auto R = host::parseCompileCacheEntry(host::serializeCompileCacheEntry(E), Why);
  ASSERT_TRUE(R) << Why;
  ASSERT_EQ(R->Kernels.size(), 2u);
  const auto &I = R->Kernels[0].Info;
  EXPECT_EQ(I.Name, "kern");
  ASSERT_EQ(I.Params.size(), 2u);
  EXPECT_EQ(I.Params[1].Name, "b");
  EXPECT_EQ(I.Params[1].Offset, 8u);
  EXPECT_EQ(I.Params[1].Size, 24u);
  EXPECT_EQ(I.Params[1].Align, 16u);
  EXPECT_EQ(I.ParamBufferSize, 32u);
  EXPECT_EQ(I.StaticSharedBytes, 1024u);
  EXPECT_TRUE(I.UsesDynamicShared);
  EXPECT_EQ(I.ReqNTid[0], 128u);
  EXPECT_EQ(I.MaxNTid[2], 4u);
  const auto &L = R->Kernels[0].Layout;
  EXPECT_EQ(L.BlockFunctionName, "kern.block");
  EXPECT_EQ(L.FrameBytesPerThread, 96u);
  EXPECT_EQ(L.SharedAlign, 32u);
  EXPECT_EQ(L.NumRegions, 3u);
  EXPECT_EQ(R->Kernels[1].Info.Name, "");
  EXPECT_EQ(R->Object, E.Object);
}

TEST_F(CompileCacheTest, ReplacementIsAtomic) {
  auto HC = newCompiler(Dir);
  // A temporary left by a writer that died is never read as an entry.
  expectWorks(compile(*HC, KernelPtx), 1);
  std::string Path = entryPath();
  std::string Good = read(Path);
  write(Path + ".tmp-deadbeef", Good.substr(0, 10));
  // Storing again replaces the entry in one step: every read sees a whole
  // entry, and no temporary of ours stays.
  host::CompileCache C(Dir, nullptr);
  std::string Key = llvm::sys::path::stem(Path).str();
  std::string Why;
  auto E = host::parseCompileCacheEntry(Good, Why);
  ASSERT_TRUE(E) << Why;
  E->Kernels[0].Layout.NumRegions = 42;
  C.store(Key, *E);
  auto Reloaded = C.load(Key);
  ASSERT_TRUE(Reloaded);
  EXPECT_EQ(Reloaded->Kernels[0].Layout.NumRegions, 42u);
  EXPECT_EQ(files().size(), 2u); // the entry and the stale temporary
  auto Fresh = newCompiler(Dir);
  EXPECT_TRUE(Fresh->loadCached(KernelPtx, "test.ptx"));
}

TEST_F(CompileCacheTest, UnusableDirectoryDisablesWithOneWarning) {
  // A directory below a regular file can never be created, even by root.
  std::string File = Dir + "/plain-file";
  write(File, "x");
  auto HC = newCompiler(File + "/cache");
  EXPECT_FALSE(HC->compileCacheEnabled());
  EXPECT_NE(Warnings.find("compile cache disabled"), std::string::npos);
  EXPECT_EQ(std::count(Warnings.begin(), Warnings.end(), '\n'), 1);
  EXPECT_FALSE(HC->loadCached(KernelPtx, "test.ptx"));
  expectWorks(compile(*HC, KernelPtx), 3);
  expectWorks(compile(*HC, KernelPtx), 3);
  EXPECT_EQ(std::count(Warnings.begin(), Warnings.end(), '\n'), 1);
}

TEST_F(CompileCacheTest, DirectoryFromTheEnvironment) {
  std::string Saved[3];
  const char *Names[3] = {"CUHIP_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
  bool Had[3];
  for (int I = 0; I < 3; ++I)
    if ((Had[I] = std::getenv(Names[I])))
      Saved[I] = std::getenv(Names[I]);
  setenv("CUHIP_CACHE_DIR", "off", 1);
  EXPECT_EQ(host::compileCacheDirectory(), "");
  setenv("CUHIP_CACHE_DIR", "/some/dir", 1);
  EXPECT_EQ(host::compileCacheDirectory(), "/some/dir");
  unsetenv("CUHIP_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(host::compileCacheDirectory(), "/xdg/cuhip");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(host::compileCacheDirectory(), "/home/u/.cache/cuhip");
  for (int I = 0; I < 3; ++I)
    if (Had[I])
      setenv(Names[I], Saved[I].c_str(), 1);
    else
      unsetenv(Names[I]);
  // An empty directory is no cache at all, and says nothing.
  auto HC = newCompiler("");
  EXPECT_FALSE(HC->compileCacheEnabled());
  EXPECT_EQ(Warnings, "");
}

} // namespace
