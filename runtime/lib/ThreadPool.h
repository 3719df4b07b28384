//===- ThreadPool.h - Workers that run the blocks of a launch -------------===//
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cuhip::rt {

/// A fixed set of worker threads plus the calling thread. parallelFor hands
/// out index ranges in increasing order (so a block may wait for an earlier
/// one) and returns when all are done.
class ThreadPool {
public:
  /// Workers is the number of threads besides the caller.
  explicit ThreadPool(unsigned Workers);
  ~ThreadPool();

  /// Participants, the caller included; worker indices are [0, size()).
  unsigned size() const { return unsigned(Threads.size()) + 1; }

  using Body = std::function<void(unsigned Worker, uint64_t Begin, uint64_t End)>;
  void parallelFor(uint64_t N, const Body &Fn);

private:
  struct Job;
  void workerLoop(unsigned Index);
  static void runItems(Job &J, unsigned Worker);

  std::vector<std::thread> Threads;
  std::mutex M;
  std::condition_variable Wake, Done;
  Job *Current = nullptr;
  uint64_t Generation = 0;
  bool Stop = false;
  std::mutex LaunchLock; // one parallelFor at a time
};

} // namespace cuhip::rt
