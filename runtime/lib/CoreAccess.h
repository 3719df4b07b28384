//===- CoreAccess.h - What the core's own files share with Runtime.cpp ----===//
//
// Runtime.cpp owns the allocation table, the streams and the backend choice;
// the memory family in Memory.cpp builds on them through these functions
// instead of reaching into Runtime::Impl, so the two files stay apart. Not
// installed: nothing outside runtime/lib includes this.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/Runtime.h"

#include <functional>

namespace cuhip::rt {

class HipBackend;

struct CoreAccess {
  /// The HIP backend when it runs the kernels, else null.
  static HipBackend *hip(Runtime &R);
  /// The HIP stream of a cudaStream_t (null on the CPU backend), or
  /// cudaErrorInvalidResourceHandle.
  static Status resolveStream(Runtime &R, void *Stream, void **HipStream);
  /// Makes a kernel fault that a HIP call reports sticky.
  static Status deviceResult(Runtime &R, Status S);
  // The CPU backend's stream queues (the HIP backend's calls order and wait
  // for themselves; these do nothing there).
  /// Waits until every stream has run what was queued so far: what cudaFree
  /// and its relatives do before memory goes.
  static void waitIdle(Runtime &R);
  /// Waits for the work queued on Stream so far.
  static void waitForStream(Runtime &R, void *Stream);
  /// Waits for what a synchronous copy waits for (the legacy stream's
  /// earlier work); the sticky error, or one of queued work, if any.
  static Status waitForLegacy(Runtime &R);
  /// Runs Fn in Stream's order; Wait: returns once it has run, with the
  /// error of the work it waited for.
  static Status enqueueFunction(Runtime &R, void *Stream,
                                std::function<void()> Fn, bool Wait);
  /// Adds memory the runtime did not allocate (registered host memory) to
  /// the allocation table, so that copies and memcheck accept it.
  static void trackRange(Runtime &R, void *Ptr, size_t Bytes);
  static void untrackRange(Runtime &R, void *Ptr);
  /// Frees an allocation of Runtime::malloc without asking Memory.cpp who
  /// owns it (what Runtime::free does first).
  static Status release(Runtime &R, void *Ptr);
  /// The allocation that contains Ptr, if any.
  static bool findAllocation(Runtime &R, const void *Ptr, void **Base,
                             size_t *Bytes);
  /// The bytes in the allocation table.
  static size_t trackedBytes(Runtime &R);
  /// Is Event an event eventCreate returned and eventDestroy did not
  /// destroy? (Graph event nodes check theirs when they are made.)
  static bool isEvent(Runtime &R, void *Event);
  /// Writes the 64-byte handle another process maps the cudaMalloc
  /// allocation holding Ptr with (Ipc.h); Owner tags it (0 for
  /// cudaIpcGetMemHandle, a pool's inode for cudaMemPoolExportPointer).
  static Status shareAllocation(Runtime &R, void *Ptr, void *Handle,
                                uint64_t Owner);
  /// Maps the allocation a handle with that Owner names (*Bytes long);
  /// closed with Runtime::ipcCloseMemHandle.
  static Status openShared(Runtime &R, void **Ptr, const void *Handle,
                           uint64_t Owner, size_t *Bytes = nullptr);
};

/// What Runtime::free does with Ptr, as Memory.cpp decides: free it (a
/// cudaMalloc or managed allocation), refuse it (page-locked host memory,
/// registered memory: cudaErrorInvalidValue), or nothing more (a pool
/// allocation, which went back to its pool).
/// CloseShared: memory another process shared (a pool's imported pointer),
/// which cudaFree unmaps.
enum class FreeDecision { Release, Refuse, Done, CloseShared };
FreeDecision decideFree(Runtime &R, void *Ptr);

/// cudaErrorNotSupported for a call the HIP backend cannot do yet, logged
/// once per call name (Memory.cpp).
Status notOnHip(Runtime &R, const char *What);

/// cudaDeviceReset's part in Memory.cpp: page-locked, managed and pool
/// memory is freed, registrations end, pools other than the default one
/// are destroyed and the default one starts empty.
void resetMemoryTables(Runtime &R);

/// cudaDeviceReset's part in Texture.cpp: arrays are freed and texture and
/// surface objects destroyed.
void resetTextureTables(Runtime &R);

} // namespace cuhip::rt
