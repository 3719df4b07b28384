//===- DeviceLibrary.cpp - printf, assert, malloc and traps on the host ---===//
//
// PTX calls a few functions it only declares: vprintf (device printf),
// __assertfail (assert), malloc and free. On the CPU backend they are these
// host functions, called with the same packed argument buffer a GPU
// implementation would read. A trap, a breakpoint or a failed assert ends
// the block by jumping back to the runtime's block loop. A block running as
// a fiber yields its worker from here, keeping its trap context.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

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

uint32_t runBlockGuarded(BlockFunction Fn, const void *Params,
                         BlockContext *Ctx) {
  TrapContext T;
  TrapContext *Outer = CurrentTrap;
  CurrentTrap = &T;
  if (setjmp(*reinterpret_cast<std::jmp_buf *>(T.JumpBuffer)) == 0)
    Fn(Params, Ctx);
  CurrentTrap = Outer;
  return T.Code;
}

namespace {

std::mutex OutputLock;

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
  {
    std::lock_guard<std::mutex> G(OutputLock);
    std::fflush(stdout);
    if (Ctx)
      std::fprintf(stderr,
                   "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
                   "Assertion `%s` failed.\n",
                   File ? File : "?", Line, Func ? Func : "?", Ctx->CtaId[0],
                   Ctx->CtaId[1], Ctx->CtaId[2], X, Y, Z, Msg ? Msg : "?");
    else // in a function called through a pointer: no thread context
      std::fprintf(stderr, "%s:%u: %s: Assertion `%s` failed.\n",
                   File ? File : "?", Line, Func ? Func : "?",
                   Msg ? Msg : "?");
  }
  cuhip_trap(TrapAssert);
}

void deviceMalloc(void *Ret, const void *Args, const BlockContext *, uint32_t,
                  uint32_t, uint32_t) {
  uint64_t Size;
  std::memcpy(&Size, Args, 8);
  void *P = std::malloc(Size ? Size : 1);
  std::memcpy(Ret, &P, 8);
}

void deviceFree(void *, const void *Args, const BlockContext *, uint32_t,
                uint32_t, uint32_t) {
  void *P;
  std::memcpy(&P, Args, 8);
  std::free(P);
}

} // namespace

DeviceLibraryFunction deviceLibraryFunction(const std::string &Name) {
  if (Name == "vprintf")
    return deviceVprintf;
  if (Name == "__assertfail")
    return deviceAssertFail;
  if (Name == "malloc")
    return deviceMalloc;
  if (Name == "free")
    return deviceFree;
  return nullptr;
}

} // namespace cuhip::ptx::host
