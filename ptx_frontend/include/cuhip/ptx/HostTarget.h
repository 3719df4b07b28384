//===- HostTarget.h - Running PTX kernels on the host CPU -----------------===//
//
// The host target turns each kernel of a lowered module into a *block
// function*: one call runs every thread of one thread block. Barriers are
// handled by continuation-based synchronisation: the kernel is cut at each
// barrier into regions, each region runs as a loop over the block's threads,
// and values live across a barrier are kept per thread in a frame. The
// runtime calls the block function once per block, from any worker thread,
// with a BlockContext describing the block.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Lower.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Error;
class LLVMContext;
class Module;
class TargetMachine;
template <typename T> class Expected;
namespace orc {
class LLJIT;
}
} // namespace llvm

namespace cuhip::ptx::host {

/// What a block function receives besides the parameter buffer. The layout
/// is an ABI between the runtime and the generated code (see the field
/// offsets checked below); change both together.
struct BlockContext {
  uint32_t CtaId[3];
  uint32_t NCtaId[3];
  uint32_t NTid[3];
  uint32_t DynamicSharedBytes;
  uint8_t *Shared;  // this block's shared memory: static, then dynamic
  uint8_t *Frames;  // FrameBytesPerThread * threads-per-block bytes
  uint32_t Status;  // BlockStatus, set by the generated code
  uint32_t WorkerId;   // which worker runs the block (%smid)
  uint32_t NumWorkers; // %nsmid
  uint32_t Reserved;
  /// %envreg0..3; the others read 0. In a cooperative launch %envreg1
  /// (high half) and %envreg2 (low half) hold the address of the grid's
  /// GridWorkspace, where cooperative_groups' grid.sync() counts arrivals.
  uint32_t EnvReg[4];
  /// Set when the block runs as a fiber (cooperative launches): loops that
  /// poll memory other blocks write give the worker to another block
  /// through it. Null otherwise, and then polling loops just spin.
  struct BlockFiber *Fiber;
  /// Memcheck mode only: what the launch's access checks compare against
  /// (null otherwise). Read by cuhip_memcheck, never by generated code.
  const struct MemcheckLaunch *Memcheck;
  /// The launch's device runtime (dynamic parallelism: the launches,
  /// streams and copies its threads ask for), or null where the runtime
  /// gives none. Read by the device library, never by generated code.
  class DeviceRuntime *Runtime;
};
static_assert(offsetof(BlockContext, NTid) == 24);
static_assert(offsetof(BlockContext, DynamicSharedBytes) == 36);
static_assert(offsetof(BlockContext, Shared) == 40);
static_assert(offsetof(BlockContext, Frames) == 48);
static_assert(offsetof(BlockContext, Status) == 56);
static_assert(offsetof(BlockContext, WorkerId) == 60);
static_assert(offsetof(BlockContext, NumWorkers) == 64);
static_assert(offsetof(BlockContext, EnvReg) == 72);
static_assert(offsetof(BlockContext, Fiber) == 88);
static_assert(offsetof(BlockContext, Memcheck) == 96);
static_assert(offsetof(BlockContext, Runtime) == 104);

/// The workspace a cooperative launch gives its grid (the layout CUDA's
/// cooperative_groups headers read through %envreg1:%envreg2). grid.sync()
/// has thread 0 of every block add to Barrier (block 0 adds 0x80000001
/// minus the block count, the others 1, so bit 31 flips once all arrived)
/// and poll it until it flips; Barrier starts at 0.
struct GridWorkspace {
  uint32_t Size;    // bytes of the workspace
  uint32_t Barrier; // arrivals at grid.sync()
};
static_assert(offsetof(GridWorkspace, Barrier) == 4);

/// How a block running as a fiber gives its worker back; the runtime
/// provides it. Yield returns when the scheduler resumes the block.
struct BlockFiber {
  void (*Yield)(BlockFiber *Self);
};
/// Called by generated code on the back edge of a polling loop when
/// Ctx->Fiber is set: lets the worker run other blocks of the grid, whose
/// progress the loop waits for.
extern "C" void cuhip_block_yield(BlockContext *Ctx);
using BlockFunction = void (*)(const void *Params, BlockContext *Ctx);

/// Per-thread exchange area at the start of a thread's frame, through which
/// a warp-level collective gets its operands and hands back its result.
struct WarpExchange {
  uint64_t Value;  // the lane's operand (a predicate is 0 or 1)
  uint32_t Mask;   // member mask
  uint32_t B, C;   // shfl's lane/offset and clamp/segment operands
  uint32_t Pred;   // predicate result
  uint64_t Result;
};
static_assert(sizeof(WarpExchange) == 32);

/// The collectives the CPU backend evaluates for a warp (WarpRuntime.cpp).
enum class WarpOp : uint32_t {
  None = 0,
  ShflUp, ShflDown, ShflBfly, ShflIdx,
  VoteAll, VoteAny, VoteUni, VoteBallot,
  MatchAny32, MatchAny64, MatchAll32, MatchAll64,
  ReduxAdd, ReduxMin, ReduxMax, ReduxUMin, ReduxUMax, ReduxAnd, ReduxOr,
  ReduxXor,
  WarpSync, ActiveMask, Elect,
  // Block-wide: bar.red reduces a predicate over the block at a barrier.
  BarRedPopc, BarRedAnd, BarRedOr,
  // Warp-level matrix instructions; their MatrixExchange says which form.
  LdMatrix, StMatrix, Mma, WmmaLoad, WmmaStore, WmmaMma,
  // Named barriers: bar.sync/barrier.sync with a thread count, bar.arrive.
  // Mask holds the barrier number, B the thread count.
  BarSyncCount, BarArrive,
  // Before an mbarrier test_wait/try_wait: Value holds the object's address,
  // B the parity of the awaited phase. The lane waits until that phase
  // completes (or nothing else in the block can run).
  MbarrierWait,
  // The lanes waiting here go on together: warp-synchronous shared-memory
  // code expects a converged warp's accesses in lockstep. No operands.
  Converge,
};

/// Element types of matrix fragments.
enum class MatrixElem : uint8_t {
  None, F16, BF16, TF32, F32, F64, S8, U8, S32, B16,
};

enum MatrixFlag : uint8_t {
  MatrixTrans = 1,     // ldmatrix/stmatrix .trans
  MatrixColMajor = 2,  // wmma.load/store .col
  MatrixSatFinite = 4, // integer mma/wmma.mma .satfinite
  // wmma.load/store: which matrix the fragment belongs to.
  MatrixFragA = 0 << 3,
  MatrixFragB = 1 << 3,
  MatrixFragC = 2 << 3, // C and D
  MatrixFragMask = 3 << 3,
};

/// One matrix instruction's form, decoded by the host target from its
/// intrinsic's name (see LowerMatrix.cpp) and stored by every lane.
struct MatrixDesc {
  uint8_t M, N, K;       // shape; ldmatrix/stmatrix: 8, 8, matrix count
  MatrixElem A, B, C, D; // wmma.load/store: the fragment's type in A
  uint8_t Flags;         // MatrixFlag
};
static_assert(sizeof(MatrixDesc) == 8);

/// Kernels with matrix instructions keep this after the WarpExchange of each
/// frame: a lane's fragments go in as Words (the operands in the order of
/// the intrinsic's parameters, 64-bit values on even words) and its result
/// fragment comes back in Words from word 0.
struct MatrixExchange {
  MatrixDesc Desc;
  uint64_t Address; // ldmatrix/stmatrix: this lane's row; wmma: the matrix
  uint32_t Stride;  // wmma.load/store: elements per row/column, 0: default
  uint32_t Reserved;
  uint32_t Words[32];
};
static_assert(offsetof(MatrixExchange, Desc) == 0);
static_assert(offsetof(MatrixExchange, Address) == 8);
static_assert(offsetof(MatrixExchange, Stride) == 16);
static_assert(offsetof(MatrixExchange, Words) == 24);
static_assert(sizeof(MatrixExchange) == 152);

/// A lane's scheduling state in the frame (scheduled block functions only).
enum LaneState : uint8_t {
  LaneRunnable = 0,
  LaneAtWarpOp = 1,
  LaneAtBarrier = 2,
  LaneExited = 3,
};

/// Where the scheduling state sits in each frame, and which collective each
/// region starts with: what the warp scheduler needs to know of a kernel.
struct WarpSchedule {
  uint32_t FrameBytes;
  uint32_t ResumeOffset; // u32: the region the lane runs next
  uint32_t StateOffset;  // u8: LaneState
  uint32_t NumRegions;
  const uint32_t *OpOfRegion; // WarpOp per region (None: not a warp cut)
  /// Offset, in the first thread's frame, of 16 u32 arrival counts left by
  /// bar.arrive (named barriers), then a u32 count of the block steps in a
  /// row that released mbarrier waits whose phase had not completed; 0 when
  /// the kernel has neither named barriers nor mbarrier waits.
  uint32_t CounterOffset;
};
inline constexpr unsigned NumNamedBarriers = 16;
/// The u32 words at WarpSchedule::CounterOffset.
inline constexpr unsigned NumBlockCounters = NumNamedBarriers + 1;
/// How many block steps in a row may release mbarrier waits whose phase has
/// not completed (a try_wait that times out) before the block counts as
/// deadlocked: plenty for code that polls several mbarriers in turn, and
/// still a fraction of a millisecond for a block that hangs.
inline constexpr uint32_t MaxMbarrierStalls = 1024;

/// Runs the collective that the lowest waiting lane of a warp waits at, for
/// all lanes waiting at the same one, and makes them runnable. Returns 0
/// when no lane of the warp waits at a collective. Called by generated code.
extern "C" uint32_t cuhip_warp_step(uint8_t *WarpFrames, uint32_t Lanes,
                                    const WarpSchedule *S);
/// The operands and results of a matrix instruction that a warp run as
/// one vector program hands to cuhip_matrix_lanes: register by register,
/// each a vector of the 32 lanes' values (64-bit registers take two words,
/// low and high, at an even word), so generated code moves them with
/// plain vector stores and loads.
struct MatrixLanes {
  uint64_t Address[32]; // per lane, as MatrixExchange::Address
  uint32_t Stride[32];  // per lane, as MatrixExchange::Stride
  uint32_t Words[32][32]; // [word][lane]
};

/// Runs matrix instruction Op (LdMatrix ... WmmaMma), whose MatrixDesc is
/// Desc, for the lanes in Active (bit L: lane L) of the warp in Lanes:
/// WordsIn operand words go in, WordsOut result words come back in their
/// place. Called by generated code.
extern "C" void cuhip_matrix_lanes(MatrixLanes *Lanes, uint32_t WordsIn,
                                   uint32_t WordsOut, uint32_t Active,
                                   uint32_t Op, uint64_t Desc);
/// After every warp of a block has stopped at a barrier or exited: counts
/// bar.arrive arrivals, releases every named barrier whose thread count is
/// reached, the mbarrier waits whose phase has completed and, when all
/// running lanes wait at the same ordinary barrier, that one. When nothing
/// else can run, lanes at mbarrier waits are released anyway (their test
/// answers false, as a try_wait may), at most MaxMbarrierStalls times in a
/// row. Returns 0 when lanes were released, 1 when every lane has exited,
/// 2 when nothing can be released (lanes at different ordinary barriers, or
/// named barriers that will never fill), 3 when the lanes keep waiting for
/// mbarrier phases that do not complete.
extern "C" uint32_t cuhip_barrier_step(uint8_t *Frames, uint32_t Threads,
                                       const WarpSchedule *S);
/// %globaltimer: nanoseconds.
extern "C" uint64_t cuhip_globaltimer(void);

/// Why a block stopped early.
enum TrapCode : uint32_t {
  TrapNone = 0,
  TrapInstruction = 1, // trap
  TrapBreakpoint = 2,  // brkpt
  TrapAssert = 3,      // a failed device-side assert
  /// A memory fault (SIGSEGV/SIGBUS) in kernel code, or an access that
  /// memcheck mode found outside every allocation.
  TrapIllegalAddress = 4,
};

/// Where a thread that traps goes: the runtime sets CurrentTrap (with
/// setjmp) around each block it runs; cuhip_trap longjmps back to it. The
/// generated code has no destructors to run, so unwinding it this way is
/// safe. A memory fault while CurrentTrap is set comes back the same way
/// from the fault handler (see installFaultHandler).
struct TrapContext {
  void *JumpBuffer[40]; // a jmp_buf
  uint32_t Code = TrapNone;
  int Signal = 0;          // SIGSEGV or SIGBUS for a fault
  uint64_t Address = 0;    // TrapIllegalAddress: the address accessed
};
extern thread_local TrapContext *CurrentTrap;
extern "C" [[noreturn]] void cuhip_trap(uint32_t Code);
/// Traps with TrapIllegalAddress at Address (memcheck's bad accesses).
[[noreturn]] void trapIllegalAddress(uint64_t Address);

/// How a guarded block ended.
struct BlockTrap {
  uint32_t Code = TrapNone;
  int Signal = 0;       // the fault's signal, 0 when none
  uint64_t Address = 0; // TrapIllegalAddress: the faulting address
};

/// Runs one block under a trap context; returns its TrapCode, and with
/// Trap given, the details of a fault.
uint32_t runBlockGuarded(BlockFunction Fn, const void *Params,
                         BlockContext *Ctx, BlockTrap *Trap = nullptr);

/// From the first call on, SIGSEGV and SIGBUS in kernel code (on a thread
/// inside runBlockGuarded) end the block with TrapIllegalAddress instead of
/// ending the process. Faults anywhere else go to the handler that was
/// installed before the first call (the program's own, or the default one,
/// which ends the process). The handler stays installed, so that a launch
/// costs no system calls; a handler the program installs later replaces it.
/// Thread-safe; the runtime calls it before each launch.
void installFaultHandler();

/// An address range of memory a kernel may access.
struct MemRange {
  uint64_t Base;
  uint64_t Size;
};

/// What memcheck mode checks a launch's accesses against. Everything is
/// owned by the runtime and stays unchanged until the launch ends, so the
/// checks read it without locks while other host threads allocate and free.
struct MemcheckLaunch {
  const MemRange *Live = nullptr;  // device allocations, sorted by Base
  size_t NumLive = 0;
  const MemRange *Freed = nullptr; // recently freed ones, sorted by Base
  size_t NumFreed = 0;
  uint64_t SharedBytes = 0; // the block's shared memory, static + dynamic
  uint64_t FrameBytes = 0;  // the block's thread frames
  const void *Params = nullptr; // the parameter buffer
  uint64_t ParamBytes = 0;
  /// A cooperative launch's GridWorkspace, which grid.sync() updates with
  /// global atomics; null for other launches.
  const void *GridWorkspace = nullptr;
  uint64_t GridWorkspaceBytes = 0;
  const char *KernelName = "";
  /// Set by the first check that fails, so that one report is printed.
  mutable std::atomic<bool> Reported{false};
};

/// Memcheck mode: called by instrumented code before each global, generic
/// and shared access. Returns when the access is inside memory the kernel
/// may touch; otherwise prints a report naming the access, the PTX source
/// line (Site: "function+file:line"), the thread and the address, and traps
/// with TrapIllegalAddress. Kind is AccessKind.
extern "C" void cuhip_memcheck(uint64_t Address, uint32_t Kind,
                               const BlockContext *Ctx, uint32_t TidX,
                               uint32_t TidY, uint32_t TidZ, const char *Site);
/// Bits of cuhip_memcheck's Kind: the access size in the low 16 bits, then
/// the state space and whether it reads, writes or does both.
enum AccessKind : uint32_t {
  AccessSizeMask = 0xffff,
  AccessGeneric = 0 << 16,
  AccessGlobal = 1 << 16,
  AccessShared = 3 << 16,
  AccessSpaceMask = 0xf << 16,
  AccessRead = 1 << 20,
  AccessWrite = 2 << 20,
  AccessAtomic = 3 << 20,
  AccessOpMask = 3 << 20,
};

/// Memcheck mode: module variables (`.global`/`.const`) a kernel may
/// access, registered when a module is linked (the table the memcheck pass
/// adds to each module, MemcheckGlobalsSymbol), and in-kernel malloc
/// blocks while they are live. Turning tracking on makes the device
/// library's malloc and free record their blocks.
void setMemcheckDeviceHeapTracking(bool On);
/// Memcheck mode: memory kernels may access besides allocations and the
/// in-kernel heap (the device runtime's parameter buffers), from track to
/// untrack. Nothing is recorded when tracking is off.
void trackDeviceBuffer(const void *P, uint64_t Size);
void untrackDeviceBuffer(const void *P);

/// The in-kernel malloc heap's size (cudaLimitMallocHeapSize): device
/// malloc returns null once the live blocks would exceed it, as on a GPU.
/// Blocks are counted by the C heap's usable size of each block.
void setDeviceHeapLimit(uint64_t Bytes);
uint64_t deviceHeapLimit();
void registerMemcheckRanges(const MemRange *Ranges, size_t N);
inline constexpr const char *MemcheckGlobalsSymbol = "cuhip.memcheck.globals";

/// The device library: functions PTX declares .extern and calls (printf,
/// assert, malloc, free), implemented on the host. Generated code calls
/// them as `cuhip_device_<name>(ret, args, ctx, tid.x, tid.y, tid.z)` with
/// the call's packed return and argument buffers.
using DeviceLibraryFunction = void (*)(void *Ret, const void *Args,
                                       const BlockContext *Ctx, uint32_t TidX,
                                       uint32_t TidY, uint32_t TidZ);
/// The implementation of a PTX .extern function name, or nullptr.
DeviceLibraryFunction deviceLibraryFunction(const std::string &Name);
/// Every name deviceLibraryFunction knows.
const std::vector<std::string> &deviceLibraryNames();

/// The device runtime API of dynamic parallelism as the runtime provides it
/// to one running grid (BlockContext::Runtime). Device code calls it
/// through the device library (`__cudaCDP2*` and the older `cuda*` names of
/// NVIDIA's libcudadevrt, whose own PTX is never linked). Every method may
/// be called from several blocks at once. Results are cudaError_t values.
class DeviceRuntime {
public:
  virtual ~DeviceRuntime();
  struct Dim {
    uint32_t X, Y, Z;
  };
  /// A parameter buffer for a launch of the kernel whose address device
  /// code took (its block function), or null with Error set.
  virtual void *parameterBuffer(const void *Kernel, Dim Grid, Dim Block,
                                uint32_t SharedBytes, int &Error) = 0;
  /// cudaGetParameterBuffer's older form: a buffer with no kernel yet.
  virtual void *parameterBuffer(uint64_t Alignment, uint64_t Size,
                                int &Error) = 0;
  /// Launches what parameterBuffer set up, in the device stream Stream.
  virtual int launch(void *ParamBuffer, uint64_t Stream) = 0;
  /// The older form, naming the kernel and shape at the launch.
  virtual int launch(const void *Kernel, void *ParamBuffer, Dim Grid,
                     Dim Block, uint32_t SharedBytes, uint64_t Stream) = 0;
  virtual int streamCreate(uint64_t *Stream, uint32_t Flags) = 0;
  virtual int streamDestroy(uint64_t Stream) = 0;
  virtual int eventCreate(uint64_t *Event, uint32_t Flags) = 0;
  virtual int eventRecord(uint64_t Event, uint64_t Stream) = 0;
  virtual int eventDestroy(uint64_t Event) = 0;
  virtual int streamWaitEvent(uint64_t Stream, uint64_t Event) = 0;
  /// A copy or fill in a device stream: runs in that stream's order.
  virtual int enqueueCopy(void *Dst, const void *Src, uint64_t Bytes,
                          uint64_t Stream) = 0;
  virtual int enqueueCopy2D(void *Dst, uint64_t DPitch, const void *Src,
                            uint64_t SPitch, uint64_t Width, uint64_t Height,
                            uint64_t Stream) = 0;
  virtual int enqueueFill(void *Dst, uint64_t Pitch, uint32_t Value,
                          uint64_t Width, uint64_t Height,
                          uint64_t Stream) = 0;
  virtual int deviceAttribute(int *Value, int Attribute, int Device) = 0;
  virtual int limit(uint64_t *Value, int Limit) = 0;
  virtual int maxActiveBlocks(int *Blocks, const void *Kernel,
                              int BlockSize, uint64_t DynamicShared) = 0;
  virtual int funcAttributes(void *Attributes, const void *Kernel) = 0;
  virtual int device() = 0;
  virtual int deviceCount() = 0;
  virtual int runtimeVersion() = 0;
  virtual const char *errorString(int Error) = 0;
  virtual const char *errorName(int Error) = 0;
  /// The calling thread's last device-runtime error; Reset clears it.
  virtual int lastError(const BlockContext *Ctx, uint32_t TidX,
                        uint32_t TidY, uint32_t TidZ, bool Reset) = 0;
  virtual void setLastError(const BlockContext *Ctx, uint32_t TidX,
                            uint32_t TidY, uint32_t TidZ, int Error) = 0;
  /// cudaGraphSetConditional: the value of a conditional graph node's
  /// handle. An unknown handle is reported, not written through.
  virtual void setConditional(uint64_t Handle, uint32_t Value) = 0;
};

enum BlockStatus : uint32_t {
  BlockOk = 0,
  /// Threads of one block waited at different barriers (undefined in CUDA).
  BlockDivergentBarrier = 1,
  /// Threads of one block kept waiting for mbarrier phases that nothing
  /// left in the block could complete (a hang on a GPU).
  BlockMbarrierDeadlock = 2,
};


/// Per-kernel facts the runtime needs to launch a block function.
struct HostKernelLayout {
  std::string KernelName;
  std::string BlockFunctionName;
  uint32_t FrameBytesPerThread = 0;
  uint32_t StaticSharedBytes = 0;
  uint32_t SharedAlign = 16;
  unsigned NumRegions = 1; // 1 + number of barriers kept
  /// Threads run as SIMD lanes of one vector program (WarpVectorize.cpp)
  /// when ntid.x is a multiple of this; 0 when the kernel runs one thread
  /// at a time, for the reason in ScalarReason.
  unsigned VectorLanes = 0;
  std::string ScalarReason;
};

/// Options that change the code the host target generates; each is part of
/// the compile cache key.
struct HostCompileOptions {
  /// Check every global, generic and shared access of the kernels before it
  /// runs (cuhip_memcheck). The module should be lowered with source lines
  /// (LowerOptions::SourceLines) so that reports name the PTX line.
  bool Memcheck = false;
};

/// Rewrites a lowered module in place into host form: every kernel becomes
/// its block function, named by HostKernelLayout::BlockFunctionName. The
/// module must already carry the host data layout. When TM is given the
/// module is also optimized for it (O3).
llvm::Error prepareHostModule(llvm::Module &M,
                              const std::vector<KernelInfo> &Kernels,
                              std::vector<HostKernelLayout> &Layouts,
                              llvm::TargetMachine *TM,
                              const HostCompileOptions &Options = {});

/// A module-scope `.global` or `.const` variable of a compiled module: where
/// the JIT placed it, so that the host can read and write it between
/// launches (cudaMemcpyToSymbol and friends).
struct ModuleVariable {
  std::string Name; // the PTX name
  void *Address = nullptr;
  uint64_t Size = 0;
};

struct CompiledKernel {
  KernelInfo Info;
  HostKernelLayout Layout;
  BlockFunction Fn = nullptr;
};

/// The version of the code the host target generates; part of every compile
/// cache key. Defined in one place (CompileCache.cpp).
const char *compilerVersion();

/// The compile cache directory: $CUHIP_CACHE_DIR, else
/// $XDG_CACHE_HOME/cuhip, else ~/.cache/cuhip; empty when CUHIP_CACHE_DIR is
/// `off` (or no home is known), which disables the cache.
std::string compileCacheDirectory();

/// Receives the compile cache's messages: hits, misses and ignored entries
/// (Warning false, for debug logs) and the one warning that disables it.
using CompileCacheLogger =
    std::function<void(bool Warning, const std::string &Message)>;

class CompileCache;

/// Owns the process's JIT. Thread-safe.
class HostCompiler {
public:
  static llvm::Expected<std::unique_ptr<HostCompiler>>
  create(const HostCompileOptions &Options = {});
  const HostCompileOptions &options() const { return Options; }
  ~HostCompiler();

  /// Compiles every kernel of LM (which lives in Ctx) to machine code.
  /// ModuleName appears in error messages.
  /// When CacheSource (the module's PTX text) is given and the compile cache
  /// is on, the result is also stored in the cache under it.
  /// Variables, when given, receives the module's `.global` and `.const`
  /// variables.
  llvm::Expected<std::vector<CompiledKernel>>
  compile(std::unique_ptr<llvm::LLVMContext> Ctx, LoweredModule LM,
          const std::string &ModuleName, std::string_view CacheSource = {},
          std::vector<ModuleVariable> *Variables = nullptr);

  /// Turns on the on-disk compile cache in Directory (empty: off).
  void enableCompileCache(const std::string &Directory, CompileCacheLogger Log);
  /// Whether the compile cache is on, and where.
  bool compileCacheEnabled() const;
  /// The kernels of the module with this PTX text from the compile cache,
  /// loaded into the JIT; nothing on a miss or an unusable entry (which the
  /// caller then compiles). Never reports PTX errors: a module that failed
  /// to compile is never cached.
  std::optional<std::vector<CompiledKernel>>
  loadCached(std::string_view Ptx, const std::string &ModuleName,
             std::vector<ModuleVariable> *Variables = nullptr);

  /// Host CPU name and features the code is generated for.
  std::string targetDescription() const;

  /// A target machine for the host, for `cuhip ptx --arch host`.
  static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createHostTargetMachine();

private:
  HostCompiler();
  std::string cacheKey(std::string_view Ptx) const;
  std::unique_ptr<llvm::orc::LLJIT> JIT;
  std::unique_ptr<CompileCache> Cache;
  std::unique_ptr<llvm::TargetMachine> TM;
  HostCompileOptions Options;
  std::mutex Lock;
  unsigned NextDylib = 0;
};

} // namespace cuhip::ptx::host
