//===- Graph.h - Graphs and stream capture in the runtime core ------------===//
//
// CUDA graphs as the runtime core keeps them: a graph is a set of nodes
// (kernel launches with their arguments copied, copies, memsets, host
// functions, empty nodes) and dependency edges; an executable graph is the
// nodes in one topological order, replayed on a stream through the core's
// ordinary stream operations. Stream capture records what the stream
// operations of Runtime would enqueue on a capturing stream into a graph
// instead: Runtime.cpp asks the capture hooks below before it executes an
// operation. Statuses are cudaError_t values, as everywhere in the core.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/Runtime.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace cuhip::rt {

struct Graph;     // cudaGraph_t
struct GraphNode; // cudaGraphNode_t
struct GraphExec; // cudaGraphExec_t

enum class CaptureMode : int { Global = 0, ThreadLocal = 1, Relaxed = 2 };
enum class CaptureStatus : int { None = 0, Active = 1, Invalidated = 2 };

/// What one node does. Kernel nodes own their packed argument buffer
/// (ParamBuffer, laid out as the kernel's .param space) and where each
/// argument lies in it, so the caller's argument storage may go away.
struct NodeOp {
  enum Kind { Empty, KernelLaunch, Memcpy, Memset, Host } K = Empty;
  // KernelLaunch
  Kernel *Fn = nullptr;
  Dim3 Grid, Block;
  size_t SharedMem = 0;
  std::vector<uint8_t> ParamBuffer;
  std::vector<uint32_t> ParamOffsets;
  // Memcpy: Bytes contiguous bytes, or, where Height > 1, a 2D copy of
  // Height rows of Width bytes, Pitch apart at Dst and SrcPitch at Src.
  void *Dst = nullptr;
  const void *Src = nullptr;
  size_t Bytes = 0;
  CopyKind Copy = CopyKind::Default;
  size_t SrcPitch = 0;
  // Memset (Dst; rows of Width elements of ElementSize bytes, Pitch apart)
  unsigned Value = 0, ElementSize = 1;
  size_t Pitch = 0, Width = 0, Height = 1;
  // Host
  void (*HostFn)(void *) = nullptr;
  void *HostData = nullptr;
};

/// Copies the arguments of a launch of K (Args[i] points at argument i, as
/// cudaLaunchKernel takes them) into Op by K's parameter layout, compiling
/// K's module if needed. Fails as a launch of K would. (Runtime.cpp)
Status packKernelArgs(Kernel *K, void **Args, NodeOp &Op);
/// The kernel's PTX name, for diagnostics and dot files. (Runtime.cpp)
const char *kernelName(const Kernel *K);

// --- explicit graph construction -------------------------------------------
Status graphCreate(Graph **Out, unsigned Flags);
Status graphDestroy(Graph *G);
/// Adds Op to G after the Deps; every Deps entry must be a node of G.
Status graphAddNode(GraphNode **Out, Graph *G, GraphNode *const *Deps,
                    size_t NumDeps, NodeOp Op);
Status graphAddDependencies(Graph *G, GraphNode *const *From,
                            GraphNode *const *To, size_t Num);
/// cudaGraphGetNodes: with Nodes null, only the count.
Status graphGetNodes(Graph *G, GraphNode **Nodes, size_t *Num);
Status graphClone(Graph **Out, Graph *G);
/// Writes G in Graphviz dot form to Path.
Status graphDebugDotPrint(Graph *G, const char *Path, unsigned Flags);
/// The node's operation (for the node parameter getters), null if N is no
/// live node.
const NodeOp *graphNodeOp(GraphNode *N);

// --- executable graphs -----------------------------------------------------
Status graphInstantiate(GraphExec **Out, Graph *G, unsigned long long Flags);
Status graphExecDestroy(GraphExec *E);
/// Runs E's nodes in topological order on Stream.
Status graphLaunch(GraphExec *E, void *Stream);
/// New operation for the instance of node N of E's graph (same kind and,
/// for kernels, same function).
Status graphExecSetNodeOp(GraphExec *E, GraphNode *N, NodeOp Op);
/// cudaGraphExecUpdate: takes G's node operations when G has E's topology;
/// UpdateResult gets a cudaGraphExecUpdateResult value, ErrorNode the node
/// that differs.
Status graphExecUpdate(GraphExec *E, Graph *G, int *UpdateResult,
                       GraphNode **ErrorNode);

// --- stream capture ----------------------------------------------------------
Status streamBeginCapture(void *Stream, CaptureMode Mode);
Status streamEndCapture(void *Stream, Graph **Out);
Status streamIsCapturing(void *Stream, CaptureStatus *Status);
/// cudaStreamGetCaptureInfo: the stream's capture id, graph and the nodes
/// the next captured operation will depend on (valid until the next
/// operation on the stream).
Status streamGetCaptureInfo(void *Stream, CaptureStatus *Status, uint64_t *Id,
                            Graph **G, GraphNode *const **Deps,
                            size_t *NumDeps);
/// Swaps the calling thread's capture interaction mode.
Status threadExchangeCaptureMode(CaptureMode *Mode);

namespace capture {
/// Number of captures in progress; the hooks cost one load while it is 0.
extern std::atomic<int> Active;
inline bool anyActive() { return Active.load(std::memory_order_acquire) != 0; }
/// An operation enqueued on Stream: Captured is set when capture took it
/// (the result is then the operation's result) or refused it (a legacy
/// stream operation that would wait for a capturing stream).
Status enqueue(void *Stream, NodeOp &&Op, bool &Captured);
/// cudaEventRecord / cudaStreamWaitEvent on a capturing stream, and the
/// fork/join of streams through events. Handled as for enqueue.
Status recordEvent(void *Event, void *Stream, bool &Handled);
Status waitEvent(void *Stream, void *Event, bool &Handled);
/// A call that would wait for Stream (cudaStreamSynchronize, Query).
Status checkWaitOn(void *Stream);
/// A call that is unsafe while a capture is in progress (cudaMalloc,
/// synchronous copies, device synchronization): refused, and the captures
/// it conflicts with invalidated, unless the calling thread's mode is
/// relaxed. TouchesLegacy: it also orders with the legacy stream.
Status checkUnsafeCall(bool TouchesLegacy);
/// Forget Event / Stream (destroyed).
void forgetEvent(void *Event);
void forgetStream(void *Stream);
} // namespace capture

} // namespace cuhip::rt
