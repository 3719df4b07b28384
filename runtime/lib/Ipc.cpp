//===- Ipc.cpp - Sharing device memory and events between processes -------===//
//
// See Ipc.h. The handle's 64 bytes: "cuhipIPC" (8), the kind (4), the
// exporter's pid (4), its descriptor number (4), 4 bytes of zero, the
// memfd's st_dev (8) and st_ino (8), the allocation's offset in the memfd
// (8) and its length (8), and the owner (8: 0, or a pool's inode).
//
//===----------------------------------------------------------------------===//
#include "Ipc.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace cuhip::rt::ipc {

namespace {
constexpr char Magic[8] = {'c', 'u', 'h', 'i', 'p', 'I', 'P', 'C'};

struct Layout {
  char Magic[8];
  uint32_t Kind;
  int32_t Pid;
  int32_t Fd;
  uint32_t Zero;
  uint64_t Dev, Ino, Offset, Bytes;
  uint64_t Owner;
};
static_assert(sizeof(Layout) == HandleBytes, "a CUDA IPC handle is 64 bytes");

size_t pageSize() {
  long P = sysconf(_SC_PAGESIZE);
  return P > 0 ? size_t(P) : 4096;
}
} // namespace

void encode(const Handle &H, void *Out) {
  Layout L{};
  std::memcpy(L.Magic, Magic, sizeof(Magic));
  L.Kind = uint32_t(H.Kind);
  L.Pid = H.Ref.Pid;
  L.Fd = H.Ref.Fd;
  L.Dev = H.Ref.Dev;
  L.Ino = H.Ref.Ino;
  L.Offset = H.Offset;
  L.Bytes = H.Bytes;
  L.Owner = H.Owner;
  std::memcpy(Out, &L, sizeof(L));
}

bool decode(const void *In, HandleKind Kind, Handle *H) {
  Layout L;
  std::memcpy(&L, In, sizeof(L));
  if (std::memcmp(L.Magic, Magic, sizeof(Magic)) != 0 ||
      L.Kind != uint32_t(Kind) || L.Pid <= 0 || L.Fd < 0 || L.Zero != 0)
    return false;
  H->Kind = Kind;
  H->Ref = {L.Pid, L.Fd, L.Dev, L.Ino};
  H->Offset = L.Offset;
  H->Bytes = L.Bytes;
  H->Owner = L.Owner;
  return true;
}

bool describe(int Fd, FdRef *Ref) {
  struct stat St;
  if (fstat(Fd, &St) != 0)
    return false;
  Ref->Pid = int32_t(getpid());
  Ref->Fd = Fd;
  Ref->Dev = uint64_t(St.st_dev);
  Ref->Ino = uint64_t(St.st_ino);
  return true;
}

int open(const FdRef &Ref, std::string &Why) {
  std::string Path =
      "/proc/" + std::to_string(Ref.Pid) + "/fd/" + std::to_string(Ref.Fd);
  int Fd = ::open(Path.c_str(), O_RDWR | O_CLOEXEC);
  if (Fd < 0) {
    Why = errno == ENOENT
              ? "the exporting process (pid " + std::to_string(Ref.Pid) +
                    ") has exited or freed it"
              : Path + ": " + std::strerror(errno);
    return -1;
  }
  struct stat St;
  if (fstat(Fd, &St) != 0 || uint64_t(St.st_dev) != Ref.Dev ||
      uint64_t(St.st_ino) != Ref.Ino) {
    ::close(Fd);
    Why = "the exporting process (pid " + std::to_string(Ref.Pid) +
          ") no longer holds it";
    return -1;
  }
  return Fd;
}

void *mapShared(int Fd, uint64_t Offset, uint64_t Bytes) {
  // Pages past the file's end would map and then fault (SIGBUS) at the
  // first access: a handle that names more than the memfd holds is
  // refused here.
  struct stat St;
  if (fstat(Fd, &St) != 0)
    return nullptr;
  uint64_t Size = uint64_t(St.st_size);
  if (Bytes == 0 || Offset > Size || Bytes > Size - Offset) {
    errno = EINVAL;
    return nullptr;
  }
  size_t Page = pageSize();
  uint64_t Start = Offset / Page * Page;
  uint64_t Len = (Offset + Bytes + Page - 1) / Page * Page - Start;
  void *M =
      mmap(nullptr, Len, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, off_t(Start));
  if (M == MAP_FAILED)
    return nullptr;
  return static_cast<char *>(M) + (Offset - Start);
}

void unmapShared(void *Ptr, uint64_t Bytes) {
  size_t Page = pageSize();
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  uintptr_t Start = A / Page * Page;
  munmap(reinterpret_cast<void *>(Start),
         (A + Bytes + Page - 1) / Page * Page - Start);
}

std::shared_ptr<SharedEvent> SharedEvent::create() {
  int Fd = memfd_create("cuhip-ipc-event", MFD_CLOEXEC);
  if (Fd < 0)
    return nullptr;
  void *M = MAP_FAILED;
  if (ftruncate(Fd, off_t(pageSize())) == 0)
    M = mmap(nullptr, pageSize(), PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (M == MAP_FAILED) {
    int E = errno;
    ::close(Fd);
    errno = E;
    return nullptr;
  }
  std::shared_ptr<SharedEvent> Ev(new SharedEvent);
  Ev->Fd = Fd;
  Ev->State = new (M) Page{}; // a fresh memfd reads as zeros anyway
  return Ev;
}

std::shared_ptr<SharedEvent> SharedEvent::open(const FdRef &Ref,
                                               std::string &Why) {
  int Fd = ipc::open(Ref, Why);
  if (Fd < 0)
    return nullptr;
  struct stat St;
  void *M = MAP_FAILED;
  if (fstat(Fd, &St) == 0 && size_t(St.st_size) >= sizeof(Page))
    M = mmap(nullptr, pageSize(), PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  else
    Why = "the handle names no event";
  if (M == MAP_FAILED && Why.empty())
    Why = std::strerror(errno);
  ::close(Fd); // the mapping keeps the page
  if (M == MAP_FAILED)
    return nullptr;
  std::shared_ptr<SharedEvent> Ev(new SharedEvent);
  Ev->State = static_cast<Page *>(M);
  return Ev;
}

SharedEvent::~SharedEvent() {
  if (State)
    munmap(State, pageSize());
  if (Fd >= 0)
    ::close(Fd);
}

uint64_t SharedEvent::issue() {
  return State->Issued.fetch_add(1, std::memory_order_acq_rel) + 1;
}

void SharedEvent::complete(uint64_t N) {
  uint64_t Cur = State->Done.load(std::memory_order_relaxed);
  while (Cur < N &&
         !State->Done.compare_exchange_weak(Cur, N, std::memory_order_release,
                                            std::memory_order_relaxed)) {
  }
}

uint64_t SharedEvent::latest() const {
  return State->Issued.load(std::memory_order_acquire);
}

bool SharedEvent::reached(uint64_t N) const {
  return State->Done.load(std::memory_order_acquire) >= N;
}

void SharedEvent::wait(uint64_t N) const {
  auto Pause = std::chrono::microseconds(10);
  for (unsigned Spins = 0; !reached(N); ++Spins) {
    if (Spins < 64) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(1000));
  }
}

} // namespace cuhip::rt::ipc
