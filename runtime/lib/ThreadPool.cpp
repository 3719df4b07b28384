//===- ThreadPool.cpp - Workers that run the blocks of a launch -----------===//
//
// Items are claimed in chunks with one atomic counter, in increasing order.
// The caller works too: on a two-core machine that is half the throughput.
//
//===----------------------------------------------------------------------===//
#include "ThreadPool.h"

#include <algorithm>
#include <atomic>

namespace cuhip::rt {

struct ThreadPool::Job {
  const Body *Fn;
  uint64_t N;
  uint64_t Chunk;
  std::atomic<uint64_t> Next{0};
  unsigned Active = 0; // workers inside this job, guarded by M
};

ThreadPool::ThreadPool(unsigned Workers) {
  for (unsigned I = 0; I < Workers; ++I)
    Threads.emplace_back([this, I] { workerLoop(I + 1); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> L(M);
    Stop = true;
  }
  Wake.notify_all();
  for (auto &T : Threads)
    T.join();
}

void ThreadPool::runItems(Job &J, unsigned Worker) {
  for (;;) {
    uint64_t Begin = J.Next.fetch_add(J.Chunk, std::memory_order_relaxed);
    if (Begin >= J.N)
      return;
    (*J.Fn)(Worker, Begin, std::min(J.N, Begin + J.Chunk));
  }
}

void ThreadPool::workerLoop(unsigned Index) {
  uint64_t Seen = 0;
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    Wake.wait(L, [&] { return Stop || Generation != Seen; });
    if (Stop)
      return;
    Seen = Generation;
    Job *J = Current;
    if (!J)
      continue;
    ++J->Active;
    L.unlock();
    runItems(*J, Index);
    L.lock();
    if (--J->Active == 0)
      Done.notify_all();
  }
}

void ThreadPool::parallelFor(uint64_t N, const Body &Fn) {
  if (N == 0)
    return;
  std::lock_guard<std::mutex> Serial(LaunchLock);
  Job J;
  J.Fn = &Fn;
  J.N = N;
  J.Chunk = std::max<uint64_t>(1, N / (8 * uint64_t(size())));
  bool UseWorkers = !Threads.empty() && N > 1;
  if (UseWorkers) {
    {
      std::lock_guard<std::mutex> L(M);
      Current = &J;
      ++Generation;
    }
    Wake.notify_all();
  }
  runItems(J, 0);
  if (UseWorkers) {
    std::unique_lock<std::mutex> L(M);
    Done.wait(L, [&] { return J.Active == 0; });
    Current = nullptr;
  }
}

} // namespace cuhip::rt
