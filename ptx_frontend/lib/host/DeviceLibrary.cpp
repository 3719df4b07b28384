//===- DeviceLibrary.cpp - printf, assert, malloc and traps on the host ---===//
//
// PTX calls a few functions it only declares: vprintf (device printf),
// __assertfail (assert), malloc and free. On the CPU backend they are these
// host functions, called with the same packed argument buffer a GPU
// implementation would read. A trap, a breakpoint or a failed assert ends
// the block by jumping back to the runtime's block loop (a block running
// as a fiber yields its worker from here, keeping its trap context), and so
// does a memory fault in kernel code: a SIGSEGV/SIGBUS handler, installed
// at the first launch (running on an alternate signal stack, so that a
// stack overflow is caught too), jumps back when the faulting thread is
// inside a guarded block, and hands every other fault to the handler that
// was installed before.
//
// Jumping out of a signal handler is safe here because the generated code
// holds no locks and has nothing to unwind. It is not when the fault
// happens inside a C library call the device library made with a lock held.
// printf's and assert's messages are formatted before the output lock is
// taken, so a bad string pointer faults without it; but a heap the kernel
// corrupted can make malloc/free fault with the C heap's lock held: the
// block still ends with cudaErrorIllegalAddress, and a later call that
// needs that lock may then block. A GPU context is unusable after such a
// fault anyway.
//
//===----------------------------------------------------------------------===//
#include "DeviceLibrary.h"

#include "cuhip/ptx/DeviceRuntimeApi.h"
#include "cuhip/ptx/HostTarget.h"

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <malloc.h>
#include <pthread.h>

namespace cuhip::ptx::host {

thread_local TrapContext *CurrentTrap = nullptr;
static_assert(sizeof(TrapContext::JumpBuffer) >= sizeof(std::jmp_buf));

extern "C" [[noreturn]] void cuhip_trap(uint32_t Code) {
  TrapContext *T = CurrentTrap;
  if (!T) {
    std::fprintf(stderr, "cuhip: error: a kernel trapped (code %u) outside a "
                         "guarded block; aborting\n",
                 Code);
    std::abort();
  }
  T->Code = Code;
  std::longjmp(*reinterpret_cast<std::jmp_buf *>(T->JumpBuffer), 1);
}

extern "C" void cuhip_block_yield(BlockContext *Ctx) {
  // Other blocks run on this thread until the scheduler comes back, each
  // under its own trap context; a block never moves to another thread.
  TrapContext *Mine = CurrentTrap;
  Ctx->Fiber->Yield(Ctx->Fiber);
  CurrentTrap = Mine;
}

void trapIllegalAddress(uint64_t Address) {
  if (TrapContext *T = CurrentTrap)
    T->Address = Address;
  cuhip_trap(TrapIllegalAddress);
}

namespace {

/// An alternate signal stack for the calling thread, so that the fault
/// handler also runs when the fault is a stack overflow. Installed once per
/// thread unless the thread already has one; removed when the thread ends.
class AltStack {
public:
  AltStack() {
    stack_t Old;
    if (sigaltstack(nullptr, &Old) != 0 || !(Old.ss_flags & SS_DISABLE))
      return; // the program's own stack serves as well
    Size = std::max<size_t>(64 * 1024, SIGSTKSZ);
    Memory.reset(new (std::nothrow) char[Size]);
    if (!Memory)
      return;
    stack_t S{};
    S.ss_sp = Memory.get();
    S.ss_size = Size;
    if (sigaltstack(&S, nullptr) != 0)
      Memory.reset();
  }
  ~AltStack() {
    stack_t Cur;
    if (!Memory || sigaltstack(nullptr, &Cur) != 0 || Cur.ss_sp != Memory.get())
      return;
    stack_t Off{};
    Off.ss_flags = SS_DISABLE;
    sigaltstack(&Off, nullptr);
  }

private:
  std::unique_ptr<char[]> Memory;
  size_t Size = 0;
};

struct sigaction PreviousSegv, PreviousBus;

/// Hands a fault that is not a kernel's to the handler installed before.
void chainFault(int Sig, siginfo_t *Info, void *UContext) {
  const struct sigaction &Prev = Sig == SIGSEGV ? PreviousSegv : PreviousBus;
  if (Prev.sa_flags & SA_SIGINFO) {
    if (Prev.sa_sigaction)
      Prev.sa_sigaction(Sig, Info, UContext);
    return;
  }
  if (Prev.sa_handler != SIG_DFL && Prev.sa_handler != SIG_IGN) {
    Prev.sa_handler(Sig);
    return;
  }
  // The default action: returning re-executes the faulting instruction,
  // which now ends the process as it would have without cuhip. A signal
  // sent with kill() is not re-raised by returning, so it is raised again.
  signal(Sig, SIG_DFL);
  if (Info->si_code <= 0)
    raise(Sig);
}

void onFault(int Sig, siginfo_t *Info, void *UContext) {
  TrapContext *T = CurrentTrap;
  if (!T) {
    chainFault(Sig, Info, UContext);
    return;
  }
  T->Code = TrapIllegalAddress;
  T->Signal = Sig;
  T->Address = reinterpret_cast<uint64_t>(Info->si_addr);
  // The handler runs with Sig blocked and longjmp does not restore the
  // mask (saving it in every block's setjmp would cost a system call).
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, Sig);
  pthread_sigmask(SIG_UNBLOCK, &Set, nullptr);
  std::longjmp(*reinterpret_cast<std::jmp_buf *>(T->JumpBuffer), 1);
}

} // namespace

void installFaultHandler() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    struct sigaction A{};
    A.sa_sigaction = onFault;
    A.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&A.sa_mask);
    sigaction(SIGSEGV, &A, &PreviousSegv);
    sigaction(SIGBUS, &A, &PreviousBus);
  });
}

uint32_t runBlockGuarded(BlockFunction Fn, const void *Params,
                         BlockContext *Ctx, BlockTrap *Trap) {
  thread_local AltStack Stack;
  (void)Stack;
  TrapContext T;
  TrapContext *Outer = CurrentTrap;
  CurrentTrap = &T;
  if (setjmp(*reinterpret_cast<std::jmp_buf *>(T.JumpBuffer)) == 0)
    Fn(Params, Ctx);
  CurrentTrap = Outer;
  if (Trap) {
    Trap->Code = T.Code;
    Trap->Signal = T.Signal;
    Trap->Address = T.Address;
  }
  return T.Code;
}

std::mutex &deviceOutputLock() {
  static std::mutex Lock;
  return Lock;
}

namespace {

std::mutex &OutputLock = deviceOutputLock();

// Memcheck mode: in-kernel malloc blocks and registered module variables,
// looked up only when an access is outside every device allocation.
std::atomic<bool> HeapTracking{false};
std::mutex HeapLock;
std::map<uint64_t, uint64_t> HeapBlocks;   // base -> size, in-kernel malloc
std::map<uint64_t, uint64_t> ModuleRanges; // base -> size, module variables

// The in-kernel heap: CUDA's default size until cudaDeviceSetLimit changes
// it, and the bytes its live blocks hold.
std::atomic<uint64_t> HeapLimit{8u << 20};
std::atomic<uint64_t> HeapUsed{0};

bool containedIn(const std::map<uint64_t, uint64_t> &Map, uint64_t A,
                 uint64_t Size) {
  auto It = Map.upper_bound(A);
  if (It == Map.begin())
    return false;
  --It;
  return A - It->first < It->second && Size <= It->second - (A - It->first);
}

template <typename T> T readArg(const unsigned char *Args, size_t &Off) {
  Off = (Off + sizeof(T) - 1) & ~(sizeof(T) - 1);
  T V;
  std::memcpy(&V, Args + Off, sizeof(T));
  Off += sizeof(T);
  return V;
}

/// Formats CUDA's printf: the arguments are packed in a buffer, each at
/// its natural alignment, floats promoted to double and pointers 8 bytes.
std::string formatDevicePrintf(const char *Fmt, const unsigned char *Args,
                               int &Count) {
  std::string Out;
  size_t Off = 0;
  Count = 0;
  for (const char *P = Fmt; *P;) {
    if (*P != '%') {
      Out += *P++;
      continue;
    }
    const char *Start = P++;
    if (*P == '%') {
      Out += '%';
      ++P;
      continue;
    }
    // Flags, width and precision. A '*' width or precision is an int in the
    // argument buffer, before the converted value (nvcc packs it there as C
    // passes it); it is written into the host format as a number.
    std::string Spec = "%";
    while (*P && std::strchr("-+ #0", *P))
      Spec += *P++;
    auto number = [&] {
      if (*P == '*') {
        ++P;
        Spec += std::to_string(readArg<int>(Args, Off));
        return;
      }
      while (*P >= '0' && *P <= '9')
        Spec += *P++;
    };
    number();
    if (*P == '.') {
      Spec += *P++;
      number();
    }
    int Long = 0;
    while (*P && std::strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'L' || *P == 'q' || *P == 'j' || *P == 'z' ||
          *P == 't')
        ++Long;
      ++P;
    }
    char Conv = *P;
    if (!Conv)
      break;
    ++P;
    // Values are read at their packed size and printed with the matching
    // host length; a %lc character is a 4-byte wint_t, printed as %c.
    if (Conv == 'c')
      Long = 0;
    char Buf[512];
    ++Count;
    switch (Conv) {
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'c':
      if (Long) {
        long long V = readArg<long long>(Args, Off);
        std::snprintf(Buf, sizeof(Buf), (Spec + "ll" + Conv).c_str(), V);
      } else {
        int V = readArg<int>(Args, Off);
        std::snprintf(Buf, sizeof(Buf), (Spec + Conv).c_str(), V);
      }
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      double V = readArg<double>(Args, Off);
      std::snprintf(Buf, sizeof(Buf), (Spec + Conv).c_str(), V);
      break;
    }
    case 's': {
      const char *S = readArg<const char *>(Args, Off);
      std::snprintf(Buf, sizeof(Buf), (Spec + 's').c_str(), S ? S : "(null)");
      break;
    }
    case 'p': {
      void *V = readArg<void *>(Args, Off);
      std::snprintf(Buf, sizeof(Buf), (Spec + 'p').c_str(), V);
      break;
    }
    default:
      // Not a conversion printf knows: print it as written.
      Out.append(Start, P);
      --Count;
      continue;
    }
    Out += Buf;
  }
  return Out;
}

void deviceVprintf(void *Ret, const void *Args, const BlockContext *,
                   uint32_t, uint32_t, uint32_t) {
  const unsigned char *A = static_cast<const unsigned char *>(Args);
  const char *Fmt;
  const unsigned char *Packed;
  std::memcpy(&Fmt, A, 8);
  std::memcpy(&Packed, A + 8, 8);
  int Count = 0;
  std::string Text = Fmt ? formatDevicePrintf(Fmt, Packed, Count) : "";
  {
    std::lock_guard<std::mutex> G(OutputLock);
    std::fwrite(Text.data(), 1, Text.size(), stdout);
  }
  std::memcpy(Ret, &Count, 4);
}

void deviceAssertFail(void *, const void *Args, const BlockContext *Ctx,
                      uint32_t X, uint32_t Y, uint32_t Z) {
  // __assertfail(message, file, line, function, charSize)
  const unsigned char *A = static_cast<const unsigned char *>(Args);
  const char *Msg, *File, *Func;
  uint32_t Line;
  std::memcpy(&Msg, A, 8);
  std::memcpy(&File, A + 8, 8);
  std::memcpy(&Line, A + 16, 4);
  std::memcpy(&Func, A + 24, 8);
  // Formatted before taking the lock: a bad string pointer faults here,
  // and the fault handler must not leave the lock held.
  char Text[2048];
  if (Ctx)
    std::snprintf(Text, sizeof(Text),
                  "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
                  "Assertion `%s` failed.\n",
                  File ? File : "?", Line, Func ? Func : "?", Ctx->CtaId[0],
                  Ctx->CtaId[1], Ctx->CtaId[2], X, Y, Z, Msg ? Msg : "?");
  else // in a function called through a pointer: no thread context
    std::snprintf(Text, sizeof(Text), "%s:%u: %s: Assertion `%s` failed.\n",
                  File ? File : "?", Line, Func ? Func : "?", Msg ? Msg : "?");
  {
    std::lock_guard<std::mutex> G(OutputLock);
    std::fflush(stdout);
    std::fputs(Text, stderr);
  }
  cuhip_trap(TrapAssert);
}

void deviceMalloc(void *Ret, const void *Args, const BlockContext *, uint32_t,
                  uint32_t, uint32_t) {
  uint64_t Size;
  std::memcpy(&Size, Args, 8);
  void *P = deviceHeapMalloc(Size);
  std::memcpy(Ret, &P, 8);
}

void deviceFree(void *, const void *Args, const BlockContext *, uint32_t,
                uint32_t, uint32_t) {
  void *P;
  std::memcpy(&P, Args, 8);
  deviceHeapFree(P);
}

} // namespace

void *deviceHeapMalloc(uint64_t Size) {
  void *P = std::malloc(Size ? Size : 1);
  if (P) {
    uint64_t Usable = malloc_usable_size(P);
    if (HeapUsed.fetch_add(Usable, std::memory_order_relaxed) + Usable >
        HeapLimit.load(std::memory_order_relaxed)) {
      HeapUsed.fetch_sub(Usable, std::memory_order_relaxed);
      std::free(P);
      P = nullptr;
    }
  }
  if (P)
    trackDeviceBuffer(P, Size);
  return P;
}

void trackDeviceBuffer(const void *P, uint64_t Size) {
  if (HeapTracking.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> G(HeapLock);
    HeapBlocks[reinterpret_cast<uint64_t>(P)] = Size;
  }
}

void untrackDeviceBuffer(const void *P) {
  if (HeapTracking.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> G(HeapLock);
    HeapBlocks.erase(reinterpret_cast<uint64_t>(P));
  }
}

void deviceHeapFree(void *P) {
  untrackDeviceBuffer(P);
  if (P)
    HeapUsed.fetch_sub(malloc_usable_size(P), std::memory_order_relaxed);
  std::free(P);
}

void setMemcheckDeviceHeapTracking(bool On) { HeapTracking.store(On); }

void setDeviceHeapLimit(uint64_t Bytes) { HeapLimit.store(Bytes); }
uint64_t deviceHeapLimit() { return HeapLimit.load(); }

void registerMemcheckRanges(const MemRange *Ranges, size_t N) {
  std::lock_guard<std::mutex> G(HeapLock);
  for (size_t I = 0; I < N; ++I)
    if (Ranges[I].Size)
      ModuleRanges[Ranges[I].Base] = Ranges[I].Size;
}

bool isDeviceHeapOrModuleRange(uint64_t Address, uint64_t Size) {
  std::lock_guard<std::mutex> G(HeapLock);
  return containedIn(HeapBlocks, Address, Size) ||
         containedIn(ModuleRanges, Address, Size);
}

DeviceLibraryFunction deviceLibraryFunction(const std::string &Name) {
  if (Name == "vprintf")
    return deviceVprintf;
  if (Name == "__assertfail")
    return deviceAssertFail;
  if (Name == "malloc")
    return deviceMalloc;
  if (Name == "free")
    return deviceFree;
  return deviceRuntimeCall(Name); // DeviceRuntimeCalls.cpp
}

const std::vector<std::string> &deviceLibraryNames() {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> N = {"vprintf", "__assertfail", "malloc", "free"};
    for (std::string_view F : DeviceRuntimeFunctions)
      for (const char *Prefix : {"__cudaCDP2", "cuda"})
        for (const char *Suffix : {"", "_ptsz"})
          N.push_back(Prefix + std::string(F) + Suffix);
    return N;
  }();
  return Names;
}

} // namespace cuhip::ptx::host
