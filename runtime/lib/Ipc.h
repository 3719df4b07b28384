//===- Ipc.h - Sharing device memory and events between processes ---------===//
//
// On the CPU backend device memory is host memory, so sharing it with
// another process is sharing pages: an exported allocation lives on a
// memfd (DeviceArena::share), and its handle names the exporting process
// and the descriptor, which the importing process opens through
// /proc/PID/fd/FD and maps. The handle also carries the memfd's device and
// inode numbers, so a descriptor number the exporter has since reused for
// something else is refused rather than mapped. An interprocess event is a
// page of two counters on a memfd of its own (SharedEvent), which every
// process that opened it records to and waits on.
//
// Handles are the 64 opaque bytes of cudaIpcMemHandle_t and
// cudaIpcEventHandle_t (CUipcMemHandle, CUipcEventHandle); their layout is
// cuhip's own and only cuhip reads it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cuhip::rt::ipc {

constexpr size_t HandleBytes = 64;

enum class HandleKind : uint32_t { Memory = 1, Event = 2 };

/// A descriptor of a live process, as a handle carries it.
struct FdRef {
  int32_t Pid = 0;
  int32_t Fd = -1;
  uint64_t Dev = 0, Ino = 0;
};

/// The handle's contents: what to open and, for memory, where the
/// allocation starts in it and how long it is. Owner is 0 for
/// cudaIpcGetMemHandle's handles and, for a pool's exported pointers
/// (cudaMemPoolExportPointer), the inode of the pool's own descriptor, so
/// that a pointer imports only through the pool it came from.
struct Handle {
  HandleKind Kind = HandleKind::Memory;
  FdRef Ref;
  uint64_t Offset = 0, Bytes = 0;
  uint64_t Owner = 0;
};

/// Writes H into the 64 bytes at Out.
void encode(const Handle &H, void *Out);
/// Reads 64 bytes written by encode; false for anything else (zeros, a
/// handle of another kind, bytes from another library).
bool decode(const void *In, HandleKind Kind, Handle *H);

/// Describes Fd of this process for a handle; false when fstat fails.
bool describe(int Fd, FdRef *Ref);
/// Opens the descriptor Ref names, read-write; -1 with Why set when its
/// process is gone, the descriptor is closed or now names another file,
/// or the system refuses.
int open(const FdRef &Ref, std::string &Why);

/// Maps Bytes at Offset of Fd, shared and read-write; the returned address
/// is Offset's (the mapping itself starts at the page below). Null with
/// errno set on failure, EINVAL when the range is empty or not all inside
/// the file (a corrupt handle).
void *mapShared(int Fd, uint64_t Offset, uint64_t Bytes);
/// Unmaps what mapShared returned for Bytes.
void unmapShared(void *Ptr, uint64_t Bytes);

/// An interprocess event's state, in a page every process that has the
/// event maps. Each record takes the next number from Issued; when the
/// recording stream reaches the record, Done rises to that number (never
/// down: records on different streams may complete out of order). The
/// event is complete when Done has reached the last number issued.
class SharedEvent {
public:
  /// A new event's page; null with errno set when the system refuses.
  static std::shared_ptr<SharedEvent> create();
  /// The page of another process's event; null with Why set.
  static std::shared_ptr<SharedEvent> open(const FdRef &Ref, std::string &Why);
  ~SharedEvent();
  SharedEvent(const SharedEvent &) = delete;
  SharedEvent &operator=(const SharedEvent &) = delete;

  /// Takes the next record number (eventRecord).
  uint64_t issue();
  /// The recording stream reached record N.
  void complete(uint64_t N);
  /// The number of the latest record so far (what a wait waits for).
  uint64_t latest() const;
  bool reached(uint64_t N) const;
  /// Waits until record N completed. Another process completes it, so the
  /// wait polls, backing off to a millisecond between looks.
  void wait(uint64_t N) const;
  /// The memfd under the page, for a handle (exporting process only: -1
  /// in one that opened the event).
  int fd() const { return Fd; }

private:
  struct Page {
    std::atomic<uint64_t> Issued;
    std::atomic<uint64_t> Done;
  };
  SharedEvent() = default;
  int Fd = -1;
  Page *State = nullptr;
};

} // namespace cuhip::rt::ipc
