//===- RdcTest.cpp - Registration of a device-linked (-rdc) program ------===//
//
// Registers hand-built fatbins the way the host stub of `nvcc -rdc=true`
// does: one version 2 wrapper whose last field lists the per-file
// containers, then kernels and variables of every file against the one
// handle. A kernel of one file calling a function of another runs; a
// variable defined in another file is reached by cudaMemcpyToSymbol; an
// unresolved extern fails the launch with cudaErrorInvalidPtx; a file whose
// PTX does not lower and that nothing refers to is left out.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace cuhip::rt;

namespace {

/// A container with one uncompressed PTX entry.
std::vector<uint8_t> ptxContainer(const std::string &Ptx) {
  std::vector<uint8_t> Payload(Ptx.begin(), Ptx.end());
  Payload.push_back(0);
  while (Payload.size() % 8)
    Payload.push_back(0);
  std::vector<uint8_t> Entry(80, 0), C(16, 0);
  auto put = [](std::vector<uint8_t> &V, size_t O, uint64_t X, size_t N) {
    std::memcpy(&V[O], &X, N);
  };
  put(Entry, 0, 1, 2);        // PTX
  put(Entry, 2, 0x0101, 2);
  put(Entry, 4, 80, 4);       // header size
  put(Entry, 8, Payload.size(), 8);
  put(Entry, 26, 9, 2);       // ISA 9.0
  put(Entry, 28, 75, 4);      // sm_75
  put(Entry, 40, 0x11, 8);    // 64-bit, Linux
  put(Entry, 56, Ptx.size() + 1, 8);
  put(C, 0, 0xBA55ED50u, 4);
  put(C, 4, 1, 2);
  put(C, 6, 16, 2);
  put(C, 8, Entry.size() + Payload.size(), 8);
  C.insert(C.end(), Entry.begin(), Entry.end());
  C.insert(C.end(), Payload.begin(), Payload.end());
  return C;
}

/// The device-linked program: an empty linked image and its file list.
struct LinkedProgram {
  std::vector<std::vector<uint8_t>> Files;
  std::vector<const void *> List;
  std::vector<uint8_t> Linked;
  struct Wrapper {
    uint32_t Magic, Version;
    const void *Data;
    const void *Extra;
  } W;

  explicit LinkedProgram(const std::vector<std::string> &Ptx) {
    for (const std::string &P : Ptx)
      Files.push_back(ptxContainer(P));
    for (const auto &F : Files)
      List.push_back(F.data());
    List.push_back(nullptr);
    Linked.assign(16, 0);
    uint32_t Magic = 0xBA55ED50u;
    uint16_t One = 1, Sixteen = 16;
    std::memcpy(&Linked[0], &Magic, 4);
    std::memcpy(&Linked[4], &One, 2);
    std::memcpy(&Linked[6], &Sixteen, 2);
    W = {0x466243B1u, 2, Linked.data(), List.data()};
  }
};

const std::string Header = ".version 9.0\n.target sm_75\n.address_size 64\n";

const std::string MainFile = Header + R"(
.extern .func (.param .b32 r) plusBias(.param .b32 x);
.visible .entry applyBias(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  {
  .param .b32 p;
  .param .b32 r;
  st.param.b32 [p], %r1;
  call (r), plusBias, (p);
  ld.param.b32 %r2, [r];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

const std::string BiasFile = Header + R"(
.visible .global .align 4 .u32 bias = 5;
.visible .func (.param .b32 r) plusBias(.param .b32 x)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [x];
  ld.global.u32 %r2, [bias];
  add.s32 %r3, %r1, %r2;
  st.param.b32 [r], %r3;
  ret;
}
)";

// Like the device runtime library's unit: registered kernels, nothing refers
// to it, and it does not lower.
const std::string LibraryFile = Header + R"(
.visible .entry libraryKernel()
{
  pmevent 1;
  ret;
}
)";

void stubApplyBias() {}
void stubLibraryKernel() {}
int HostBias; // the host shadow of `bias`
void stubLonely() {}

TEST(Rdc, KernelsAndVariablesOfEveryFileResolve) {
  static LinkedProgram P({MainFile, BiasFile, LibraryFile});
  Runtime &R = Runtime::get();
  void **H = R.registerFatBinary(&P.W);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubApplyBias),
                     "applyBias");
  R.registerVar(H, &HostBias, "bias", 4, false);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubLibraryKernel),
                     "libraryKernel");
  R.registerFatBinaryEnd(H);

  unsigned Bias = 100;
  ASSERT_EQ(R.memcpyToSymbol(&HostBias, &Bias, 4, 0, CopyKind::HostToDevice,
                             nullptr, false),
            cudaSuccess);
  void *D = nullptr;
  ASSERT_EQ(R.malloc(&D, 32 * 4), cudaSuccess);
  Kernel *K =
      R.kernelForHostFunction(reinterpret_cast<const void *>(&stubApplyBias));
  ASSERT_NE(K, nullptr);
  void *Args[] = {&D};
  EXPECT_EQ(R.launch(K, {1, 1, 1}, {32, 1, 1}, Args, 0, nullptr), cudaSuccess);
  std::vector<uint32_t> Out(32);
  ASSERT_EQ(R.memcpy(Out.data(), D, 32 * 4, CopyKind::DeviceToHost),
            cudaSuccess);
  for (unsigned I = 0; I < 32; ++I)
    EXPECT_EQ(Out[I], I + 100) << I;
  unsigned Back = 0;
  ASSERT_EQ(R.memcpyFromSymbol(&Back, &HostBias, 4, 0, CopyKind::DeviceToHost,
                               nullptr, false),
            cudaSuccess);
  EXPECT_EQ(Back, 100u);
  EXPECT_EQ(R.free(D), cudaSuccess);
  EXPECT_EQ(R.getLastError(), cudaSuccess);

  // The left-out file's kernel cannot launch; the program goes on.
  Kernel *Lib = R.kernelForHostFunction(
      reinterpret_cast<const void *>(&stubLibraryKernel));
  ASSERT_NE(Lib, nullptr);
  EXPECT_NE(R.launch(Lib, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr),
            cudaSuccess);
  R.getLastError();
  EXPECT_EQ(R.synchronize(), cudaSuccess);
}

TEST(Rdc, UnresolvedExternFailsTheLaunch) {
  static LinkedProgram P({MainFile});
  Runtime &R = Runtime::get();
  void **H = R.registerFatBinary(&P.W);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubLonely),
                     "applyBias");
  R.registerFatBinaryEnd(H);
  Kernel *K =
      R.kernelForHostFunction(reinterpret_cast<const void *>(&stubLonely));
  ASSERT_NE(K, nullptr);
  void *D = nullptr;
  void *Args[] = {&D};
  EXPECT_EQ(R.launch(K, {1, 1, 1}, {1, 1, 1}, Args, 0, nullptr),
            cudaErrorInvalidPtx);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidPtx);
}

} // namespace
