//===- DriverMemOpsTest.cpp - Stream memory operations through cuda.h -----===//
//
// cuStreamWaitValue32/64, cuStreamWriteValue32/64 and cuStreamBatchMemOp:
// a wait holds its stream (and only it) until the host, another stream or
// a kernel makes the word satisfy the condition; each condition, the
// cyclic comparison, writes in stream order, batches, registered host
// memory, every exported name of each operation, capture into a graph that
// replays them, and the documented errors. Streams that wait are
// non-blocking, so that the synchronous calls which release them (on the
// legacy stream) do not wait for them.
//
//===----------------------------------------------------------------------===//
#include "DriverTestKernels.h"

#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

namespace {

using cuhip::test::AddPtx;

template <typename Fn> Fn exported(const char *Name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, Name));
}

/// Long enough for a stream that could run to have run.
void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }

/// cuStreamSynchronize for a stream that waits on memory, giving up after
/// ten seconds: a wait that never ends would hang the test program (and
/// every later call that waits for the device), so it ends it instead.
CUresult finish(CUstream S) {
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  CUresult R;
  while ((R = cuStreamQuery(S)) == CUDA_ERROR_NOT_READY) {
    if (std::chrono::steady_clock::now() > Deadline) {
      std::fprintf(stderr, "a stream memory wait did not end\n");
      std::abort();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return R;
}

class DriverMemOps : public ::testing::Test {
protected:
  void SetUp() override {
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&Ctx, 0));
    CHECK_CU(cuCtxSetCurrent(Ctx));
    CHECK_CU(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
    CHECK_CU(cuMemAlloc(&Words, 256));
    CHECK_CU(cuMemsetD8(Words, 0, 256));
  }
  void TearDown() override {
    cuMemFree(Words);
    cuStreamDestroy(S);
    cuDevicePrimaryCtxRelease(0);
  }

  uint32_t read32(CUdeviceptr P) {
    uint32_t V = 0;
    EXPECT_EQ(cuMemcpyDtoH(&V, P, 4), CUDA_SUCCESS);
    return V;
  }
  uint64_t read64(CUdeviceptr P) {
    uint64_t V = 0;
    EXPECT_EQ(cuMemcpyDtoH(&V, P, 8), CUDA_SUCCESS);
    return V;
  }
  void set32(CUdeviceptr P, uint32_t V) {
    ASSERT_EQ(cuMemsetD32(P, V, 1), CUDA_SUCCESS);
  }
  void set64(CUdeviceptr P, uint64_t V) {
    ASSERT_EQ(cuMemcpyHtoD(P, &V, 8), CUDA_SUCCESS);
  }

  CUcontext Ctx = nullptr;
  CUstream S = nullptr;
  CUdeviceptr Words = 0; // 256 bytes of device memory, zeroed
};

TEST_F(DriverMemOps, WaitHoldsOnlyItsStreamUntilTheHostWrites) {
  CUdeviceptr Flag = Words, Done = Words + 8, Other = Words + 16;
  CHECK_CU(cuStreamWaitValue32(S, Flag, 1, CU_STREAM_WAIT_VALUE_GEQ));
  CHECK_CU(cuStreamWriteValue32(S, Done, 7, CU_STREAM_WRITE_VALUE_DEFAULT));
  settle();
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
  EXPECT_EQ(read32(Done), 0u);
  // Other streams go on meanwhile.
  CUstream T;
  CHECK_CU(cuStreamCreate(&T, CU_STREAM_NON_BLOCKING));
  CHECK_CU(cuStreamWriteValue32(T, Other, 9, 0));
  CHECK_CU(cuStreamSynchronize(T));
  EXPECT_EQ(read32(Other), 9u);
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
  set32(Flag, 1);
  CHECK_CU(finish(S));
  EXPECT_EQ(read32(Done), 7u);
  CHECK_CU(cuStreamDestroy(T));
}

TEST_F(DriverMemOps, AnotherStreamReleasesAWaitAfterAKernel) {
  CUmodule M;
  CHECK_CU(cuModuleLoadData(&M, AddPtx));
  CUfunction AddOne;
  CHECK_CU(cuModuleGetFunction(&AddOne, M, "add_one"));
  CUdeviceptr Flag = Words, Counter = Words + 8, Result = Words + 16;
  set32(Counter, 41);
  // The waiting stream copies the counter once the other stream's kernel
  // has run and it has signalled.
  CHECK_CU(cuStreamWaitValue64(S, Flag, 42, CU_STREAM_WAIT_VALUE_EQ));
  CHECK_CU(cuMemcpyDtoDAsync(Result, Counter, 4, S));
  settle();
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
  CUstream T;
  CHECK_CU(cuStreamCreate(&T, CU_STREAM_NON_BLOCKING));
  void *Args[] = {&Counter};
  CHECK_CU(cuLaunchKernel(AddOne, 1, 1, 1, 1, 1, 1, 0, T, Args, nullptr));
  CHECK_CU(cuStreamWriteValue64(T, Flag, 42, 0));
  CHECK_CU(finish(S));
  EXPECT_EQ(read32(Result), 42u);
  EXPECT_EQ(read64(Flag), 42u);
  CHECK_CU(cuStreamDestroy(T));
  CHECK_CU(cuModuleUnload(M));
}

// The device says what the CPU backend's stream workers provide: 64-bit
// waits and writes, and the NOR condition.
TEST_F(DriverMemOps, DeviceReportsTheOperations) {
  int V = 0;
  CHECK_CU(cuDeviceGetAttribute(
      &V, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 0));
  EXPECT_EQ(V, 1);
  V = 0;
  CHECK_CU(cuDeviceGetAttribute(
      &V, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, 0));
  EXPECT_EQ(V, 1);
}

TEST_F(DriverMemOps, WaitConditions) {
  struct Case {
    unsigned Condition;
    uint32_t Word, Value;
    bool Holds;
    uint32_t Release; // a word that satisfies the condition
  };
  const Case Cases[] = {
      {CU_STREAM_WAIT_VALUE_GEQ, 5, 5, true, 0},
      {CU_STREAM_WAIT_VALUE_GEQ, 6, 5, true, 0},
      {CU_STREAM_WAIT_VALUE_GEQ, 4, 5, false, 5},
      // Cyclic: 1 is "after" 0xfffffff0, which is "before" 1.
      {CU_STREAM_WAIT_VALUE_GEQ, 1, 0xfffffff0u, true, 0},
      {CU_STREAM_WAIT_VALUE_GEQ, 0xfffffff0u, 1, false, 2},
      {CU_STREAM_WAIT_VALUE_EQ, 3, 3, true, 0},
      {CU_STREAM_WAIT_VALUE_EQ, 4, 3, false, 3},
      {CU_STREAM_WAIT_VALUE_AND, 0xa, 0x2, true, 0},
      {CU_STREAM_WAIT_VALUE_AND, 0xa, 0x4, false, 0x4},
      {CU_STREAM_WAIT_VALUE_NOR, 0xffff0000u, 0x00ff0000u, true, 0},
      {CU_STREAM_WAIT_VALUE_NOR, 0xffff0000u, 0x0000ffffu, false, 0},
  };
  CUdeviceptr Word = Words, Marker = Words + 8;
  unsigned N = 0;
  for (const Case &C : Cases) {
    SCOPED_TRACE(testing::Message()
                 << "case " << N << ": condition " << C.Condition << ", word "
                 << C.Word << ", value " << C.Value);
    set32(Word, C.Word);
    set32(Marker, 0);
    CHECK_CU(cuStreamWaitValue32(S, Word, C.Value, C.Condition));
    CHECK_CU(cuStreamWriteValue32(S, Marker, ++N, 0));
    if (!C.Holds) {
      settle();
      EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
      EXPECT_EQ(read32(Marker), 0u);
      set32(Word, C.Release);
    }
    CHECK_CU(finish(S));
    EXPECT_EQ(read32(Marker), N);
  }
  // The 64-bit comparison is cyclic over 64 bits, and FLUSH is accepted.
  set64(Word, 1);
  CHECK_CU(cuStreamWaitValue64(S, Word, 0xfffffffffffffff0ull,
                               CU_STREAM_WAIT_VALUE_GEQ |
                                   CU_STREAM_WAIT_VALUE_FLUSH));
  CHECK_CU(cuStreamWriteValue64(S, Marker, 0x1234567890ull,
                                CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
  CHECK_CU(finish(S));
  EXPECT_EQ(read64(Marker), 0x1234567890ull);
  // The upper half counts: 0x1'00000000 is not 0.
  set64(Word, 0x100000000ull);
  CHECK_CU(cuStreamWaitValue64(S, Word, 0, CU_STREAM_WAIT_VALUE_EQ));
  CHECK_CU(cuStreamWriteValue64(S, Marker, 1, 0));
  settle();
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
  set64(Word, 0);
  CHECK_CU(finish(S));
  EXPECT_EQ(read64(Marker), 1u);
}

TEST_F(DriverMemOps, HostMemoryAnotherThreadSignals) {
  std::vector<uint32_t> Host(4, 0);
  CHECK_CU(cuMemHostRegister(Host.data(), Host.size() * 4,
                             CU_MEMHOSTREGISTER_DEVICEMAP));
  CUdeviceptr D;
  CHECK_CU(cuMemHostGetDevicePointer(&D, Host.data(), 0));
  CHECK_CU(cuStreamWaitValue32(S, D, 1, CU_STREAM_WAIT_VALUE_EQ));
  CHECK_CU(cuStreamWriteValue32(S, D + 4, 0xbeef, 0));
  settle();
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
  EXPECT_EQ(std::atomic_ref<uint32_t>(Host[1]).load(), 0u);
  std::thread Signal([&] {
    settle();
    std::atomic_ref<uint32_t>(Host[0]).store(1, std::memory_order_release);
  });
  CHECK_CU(finish(S));
  Signal.join();
  EXPECT_EQ(std::atomic_ref<uint32_t>(Host[1]).load(), 0xbeefu);
  // A range that runs past the registered memory is refused.
  EXPECT_EQ(cuStreamWriteValue64(S, D + 16, 1, 0), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemHostUnregister(Host.data()));
  EXPECT_EQ(cuStreamWriteValue32(S, D, 1, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(DriverMemOps, BatchesRunInOrder) {
  CUdeviceptr A = Words, B = Words + 8, C = Words + 16, Gate = Words + 24;
  CUstreamBatchMemOpParams Ops[7];
  std::memset(Ops, 0, sizeof(Ops));
  Ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  Ops[0].writeValue.address = A;
  Ops[0].writeValue.value = 1;
  Ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  Ops[1].waitValue.address = Gate;
  Ops[1].waitValue.value = 5;
  Ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  Ops[2].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
  Ops[2].writeValue.address = B;
  Ops[2].writeValue.value64 = 0x1122334455667788ull;
  Ops[3].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  Ops[3].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
  Ops[4].flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
  Ops[5].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
  Ops[5].waitValue.address = B;
  Ops[5].waitValue.value64 = 0x1122334455667788ull;
  Ops[5].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  Ops[6].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  Ops[6].writeValue.address = C;
  Ops[6].writeValue.value = 3;
  CHECK_CU(cuStreamBatchMemOp(S, 7, Ops, 0));
  // The first write happens, the rest waits at the gate.
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (read32(A) != 1u && std::chrono::steady_clock::now() < Deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(read32(A), 1u);
  settle();
  EXPECT_EQ(read64(B), 0u);
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
  set32(Gate, 5);
  CHECK_CU(finish(S));
  EXPECT_EQ(read64(B), 0x1122334455667788ull);
  EXPECT_EQ(read32(C), 3u);
  CHECK_CU(cuStreamBatchMemOp(S, 0, nullptr, 0)); // nothing to do

  // One bad entry refuses the whole batch: nothing of it runs.
  Ops[0].writeValue.value = 2;
  Ops[6].writeValue.address = C + 2; // unaligned
  EXPECT_EQ(cuStreamBatchMemOp(S, 7, Ops, 0), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(finish(S));
  EXPECT_EQ(read32(A), 1u);
  Ops[6].writeValue.address = C;
  Ops[3].memoryBarrier.flags = 5;
  EXPECT_EQ(cuStreamBatchMemOp(S, 7, Ops, 0), CUDA_ERROR_INVALID_VALUE);
  Ops[3].memoryBarrier.flags = 0;
  Ops[4].flushRemoteWrites.flags = 1;
  EXPECT_EQ(cuStreamBatchMemOp(S, 7, Ops, 0), CUDA_ERROR_INVALID_VALUE);
  Ops[4].flushRemoteWrites.flags = 0;
  Ops[2].operation = CUstreamBatchMemOpType(99);
  EXPECT_EQ(cuStreamBatchMemOp(S, 7, Ops, 0), CUDA_ERROR_INVALID_VALUE);
  Ops[2].operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
  EXPECT_EQ(cuStreamBatchMemOp(S, 7, Ops, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamBatchMemOp(S, 1, nullptr, 0), CUDA_ERROR_INVALID_VALUE);
  std::vector<CUstreamBatchMemOpParams> Many(1000, Ops[0]);
  EXPECT_EQ(cuStreamBatchMemOp(S, 1000, Many.data(), 0),
            CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(finish(S));
  EXPECT_EQ(read32(A), 1u);
}

// Every exported name of each operation: the first API, `_ptsz` (NULL is
// the per-thread stream) and CUDA 11.7's `_v2` pair.
TEST_F(DriverMemOps, EveryEntryPoint) {
  using Op32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
  using Op64 = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned);
  using Batch =
      CUresult (*)(CUstream, unsigned, CUstreamBatchMemOpParams *, unsigned);
  const char *Suffixes[] = {"", "_ptsz", "_v2", "_v2_ptsz"};
  CUdeviceptr Gate = Words; // 1: every wait below holds at once
  set64(Gate, 1);
  unsigned Slot = 1;
  for (const char *Suffix : Suffixes) {
    SCOPED_TRACE(Suffix);
    std::string Sfx = Suffix;
    auto Wait32 = exported<Op32>(("cuStreamWaitValue32" + Sfx).c_str());
    auto Wait64 = exported<Op64>(("cuStreamWaitValue64" + Sfx).c_str());
    auto Write32 = exported<Op32>(("cuStreamWriteValue32" + Sfx).c_str());
    auto Write64 = exported<Op64>(("cuStreamWriteValue64" + Sfx).c_str());
    auto BatchOp = exported<Batch>(("cuStreamBatchMemOp" + Sfx).c_str());
    ASSERT_TRUE(Wait32 && Wait64 && Write32 && Write64 && BatchOp);
    CUdeviceptr P32 = Words + 8 * Slot, P64 = Words + 8 * (Slot + 1),
                PB = Words + 8 * (Slot + 2);
    CHECK_CU(Wait32(nullptr, Gate, 1, CU_STREAM_WAIT_VALUE_EQ));
    CHECK_CU(Wait64(nullptr, Gate, 1, CU_STREAM_WAIT_VALUE_GEQ));
    CHECK_CU(Write32(nullptr, P32, 100 + Slot, 0));
    CHECK_CU(Write64(nullptr, P64, 0x100000000ull + Slot, 0));
    CUstreamBatchMemOpParams Op;
    std::memset(&Op, 0, sizeof(Op));
    Op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    Op.writeValue.address = PB;
    Op.writeValue.value = 200 + Slot;
    CHECK_CU(BatchOp(nullptr, 1, &Op, 0));
    CHECK_CU(cuCtxSynchronize());
    EXPECT_EQ(read32(P32), 100 + Slot);
    EXPECT_EQ(read64(P64), 0x100000000ull + Slot);
    EXPECT_EQ(read32(PB), 200 + Slot);
    Slot += 3;
  }
}

TEST_F(DriverMemOps, CapturedOperationsReplay) {
  CUdeviceptr Gate = Words, Done = Words + 8;
  CHECK_CU(cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK_CU(cuStreamWaitValue32(S, Gate, 1, CU_STREAM_WAIT_VALUE_GEQ));
  CHECK_CU(cuStreamWriteValue32(S, Done, 5, 0));
  CUgraph G;
  CHECK_CU(cuStreamEndCapture(S, &G));
  settle();
  EXPECT_EQ(read32(Done), 0u); // captured, not run
  CUgraphExec E;
  CHECK_CU(cuGraphInstantiate(&E, G, 0));
  CHECK_CU(cuGraphLaunch(E, S));
  settle();
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_NOT_READY);
  set32(Gate, 1);
  CHECK_CU(finish(S));
  EXPECT_EQ(read32(Done), 5u);
  // Every launch runs the operations again.
  set32(Done, 0);
  CHECK_CU(cuGraphLaunch(E, S));
  CHECK_CU(finish(S));
  EXPECT_EQ(read32(Done), 5u);
  CHECK_CU(cuGraphExecDestroy(E));
  CHECK_CU(cuGraphDestroy(G));
}

TEST_F(DriverMemOps, InvalidArguments) {
  // Alignment: 4 bytes for the 32-bit operations, 8 for the 64-bit ones.
  EXPECT_EQ(cuStreamWriteValue32(S, Words + 2, 1, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWaitValue32(S, Words + 1, 0, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWriteValue64(S, Words + 4, 1, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWaitValue64(S, Words + 12, 0, 0), CUDA_ERROR_INVALID_VALUE);
  // Flags: a wait's condition and FLUSH; a write's NO_MEMORY_BARRIER.
  EXPECT_EQ(cuStreamWaitValue32(S, Words, 0, 0x10), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWriteValue32(S, Words, 0, 2), CUDA_ERROR_INVALID_VALUE);
  // Memory the device cannot reach: the host's stack, past an allocation,
  // freed memory.
  uint32_t Stack = 0;
  EXPECT_EQ(cuStreamWriteValue32(S, CUdeviceptr(uintptr_t(&Stack)), 1, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWriteValue32(S, Words + 256, 1, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWriteValue64(S, Words + 256, 1, 0),
            CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr Gone;
  CHECK_CU(cuMemAlloc(&Gone, 64));
  CHECK_CU(cuMemFree(Gone));
  EXPECT_EQ(cuStreamWaitValue32(S, Gone, 0, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(
      cuStreamWriteValue32(reinterpret_cast<CUstream>(0x1234), Words, 1, 0),
      CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(finish(S));
  EXPECT_EQ(Stack, 0u);
  EXPECT_EQ(read32(Words), 0u);
  std::thread([&] {
    EXPECT_EQ(cuStreamWriteValue32(nullptr, Words, 1, 0),
              CUDA_ERROR_INVALID_CONTEXT);
  }).join();
}

} // namespace
