//===- DriverMemOps.cpp - Stream memory operations ------------------------===//
//
// cuStreamWaitValue32/64, cuStreamWriteValue32/64 and cuStreamBatchMemOp: a
// stream waits, in its order, until a word of memory satisfies a condition,
// or writes one. Where the device is the host (the CPU backend) a batch of
// operations is one host function of the stream, which runs on the
// stream's own thread once the stream's earlier work is done: a wait holds
// up its stream, and what orders after that stream, as on a GPU, and no
// other stream. It polls the word, yielding and then sleeping a little
// longer each time, until the condition holds or the context faults (the
// stream's later work is skipped then anyway). Its end is the program's
// business: a wait nothing ever satisfies waits forever, as CUDA's does.
// On a discrete device (the HIP backend) host functions cannot read device
// memory, and the operations are not supported.
//
// A captured operation becomes a host node that every launch of the graph
// runs again; its parameters then live as long as the process.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"

#include "cuhip/runtime/Graph.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

using namespace cuhip;
using namespace cuhip::cuda;

namespace {

/// One operation, as a batch entry describes it.
struct MemOp {
  CUstreamBatchMemOpType Kind = 0; // CU_STREAM_MEM_OP_*
  CUdeviceptr Address = 0;
  uint64_t Value = 0;
  unsigned Flags = 0;
};

struct Batch {
  std::vector<MemOp> Ops;
  bool Captured = false; // a graph node's: run again by every launch
};

constexpr unsigned WaitConditionMask = 0x3; // CU_STREAM_WAIT_VALUE_GEQ..NOR
constexpr unsigned MaxBatch = 256;          // cuStreamBatchMemOp's count

/// Does Current satisfy the wait condition against Value? GEQ is cyclic:
/// the difference read as a signed number, so counters may wrap.
template <typename T> bool satisfied(T Current, T Value, unsigned Condition) {
  switch (Condition) {
  case CU_STREAM_WAIT_VALUE_GEQ:
    return std::make_signed_t<T>(T(Current - Value)) >= 0;
  case CU_STREAM_WAIT_VALUE_EQ:
    return Current == Value;
  case CU_STREAM_WAIT_VALUE_AND:
    return (Current & Value) != 0;
  default: // CU_STREAM_WAIT_VALUE_NOR
    return T(~(Current | Value)) != 0;
  }
}

template <typename T> void waitFor(const MemOp &Op) {
  std::atomic_ref<T> Word(*reinterpret_cast<T *>(uintptr_t(Op.Address)));
  unsigned Condition = Op.Flags & WaitConditionMask;
  auto Pause = std::chrono::microseconds(1);
  for (unsigned Polls = 0;
       !satisfied(Word.load(std::memory_order_acquire), T(Op.Value), Condition);
       ++Polls) {
    if (runtime().stickyError())
      return;
    if (Polls < 64) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(200));
  }
  if (Op.Flags & CU_STREAM_WAIT_VALUE_FLUSH)
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

/// A write is ordered after the stream's earlier writes unless
/// CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER lets it pass them.
template <typename T> void write(const MemOp &Op) {
  std::atomic_ref<T> Word(*reinterpret_cast<T *>(uintptr_t(Op.Address)));
  Word.store(T(Op.Value), Op.Flags & CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER
                              ? std::memory_order_relaxed
                              : std::memory_order_seq_cst);
}

void runBatch(void *Data) {
  auto *B = static_cast<Batch *>(Data);
  for (const MemOp &Op : B->Ops) {
    switch (Op.Kind) {
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
      waitFor<uint32_t>(Op);
      break;
    case CU_STREAM_MEM_OP_WAIT_VALUE_64:
      waitFor<uint64_t>(Op);
      break;
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
      write<uint32_t>(Op);
      break;
    case CU_STREAM_MEM_OP_WRITE_VALUE_64:
      write<uint64_t>(Op);
      break;
    default: // barriers and flushes: the host's memory is coherent
      std::atomic_thread_fence(std::memory_order_seq_cst);
      break;
    }
  }
  if (!B->Captured)
    delete B;
}

/// The batches graph nodes run, kept for the rest of the process.
void keepCaptured(Batch *B) {
  static std::mutex Lock;
  static auto *Kept = new std::vector<std::unique_ptr<Batch>>;
  std::lock_guard<std::mutex> G(Lock);
  Kept->emplace_back(B);
}

/// CUDA_ERROR_INVALID_VALUE unless Op is an operation CUDA accepts: a known
/// kind, flags of that kind, and a naturally aligned word the device can
/// reach.
CUresult check(const MemOp &Op) {
  size_t Width;
  unsigned FlagsAllowed;
  switch (Op.Kind) {
  case CU_STREAM_MEM_OP_WAIT_VALUE_32:
  case CU_STREAM_MEM_OP_WAIT_VALUE_64:
    Width = Op.Kind == CU_STREAM_MEM_OP_WAIT_VALUE_32 ? 4 : 8;
    FlagsAllowed = WaitConditionMask | CU_STREAM_WAIT_VALUE_FLUSH;
    break;
  case CU_STREAM_MEM_OP_WRITE_VALUE_32:
  case CU_STREAM_MEM_OP_WRITE_VALUE_64:
    Width = Op.Kind == CU_STREAM_MEM_OP_WRITE_VALUE_32 ? 4 : 8;
    FlagsAllowed = CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER;
    break;
  case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
    return Op.Flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  case CU_STREAM_MEM_OP_BARRIER: // CU_STREAM_MEMORY_BARRIER_TYPE_SYS, _GPU
    return Op.Flags <= 1 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  if ((Op.Flags & ~FlagsAllowed) || Op.Address % Width ||
      !isDeviceAccessible(Op.Address, Width))
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult enqueue(void *Stream, std::vector<MemOp> Ops) {
  if (CUresult R = checkContext())
    return R;
  for (const MemOp &Op : Ops)
    if (CUresult R = check(Op))
      return R;
  if (!runtime().deviceInfo(0).Integrated)
    return notSupported("stream memory operations on a discrete device");
  if (Ops.empty())
    return CUDA_SUCCESS;
  bool Captured = false;
  if (rt::capture::anyActive()) {
    rt::CaptureStatus St = rt::CaptureStatus::None;
    Captured = rt::streamIsCapturing(Stream, &St) == rt::cudaSuccess &&
               St == rt::CaptureStatus::Active;
  }
  auto *B = new Batch{std::move(Ops), Captured};
  // Once enqueued, an uncaptured batch is the host function's to free.
  if (rt::Status S = runtime().streamAddHostFunc(Stream, &runBatch, B)) {
    delete B;
    return toCU(S);
  }
  if (Captured)
    keepCaptured(B);
  return CUDA_SUCCESS;
}

CUresult enqueueOne(void *Stream, CUstreamBatchMemOpType Kind,
                    CUdeviceptr Address, uint64_t Value, unsigned Flags) {
  return enqueue(Stream, {MemOp{Kind, Address, Value, Flags}});
}

CUresult batch(void *Stream, unsigned Count,
               const CUstreamBatchMemOpParams *Params, unsigned Flags) {
  if (Flags != 0 || Count > MaxBatch || (Count && !Params))
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<MemOp> Ops(Count);
  for (unsigned I = 0; I < Count; ++I) {
    const CUstreamBatchMemOpParams &P = Params[I];
    MemOp &Op = Ops[I];
    Op.Kind = P.operation;
    switch (P.operation) {
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64:
      Op.Address = P.waitValue.address;
      Op.Value = P.operation == CU_STREAM_MEM_OP_WAIT_VALUE_32
                     ? P.waitValue.value
                     : P.waitValue.value64;
      Op.Flags = P.waitValue.flags;
      break;
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WRITE_VALUE_64:
      Op.Address = P.writeValue.address;
      Op.Value = P.operation == CU_STREAM_MEM_OP_WRITE_VALUE_32
                     ? P.writeValue.value
                     : P.writeValue.value64;
      Op.Flags = P.writeValue.flags;
      break;
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
      Op.Flags = P.flushRemoteWrites.flags;
      break;
    case CU_STREAM_MEM_OP_BARRIER:
      Op.Flags = P.memoryBarrier.flags;
      break;
    default:
      break; // check() refuses it
    }
  }
  return enqueue(Stream, std::move(Ops));
}

} // namespace

// Each operation under its four names: the first API, its per-thread
// default stream form, and CUDA 11.7's `_v2` pair (the same operation,
// named apart when it stopped needing a driver option).
#define CUHIP_MEMOP_FAMILY(Name, T, Kind)                                      \
  CUHIP_EXPORT CUresult Name(CUstream S, CUdeviceptr Addr, T Value,            \
                             unsigned int Flags) {                             \
    return enqueueOne(coreStream(S), Kind, Addr, Value, Flags);                \
  }                                                                            \
  CUHIP_EXPORT CUresult Name##_ptsz(CUstream S, CUdeviceptr Addr, T Value,     \
                                    unsigned int Flags) {                      \
    return enqueueOne(perThreadStream(S), Kind, Addr, Value, Flags);           \
  }                                                                            \
  CUHIP_EXPORT CUresult Name##_v2(CUstream S, CUdeviceptr Addr, T Value,       \
                                  unsigned int Flags) {                        \
    return enqueueOne(coreStream(S), Kind, Addr, Value, Flags);                \
  }                                                                            \
  CUHIP_EXPORT CUresult Name##_v2_ptsz(CUstream S, CUdeviceptr Addr, T Value,  \
                                       unsigned int Flags) {                   \
    return enqueueOne(perThreadStream(S), Kind, Addr, Value, Flags);           \
  }

CUHIP_MEMOP_FAMILY(cuStreamWaitValue32, cuuint32_t,
                   CU_STREAM_MEM_OP_WAIT_VALUE_32)
CUHIP_MEMOP_FAMILY(cuStreamWaitValue64, cuuint64_t,
                   CU_STREAM_MEM_OP_WAIT_VALUE_64)
CUHIP_MEMOP_FAMILY(cuStreamWriteValue32, cuuint32_t,
                   CU_STREAM_MEM_OP_WRITE_VALUE_32)
CUHIP_MEMOP_FAMILY(cuStreamWriteValue64, cuuint64_t,
                   CU_STREAM_MEM_OP_WRITE_VALUE_64)
#undef CUHIP_MEMOP_FAMILY

CUHIP_EXPORT CUresult cuStreamBatchMemOp(CUstream S, unsigned int Count,
                                         CUstreamBatchMemOpParams *Params,
                                         unsigned int Flags) {
  return batch(coreStream(S), Count, Params, Flags);
}
CUHIP_EXPORT CUresult cuStreamBatchMemOp_ptsz(CUstream S, unsigned int Count,
                                              CUstreamBatchMemOpParams *Params,
                                              unsigned int Flags) {
  return batch(perThreadStream(S), Count, Params, Flags);
}
CUHIP_EXPORT CUresult cuStreamBatchMemOp_v2(CUstream S, unsigned int Count,
                                            CUstreamBatchMemOpParams *Params,
                                            unsigned int Flags) {
  return batch(coreStream(S), Count, Params, Flags);
}
CUHIP_EXPORT CUresult cuStreamBatchMemOp_v2_ptsz(
    CUstream S, unsigned int Count, CUstreamBatchMemOpParams *Params,
    unsigned int Flags) {
  return batch(perThreadStream(S), Count, Params, Flags);
}
