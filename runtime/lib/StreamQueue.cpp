//===- StreamQueue.cpp - Stream-ordered work on host threads --------------===//
//
// A queue starts its dispatcher thread with its first operation and lets it
// go after a while without work (a program may create many streams and use
// each briefly). One operation of a queue runs at a time, on the dispatcher
// or on a host thread waiting for the queue (`Running`); whoever finishes
// one takes the next that can start. After finishing, the dispatcher spins
// for a few microseconds before it sleeps, so a stream fed in a loop does
// not pay a futex wake-up per operation; waiting host threads spin as
// briefly before they block. Spins yield the processor after the first
// microseconds, as the threads they wait for may share it.
//
//===----------------------------------------------------------------------===//
#include "StreamQueue.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <system_error>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cuhip::rt {

namespace {

/// The queue whose operation (or dispatcher loop) the calling thread is
/// running, if any.
thread_local WorkQueue *CurrentDispatcher = nullptr;

// How long a dispatcher spins for more work after finishing, and a waiting
// host thread for completion, before sleeping.
constexpr auto DispatcherSpin = std::chrono::microseconds(50);
constexpr auto WaiterSpin = std::chrono::microseconds(20);
// A dispatcher without work for this long ends; the next operation starts
// another.
constexpr auto IdleExit = std::chrono::seconds(2);

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

/// Spins until Ready() or For has passed; returns Ready().
template <typename Pred>
bool spinUntil(Pred Ready, std::chrono::microseconds For) {
  auto Deadline = std::chrono::steady_clock::now() + For;
  for (unsigned I = 1;; ++I) {
    if (Ready())
      return true;
    if (I < 64) {
      cpuRelax();
      continue;
    }
    if (std::chrono::steady_clock::now() >= Deadline)
      return Ready();
    std::this_thread::yield();
  }
}

} // namespace

bool QueuePoint::reached() const {
  return !Queue || Queue->completed() >= Ticket;
}

WorkQueue::~WorkQueue() = default;

bool WorkQueue::isCurrentDispatcher() const { return CurrentDispatcher == this; }

void WorkQueue::finish(uint64_t Ticket) {
  // Under M. After process exit began, the work dropped behind this one is
  // complete as well.
  uint64_t T = Stopped.load(std::memory_order_relaxed)
                   ? Enqueued.load(std::memory_order_relaxed)
                   : Ticket;
  if (T > Completed.load(std::memory_order_relaxed))
    Completed.store(T, std::memory_order_release);
  if (Waiters)
    Done.notify_all();
}

void WorkQueue::runFront(std::unique_lock<std::mutex> &L) {
  std::unique_ptr<QueuedWork> W = std::move(Pending.front());
  Pending.pop_front();
  Started.store(W->Ticket, std::memory_order_release);
  if (SpaceWaiters && Pending.size() < QueueSet::MaxPending / 2)
    Space.notify_all();
  bool Drop = Stopped.load(std::memory_order_relaxed);
  Running = true;
  L.unlock();
  WorkQueue *Outer = CurrentDispatcher;
  CurrentDispatcher = this;
  if (!Drop) {
    for (const QueuePoint &P : W->After)
      if (P.Queue && P.Queue.get() != this)
        P.Queue->waitFor(P.Ticket);
    if (!Stopped.load(std::memory_order_acquire))
      W->run();
  }
  CurrentDispatcher = Outer;
  uint64_t Ticket = W->Ticket;
  W.reset();
  L.lock();
  Running = false;
  finish(Ticket);
  // A host thread ran it: the dispatcher may be asleep with work behind it.
  if (Sleeping && frontStartable())
    Wake.notify_one();
}

bool WorkQueue::waitFor(uint64_t Ticket) {
  if (completed() >= Ticket)
    return true;
  if (isCurrentDispatcher())
    return false;
  // After process exit began, only an operation that did not stop in time
  // can be outstanding: waiting for it could hang the exit.
  if (Stopped.load(std::memory_order_acquire))
    return false;
  auto Helpable = [&] {
    return frontStartable() && Pending.front()->Ticket <= Ticket &&
           !Pending.front()->DispatcherOnly;
  };
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    if (Completed.load(std::memory_order_acquire) >= Ticket)
      return true;
    if (Stopped.load(std::memory_order_acquire))
      return false;
    if (Helpable()) {
      runFront(L);
      continue;
    }
    // Another thread runs the queue's work: it may be about to finish.
    L.unlock();
    spinUntil(
        [&] {
          uint64_t S = Started.load(std::memory_order_acquire);
          return completed() >= Ticket || completed() == S;
        },
        WaiterSpin);
    L.lock();
    if (Completed.load(std::memory_order_acquire) >= Ticket || Helpable())
      continue;
    ++Waiters;
    Done.wait(L, [&] {
      return Completed.load(std::memory_order_acquire) >= Ticket ||
             Stopped.load(std::memory_order_acquire) || Helpable();
    });
    --Waiters;
  }
}

uint64_t WorkQueue::push(std::unique_ptr<QueuedWork> W,
                         std::shared_ptr<WorkQueue> Self) {
  bool Start = false, Notify = false;
  uint64_t T;
  {
    std::lock_guard<std::mutex> L(M);
    T = Enqueued.load(std::memory_order_relaxed) + 1;
    W->Ticket = T;
    Pending.push_back(std::move(W));
    Enqueued.store(T, std::memory_order_release);
    if (!HasThread)
      Start = HasThread = true;
    else if (Sleeping && !Running)
      Notify = true;
  }
  if (Notify)
    Wake.notify_one();
  if (!Start)
    return T;
  try {
    std::thread([Self] { Self->dispatch(Self); }).detach();
  } catch (const std::system_error &E) {
    // No thread to be had: the caller runs the queue's work itself, as a
    // synchronous backend would.
    CUHIP_WARN("cannot start a stream thread (%s): running the stream's work "
               "on the calling thread",
               E.what());
    dispatch(Self, /*Inline=*/true);
  }
  return T;
}

void WorkQueue::dispatch(std::shared_ptr<WorkQueue> Self, bool Inline) {
  WorkQueue *Outer = CurrentDispatcher;
  CurrentDispatcher = this;
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    if (frontStartable()) {
      runFront(L);
      continue;
    }
    bool Empty = Pending.empty() && !Running;
    if (Empty && (Retired || Inline))
      break;
    if (Inline) { // a host thread runs one of the queue's operations
      ++Waiters;
      Done.wait(L, [&] { return !Running; });
      --Waiters;
      continue;
    }
    L.unlock();
    spinUntil(
        [&] {
          uint64_t S = Started.load(std::memory_order_acquire);
          return Enqueued.load(std::memory_order_acquire) > S &&
                 Completed.load(std::memory_order_acquire) == S;
        },
        DispatcherSpin);
    L.lock();
    if (frontStartable())
      continue;
    Sleeping = true;
    bool Woken = Wake.wait_for(L, IdleExit, [&] {
      return frontStartable() || (Retired && Pending.empty() && !Running);
    });
    Sleeping = false;
    if (!Woken && Pending.empty() && !Running)
      break; // idle: the next operation starts a new dispatcher
  }
  HasThread = false;
  bool Forget = Retired && Pending.empty();
  L.unlock();
  CurrentDispatcher = Outer;
  if (Forget)
    Owner.forget(this);
}

QueueSet::QueueSet() {
  Legacy = std::make_shared<WorkQueue>(QueueKind::Legacy, *this);
  All.push_back(Legacy);
}

QueueSet::~QueueSet() = default;

std::shared_ptr<WorkQueue> QueueSet::create(QueueKind Kind) {
  auto Q = std::make_shared<WorkQueue>(Kind, *this);
  std::lock_guard<std::mutex> G(OrderLock);
  All.push_back(Q);
  return Q;
}

void QueueSet::retire(const std::shared_ptr<WorkQueue> &Q) {
  bool Forget;
  {
    std::lock_guard<std::mutex> L(Q->M);
    Q->Retired = true;
    Forget = !Q->HasThread && Q->Pending.empty() && !Q->Running;
    if (Q->Sleeping)
      Q->Wake.notify_one();
  }
  if (Forget)
    forget(Q.get());
}

void QueueSet::forget(WorkQueue *Q) {
  std::lock_guard<std::mutex> G(OrderLock);
  auto It = std::find_if(All.begin(), All.end(),
                         [&](const auto &P) { return P.get() == Q; });
  if (It != All.end())
    All.erase(It);
}

uint64_t QueueSet::enqueue(const std::shared_ptr<WorkQueue> &Q,
                           std::unique_ptr<QueuedWork> W,
                           std::vector<QueuePoint> After) {
  if (stopped()) {
    // Exit handlers and static destructors may still use the runtime:
    // their work runs at once, as it did before queues existed.
    W->run();
    return 0;
  }
  if (Q->enqueued() - Q->completed() >= MaxPending &&
      !Q->isCurrentDispatcher()) {
    std::unique_lock<std::mutex> L(Q->M);
    ++Q->SpaceWaiters;
    Q->Space.wait(L, [&] {
      return Q->Pending.size() < MaxPending / 2 ||
             Q->Stopped.load(std::memory_order_relaxed);
    });
    --Q->SpaceWaiters;
  }
  W->After = std::move(After);
  std::unique_lock<std::mutex> Order;
  if (Q->kind() != QueueKind::NonBlocking) {
    Order = std::unique_lock<std::mutex>(OrderLock);
    if (Q->kind() == QueueKind::Legacy) {
      for (const auto &O : All)
        if (O->kind() == QueueKind::Blocking && !O->idle())
          W->After.push_back({O, O->enqueued()});
    } else if (!Legacy->idle()) {
      W->After.push_back({Legacy, Legacy->enqueued()});
    }
  }
  return Q->push(std::move(W), Q);
}

std::vector<QueuePoint> QueueSet::legacyBarrier() {
  std::vector<QueuePoint> Points;
  std::lock_guard<std::mutex> G(OrderLock);
  for (const auto &O : All)
    if (O->kind() != QueueKind::NonBlocking && !O->idle())
      Points.push_back({O, O->enqueued()});
  return Points;
}

void QueueSet::waitForAll(const std::vector<QueuePoint> &Points) {
  for (const QueuePoint &P : Points)
    if (P.Queue && !P.Queue->isCurrentDispatcher())
      P.Queue->waitFor(P.Ticket);
}

void QueueSet::waitAll() {
  std::vector<QueuePoint> Points;
  {
    std::lock_guard<std::mutex> G(OrderLock);
    for (const auto &O : All)
      if (!O->idle())
        Points.push_back({O, O->enqueued()});
  }
  waitForAll(Points);
}

void QueueSet::stop() {
  Stopping.store(true, std::memory_order_release);
  std::vector<std::shared_ptr<WorkQueue>> Queues;
  {
    std::lock_guard<std::mutex> G(OrderLock);
    Queues = All;
  }
  for (const auto &Q : Queues) {
    std::deque<std::unique_ptr<QueuedWork>> Dropped;
    {
      std::lock_guard<std::mutex> L(Q->M);
      Q->Stopped.store(true, std::memory_order_release);
      Dropped.swap(Q->Pending);
      if (!Q->Running)
        Q->finish(Q->Enqueued.load(std::memory_order_relaxed));
      Q->Done.notify_all();
      Q->Space.notify_all();
      Q->Wake.notify_all();
    }
    // Dropped work is destroyed here, outside the queue's lock.
  }
}

void QueueSet::awaitRunning(std::chrono::milliseconds Grace) {
  std::vector<std::shared_ptr<WorkQueue>> Queues;
  {
    std::lock_guard<std::mutex> G(OrderLock);
    Queues = All;
  }
  auto Deadline = std::chrono::steady_clock::now() + Grace;
  for (const auto &Q : Queues) {
    if (Q->isCurrentDispatcher())
      continue; // exit() called from an operation of this queue
    std::unique_lock<std::mutex> L(Q->M);
    ++Q->Waiters;
    Q->Done.wait_until(L, Deadline, [&] { return !Q->Running; });
    --Q->Waiters;
  }
}

} // namespace cuhip::rt
