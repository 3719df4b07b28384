//===- DeviceLaunch.h - Dynamic parallelism on the CPU backend ------------===//
//
// A grid whose threads launch kernels (CUDA dynamic parallelism) gets a
// GridRuntime: the device runtime its device library calls reach
// (ptx::host::DeviceRuntime). What the threads ask for (child grids,
// copies and fills in device streams) is queued while the grid runs and
// runs once the grid has finished, in the order it was asked for, each
// child grid followed at once by what it queued in turn; the launching
// stream moves on only after all of it. This is one of the orders CUDA
// allows: a parent grid cannot wait for its children (CUDA 12 removed
// device-side cudaDeviceSynchronize), children in one stream run in order,
// and a grid completes only when all its descendants have.
//
// Not installed: nothing outside runtime/lib includes this.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/runtime/Runtime.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace cuhip::rt {

/// What the grids of one host launch share: how to find and run kernels,
/// the limits, and the device streams and events they create.
struct DeviceLaunchEnv {
  /// The compiled kernel whose address device code took (its block
  /// function), and the runtime's kernel for attribute queries; null if
  /// the address is no kernel of the launching module.
  std::function<const ptx::host::CompiledKernel *(const void *Fn, Kernel **K)>
      Resolve;
  /// Runs one grid to completion with Runtime serving its device calls.
  std::function<Status(const ptx::host::CompiledKernel &C, Dim3 Grid,
                       Dim3 Block, const void *Params, size_t Shared,
                       ptx::host::DeviceRuntime *Runtime, std::string &Msg)>
      Launch;
  /// cudaLimitDevRuntimePendingLaunchCount, read at the tree's first
  /// device-side launch (0 until then): launches queued and not yet
  /// started, over the whole tree.
  std::atomic<size_t> PendingLimit{0};
  std::atomic<size_t> Pending{0};
  std::mutex Lock; // Streams, Events, NextHandle
  std::set<uint64_t> Streams, Events;
  uint64_t NextHandle = 0x100;
};

class GridRuntime final : public ptx::host::DeviceRuntime {
public:
  /// The grid at Depth (a host launch is at 0).
  GridRuntime(DeviceLaunchEnv &Env, unsigned Depth) : Env(Env), Depth(Depth) {}
  ~GridRuntime() override;

  /// Runs what the grid queued (see the file comment). On failure returns
  /// the status of the grid that failed and sets Msg.
  Status runQueued(std::string &Msg);

  void *parameterBuffer(const void *Kernel, Dim Grid, Dim Block,
                        uint32_t SharedBytes, int &Error) override;
  void *parameterBuffer(uint64_t Alignment, uint64_t Size,
                        int &Error) override;
  int launch(void *ParamBuffer, uint64_t Stream) override;
  int launch(const void *Kernel, void *ParamBuffer, Dim Grid, Dim Block,
             uint32_t SharedBytes, uint64_t Stream) override;
  int streamCreate(uint64_t *Stream, uint32_t Flags) override;
  int streamDestroy(uint64_t Stream) override;
  int eventCreate(uint64_t *Event, uint32_t Flags) override;
  int eventRecord(uint64_t Event, uint64_t Stream) override;
  int eventDestroy(uint64_t Event) override;
  int streamWaitEvent(uint64_t Stream, uint64_t Event) override;
  int enqueueCopy(void *Dst, const void *Src, uint64_t Bytes,
                  uint64_t Stream) override;
  int enqueueCopy2D(void *Dst, uint64_t DPitch, const void *Src,
                    uint64_t SPitch, uint64_t Width, uint64_t Height,
                    uint64_t Stream) override;
  int enqueueFill(void *Dst, uint64_t Pitch, uint32_t Value, uint64_t Width,
                  uint64_t Height, uint64_t Stream) override;
  int deviceAttribute(int *Value, int Attribute, int Device) override;
  int limit(uint64_t *Value, int Limit) override;
  int maxActiveBlocks(int *Blocks, const void *Kernel, int BlockSize,
                      uint64_t DynamicShared) override;
  int funcAttributes(void *Attributes, const void *Kernel) override;
  int device() override;
  int deviceCount() override;
  int runtimeVersion() override;
  const char *errorString(int Error) override;
  const char *errorName(int Error) override;
  int lastError(const ptx::host::BlockContext *Ctx, uint32_t X, uint32_t Y,
                uint32_t Z, bool Reset) override;
  void setLastError(const ptx::host::BlockContext *Ctx, uint32_t X,
                    uint32_t Y, uint32_t Z, int Error) override;
  void setConditional(uint64_t Handle, uint32_t Value) override;

  /// The deepest a grid may be: CUDA's limit of 24 nesting levels.
  static constexpr unsigned MaxDepth = 24;

private:
  /// A parameter buffer: device code writes the launch's arguments into it
  /// (memcheck accepts it while it lives).
  struct Buffer {
    ~Buffer() {
      if (Bytes)
        ptx::host::untrackDeviceBuffer(Bytes.get());
    }
    std::unique_ptr<uint8_t[], void (*)(void *)> Bytes{nullptr, ::free};
    size_t Size = 0;
    const ptx::host::CompiledKernel *Kernel = nullptr; // V2 buffers
    Dim Grid{1, 1, 1}, Block{1, 1, 1};
    uint32_t Shared = 0;
  };
  /// One queued piece of work: a child grid (Kernel set) or a copy/fill.
  struct Work {
    const ptx::host::CompiledKernel *Kernel = nullptr;
    std::unique_ptr<Buffer> Params;
    Dim Grid{1, 1, 1}, Block{1, 1, 1};
    uint32_t Shared = 0;
    std::function<void()> Fn; // copies and fills
  };
  bool validStream(uint64_t Stream);
  int queueLaunch(std::unique_ptr<Buffer> B, const ptx::host::CompiledKernel *K,
                  Dim Grid, Dim Block, uint32_t Shared, uint64_t Stream);
  int queueFunction(std::function<void()> Fn, uint64_t Stream);
  static uint64_t threadKey(const ptx::host::BlockContext *Ctx, uint32_t X,
                            uint32_t Y, uint32_t Z);

  DeviceLaunchEnv &Env;
  unsigned Depth;
  std::atomic<bool> ReportedBadConditional{false}; // setConditional's report
  std::mutex Lock; // everything below
  std::map<const void *, std::unique_ptr<Buffer>> Buffers; // handed out
  std::vector<Work> Queue;
  std::map<uint64_t, int> LastErrors; // by thread (threadKey)
};

} // namespace cuhip::rt
