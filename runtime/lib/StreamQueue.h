//===- StreamQueue.h - Stream-ordered work on host threads ----------------===//
//
// The CPU backend's streams: each stream is a WorkQueue whose operations
// (launches, copies, memsets, host functions, event markers, waits) run in
// order, one at a time, on a dispatcher thread of the queue's own, so the
// host thread that enqueued them continues until it synchronises, as with
// CUDA. Every operation gets a ticket, the queue's count of operations
// enqueued so far; a queue has reached ticket T when its count of completed
// operations is T. A point (queue, ticket) is what events record and what
// cross-stream waits wait for.
//
// A host thread that waits for a queue runs the queue's next operations
// itself while the dispatcher has not started them (except host functions,
// which CUDA runs on a thread of its own): a launch followed by a
// synchronisation then costs no thread hand-off, which on a machine with
// more busy threads than cores is a scheduler time slice.
//
// The QueueSet holds a device's queues and applies the legacy default
// stream's implicit synchronisation: an operation on the legacy stream
// waits for everything enqueued before it on blocking streams (created
// without cudaStreamNonBlocking, and per-thread default streams), and an
// operation on a blocking stream waits for everything enqueued before it on
// the legacy stream. Nothing here knows about CUDA or kernels; the runtime
// core defines the work.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace cuhip::rt {

class WorkQueue;

/// A place in a queue's order: reached once the queue has completed its
/// Ticket-th operation. A null queue or ticket 0 is always reached.
struct QueuePoint {
  std::shared_ptr<WorkQueue> Queue;
  uint64_t Ticket = 0;
  bool reached() const;
};

/// One operation of a queue. run() is called once the operations before it,
/// and the points it waits for, are done, on the queue's dispatcher or on a
/// host thread that waits for the queue (unless DispatcherOnly); work that
/// the queue drops unrun (at process exit) is destroyed without it.
class QueuedWork {
public:
  virtual ~QueuedWork() = default;
  virtual void run() = 0;
  /// Runs only on the dispatcher (host functions: CUDA runs them on a thread
  /// of its own, never on the one that synchronises).
  bool DispatcherOnly = false;

private:
  friend class WorkQueue;
  friend class QueueSet;
  uint64_t Ticket = 0;
  std::vector<QueuePoint> After; // points on other queues to wait for
};

/// How a queue takes part in the legacy stream's implicit synchronisation.
enum class QueueKind { Legacy, Blocking, NonBlocking };

class WorkQueue {
public:
  WorkQueue(QueueKind Kind, class QueueSet &Owner) : Kind(Kind), Owner(Owner) {}
  ~WorkQueue();
  QueueKind kind() const { return Kind; }
  uint64_t enqueued() const { return Enqueued.load(std::memory_order_acquire); }
  uint64_t completed() const {
    return Completed.load(std::memory_order_acquire);
  }
  /// Has everything enqueued so far completed?
  bool idle() const { return completed() >= enqueued(); }
  /// Blocks until the queue has completed its Ticket-th operation, running
  /// operations up to it on the calling thread while nothing else runs
  /// them. Called from an operation of this queue (a host function that
  /// synchronises its own stream, which CUDA forbids) for work after it, or
  /// after process exit began, it returns false instead of waiting forever.
  bool waitFor(uint64_t Ticket);
  /// Is the calling thread running this queue's operations?
  bool isCurrentDispatcher() const;

private:
  friend class QueueSet;
  uint64_t push(std::unique_ptr<QueuedWork> W, std::shared_ptr<WorkQueue> Self);
  /// The dispatcher's loop; Inline: on the caller's thread, until the queue
  /// is empty (when no thread could be started).
  void dispatch(std::shared_ptr<WorkQueue> Self, bool Inline = false);
  /// Runs the first pending operation on the calling thread; L holds M and
  /// holds it again on return.
  void runFront(std::unique_lock<std::mutex> &L);
  /// Can the first pending operation start now? Under M.
  bool frontStartable() const { return !Pending.empty() && !Running; }
  void finish(uint64_t Ticket);

  const QueueKind Kind;
  QueueSet &Owner;
  std::mutex M;
  std::condition_variable Wake;  // the dispatcher: work to start
  std::condition_variable Done;  // waiters: an operation completed
  std::condition_variable Space; // producers: the queue drained below bound
  std::deque<std::unique_ptr<QueuedWork>> Pending; // guarded by M
  std::atomic<uint64_t> Enqueued{0}, Completed{0};
  // Operations taken from Pending: one is running while Started > Completed.
  std::atomic<uint64_t> Started{0};
  unsigned Waiters = 0;          // guarded by M: threads in Done.wait
  unsigned SpaceWaiters = 0;     // guarded by M
  bool HasThread = false;        // guarded by M: a dispatcher runs
  bool Sleeping = false;         // guarded by M: it waits in Wake
  bool Running = false;          // guarded by M: an operation runs
  bool Retired = false;          // guarded by M: its stream was destroyed
  std::atomic<bool> Stopped{false}; // process exit: nothing more runs
};

/// The queues of one device.
class QueueSet {
public:
  QueueSet();
  ~QueueSet();
  /// The legacy default stream's queue (cudaStreamLegacy, stream 0).
  const std::shared_ptr<WorkQueue> &legacy() const { return Legacy; }
  /// A new queue for a created stream or a per-thread default stream.
  std::shared_ptr<WorkQueue> create(QueueKind Kind);
  /// Ends a queue whose stream is gone: work already enqueued still runs,
  /// then its dispatcher exits and the set forgets it.
  void retire(const std::shared_ptr<WorkQueue> &Q);
  /// Appends W to Q, after Q's earlier work, the points in After, and what
  /// the legacy stream's synchronisation adds; returns W's ticket (0 when
  /// W ran at once, after process exit began). Waits while Q holds
  /// MaxPending operations.
  uint64_t enqueue(const std::shared_ptr<WorkQueue> &Q,
                   std::unique_ptr<QueuedWork> W,
                   std::vector<QueuePoint> After = {});
  /// The points a synchronous operation of the legacy stream that the host
  /// performs itself (cudaMemcpy) must wait for: the legacy stream's tail
  /// and every blocking queue's.
  std::vector<QueuePoint> legacyBarrier();
  /// Waits for the tail of every queue as it is at the call (device
  /// synchronisation). The calling dispatcher's own queue is skipped.
  void waitAll();
  /// Waits for every point (skipping the calling dispatcher's own queue).
  static void waitForAll(const std::vector<QueuePoint> &Points);
  /// Process exit: work not started is dropped (its tickets complete) and
  /// nothing starts any more; work enqueued afterwards runs on the
  /// enqueuing thread, as exit handlers may still use the runtime.
  void stop();
  /// After stop(): waits up to Grace for the operations still running,
  /// except one the calling thread runs (exit() in a host function).
  void awaitRunning(std::chrono::milliseconds Grace);
  bool stopped() const { return Stopping.load(std::memory_order_acquire); }

  /// Operations one queue holds before enqueuing waits (as CUDA's launch
  /// queue fills up).
  static constexpr uint64_t MaxPending = 4096;

private:
  friend class WorkQueue;
  void forget(WorkQueue *Q);

  std::shared_ptr<WorkQueue> Legacy;
  // Orders every enqueue that takes part in the legacy synchronisation, so
  // that two operations can never each wait for the other, and guards the
  // list of queues.
  std::mutex OrderLock;
  std::vector<std::shared_ptr<WorkQueue>> All;
  std::atomic<bool> Stopping{false};
};

} // namespace cuhip::rt
