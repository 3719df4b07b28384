//===- FaultTest.cpp - Memory faults in kernel code and memcheck ----------===//
//
// A fault inside a guarded block (on the calling thread or another one,
// including a stack overflow) ends that block with TrapIllegalAddress and
// the faulting address; a fault outside a block still reaches the handler
// the program installed before, or ends the process where that is the
// default action (both in fresh processes, as the handler is installed
// once per process). cuhip_memcheck accepts exactly the memory a launch
// describes.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"

#include <gtest/gtest.h>

#include <csetjmp>
#include <csignal>
#include <cstring>
#include <thread>

#include <unistd.h>

using namespace cuhip::ptx::host;

namespace {

constexpr uintptr_t Unmapped = 0x1000;

void faultingBlock(const void *, BlockContext *) {
  *reinterpret_cast<volatile int *>(Unmapped) = 1;
}

// Recursion that cannot become a loop: each frame is used after the call.
[[gnu::noinline]] int recurse(volatile char *Up, int Depth) {
  volatile char Frame[1024];
  Frame[0] = Up ? Up[0] + 1 : 0;
  int R = Depth > 0 ? recurse(Frame, Depth - 1) : 0;
  return R + Frame[0];
}
void overflowingBlock(const void *, BlockContext *) {
  recurse(nullptr, 1 << 30);
}

void fineBlock(const void *Params, BlockContext *) {
  *static_cast<int *>(const_cast<void *>(Params)) = 42;
}

void programHandler(int, siginfo_t *, void *) { _exit(7); }

void installProgramHandler() {
  struct sigaction A {};
  A.sa_sigaction = programHandler;
  A.sa_flags = SA_SIGINFO;
  sigemptyset(&A.sa_mask);
  sigaction(SIGSEGV, &A, nullptr);
}

BlockTrap runBlock(BlockFunction Fn, void *Params = nullptr) {
  BlockContext Ctx;
  std::memset(&Ctx, 0, sizeof(Ctx));
  BlockTrap T;
  runBlockGuarded(Fn, Params, &Ctx, &T);
  return T;
}

} // namespace

TEST(FaultTest, FaultInBlockEndsTheBlock) {
  installFaultHandler();
  BlockTrap T = runBlock(faultingBlock);
  EXPECT_EQ(T.Code, TrapIllegalAddress);
  EXPECT_EQ(T.Signal, SIGSEGV);
  EXPECT_EQ(T.Address, Unmapped);
  // The thread runs blocks normally afterwards.
  int Out = 0;
  EXPECT_EQ(runBlock(fineBlock, &Out).Code, TrapNone);
  EXPECT_EQ(Out, 42);
  // And faults again the same way (the signal is not left blocked).
  EXPECT_EQ(runBlock(faultingBlock).Code, TrapIllegalAddress);
}

TEST(FaultTest, FaultOnAnotherThread) {
  installFaultHandler();
  BlockTrap T;
  std::thread W([&] { T = runBlock(faultingBlock); });
  W.join();
  EXPECT_EQ(T.Code, TrapIllegalAddress);
  EXPECT_EQ(T.Address, Unmapped);
}

TEST(FaultTest, StackOverflowInBlock) {
  installFaultHandler();
  BlockTrap T;
  std::thread W([&] { T = runBlock(overflowingBlock); });
  W.join();
  EXPECT_EQ(T.Code, TrapIllegalAddress);
  EXPECT_EQ(T.Signal, SIGSEGV);
}

TEST(FaultTest, FaultOutsideBlocksReachesTheProgramsHandler) {
  GTEST_FLAG_SET(death_test_style, "threadsafe"); // a fresh process
  EXPECT_EXIT(
      {
        installProgramHandler();
        installFaultHandler();
        // Blocks are guarded; the program's handler sees the host's fault.
        if (runBlock(faultingBlock).Code != TrapIllegalAddress)
          _exit(1);
        *reinterpret_cast<volatile int *>(Unmapped) = 1;
        _exit(2);
      },
      testing::ExitedWithCode(7), "");
}

TEST(FaultTest, DefaultActionStillEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        signal(SIGSEGV, SIG_DFL);
        installFaultHandler();
        if (runBlock(faultingBlock).Code != TrapIllegalAddress)
          _exit(1);
        *reinterpret_cast<volatile int *>(Unmapped) = 1;
        _exit(2);
      },
      testing::KilledBySignal(SIGSEGV), "");
}

namespace {
struct CheckCall {
  uint64_t Address;
  uint32_t Kind;
  BlockContext *Ctx;
};
void checkBlock(const void *Params, BlockContext *Ctx) {
  const CheckCall *C = static_cast<const CheckCall *>(Params);
  cuhip_memcheck(C->Address, C->Kind, Ctx, 1, 2, 3, "k+test.ptx:7");
}
} // namespace

TEST(FaultTest, MemcheckAcceptsExactlyTheLaunchsMemory) {
  alignas(64) static uint8_t Device[256], Shared[64], Frames[128];
  MemRange Live[] = {{reinterpret_cast<uint64_t>(Device), 100}};
  MemRange Freed[] = {{reinterpret_cast<uint64_t>(Device) + 128, 64}};
  MemcheckLaunch L;
  L.Live = Live;
  L.NumLive = 1;
  L.Freed = Freed;
  L.NumFreed = 1;
  L.SharedBytes = 48;
  L.FrameBytes = sizeof(Frames);
  BlockContext Ctx;
  std::memset(&Ctx, 0, sizeof(Ctx));
  Ctx.Shared = Shared;
  Ctx.Frames = Frames;
  Ctx.Memcheck = &L;
  auto run = [&](uint64_t Address, uint32_t Kind) {
    CheckCall C{Address, Kind, &Ctx};
    BlockTrap T;
    L.Reported = true; // keep the test's output quiet
    runBlockGuarded(checkBlock, &C, &Ctx, &T);
    return T;
  };
  uint64_t D = reinterpret_cast<uint64_t>(Device);
  uint64_t S = reinterpret_cast<uint64_t>(Shared);
  uint32_t GlobalWrite4 = AccessGlobal | AccessWrite | 4;
  EXPECT_EQ(run(D, GlobalWrite4).Code, TrapNone);
  EXPECT_EQ(run(D + 96, GlobalWrite4).Code, TrapNone);
  EXPECT_EQ(run(D + 97, GlobalWrite4).Code, TrapIllegalAddress); // straddles
  EXPECT_EQ(run(D + 100, GlobalWrite4).Code, TrapIllegalAddress);
  EXPECT_EQ(run(D + 130, GlobalWrite4).Code, TrapIllegalAddress); // freed
  EXPECT_EQ(run(D - 4, GlobalWrite4).Code, TrapIllegalAddress);
  // Shared: inside the block's 48 bytes, reported as an offset.
  uint32_t SharedRead8 = AccessShared | AccessRead | 8;
  EXPECT_EQ(run(S + 40, SharedRead8).Code, TrapNone);
  BlockTrap T = run(S + 44, SharedRead8);
  EXPECT_EQ(T.Code, TrapIllegalAddress);
  EXPECT_EQ(T.Address, 44u);
  // Generic accesses may also reach the block's own memory, global ones not.
  EXPECT_EQ(run(reinterpret_cast<uint64_t>(Frames) + 8,
                AccessGeneric | AccessRead | 4)
                .Code,
            TrapNone);
  EXPECT_EQ(run(reinterpret_cast<uint64_t>(Frames) + 8,
                AccessGlobal | AccessRead | 4)
                .Code,
            TrapIllegalAddress);
  EXPECT_EQ(run(S, AccessGeneric | AccessAtomic | 4).Code, TrapNone);
  // Registered module variables are accepted wherever they lie.
  alignas(8) static uint8_t Variable[16];
  MemRange Var{reinterpret_cast<uint64_t>(Variable), sizeof(Variable)};
  EXPECT_EQ(run(Var.Base + 8, GlobalWrite4).Code, TrapIllegalAddress);
  registerMemcheckRanges(&Var, 1);
  EXPECT_EQ(run(Var.Base + 8, GlobalWrite4).Code, TrapNone);
  EXPECT_EQ(run(Var.Base + 16, GlobalWrite4).Code, TrapIllegalAddress);
}
