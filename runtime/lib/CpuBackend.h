//===- CpuBackend.h - Running compiled kernels on host cores --------------===//
#pragma once

#include "ThreadPool.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/runtime/Runtime.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cuhip::rt {

class CpuBackend {
public:
  CpuBackend();
  ~CpuBackend();

  unsigned workers() const { return Pool.size(); }

  /// Process exit: grids running now start no further blocks (and
  /// cooperative grids resume no waiting ones); later launches run normally.
  static void cancelRunningLaunches();

  /// Runs every block of the grid; returns when all have finished. Params
  /// is the packed parameter buffer. Cooperative grids run with all their
  /// blocks resident at once (the caller has checked their size). On
  /// failure Message says why. In memcheck mode Memcheck holds the
  /// allocations the checks accept; the backend fills in the block's sizes.
  /// Runtime, when given, serves the grid's device-side runtime calls
  /// (dynamic parallelism).
  Status launch(const ptx::host::CompiledKernel &K, Dim3 Grid, Dim3 Block,
                const void *Params, size_t DynamicShared, bool Cooperative,
                std::string &Message,
                ptx::host::MemcheckLaunch *Memcheck = nullptr,
                ptx::host::DeviceRuntime *Runtime = nullptr);

private:
  Status launchCooperative(const ptx::host::CompiledKernel &K, Dim3 Grid,
                           Dim3 Block, const void *Params,
                           size_t DynamicShared, size_t SharedBytes,
                           size_t FrameBytes, std::string &Message,
                           ptx::host::MemcheckLaunch *Memcheck,
                           ptx::host::DeviceRuntime *Runtime);

  struct Scratch {
    std::unique_ptr<uint8_t[], void (*)(void *)> Shared{nullptr, ::free};
    size_t SharedSize = 0;
    std::unique_ptr<uint8_t[], void (*)(void *)> Frames{nullptr, ::free};
    size_t FramesSize = 0;
  };
  ThreadPool Pool;
  std::mutex LaunchLock;          // launches from several streams queue
  std::vector<Scratch> Scratches; // one per pool participant
};

} // namespace cuhip::rt
