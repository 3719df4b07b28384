//===- Graph.h - Graphs and stream capture in the runtime core ------------===//
//
// CUDA graphs as the runtime core keeps them: a graph is a set of nodes
// (kernel launches with their arguments copied, copies, memsets, host
// functions, child graphs, event records and waits, memory allocations and
// frees, empty nodes) and dependency edges; an executable graph is the
// nodes in one topological order, child graphs instantiated inside it,
// replayed on a stream through the core's ordinary stream operations.
// Stream capture records what the stream operations of Runtime would
// enqueue on a capturing stream into a graph instead: Runtime.cpp and
// Memory.cpp ask the capture hooks below before they execute an operation.
// The libcudart and libcuda layers translate their parameter structures
// into NodeOp and back. Statuses are cudaError_t values, as everywhere in
// the core; every failure is recorded as the calling thread's last error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/runtime/Runtime.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace cuhip::rt {

struct Array;      // Texture.h
struct Graph;      // cudaGraph_t
struct GraphNode;  // cudaGraphNode_t
struct GraphExec;  // cudaGraphExec_t
struct UserObject; // cudaUserObject_t
struct ConditionalState; // what a cudaGraphConditionalHandle names

enum class CaptureMode : int { Global = 0, ThreadLocal = 1, Relaxed = 2 };
enum class CaptureStatus : int { None = 0, Active = 1, Invalidated = 2 };

/// One side of a copy node in its 3D form: an array, or pitched memory at
/// NodeOp::Dst / NodeOp::Src, and the position of the first byte copied.
struct CopyEnd {
  Array *A = nullptr;
  size_t X = 0, Y = 0, Z = 0; // bytes, rows, slices
  size_t Rows = 0;            // rows per slice of pitched memory; 0: Height
  size_t XSize = 0;           // cudaPitchedPtr::xsize, only reported back
  int MemoryType = 0;         // CUmemorytype when given (driver API), else 0
};

/// What one node does. Kernel nodes own their packed argument buffer
/// (ParamBuffer, laid out as the kernel's .param space) and where each
/// argument lies in it, so the caller's argument storage may go away.
struct NodeOp {
  /// Numbered as cudaGraphNodeType and CUgraphNodeType.
  enum Kind : int {
    KernelLaunch = 0,
    Memcpy = 1,
    Memset = 2,
    Host = 3,
    ChildGraph = 4,
    Empty = 5,
    EventWait = 6,
    EventRecord = 7,
    MemAlloc = 10,
    MemFree = 11,
    Conditional = 13,
  } K = Empty;
  // KernelLaunch. FnHandle is what the caller named the kernel by (a host
  // stub, a CUfunction), which the parameter getters hand back.
  Kernel *Fn = nullptr;
  const void *FnHandle = nullptr;
  Dim3 Grid, Block;
  size_t SharedMem = 0;
  std::vector<uint8_t> ParamBuffer;
  std::vector<uint32_t> ParamOffsets;
  // Memcpy: where Width is 0, Bytes contiguous bytes from Src to Dst;
  // otherwise Depth slices of Height rows of Width bytes between DstEnd
  // and SrcEnd, each an array or pitched memory at Dst (rows Pitch apart)
  // and Src (rows SrcPitch apart).
  void *Dst = nullptr;
  const void *Src = nullptr;
  size_t Bytes = 0;
  CopyKind Copy = CopyKind::Default;
  size_t SrcPitch = 0;
  size_t Depth = 1;
  CopyEnd DstEnd, SrcEnd;
  // Memset (Dst; rows of Width elements of ElementSize bytes, Pitch apart)
  unsigned Value = 0, ElementSize = 1;
  size_t Pitch = 0, Width = 0, Height = 1;
  // Host
  void (*HostFn)(void *) = nullptr;
  void *HostData = nullptr;
  // ChildGraph: for graphAddNode the graph to clone into the node, or with
  // MoveChild the graph the node takes over (cudaGraphChildGraphOwnership-
  // Move); graphNodeOp reports the node's own graph.
  Graph *Child = nullptr;
  bool MoveChild = false;
  // EventRecord, EventWait
  void *Event = nullptr;
  // MemAlloc: Bytes of memory as Pool describes it, accessible as Access
  // says; graphAddNode sets Dst to its fixed address. MemFree: Dst.
  MemPoolProps Pool;
  std::vector<VirtualAccess> Access;
  // Conditional: the handle whose value decides (CondHandle, as the
  // program has it; graphAddNode resolves it to Cond), cudaGraphCondTypeIf
  // (0), While (1) or Switch (2), and its body graphs, which graphAddNode
  // makes (CondSize of them, empty) and the node owns.
  uint64_t CondHandle = 0;
  std::shared_ptr<ConditionalState> Cond;
  int CondType = 0;
  unsigned CondSize = 0;
  std::vector<Graph *> Bodies;
  // KernelLaunch: the node's launch attributes (cudaLaunchAttributeID ->
  // its 64-byte cudaLaunchAttributeValue), set by
  // graphKernelNodeSetAttribute; kept when the parameters change.
  static constexpr size_t AttrBytes = 64;
  std::map<int, std::array<uint8_t, AttrBytes>> Attributes;
  /// Does the Cooperative attribute ask for all blocks resident at once?
  bool cooperative() const;
};

/// Copies the arguments of a launch of K (Args[i] points at argument i, as
/// cudaLaunchKernel takes them) into Op by K's parameter layout, compiling
/// K's module if needed. Fails as a launch of K would. (Runtime.cpp)
Status packKernelArgs(Kernel *K, void **Args, NodeOp &Op);
/// The same for arguments in the `extra` form (CU_LAUNCH_PARAM_BUFFER_-
/// POINTER, the buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, its size,
/// CU_LAUNCH_PARAM_END).
Status packKernelExtra(Kernel *K, void **Extra, NodeOp &Op);
/// The kernel's PTX name, for diagnostics and dot files. (Runtime.cpp)
const char *kernelName(const Kernel *K);

// --- building graphs ---------------------------------------------------------
Status graphCreate(Graph **Out, unsigned Flags);
/// cudaErrorInvalidValue for a graph a child graph node owns.
Status graphDestroy(Graph *G);
/// Adds Op to G after the Deps, each a distinct node of G. The operation
/// is checked as CUDA checks it when the node is made.
Status graphAddNode(GraphNode **Out, Graph *G, GraphNode *const *Deps,
                    size_t NumDeps, NodeOp Op);
Status graphAddDependencies(Graph *G, GraphNode *const *From,
                            GraphNode *const *To, size_t Num);
Status graphRemoveDependencies(Graph *G, GraphNode *const *From,
                               GraphNode *const *To, size_t Num);
/// Removes N and its edges.
Status graphDestroyNode(GraphNode *N);
/// cudaGraphGetNodes and cudaGraphGetRootNodes, in creation order: with
/// Nodes null only the count; otherwise at most *Num entries are written,
/// the rest of the *Num entries nulled, and *Num becomes the number
/// written.
Status graphGetNodes(Graph *G, GraphNode **Nodes, size_t *Num);
Status graphGetRootNodes(Graph *G, GraphNode **Nodes, size_t *Num);
/// cudaGraphGetEdges: To[i] depends on From[i]; both null for the count.
Status graphGetEdges(Graph *G, GraphNode **From, GraphNode **To, size_t *Num);
/// The nodes N depends on, and the nodes that depend on N, as above.
Status graphNodeGetDependencies(GraphNode *N, GraphNode **Nodes, size_t *Num);
Status graphNodeGetDependentNodes(GraphNode *N, GraphNode **Nodes,
                                  size_t *Num);
Status graphNodeGetType(GraphNode *N, NodeOp::Kind *Type);
/// The node's operation (for the parameter getters), null if N is no live
/// node; valid until the node's parameters change.
const NodeOp *graphNodeOp(GraphNode *N);
/// A kernel node's argument pointers, into its own parameter buffer (what
/// the getters report as kernelParams); null for any other node.
void **graphKernelNodeArgs(GraphNode *N);
/// Kernel node attributes, as cudaGraphKernelNodeSetAttribute and
/// GetAttribute take them: Attr a cudaLaunchAttributeID valid for graph
/// nodes, Value a 64-byte cudaLaunchAttributeValue. Clusters larger than
/// one block and device-updatable nodes are cudaErrorNotSupported; an
/// attribute never set reads as CUDA's default.
Status graphKernelNodeSetAttribute(GraphNode *N, int Attr, const void *Value);
Status graphKernelNodeGetAttribute(GraphNode *N, int Attr, void *Value);
Status graphKernelNodeCopyAttributes(GraphNode *Dst, GraphNode *Src);
/// New parameters for N, of N's kind, checked as graphAddNode checks them.
/// A child graph node takes a clone of Op.Child; allocation and free nodes
/// cannot change (cudaErrorNotSupported).
Status graphNodeSetOp(GraphNode *N, NodeOp Op);
Status graphClone(Graph **Out, Graph *G);
/// The node of Clone (made by graphClone) that was made from Original.
Status graphNodeFindInClone(GraphNode **Out, GraphNode *Original,
                            Graph *Clone);
/// Writes G in Graphviz dot form to Path.
Status graphDebugDotPrint(Graph *G, const char *Path, unsigned Flags);

// --- conditional nodes ---------------------------------------------------------
/// cudaGraphConditionalHandleCreate: a handle of G whose value starts as
/// Default and, with Flags 1 (cudaGraphCondAssignDefault), is set to it
/// again at the start of every launch of an instance of G. The handle
/// lives as long as G or a node or instance that uses it.
Status graphConditionalHandleCreate(uint64_t *Out, Graph *G, unsigned Default,
                                    unsigned Flags);
/// cudaGraphSetConditional from device code: false if Handle names no
/// live handle.
bool graphSetConditional(uint64_t Handle, unsigned Value);

// --- user objects ------------------------------------------------------------
/// cudaUserObjectCreate: Destroy(Ptr) runs when the last reference goes;
/// Flags must be cudaUserObjectNoDestructorSync (1).
Status userObjectCreate(UserObject **Out, void *Ptr, void (*Destroy)(void *),
                        unsigned InitialRefs, unsigned Flags);
Status userObjectRetain(UserObject *O, unsigned Count);
Status userObjectRelease(UserObject *O, unsigned Count);
/// References a graph owns; Flags 1 (cudaGraphUserObjectMove) takes the
/// caller's instead of making new ones. Clones and instances of the graph
/// own references of their own.
Status graphRetainUserObject(Graph *G, UserObject *O, unsigned Count,
                             unsigned Flags);
Status graphReleaseUserObject(Graph *G, UserObject *O, unsigned Count);

// --- executable graphs -------------------------------------------------------
/// ErrorNode, when given, gets the node that made instantiation fail.
Status graphInstantiate(GraphExec **Out, Graph *G, unsigned long long Flags,
                        GraphNode **ErrorNode = nullptr);
Status graphExecGetFlags(GraphExec *E, unsigned long long *Flags);
Status graphExecDestroy(GraphExec *E);
/// cudaGraphUpload: nothing to upload; checks its arguments and orders.
Status graphUpload(GraphExec *E, void *Stream);
/// Runs E's nodes in topological order on Stream.
Status graphLaunch(GraphExec *E, void *Stream);
/// New parameters for the instance of node N of the graph E was made from,
/// within what cudaGraphExec*NodeSetParams allow. A child graph node takes
/// the parameters of Op.Child's nodes, whose topology must be its graph's.
Status graphExecSetNodeOp(GraphExec *E, GraphNode *N, NodeOp Op);
/// cudaGraphNodeSetEnabled / GetEnabled (kernel, memcpy and memset nodes).
Status graphNodeSetEnabled(GraphExec *E, GraphNode *N, bool Enabled);
Status graphNodeGetEnabled(GraphExec *E, GraphNode *N, bool *Enabled);
/// cudaGraphExecUpdate: takes G's node parameters when G has E's topology
/// (nodes paired by creation order); UpdateResult gets a
/// cudaGraphExecUpdateResult value, ErrorNode the node of G that differs
/// and ErrorFrom, for a changed edge, its other end.
Status graphExecUpdate(GraphExec *E, Graph *G, int *UpdateResult,
                       GraphNode **ErrorNode, GraphNode **ErrorFrom = nullptr);

// --- graph memory (allocation and free nodes) -------------------------------
/// cudaDeviceGetGraphMemAttribute / Set (cudaGraphMemAttributeType values;
/// only the high watermarks can be set, and only to 0) and
/// cudaDeviceGraphMemTrim.
Status deviceGetGraphMemAttribute(int Device, int Attr, uint64_t *Value);
Status deviceSetGraphMemAttribute(int Device, int Attr, const uint64_t *Value);
Status deviceGraphMemTrim(int Device);

namespace graphmem {
/// What cudaFree / cudaFreeAsync do with Ptr, when it is memory an
/// allocation node made (Memory.cpp asks). NotGraphMemory: any other
/// pointer. Refuse: not allocated at present. Kept: freed, while a graph
/// still holds its address. Release: freed, and its storage goes too.
enum class FreeResult { NotGraphMemory, Refuse, Kept, Release };
FreeResult free(void *Ptr);
} // namespace graphmem

// --- stream capture ----------------------------------------------------------
Status streamBeginCapture(void *Stream, CaptureMode Mode);
/// cudaStreamBeginCaptureToGraph: captures into the program's graph G, the
/// first operation after Deps (distinct nodes of G); streamEndCapture
/// returns G, and a failed capture leaves it to the program.
Status streamBeginCaptureToGraph(void *Stream, Graph *G,
                                 GraphNode *const *Deps, size_t NumDeps,
                                 CaptureMode Mode);
/// cudaStreamUpdateCaptureDependencies: Flags 0 adds Deps (nodes of the
/// capture's graph) to what the stream's next operation depends on, 1
/// replaces it with them.
Status streamUpdateCaptureDependencies(void *Stream, GraphNode *const *Deps,
                                       size_t NumDeps, unsigned Flags);
/// Out may be null for a capture into the program's graph
/// (streamBeginCaptureToGraph), which is the graph it would get.
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
/// cudaMallocAsync / cudaFreeAsync on a capturing stream: an allocation
/// node (*Ptr its address) or a free node. Handled as for enqueue.
Status allocate(void *Stream, size_t Bytes, const MemPoolProps &Props,
                void **Ptr, bool &Captured);
Status free(void *Stream, void *Ptr, bool &Captured);
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
