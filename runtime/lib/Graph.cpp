//===- Graph.cpp - Graphs, executable graphs and stream capture -----------===//
//
// A graph owns its nodes; an edge is kept on both ends so topological order
// and cloning need no search. A child graph node owns its graph, which the
// live-handle table also knows, so the API may hand it out. Instantiation
// fixes one topological order (Kahn's algorithm, ties broken by creation
// order, so launches are deterministic), copies the node operations and
// instantiates child graphs inside the instance, so the graph may change or
// go away afterwards, as CUDA allows. A launch replays the operations
// through the runtime core's stream operations, which keeps argument
// checking, backends and error state in one place. Updates pair the nodes
// of two graphs by creation order, which is how CUDA pairs them when the
// same code built or captured both.
//
// Allocation nodes get their address when they are made and keep it: the
// memory is a Runtime::malloc allocation held while an allocation node or
// an instance of one exists, so kernels, copies and memcheck accept it.
// Which of those addresses are allocated at present (between a launch of
// the allocation node and a free node, cudaFree or cudaFreeAsync) is kept
// here too, for the launch-time checks and the graph memory attributes.
//
// Capture state is separate from the streams: a map from stream to the
// capture sequence it takes part in and the nodes its next operation depends
// on, and from event to the nodes it was recorded after. Forks and joins
// between streams are cudaEventRecord + cudaStreamWaitEvent, which move these
// dependency sets between streams. One mutex guards all of it; it is a leaf
// lock (nothing else is locked while it is held except GraphLock and
// MemoryLock, never the reverse), and while no capture is in progress the
// hooks Runtime.cpp calls cost one atomic load.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Graph.h"

#include "CoreAccess.h"

#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Texture.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace cuhip::rt {

struct UserObject {
  void *Ptr = nullptr;
  void (*Destroy)(void *) = nullptr;
  uint64_t Refs = 0; // guarded by UserObjectLock
};

/// A conditional handle: its value, and what a launch sets it to first.
/// Registered while it lives, so device code can only set live handles.
struct ConditionalState {
  std::atomic<unsigned> Value{0};
  unsigned Default = 0;
  bool AssignDefault = false;
  ~ConditionalState();
};

struct GraphNode {
  Graph *Owner = nullptr;
  size_t Index = 0; // position in Owner->Nodes: creation order
  NodeOp Op;
  std::vector<GraphNode *> Deps, Succs;
  const GraphNode *CloneOf = nullptr; // for graphNodeFindInClone
  std::vector<void *> ArgPointers;    // what graphKernelNodeArgs hands out
};

struct Graph {
  std::vector<std::unique_ptr<GraphNode>> Nodes;
  GraphNode *Parent = nullptr; // the child graph node that owns this graph
  bool Moved = false;          // the node took it over (ownership move)
  const Graph *ClonedFrom = nullptr;
  std::map<UserObject *, uint64_t> UserRefs;
  size_t MemoryNodes = 0; // allocation and free nodes directly in it
  GraphExec *Instance = nullptr; // the one instance a graph with them has
  std::vector<std::shared_ptr<ConditionalState>> Conditionals; // its handles
};

/// An instance's conditional node: its handle, kind and bodies' instances.
/// Shared with the evaluations its launches queued, which may run after
/// the instance is destroyed.
struct ConditionalRun {
  std::shared_ptr<ConditionalState> Cond;
  int Type = 0;
  std::vector<std::unique_ptr<GraphExec>> Bodies;
  void *BodyStream = nullptr; // non-blocking; the bodies run on it
  ~ConditionalRun() {
    if (BodyStream)
      Runtime::get().streamDestroy(BodyStream);
  }
};

/// A node of an instance: its operation (a child graph's instance in Sub
/// instead of a graph, a conditional's in Cond), and what updates compare.
struct ExecNode {
  NodeOp Op;
  const GraphNode *Origin = nullptr;
  size_t Index = 0;               // Origin's creation index
  std::vector<size_t> DepIndices; // creation indices of its dependencies
  std::unique_ptr<GraphExec> Sub;
  std::shared_ptr<ConditionalRun> Cond; // a conditional's bodies
  bool Enabled = true;
};

struct GraphExec {
  std::vector<ExecNode> Nodes; // launch order
  std::unordered_map<const GraphNode *, size_t> ByOrigin;
  unsigned long long Flags = 0;
  Graph *Source = nullptr; // while Source->Instance is this instance
  std::vector<std::pair<UserObject *, uint64_t>> UserRefs;
  // Fixed at instantiation (updates cannot change a conditional's handle):
  // whether it has conditional nodes at any depth, and the handles each
  // launch resets to their defaults.
  bool HasConditionals = false;
  std::vector<std::shared_ptr<ConditionalState>> Defaults;
};

namespace {

std::mutex GraphLock; // the live handle sets
std::unordered_set<Graph *> LiveGraphs;
std::unordered_set<GraphNode *> LiveNodes;
std::unordered_set<GraphExec *> LiveExecs;

std::mutex UserObjectLock;
std::unordered_set<UserObject *> LiveUserObjects;

std::mutex ConditionalLock; // a leaf lock
std::unordered_set<ConditionalState *> LiveConditionals;

bool isLive(Graph *G) {
  std::lock_guard<std::mutex> L(GraphLock);
  return G && LiveGraphs.count(G);
}

bool isLiveNode(GraphNode *N) {
  std::lock_guard<std::mutex> L(GraphLock);
  return N && LiveNodes.count(N);
}

bool isLiveExec(GraphExec *E) {
  std::lock_guard<std::mutex> L(GraphLock);
  return E && LiveExecs.count(E);
}

thread_local CaptureMode ThreadMode = CaptureMode::Global;

/// The graphs a node owns: a child graph, or a conditional's bodies.
std::vector<Graph *> ownedGraphs(const NodeOp &Op) {
  if (Op.K == NodeOp::ChildGraph)
    return Op.Child ? std::vector<Graph *>{Op.Child} : std::vector<Graph *>{};
  if (Op.K == NodeOp::Conditional)
    return Op.Bodies;
  return {};
}

//===----------------------------------------------------------------------===//
// User object references
//===----------------------------------------------------------------------===//

/// Adds Count references; false if O is no live user object.
bool retainUser(UserObject *O, uint64_t Count) {
  std::lock_guard<std::mutex> L(UserObjectLock);
  if (!LiveUserObjects.count(O))
    return false;
  O->Refs += Count;
  return true;
}

/// Drops Count references, running the destructor (outside the lock) when
/// the last goes.
void releaseUser(UserObject *O, uint64_t Count) {
  {
    std::lock_guard<std::mutex> L(UserObjectLock);
    if (!LiveUserObjects.count(O))
      return;
    O->Refs -= std::min(O->Refs, Count);
    if (O->Refs)
      return;
    LiveUserObjects.erase(O);
  }
  if (O->Destroy)
    O->Destroy(O->Ptr);
  delete O;
}

void releaseAllUsers(const std::vector<std::pair<UserObject *, uint64_t>> &V) {
  for (const auto &[O, Count] : V)
    releaseUser(O, Count);
}

/// The references G and the graphs of its child graph nodes own, which an
/// instance of G owns too.
void collectUserRefs(const Graph &G,
                     std::vector<std::pair<UserObject *, uint64_t>> &Out) {
  for (const auto &[O, Count] : G.UserRefs)
    Out.push_back({O, Count});
  for (const auto &N : G.Nodes)
    for (Graph *C : ownedGraphs(N->Op))
      collectUserRefs(*C, Out);
}

//===----------------------------------------------------------------------===//
// Graph memory
//===----------------------------------------------------------------------===//

struct GraphAllocation {
  size_t Bytes = 0;
  const Graph *Owner = nullptr;   // the graph with the allocation node
  unsigned Holders = 0; // allocation nodes and instances of them
  bool Live = false;    // allocated by a launch, not freed since
  const Graph *FreedBy = nullptr; // the graph with a free node for it
};

std::mutex MemoryLock;
std::map<void *, GraphAllocation> Allocations;
uint64_t UsedBytes = 0, UsedHigh = 0, ReservedBytes = 0, ReservedHigh = 0;

/// Runtime::malloc, whatever capture is in progress: the memory is the
/// graph's, not an operation of the calling thread.
Status allocateStorage(void **Ptr, size_t Bytes) {
  CaptureMode Saved = ThreadMode;
  ThreadMode = CaptureMode::Relaxed;
  Status S = Runtime::get().malloc(Ptr, Bytes);
  ThreadMode = Saved;
  return S;
}

/// The memory of a new allocation node of G, held once.
Status newAllocation(size_t Bytes, void **Ptr, const Graph *G) {
  if (Status S = allocateStorage(Ptr, Bytes))
    return S;
  std::lock_guard<std::mutex> L(MemoryLock);
  GraphAllocation &A = Allocations[*Ptr];
  A.Bytes = Bytes;
  A.Owner = G;
  A.Holders = 1;
  ReservedBytes += Bytes;
  ReservedHigh = std::max(ReservedHigh, ReservedBytes);
  return cudaSuccess;
}

void holdAllocation(void *Ptr) {
  std::lock_guard<std::mutex> L(MemoryLock);
  auto It = Allocations.find(Ptr);
  if (It != Allocations.end())
    ++It->second.Holders;
}

/// One holder fewer; the storage goes with the last one unless the memory
/// is allocated at present, when cudaFree or cudaFreeAsync releases it.
void dropAllocation(void *Ptr) {
  {
    std::lock_guard<std::mutex> L(MemoryLock);
    auto It = Allocations.find(Ptr);
    if (It == Allocations.end() || --It->second.Holders || It->second.Live)
      return;
    ReservedBytes -= It->second.Bytes;
    Allocations.erase(It);
  }
  // Queued work of the last launches may still use the memory.
  CoreAccess::waitIdle(Runtime::get());
  CoreAccess::release(Runtime::get(), Ptr);
}

void markAllocated(void *Ptr) {
  std::lock_guard<std::mutex> L(MemoryLock);
  auto It = Allocations.find(Ptr);
  if (It == Allocations.end() || It->second.Live)
    return;
  It->second.Live = true;
  UsedBytes += It->second.Bytes;
  UsedHigh = std::max(UsedHigh, UsedBytes);
}

void markFreed(void *Ptr) {
  bool Release = false;
  {
    std::lock_guard<std::mutex> L(MemoryLock);
    auto It = Allocations.find(Ptr);
    if (It == Allocations.end() || !It->second.Live)
      return;
    It->second.Live = false;
    UsedBytes -= It->second.Bytes;
    if (!It->second.Holders) {
      ReservedBytes -= It->second.Bytes;
      Allocations.erase(It);
      Release = true;
    }
  }
  if (Release) {
    CoreAccess::waitIdle(Runtime::get());
    CoreAccess::release(Runtime::get(), Ptr);
  }
}

/// A free node for Ptr in G: Ptr must be an allocation node's address that
/// no free node frees yet.
bool claimFree(void *Ptr, const Graph *G) {
  std::lock_guard<std::mutex> L(MemoryLock);
  auto It = Allocations.find(Ptr);
  if (It == Allocations.end() || It->second.FreedBy)
    return false;
  It->second.FreedBy = G;
  return true;
}

void unclaimFree(void *Ptr) {
  std::lock_guard<std::mutex> L(MemoryLock);
  auto It = Allocations.find(Ptr);
  if (It != Allocations.end())
    It->second.FreedBy = nullptr;
}

//===----------------------------------------------------------------------===//
// Graphs and nodes
//===----------------------------------------------------------------------===//

Graph *newGraph() {
  auto *G = new Graph;
  std::lock_guard<std::mutex> L(GraphLock);
  LiveGraphs.insert(G);
  return G;
}

void deleteGraph(Graph *G);

/// What a node holds beyond its own memory: a child graph, a hold on an
/// allocation, a claim on one.
void releaseNodeOp(NodeOp &Op) {
  switch (Op.K) {
  case NodeOp::ChildGraph:
    if (Op.Child)
      deleteGraph(Op.Child);
    Op.Child = nullptr;
    break;
  case NodeOp::Conditional:
    for (Graph *B : Op.Bodies)
      deleteGraph(B);
    Op.Bodies.clear();
    break;
  case NodeOp::MemAlloc:
    dropAllocation(Op.Dst);
    break;
  case NodeOp::MemFree:
    unclaimFree(Op.Dst);
    break;
  default:
    break;
  }
}

void deleteGraph(Graph *G) {
  {
    std::lock_guard<std::mutex> L(GraphLock);
    LiveGraphs.erase(G);
    for (auto &N : G->Nodes)
      LiveNodes.erase(N.get());
    // An instance may outlive the graph it was made from.
    if (G->Instance)
      G->Instance->Source = nullptr;
  }
  for (auto &N : G->Nodes)
    releaseNodeOp(N->Op);
  for (const auto &[O, Count] : G->UserRefs)
    releaseUser(O, Count);
  delete G;
}

GraphNode *addNode(Graph *G, const std::vector<GraphNode *> &Deps, NodeOp Op) {
  auto N = std::make_unique<GraphNode>();
  N->Owner = G;
  N->Index = G->Nodes.size();
  N->Op = std::move(Op);
  for (GraphNode *D : Deps)
    if (std::find(N->Deps.begin(), N->Deps.end(), D) == N->Deps.end()) {
      N->Deps.push_back(D);
      D->Succs.push_back(N.get());
    }
  if (N->Op.K == NodeOp::MemAlloc || N->Op.K == NodeOp::MemFree)
    ++G->MemoryNodes;
  for (Graph *C : ownedGraphs(N->Op))
    C->Parent = N.get();
  GraphNode *Raw = N.get();
  G->Nodes.push_back(std::move(N));
  std::lock_guard<std::mutex> L(GraphLock);
  LiveNodes.insert(Raw);
  return Raw;
}

/// Does G, or a graph a child graph node of G owns, have allocation or
/// free nodes? Such graphs cannot be cloned, lose nodes or edges, or be
/// instantiated twice.
bool hasMemoryNodes(const Graph &G) {
  if (G.MemoryNodes)
    return true;
  for (const auto &N : G.Nodes)
    for (Graph *C : ownedGraphs(N->Op))
      if (hasMemoryNodes(*C))
        return true;
  return false;
}

/// Is A the graph G or one that (through child graph nodes) contains G?
bool isSelfOrAncestor(const Graph *A, const Graph *G) {
  for (const Graph *P = G; P; P = P->Parent ? P->Parent->Owner : nullptr)
    if (P == A)
      return true;
  return false;
}

/// Kahn's algorithm; false if G has a cycle.
bool topologicalOrder(const Graph &G, std::vector<GraphNode *> &Order) {
  std::vector<size_t> Pending(G.Nodes.size());
  std::vector<GraphNode *> Ready;
  for (const auto &N : G.Nodes) {
    Pending[N->Index] = N->Deps.size();
    if (N->Deps.empty())
      Ready.push_back(N.get());
  }
  auto Later = [](GraphNode *A, GraphNode *B) { return A->Index > B->Index; };
  std::make_heap(Ready.begin(), Ready.end(), Later);
  while (!Ready.empty()) {
    std::pop_heap(Ready.begin(), Ready.end(), Later);
    GraphNode *N = Ready.back();
    Ready.pop_back();
    Order.push_back(N);
    for (GraphNode *S : N->Succs)
      if (--Pending[S->Index] == 0) {
        Ready.push_back(S);
        std::push_heap(Ready.begin(), Ready.end(), Later);
      }
  }
  return Order.size() == G.Nodes.size();
}

/// A copy of G whose nodes remember the nodes they were made from.
Graph *cloneGraph(const Graph &G) {
  Graph *C = newGraph();
  C->ClonedFrom = &G;
  for (const auto &[O, Count] : G.UserRefs)
    if (retainUser(O, Count))
      C->UserRefs[O] += Count;
  for (const auto &N : G.Nodes) {
    std::vector<GraphNode *> Deps;
    for (GraphNode *D : N->Deps)
      Deps.push_back(C->Nodes[D->Index].get());
    NodeOp Op = N->Op;
    if (Op.K == NodeOp::ChildGraph)
      Op.Child = cloneGraph(*N->Op.Child);
    for (Graph *&B : Op.Bodies)
      B = cloneGraph(*B);
    addNode(C, Deps, std::move(Op))->CloneOf = N.get();
  }
  return C;
}

/// Writes the first *Num of Items to Out (nulling the rest of the room
/// given), or with Out null only counts, as cudaGraphGetNodes does.
template <typename T>
void fillList(const std::vector<T *> &Items, T **Out, size_t *Num) {
  if (!Out) {
    *Num = Items.size();
    return;
  }
  size_t N = std::min(*Num, Items.size());
  for (size_t I = 0; I < *Num; ++I)
    Out[I] = I < N ? Items[I] : nullptr;
  *Num = N;
}

//===----------------------------------------------------------------------===//
// Checking operations
//===----------------------------------------------------------------------===//

bool deviceKindSides(CopyKind K, bool &DstDev, bool &SrcDev) {
  DstDev = K == CopyKind::HostToDevice || K == CopyKind::DeviceToDevice;
  SrcDev = K == CopyKind::DeviceToHost || K == CopyKind::DeviceToDevice;
  return true;
}

/// Where one side of a 3D copy node lies now (arrays are looked up again:
/// they may have been destroyed since).
Status copyEndMemory(const NodeOp &Op, bool Destination, PitchedSide &Out) {
  const CopyEnd &E = Destination ? Op.DstEnd : Op.SrcEnd;
  size_t Pitch = Destination ? Op.Pitch : Op.SrcPitch;
  char *Base = Destination ? static_cast<char *>(Op.Dst)
                           : static_cast<char *>(const_cast<void *>(Op.Src));
  size_t Rows = E.Rows ? E.Rows : Op.Height;
  CopySide S;
  S.A = E.A;
  S.X = E.X;
  S.Y = E.Y;
  S.Z = E.Z;
  // A single row's pitch is never read; the core wants it at least a row.
  if (Op.Height <= 1 && Op.Depth <= 1)
    Pitch = std::max(Pitch, Op.Width);
  S.Linear = {Base ? Base + E.Z * Pitch * Rows + E.Y * Pitch + E.X : nullptr,
              Pitch, Rows};
  return resolveCopySide(S, Op.Width, Op.Height, Op.Depth, Out);
}

Status checkCopy(Runtime &R, const NodeOp &Op) {
  int K = static_cast<int>(Op.Copy);
  if (K < 0 || K > 4)
    return cudaErrorInvalidMemcpyDirection;
  bool DstDev, SrcDev;
  deviceKindSides(Op.Copy, DstDev, SrcDev);
  if (Op.Width == 0) {
    if (Op.Bytes &&
        (!Op.Dst || !Op.Src || (DstDev && !R.isDeviceRange(Op.Dst, Op.Bytes)) ||
         (SrcDev && !R.isDeviceRange(Op.Src, Op.Bytes))))
      return cudaErrorInvalidValue;
    return cudaSuccess;
  }
  if (Op.Height == 0 || Op.Depth == 0)
    return cudaSuccess;
  // An array and a pointer for the same side is an error.
  if ((Op.DstEnd.A && Op.Dst) || (Op.SrcEnd.A && Op.Src))
    return cudaErrorInvalidValue;
  PitchedSide D, S;
  if (copyEndMemory(Op, true, D) || copyEndMemory(Op, false, S) || !D.Ptr ||
      !S.Ptr)
    return cudaErrorInvalidValue;
  bool MultiRow = Op.Height > 1 || Op.Depth > 1;
  if (MultiRow && (D.Pitch < Op.Width || S.Pitch < Op.Width))
    return cudaErrorInvalidPitchValue;
  if (Op.Depth > 1 && (D.Height < Op.Height || S.Height < Op.Height))
    return cudaErrorInvalidValue;
  auto span = [&](const PitchedSide &P) {
    return (Op.Depth - 1) * P.Pitch * P.Height + (Op.Height - 1) * P.Pitch +
           Op.Width;
  };
  if ((DstDev && !R.isDeviceRange(D.Ptr, span(D))) ||
      (SrcDev && !R.isDeviceRange(S.Ptr, span(S))))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

bool memsetInBounds(Runtime &R, const NodeOp &Op) {
  if (Op.ElementSize != 1 && Op.ElementSize != 2 && Op.ElementSize != 4)
    return false;
  if (!Op.Width || !Op.Height)
    return true;
  size_t Row = Op.Width * Op.ElementSize;
  if (Op.Height > 1 && Op.Pitch < Row)
    return false;
  size_t Span = (Op.Height - 1) * Op.Pitch + Row;
  return Op.Dst && R.isDeviceRange(Op.Dst, Span);
}

bool validPoolProps(Runtime &R, const MemPoolProps &P) {
  // Pinned device memory of a device of this process, exportable to
  // nothing (no IPC for graph memory).
  return P.AllocType == 1 && P.HandleTypes == 0 && P.LocationType == 1 &&
         P.LocationId >= 0 && P.LocationId < R.deviceCount();
}

/// The checks CUDA makes when a node is made or given new parameters.
Status checkOp(Runtime &R, const NodeOp &Op) {
  switch (Op.K) {
  case NodeOp::Memcpy:
    return checkCopy(R, Op);
  case NodeOp::Memset:
    return memsetInBounds(R, Op) ? cudaSuccess : cudaErrorInvalidValue;
  case NodeOp::Host:
    return Op.HostFn ? cudaSuccess : cudaErrorInvalidValue;
  case NodeOp::KernelLaunch:
    return Op.Fn ? cudaSuccess : cudaErrorInvalidDeviceFunction;
  case NodeOp::ChildGraph:
    return isLive(Op.Child) ? cudaSuccess : cudaErrorInvalidValue;
  case NodeOp::EventRecord:
  case NodeOp::EventWait:
    return Op.Event && CoreAccess::isEvent(R, Op.Event) ? cudaSuccess
                                                        : cudaErrorInvalidValue;
  case NodeOp::MemAlloc:
    if (!Op.Bytes || !validPoolProps(R, Op.Pool) ||
        Op.Access.size() > size_t(R.deviceCount()))
      return cudaErrorInvalidValue;
    for (const VirtualAccess &A : Op.Access)
      if (A.LocationType != 1 || A.LocationId < 0 ||
          A.LocationId >= R.deviceCount() || (A.Flags != 0 && A.Flags != 3))
        return cudaErrorInvalidValue;
    return cudaSuccess;
  case NodeOp::MemFree:
    return Op.Dst ? cudaSuccess : cudaErrorInvalidValue;
  case NodeOp::Empty:
    return cudaSuccess;
  case NodeOp::Conditional:
    // If: a body, and an else body; While: one body; Switch: any number.
    switch (Op.CondType) {
    case 0:
      return Op.CondSize == 1 || Op.CondSize == 2 ? cudaSuccess
                                                  : cudaErrorInvalidValue;
    case 1:
      return Op.CondSize == 1 ? cudaSuccess : cudaErrorInvalidValue;
    case 2:
      return Op.CondSize >= 1 ? cudaSuccess : cudaErrorInvalidValue;
    default:
      return cudaErrorInvalidValue;
    }
  }
  return cudaErrorInvalidValue;
}

//===----------------------------------------------------------------------===//
// Running operations
//===----------------------------------------------------------------------===//

/// A memset of 2- or 4-byte elements whose bytes differ cannot be a byte
/// memset: the rows are copied from a host buffer of the pattern, which
/// works on every backend; a host function after the copies frees it.
struct PatternFill {
  std::vector<uint8_t> Row;
};

void freePattern(void *P) { delete static_cast<PatternFill *>(P); }

Status runMemset(Runtime &R, const NodeOp &Op, void *Stream) {
  uint32_t V = Op.Value;
  size_t RowBytes = Op.Width * Op.ElementSize;
  if (!RowBytes || !Op.Height)
    return cudaSuccess;
  bool Uniform = Op.ElementSize == 1 ||
                 (Op.ElementSize == 2 && (V & 0xff) == ((V >> 8) & 0xff)) ||
                 (Op.ElementSize == 4 && V == (V & 0xff) * 0x01010101u);
  if (Uniform) {
    if (Op.Height == 1)
      return R.memsetAsync(Op.Dst, int(V & 0xff), RowBytes, Stream);
    return R.memset3D({Op.Dst, Op.Pitch, Op.Height}, int(V & 0xff), RowBytes,
                      Op.Height, 1, Stream, /*Async=*/true);
  }
  auto *Fill = new PatternFill;
  Fill->Row.resize(RowBytes);
  for (size_t I = 0; I < Op.Width; ++I)
    std::memcpy(Fill->Row.data() + I * Op.ElementSize, &V, Op.ElementSize);
  for (size_t Row = 0; Row < Op.Height; ++Row)
    if (Status S = R.memcpyAsync(static_cast<char *>(Op.Dst) + Row * Op.Pitch,
                                 Fill->Row.data(), RowBytes,
                                 CopyKind::HostToDevice, Stream)) {
      // Nothing after the failed copy was enqueued, but the ones before
      // may still read the buffer: it goes after them.
      if (R.streamAddHostFunc(Stream, freePattern, Fill))
        R.getLastError(); // leaked rather than freed early
      return S;
    }
  return R.streamAddHostFunc(Stream, freePattern, Fill);
}

Status runOp(Runtime &R, const NodeOp &Op, void *Stream) {
  switch (Op.K) {
  case NodeOp::Empty:
  case NodeOp::ChildGraph:  // its instance runs in its place
  case NodeOp::Conditional: // runExec runs its bodies
    return cudaSuccess;
  case NodeOp::KernelLaunch: {
    std::vector<void *> Args(Op.ParamOffsets.size());
    for (size_t I = 0; I < Args.size(); ++I)
      Args[I] =
          const_cast<uint8_t *>(Op.ParamBuffer.data()) + Op.ParamOffsets[I];
    return R.launch(Op.Fn, Op.Grid, Op.Block, Args.data(), Op.SharedMem,
                    Stream, Op.cooperative());
  }
  case NodeOp::Memcpy: {
    if (Op.Width == 0)
      return Op.Bytes ? R.memcpyAsync(Op.Dst, Op.Src, Op.Bytes, Op.Copy, Stream)
                      : cudaSuccess;
    PitchedSide D, S;
    if (copyEndMemory(Op, true, D) || copyEndMemory(Op, false, S))
      return R.record(cudaErrorInvalidValue);
    return R.memcpy3D(D, S, Op.Width, Op.Height, Op.Depth, Op.Copy, Stream,
                      /*Async=*/true);
  }
  case NodeOp::Memset:
    return runMemset(R, Op, Stream);
  case NodeOp::Host:
    return R.streamAddHostFunc(Stream, Op.HostFn, Op.HostData);
  case NodeOp::EventRecord:
    return R.eventRecord(Op.Event, Stream);
  case NodeOp::EventWait:
    return R.streamWaitEvent(Stream, Op.Event, 0);
  case NodeOp::MemAlloc:
    // The memory exists from the node's creation on; the launch makes it
    // allocated, for the checks and the attributes.
    markAllocated(Op.Dst);
    return cudaSuccess;
  case NodeOp::MemFree:
    markFreed(Op.Dst);
    return cudaSuccess;
  }
  return cudaErrorInvalidValue;
}

//===----------------------------------------------------------------------===//
// Instances
//===----------------------------------------------------------------------===//

/// Instantiates G into E (empty); false with *Cycle the offending node if
/// G or a child graph has a cycle, or with *Cycle untouched when a
/// conditional node's body stream cannot be made.
bool buildExec(const Graph &G, GraphExec &E, GraphNode **Cycle) {
  std::vector<GraphNode *> Order;
  if (!topologicalOrder(G, Order)) {
    // A node on or after the cycle: one that never became ready.
    std::unordered_set<GraphNode *> Done(Order.begin(), Order.end());
    for (const auto &N : G.Nodes)
      if (!Done.count(N.get())) {
        *Cycle = N.get();
        break;
      }
    return false;
  }
  E.Nodes.resize(Order.size());
  for (size_t I = 0; I < Order.size(); ++I) {
    const GraphNode &N = *Order[I];
    ExecNode &X = E.Nodes[I];
    X.Op = N.Op;
    X.Op.Child = nullptr;
    X.Op.Bodies.clear();
    X.Origin = &N;
    X.Index = N.Index;
    for (GraphNode *D : N.Deps)
      X.DepIndices.push_back(D->Index);
    std::sort(X.DepIndices.begin(), X.DepIndices.end());
    E.ByOrigin[&N] = I;
    if (N.Op.K == NodeOp::ChildGraph) {
      X.Sub = std::make_unique<GraphExec>();
      if (!buildExec(*N.Op.Child, *X.Sub, Cycle))
        return false;
    }
    if (N.Op.K == NodeOp::Conditional) {
      X.Cond = std::make_shared<ConditionalRun>();
      X.Cond->Cond = N.Op.Cond;
      X.Cond->Type = N.Op.CondType;
      if (Runtime::get().streamCreate(&X.Cond->BodyStream,
                                      /*cudaStreamNonBlocking=*/1, 0))
        return false;
      for (Graph *B : N.Op.Bodies) {
        X.Cond->Bodies.push_back(std::make_unique<GraphExec>());
        if (!buildExec(*B, *X.Cond->Bodies.back(), Cycle))
          return false;
      }
    }
    if (N.Op.K == NodeOp::MemAlloc)
      holdAllocation(N.Op.Dst);
  }
  return true;
}

/// What an instance holds beyond its memory: holds on allocations.
void releaseExec(GraphExec &E) {
  for (ExecNode &X : E.Nodes) {
    if (X.Sub)
      releaseExec(*X.Sub);
    if (X.Cond)
      for (auto &B : X.Cond->Bodies)
        releaseExec(*B);
    if (X.Op.K == NodeOp::MemAlloc && X.Origin)
      dropAllocation(X.Op.Dst);
    X.Origin = nullptr;
  }
}

void collectAllocations(const GraphExec &E, std::vector<void *> &Out) {
  for (const ExecNode &X : E.Nodes) {
    if (X.Sub)
      collectAllocations(*X.Sub, Out);
    if (X.Cond)
      for (const auto &B : X.Cond->Bodies)
        collectAllocations(*B, Out);
    if (X.Op.K == NodeOp::MemAlloc)
      Out.push_back(X.Op.Dst);
  }
}

Status runExec(Runtime &R, const GraphExec &E, void *Stream);

/// Runs a conditional node's bodies as its condition says, on the stream's
/// dispatcher once everything before the node on the stream is done (a
/// kernel there may have set the condition): each body runs to completion
/// on the node's own stream (made at instantiation) before the condition
/// is read again, and the stream the graph was launched on waits
/// meanwhile, so the work after the node follows the bodies. A kernel
/// fault ends a while loop.
void evaluateConditional(void *P) {
  std::unique_ptr<std::shared_ptr<ConditionalRun>> Hold(
      static_cast<std::shared_ptr<ConditionalRun> *>(P));
  const ConditionalRun &X = **Hold;
  Runtime &R = Runtime::get();
  void *Body = X.BodyStream;
  auto run = [&](size_t I) {
    if (runExec(R, *X.Bodies[I], Body) == cudaSuccess)
      R.streamSynchronize(Body);
    return !R.deviceStatus();
  };
  unsigned V = X.Cond->Value.load(std::memory_order_acquire);
  switch (X.Type) {
  case 0: // if / else
    if (V)
      run(0);
    else if (X.Bodies.size() == 2)
      run(1);
    break;
  case 1: // while
    while (X.Cond->Value.load(std::memory_order_acquire) && run(0))
      ;
    break;
  default: // switch
    if (V < X.Bodies.size())
      run(V);
    break;
  }
}

Status runConditional(Runtime &R, const ExecNode &X, void *Stream) {
  auto *Hold = new std::shared_ptr<ConditionalRun>(X.Cond);
  Status S = R.streamAddHostFunc(Stream, evaluateConditional, Hold);
  if (S)
    delete Hold;
  return S;
}

/// The handles of E's conditional nodes (at any depth) that take their
/// default value at each launch.
void collectDefaults(const GraphExec &E,
                     std::vector<std::shared_ptr<ConditionalState>> &Out) {
  for (const ExecNode &X : E.Nodes) {
    if (X.Sub)
      collectDefaults(*X.Sub, Out);
    if (!X.Cond)
      continue;
    for (const auto &B : X.Cond->Bodies)
      collectDefaults(*B, Out);
    if (X.Cond->Cond->AssignDefault &&
        std::find(Out.begin(), Out.end(), X.Cond->Cond) == Out.end())
      Out.push_back(X.Cond->Cond);
  }
}

/// Does E have conditional nodes (at any depth)?
bool hasConditionals(const GraphExec &E) {
  for (const ExecNode &X : E.Nodes)
    if (X.Cond || (X.Sub && hasConditionals(*X.Sub)))
      return true;
  return false;
}

struct DefaultsToAssign {
  std::vector<std::shared_ptr<ConditionalState>> States;
};

void assignDefaults(void *P) {
  std::unique_ptr<DefaultsToAssign> D(static_cast<DefaultsToAssign *>(P));
  for (const auto &C : D->States)
    C->Value.store(C->Default, std::memory_order_release);
}

Status runExec(Runtime &R, const GraphExec &E, void *Stream) {
  // One stream runs the nodes in topological order, which satisfies every
  // edge; on a capturing stream the nodes are captured the same way.
  for (const ExecNode &X : E.Nodes) {
    if (!X.Enabled)
      continue; // a disabled node acts as an empty one
    if (X.Sub) {
      if (Status S = runExec(R, *X.Sub, Stream))
        return S;
      continue;
    }
    if (X.Op.K == NodeOp::Conditional) {
      if (Status S = runConditional(R, X, Stream))
        return S;
      continue;
    }
    if (Status S = runOp(R, X.Op, Stream))
      return S;
  }
  return cudaSuccess;
}

/// The kind of memory a copy side is, which an update may not change.
enum class MemoryKind { Array, Device, Host };
MemoryKind memoryKind(Runtime &R, const NodeOp &Op, bool Destination) {
  if ((Destination ? Op.DstEnd : Op.SrcEnd).A)
    return MemoryKind::Array;
  const void *P = Destination ? Op.Dst : Op.Src;
  return R.isDeviceRange(P, 1) ? MemoryKind::Device : MemoryKind::Host;
}

enum UpdateResult {
  UpdateSuccess = 0,
  UpdateError = 1,
  UpdateTopologyChanged = 2,
  UpdateNodeTypeChanged = 3,
  UpdateParametersChanged = 5,
  UpdateNotSupported = 6,
  UpdateAttributesChanged = 8,
};

struct UpdateFailure {
  int Result = UpdateSuccess;
  const GraphNode *Node = nullptr, *From = nullptr;
};

bool checkUpdate(Runtime &R, const GraphExec &E, const Graph &G,
                 UpdateFailure &F);

/// Can the instance X take the parameters of N? (cudaGraphExecUpdate's
/// rules, which cudaGraphExec*NodeSetParams share.)
bool checkNodeUpdate(Runtime &R, const ExecNode &X, const NodeOp &New,
                     const GraphNode *N, UpdateFailure &F) {
  const NodeOp &Old = X.Op;
  auto fail = [&](int Result) {
    F = {Result, N, nullptr};
    return false;
  };
  if (Old.K != New.K)
    return fail(UpdateNodeTypeChanged);
  switch (New.K) {
  case NodeOp::KernelLaunch:
    // A cooperative node stays one, and the other way round.
    if (Old.cooperative() != New.cooperative())
      return fail(UpdateAttributesChanged);
    return true;
  case NodeOp::Memcpy:
    if (memoryKind(R, Old, true) != memoryKind(R, New, true) ||
        memoryKind(R, Old, false) != memoryKind(R, New, false))
      return fail(UpdateParametersChanged);
    return true;
  case NodeOp::Memset:
    // A 2D memset may change only its address and value, a 1D one not its
    // height.
    if (Old.Height != New.Height ||
        (Old.Height > 1 &&
         (Old.Width != New.Width || Old.ElementSize != New.ElementSize ||
          Old.Pitch != New.Pitch)))
      return fail(UpdateParametersChanged);
    return memoryKind(R, New, true) == MemoryKind::Device
               ? true
               : fail(UpdateParametersChanged);
  case NodeOp::ChildGraph:
    return checkUpdate(R, *X.Sub, *New.Child, F);
  case NodeOp::Conditional:
    // The same handle, kind and bodies, whose nodes may take new
    // parameters as a child graph's do.
    if (Old.Cond != New.Cond || Old.CondType != New.CondType ||
        X.Cond->Bodies.size() != New.Bodies.size())
      return fail(UpdateParametersChanged);
    for (size_t I = 0; I < New.Bodies.size(); ++I)
      if (!checkUpdate(R, *X.Cond->Bodies[I], *New.Bodies[I], F))
        return false;
    return true;
  case NodeOp::MemAlloc:
  case NodeOp::MemFree:
    // Another graph's allocation is memory of its own.
    if (Old.Dst != New.Dst || Old.Bytes != New.Bytes)
      return fail(UpdateNotSupported);
    return true;
  default:
    return true;
  }
}

/// cudaGraphExecUpdate's pairing: the i-th node G made is the instance of
/// the i-th node its original made, with the same dependencies.
bool checkUpdate(Runtime &R, const GraphExec &E, const Graph &G,
                 UpdateFailure &F) {
  if (G.Nodes.size() != E.Nodes.size()) {
    F = {UpdateTopologyChanged, nullptr, nullptr};
    return false;
  }
  std::vector<const ExecNode *> ByIndex(E.Nodes.size());
  for (const ExecNode &X : E.Nodes)
    ByIndex[X.Index] = &X;
  for (const auto &N : G.Nodes) {
    const ExecNode &X = *ByIndex[N->Index];
    std::vector<size_t> Deps;
    for (GraphNode *D : N->Deps)
      Deps.push_back(D->Index);
    std::sort(Deps.begin(), Deps.end());
    if (Deps != X.DepIndices) {
      F = {UpdateTopologyChanged, N.get(), nullptr};
      for (GraphNode *D : N->Deps)
        if (!std::binary_search(X.DepIndices.begin(), X.DepIndices.end(),
                                D->Index))
          F.From = D;
      return false;
    }
    if (!checkNodeUpdate(R, X, N->Op, N.get(), F))
      return false;
  }
  // A graph with a cycle has no instance to take its parameters.
  std::vector<GraphNode *> Order;
  if (!topologicalOrder(G, Order)) {
    F = {UpdateTopologyChanged, nullptr, nullptr};
    return false;
  }
  return true;
}

/// Takes New's parameters into X (checked by checkNodeUpdate).
void applyNodeUpdate(ExecNode &X, const NodeOp &New);

void applyUpdate(GraphExec &E, const Graph &G) {
  std::vector<ExecNode *> ByIndex(E.Nodes.size());
  for (ExecNode &X : E.Nodes)
    ByIndex[X.Index] = &X;
  for (const auto &N : G.Nodes)
    applyNodeUpdate(*ByIndex[N->Index], N->Op);
}

void applyNodeUpdate(ExecNode &X, const NodeOp &New) {
  if (New.K == NodeOp::ChildGraph) {
    applyUpdate(*X.Sub, *New.Child);
    return;
  }
  if (New.K == NodeOp::Conditional) {
    for (size_t I = 0; I < New.Bodies.size(); ++I)
      applyUpdate(*X.Cond->Bodies[I], *New.Bodies[I]);
    return;
  }
  if (New.K == NodeOp::MemAlloc || New.K == NodeOp::MemFree)
    return; // nothing that may change
  X.Op = New;
}

/// cudaGraphExec*NodeSetParams: new parameters, the same attributes.
void applyNodeParams(ExecNode &X, NodeOp New) {
  if (New.K == NodeOp::KernelLaunch)
    New.Attributes = X.Op.Attributes;
  applyNodeUpdate(X, New);
}

} // namespace

//===----------------------------------------------------------------------===//
// Kernel arguments
//===----------------------------------------------------------------------===//

Status packKernelExtra(Kernel *K, void **Extra, NodeOp &Op) {
  Runtime &R = Runtime::get();
  KernelSummary S;
  if (Status St = R.kernelSummary(K, &S))
    return St;
  // Key/value pairs in any order, up to CU_LAUNCH_PARAM_END (0).
  uint8_t *Buffer = nullptr;
  size_t *Size = nullptr;
  for (size_t I = 0; Extra; I += 2) {
    uintptr_t Key = uintptr_t(Extra[I]);
    if (Key == 0)
      break;
    if (Key == 1)
      Buffer = static_cast<uint8_t *>(Extra[I + 1]);
    else if (Key == 2)
      Size = static_cast<size_t *>(Extra[I + 1]);
    else
      return R.record(cudaErrorInvalidValue);
  }
  std::vector<void *> Args;
  if (!S.Params.empty()) {
    if (!Buffer || !Size)
      return R.record(cudaErrorInvalidValue);
    const KernelSummary::Param &Last = S.Params.back();
    if (*Size < size_t(Last.Offset) + Last.Size) {
      CUHIP_ERROR("kernel node of '%s': the parameter buffer has %zu bytes, "
                  "the parameters need %u",
                  S.Name.c_str(), *Size, Last.Offset + Last.Size);
      return R.record(cudaErrorInvalidValue);
    }
    for (const auto &P : S.Params)
      Args.push_back(Buffer + P.Offset);
  }
  return packKernelArgs(K, Args.data(), Op);
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

Status graphCreate(Graph **Out, unsigned Flags) {
  Runtime &R = Runtime::get();
  // A sticky kernel fault fails graph work until cudaDeviceReset.
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!Out || Flags != 0)
    return R.record(cudaErrorInvalidValue);
  *Out = newGraph();
  return cudaSuccess;
}

Status graphDestroy(Graph *G) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || G->Parent)
    return R.record(cudaErrorInvalidValue);
  deleteGraph(G);
  return cudaSuccess;
}

Status graphAddNode(GraphNode **Out, Graph *G, GraphNode *const *Deps,
                    size_t NumDeps, NodeOp Op) {
  Runtime &R = Runtime::get();
  // A sticky kernel fault fails graph work until cudaDeviceReset.
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!Out || !isLive(G) || (NumDeps && !Deps))
    return R.record(cudaErrorInvalidValue);
  std::vector<GraphNode *> D(Deps, Deps + NumDeps);
  {
    std::lock_guard<std::mutex> L(GraphLock);
    for (size_t I = 0; I < D.size(); ++I)
      if (!LiveNodes.count(D[I]) || D[I]->Owner != G ||
          std::find(D.begin(), D.begin() + I, D[I]) != D.begin() + I)
        return R.record(cudaErrorInvalidValue);
  }
  if (Status S = checkOp(R, Op))
    return R.record(S);
  switch (Op.K) {
  case NodeOp::ChildGraph: {
    Graph *C = Op.Child;
    if (isSelfOrAncestor(C, G) || C->Parent)
      return R.record(cudaErrorInvalidValue);
    if (Op.MoveChild) {
      // The graph becomes the node's: it must be no instance's source.
      if (C->Instance)
        return R.record(cudaErrorInvalidValue);
      C->Moved = true;
    } else {
      // Memory nodes keep their addresses, so a copy of them cannot be.
      if (hasMemoryNodes(*C))
        return R.record(cudaErrorInvalidValue);
      Op.Child = cloneGraph(*C);
      Op.Child->ClonedFrom = nullptr;
    }
    break;
  }
  case NodeOp::Conditional: {
    // A handle of this graph or of one that contains it; the node gets its
    // bodies, empty, for the program to fill.
    std::shared_ptr<ConditionalState> C;
    for (const Graph *P = G; P && !C;
         P = P->Parent ? P->Parent->Owner : nullptr)
      for (const auto &H : P->Conditionals)
        if (reinterpret_cast<uint64_t>(H.get()) == Op.CondHandle)
          C = H;
    if (!C) {
      CUHIP_ERROR("conditional graph node: handle 0x%llx was not made for "
                  "this graph (cudaGraphConditionalHandleCreate)",
                  (unsigned long long)Op.CondHandle);
      return R.record(cudaErrorInvalidValue);
    }
    Op.Cond = std::move(C);
    Op.Bodies.clear();
    for (unsigned I = 0; I < Op.CondSize; ++I)
      Op.Bodies.push_back(newGraph());
    break;
  }
  case NodeOp::MemAlloc:
  case NodeOp::MemFree:
    // Not into a child graph's graph, nor a graph instantiated already.
    if (G->Parent || G->Instance)
      return R.record(cudaErrorInvalidValue);
    if (Op.K == NodeOp::MemFree) {
      if (!claimFree(Op.Dst, G))
        return R.record(cudaErrorInvalidValue);
      break;
    }
    if (Status S = newAllocation(Op.Bytes, &Op.Dst, G))
      return R.record(S);
    break;
  default:
    break;
  }
  *Out = addNode(G, D, std::move(Op));
  return cudaSuccess;
}

ConditionalState::~ConditionalState() {
  std::lock_guard<std::mutex> L(ConditionalLock);
  LiveConditionals.erase(this);
}

Status graphConditionalHandleCreate(uint64_t *Out, Graph *G, unsigned Default,
                                    unsigned Flags) {
  Runtime &R = Runtime::get();
  if (!Out || !isLive(G) || (Flags & ~1u))
    return R.record(cudaErrorInvalidValue);
  auto C = std::make_shared<ConditionalState>();
  C->Value.store(Default);
  C->Default = Default;
  C->AssignDefault = Flags & 1;
  {
    std::lock_guard<std::mutex> L(ConditionalLock);
    LiveConditionals.insert(C.get());
  }
  *Out = reinterpret_cast<uint64_t>(C.get());
  G->Conditionals.push_back(std::move(C));
  return cudaSuccess;
}

bool graphSetConditional(uint64_t Handle, unsigned Value) {
  std::lock_guard<std::mutex> L(ConditionalLock);
  auto *C = reinterpret_cast<ConditionalState *>(Handle);
  if (!LiveConditionals.count(C))
    return false;
  C->Value.store(Value, std::memory_order_release);
  return true;
}

Status graphAddDependencies(Graph *G, GraphNode *const *From,
                            GraphNode *const *To, size_t Num) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || (Num && (!From || !To)))
    return R.record(cudaErrorInvalidValue);
  {
    std::lock_guard<std::mutex> L(GraphLock);
    for (size_t I = 0; I < Num; ++I)
      if (!LiveNodes.count(From[I]) || !LiveNodes.count(To[I]) ||
          From[I]->Owner != G || To[I]->Owner != G || From[I] == To[I])
        return R.record(cudaErrorInvalidValue);
  }
  for (size_t I = 0; I < Num; ++I) {
    const auto &Deps = To[I]->Deps;
    // CUDA refuses an edge that exists already, or is given twice.
    bool Twice = false;
    for (size_t J = 0; J < I; ++J)
      Twice |= From[J] == From[I] && To[J] == To[I];
    if (Twice || std::find(Deps.begin(), Deps.end(), From[I]) != Deps.end())
      return R.record(cudaErrorInvalidValue);
  }
  for (size_t I = 0; I < Num; ++I) {
    To[I]->Deps.push_back(From[I]);
    From[I]->Succs.push_back(To[I]);
  }
  return cudaSuccess;
}

Status graphRemoveDependencies(Graph *G, GraphNode *const *From,
                               GraphNode *const *To, size_t Num) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || (Num && (!From || !To)))
    return R.record(cudaErrorInvalidValue);
  {
    std::lock_guard<std::mutex> L(GraphLock);
    for (size_t I = 0; I < Num; ++I)
      if (!LiveNodes.count(From[I]) || !LiveNodes.count(To[I]) ||
          From[I]->Owner != G || To[I]->Owner != G)
        return R.record(cudaErrorInvalidValue);
  }
  if (Num && hasMemoryNodes(*G))
    return R.record(cudaErrorInvalidValue);
  for (size_t I = 0; I < Num; ++I) {
    const auto &Deps = To[I]->Deps;
    bool Twice = false;
    for (size_t J = 0; J < I; ++J)
      Twice |= From[J] == From[I] && To[J] == To[I];
    if (Twice || std::find(Deps.begin(), Deps.end(), From[I]) == Deps.end())
      return R.record(cudaErrorInvalidValue);
  }
  for (size_t I = 0; I < Num; ++I) {
    auto &Deps = To[I]->Deps;
    auto &Succs = From[I]->Succs;
    Deps.erase(std::find(Deps.begin(), Deps.end(), From[I]));
    Succs.erase(std::find(Succs.begin(), Succs.end(), To[I]));
  }
  return cudaSuccess;
}

Status graphDestroyNode(GraphNode *N) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(N))
    return R.record(cudaErrorInvalidValue);
  Graph *G = N->Owner;
  if (hasMemoryNodes(*G))
    return R.record(cudaErrorInvalidValue);
  for (GraphNode *D : N->Deps)
    D->Succs.erase(std::find(D->Succs.begin(), D->Succs.end(), N));
  for (GraphNode *S : N->Succs)
    S->Deps.erase(std::find(S->Deps.begin(), S->Deps.end(), N));
  {
    std::lock_guard<std::mutex> L(GraphLock);
    LiveNodes.erase(N);
  }
  releaseNodeOp(N->Op);
  G->Nodes.erase(G->Nodes.begin() + N->Index);
  for (size_t I = 0; I < G->Nodes.size(); ++I)
    G->Nodes[I]->Index = I;
  return cudaSuccess;
}

Status graphGetNodes(Graph *G, GraphNode **Nodes, size_t *Num) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !Num)
    return R.record(cudaErrorInvalidValue);
  std::vector<GraphNode *> All;
  for (const auto &N : G->Nodes)
    All.push_back(N.get());
  fillList(All, Nodes, Num);
  return cudaSuccess;
}

Status graphGetRootNodes(Graph *G, GraphNode **Nodes, size_t *Num) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !Num)
    return R.record(cudaErrorInvalidValue);
  std::vector<GraphNode *> Roots;
  for (const auto &N : G->Nodes)
    if (N->Deps.empty())
      Roots.push_back(N.get());
  fillList(Roots, Nodes, Num);
  return cudaSuccess;
}

Status graphGetEdges(Graph *G, GraphNode **From, GraphNode **To, size_t *Num) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !Num || (!From != !To))
    return R.record(cudaErrorInvalidValue);
  std::vector<GraphNode *> Froms, Tos;
  for (const auto &N : G->Nodes)
    for (GraphNode *D : N->Deps) {
      Froms.push_back(D);
      Tos.push_back(N.get());
    }
  size_t Room = *Num;
  fillList(Froms, From, Num);
  fillList(Tos, To, &Room);
  return cudaSuccess;
}

Status graphNodeGetDependencies(GraphNode *N, GraphNode **Nodes, size_t *Num) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(N) || !Num)
    return R.record(cudaErrorInvalidValue);
  fillList(N->Deps, Nodes, Num);
  return cudaSuccess;
}

Status graphNodeGetDependentNodes(GraphNode *N, GraphNode **Nodes,
                                  size_t *Num) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(N) || !Num)
    return R.record(cudaErrorInvalidValue);
  fillList(N->Succs, Nodes, Num);
  return cudaSuccess;
}

Status graphNodeGetType(GraphNode *N, NodeOp::Kind *Type) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(N) || !Type)
    return R.record(cudaErrorInvalidValue);
  *Type = N->Op.K;
  return cudaSuccess;
}

const NodeOp *graphNodeOp(GraphNode *N) {
  return isLiveNode(N) ? &N->Op : nullptr;
}

void **graphKernelNodeArgs(GraphNode *N) {
  if (!isLiveNode(N) || N->Op.K != NodeOp::KernelLaunch)
    return nullptr;
  N->ArgPointers.clear();
  for (uint32_t Offset : N->Op.ParamOffsets)
    N->ArgPointers.push_back(N->Op.ParamBuffer.data() + Offset);
  // Never null for a kernel node, even without arguments.
  N->ArgPointers.push_back(nullptr);
  return N->ArgPointers.data();
}

bool NodeOp::cooperative() const {
  auto It = Attributes.find(2); // cudaLaunchAttributeCooperative
  if (It == Attributes.end())
    return false;
  int V;
  std::memcpy(&V, It->second.data(), sizeof(V));
  return V != 0;
}

namespace {
// cudaLaunchAttributeID values that graph kernel nodes take.
enum : int {
  AttrAccessPolicyWindow = 1,
  AttrCooperative = 2,
  AttrClusterDimension = 4,
  AttrClusterSchedulingPolicyPreference = 5,
  AttrPriority = 8,
  AttrMemSyncDomainMap = 9,
  AttrMemSyncDomain = 10,
  AttrPreferredClusterDimension = 11,
  AttrDeviceUpdatableKernelNode = 13,
  AttrNvlinkUtilCentricScheduling = 16,
};

/// cudaAccessPolicyWindow's layout.
struct AccessPolicyWindow {
  void *BasePtr;
  size_t NumBytes;
  float HitRatio;
  int HitProp, MissProp;
};

void logNotSupportedAttribute(const char *What) {
  static std::mutex Lock;
  static std::unordered_set<std::string> Logged;
  std::lock_guard<std::mutex> L(Lock);
  if (Logged.insert(What).second)
    CUHIP_ERROR("kernel node attribute: %s are not supported", What);
}

/// Checks an attribute's value as CUDA does before a node keeps it.
Status checkAttribute(Runtime &R, int Attr, const uint8_t *V) {
  switch (Attr) {
  case AttrAccessPolicyWindow: {
    AccessPolicyWindow W;
    std::memcpy(&W, V, sizeof(W));
    if (W.NumBytes > size_t(R.deviceInfo(0).MaxAccessPolicyWindowSize) ||
        !(W.HitRatio >= 0.0f && W.HitRatio <= 1.0f) || W.HitProp < 0 ||
        W.HitProp > 2 || W.MissProp < 0 || W.MissProp > 1)
      return cudaErrorInvalidValue;
    return cudaSuccess;
  }
  case AttrClusterDimension:
  case AttrPreferredClusterDimension: {
    unsigned Dim[3];
    std::memcpy(Dim, V, sizeof(Dim));
    // A cluster of one block (or none) is every launch here.
    if (Dim[0] > 1 || Dim[1] > 1 || Dim[2] > 1) {
      logNotSupportedAttribute("thread block clusters of more than one block");
      return cudaErrorNotSupported;
    }
    return cudaSuccess;
  }
  case AttrDeviceUpdatableKernelNode:
    logNotSupportedAttribute("device-updatable kernel nodes");
    return cudaErrorNotSupported;
  case AttrMemSyncDomain: {
    int D;
    std::memcpy(&D, V, sizeof(D));
    return D == 0 || D == 1 ? cudaSuccess : cudaErrorInvalidValue;
  }
  case AttrCooperative:
  case AttrClusterSchedulingPolicyPreference:
  case AttrPriority:
  case AttrMemSyncDomainMap:
  case AttrNvlinkUtilCentricScheduling:
    // Hints that change no result, and cooperative launches, which the
    // launch checks.
    return cudaSuccess;
  default:
    return cudaErrorInvalidValue;
  }
}
} // namespace

Status graphKernelNodeSetAttribute(GraphNode *N, int Attr, const void *Value) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(N) || N->Op.K != NodeOp::KernelLaunch || !Value)
    return R.record(cudaErrorInvalidValue);
  std::array<uint8_t, NodeOp::AttrBytes> Bytes;
  std::memcpy(Bytes.data(), Value, Bytes.size());
  if (Status S = checkAttribute(R, Attr, Bytes.data()))
    return R.record(S);
  N->Op.Attributes[Attr] = Bytes;
  return cudaSuccess;
}

Status graphKernelNodeGetAttribute(GraphNode *N, int Attr, void *Value) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(N) || N->Op.K != NodeOp::KernelLaunch || !Value)
    return R.record(cudaErrorInvalidValue);
  std::array<uint8_t, NodeOp::AttrBytes> Zero{};
  // Validity as for Set, on a neutral value.
  Status S = checkAttribute(R, Attr, Zero.data());
  if (S == cudaErrorInvalidValue)
    return R.record(S);
  auto It = N->Op.Attributes.find(Attr);
  if (It != N->Op.Attributes.end()) {
    std::memcpy(Value, It->second.data(), NodeOp::AttrBytes);
    return cudaSuccess;
  }
  // CUDA's defaults: nothing set, and remote work in memory domain 1.
  std::memset(Value, 0, NodeOp::AttrBytes);
  if (Attr == AttrMemSyncDomainMap)
    static_cast<uint8_t *>(Value)[1] = 1;
  return cudaSuccess;
}

Status graphKernelNodeCopyAttributes(GraphNode *Dst, GraphNode *Src) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(Dst) || !isLiveNode(Src) ||
      Dst->Op.K != NodeOp::KernelLaunch || Src->Op.K != NodeOp::KernelLaunch)
    return R.record(cudaErrorInvalidValue);
  Dst->Op.Attributes = Src->Op.Attributes;
  return cudaSuccess;
}

Status graphNodeSetOp(GraphNode *N, NodeOp Op) {
  Runtime &R = Runtime::get();
  if (!isLiveNode(N) || N->Op.K != Op.K)
    return R.record(cudaErrorInvalidValue);
  if (Op.K == NodeOp::MemAlloc || Op.K == NodeOp::MemFree ||
      Op.K == NodeOp::Conditional)
    return R.record(cudaErrorNotSupported);
  if (Status S = checkOp(R, Op))
    return R.record(S);
  if (Op.K == NodeOp::ChildGraph) {
    if (isSelfOrAncestor(Op.Child, N->Owner) || hasMemoryNodes(*Op.Child))
      return R.record(cudaErrorInvalidValue);
    Graph *C = cloneGraph(*Op.Child);
    C->ClonedFrom = nullptr;
    releaseNodeOp(N->Op);
    C->Parent = N;
    Op.Child = C;
    Op.MoveChild = false;
  }
  if (Op.K == NodeOp::KernelLaunch)
    Op.Attributes = N->Op.Attributes;
  N->Op = std::move(Op);
  return cudaSuccess;
}

Status graphClone(Graph **Out, Graph *G) {
  Runtime &R = Runtime::get();
  if (!Out || !isLive(G))
    return R.record(cudaErrorInvalidValue);
  // Allocation nodes keep their addresses, so they have no copies.
  if (hasMemoryNodes(*G))
    return R.record(cudaErrorNotSupported);
  *Out = cloneGraph(*G);
  return cudaSuccess;
}

Status graphNodeFindInClone(GraphNode **Out, GraphNode *Original,
                            Graph *Clone) {
  Runtime &R = Runtime::get();
  if (!Out || !Original || !isLive(Clone))
    return R.record(cudaErrorInvalidValue);
  for (const auto &N : Clone->Nodes)
    if (N->CloneOf == Original) {
      *Out = N.get();
      return cudaSuccess;
    }
  return R.record(cudaErrorInvalidValue);
}

namespace {
const char *copyKindName(CopyKind K) {
  switch (K) {
  case CopyKind::HostToHost:
    return "HtoH";
  case CopyKind::HostToDevice:
    return "HtoD";
  case CopyKind::DeviceToHost:
    return "DtoH";
  case CopyKind::DeviceToDevice:
    return "DtoD";
  case CopyKind::Default:
    break;
  }
  return "default";
}

void printNodes(std::ofstream &Out, const Graph &G, const std::string &Prefix) {
  for (const auto &N : G.Nodes) {
    const NodeOp &Op = N->Op;
    std::string Id = Prefix + std::to_string(N->Index);
    if (Op.K == NodeOp::ChildGraph) {
      Out << "  subgraph cluster_" << Id << " {\n    label=\"" << N->Index
          << ": child graph\";\n  " << Id << " [label=\"" << N->Index
          << ": child graph\", shape=point];\n";
      printNodes(Out, *Op.Child, Id + "_");
      Out << "  }\n";
      continue;
    }
    if (Op.K == NodeOp::Conditional) {
      static const char *Types[] = {"if", "while", "switch"};
      for (size_t B = 0; B < Op.Bodies.size(); ++B) {
        std::string BodyId = Id + "_b" + std::to_string(B);
        Out << "  subgraph cluster_" << BodyId << " {\n    label=\""
            << N->Index << ": " << Types[Op.CondType % 3] << " body " << B
            << "\";\n  " << BodyId << " [label=\"" << N->Index << "." << B
            << "\", shape=point];\n";
        printNodes(Out, *Op.Bodies[B], BodyId + "_");
        Out << "  }\n";
      }
      Out << "  " << Id << " [label=\"" << N->Index << ": conditional "
          << Types[Op.CondType % 3] << "\"];\n";
      continue;
    }
    Out << "  " << Id << " [label=\"" << N->Index << ": ";
    switch (Op.K) {
    case NodeOp::Empty:
    case NodeOp::ChildGraph:
    case NodeOp::Conditional: // printed above
      Out << "empty";
      break;
    case NodeOp::KernelLaunch:
      Out << "kernel " << kernelName(Op.Fn) << "\\ngrid (" << Op.Grid.X << ","
          << Op.Grid.Y << "," << Op.Grid.Z << ") block (" << Op.Block.X << ","
          << Op.Block.Y << "," << Op.Block.Z << ") shared " << Op.SharedMem;
      break;
    case NodeOp::Memcpy:
      Out << "memcpy " << copyKindName(Op.Copy) << " ";
      if (Op.Width)
        Out << Op.Depth << "x" << Op.Height << " rows of " << Op.Width
            << " bytes" << (Op.SrcEnd.A ? ", from an array" : "")
            << (Op.DstEnd.A ? ", to an array" : "");
      else
        Out << Op.Bytes << " bytes";
      Out << "\\n" << Op.Src << " -> " << Op.Dst;
      break;
    case NodeOp::Memset:
      Out << "memset " << Op.Width << "x" << Op.Height << " elements of "
          << Op.ElementSize << " bytes = 0x" << std::hex << Op.Value << std::dec
          << "\\nat " << Op.Dst;
      break;
    case NodeOp::Host:
      Out << "host function " << reinterpret_cast<void *>(Op.HostFn);
      break;
    case NodeOp::EventRecord:
      Out << "event record " << Op.Event;
      break;
    case NodeOp::EventWait:
      Out << "event wait " << Op.Event;
      break;
    case NodeOp::MemAlloc:
      Out << "allocation of " << Op.Bytes << " bytes\\nat " << Op.Dst;
      break;
    case NodeOp::MemFree:
      Out << "free " << Op.Dst;
      break;
    }
    Out << "\"];\n";
  }
  for (const auto &N : G.Nodes)
    for (GraphNode *D : N->Deps)
      Out << "  " << Prefix << D->Index << " -> " << Prefix << N->Index
          << ";\n";
}
} // namespace

Status graphDebugDotPrint(Graph *G, const char *Path, unsigned) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !Path)
    return R.record(cudaErrorInvalidValue);
  std::ofstream Out(Path);
  if (!Out) {
    CUHIP_ERROR("cudaGraphDebugDotPrint: cannot write %s", Path);
    return R.record(cudaErrorOperatingSystem);
  }
  Out << "digraph cuhip_graph {\n  node [shape=box];\n";
  printNodes(Out, *G, "n");
  Out << "}\n";
  if (!Out)
    return R.record(cudaErrorOperatingSystem);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// User objects
//===----------------------------------------------------------------------===//

namespace {
/// Counts are nonzero and at most INT_MAX.
bool validCount(unsigned Count) { return Count && Count <= 0x7fffffffu; }
} // namespace

Status userObjectCreate(UserObject **Out, void *Ptr, void (*Destroy)(void *),
                        unsigned InitialRefs, unsigned Flags) {
  Runtime &R = Runtime::get();
  // cudaUserObjectNoDestructorSync is the one flag, and it is required.
  if (!Out || !Destroy || !validCount(InitialRefs) || Flags != 1)
    return R.record(cudaErrorInvalidValue);
  auto *O = new UserObject;
  O->Ptr = Ptr;
  O->Destroy = Destroy;
  O->Refs = InitialRefs;
  std::lock_guard<std::mutex> L(UserObjectLock);
  LiveUserObjects.insert(O);
  *Out = O;
  return cudaSuccess;
}

Status userObjectRetain(UserObject *O, unsigned Count) {
  Runtime &R = Runtime::get();
  if (!validCount(Count) || !retainUser(O, Count))
    return R.record(cudaErrorInvalidValue);
  return cudaSuccess;
}

Status userObjectRelease(UserObject *O, unsigned Count) {
  Runtime &R = Runtime::get();
  {
    std::lock_guard<std::mutex> L(UserObjectLock);
    if (!validCount(Count) || !LiveUserObjects.count(O))
      return R.record(cudaErrorInvalidValue);
  }
  releaseUser(O, Count);
  return cudaSuccess;
}

Status graphRetainUserObject(Graph *G, UserObject *O, unsigned Count,
                             unsigned Flags) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !validCount(Count) || Flags > 1)
    return R.record(cudaErrorInvalidValue);
  // cudaGraphUserObjectMove hands over references the caller owns.
  if (Flags) {
    std::lock_guard<std::mutex> L(UserObjectLock);
    if (!LiveUserObjects.count(O))
      return R.record(cudaErrorInvalidValue);
  } else if (!retainUser(O, Count)) {
    return R.record(cudaErrorInvalidValue);
  }
  G->UserRefs[O] += Count;
  return cudaSuccess;
}

Status graphReleaseUserObject(Graph *G, UserObject *O, unsigned Count) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !validCount(Count))
    return R.record(cudaErrorInvalidValue);
  auto It = G->UserRefs.find(O);
  // Only references the graph owns.
  if (It == G->UserRefs.end() || It->second < Count)
    return R.record(cudaErrorInvalidValue);
  if (!(It->second -= Count))
    G->UserRefs.erase(It);
  releaseUser(O, Count);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Executable graphs
//===----------------------------------------------------------------------===//

Status graphInstantiate(GraphExec **Out, Graph *G, unsigned long long Flags,
                        GraphNode **ErrorNode) {
  Runtime &R = Runtime::get();
  if (ErrorNode)
    *ErrorNode = nullptr;
  // A sticky kernel fault fails graph work until cudaDeviceReset.
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!Out || !isLive(G) || G->Moved)
    return R.record(cudaErrorInvalidValue);
  *Out = nullptr;
  // AutoFreeOnLaunch (1), Upload (2), DeviceLaunch (4), UseNodePriority (8):
  // node priorities change nothing here; device launch is not available,
  // and is not allowed with AutoFreeOnLaunch.
  if (Flags & ~0xbull)
    return R.record(cudaErrorInvalidValue);
  bool Memory = hasMemoryNodes(*G);
  // A graph with memory nodes has one instance at a time.
  if (Memory && G->Instance)
    return R.record(cudaErrorInvalidValue);
  auto E = std::make_unique<GraphExec>();
  E->Flags = Flags;
  GraphNode *Cycle = nullptr;
  if (!buildExec(*G, *E, &Cycle)) {
    releaseExec(*E);
    if (ErrorNode)
      *ErrorNode = Cycle;
    return R.record(Cycle ? cudaErrorInvalidValue : cudaErrorMemoryAllocation);
  }
  std::vector<std::pair<UserObject *, uint64_t>> Refs;
  collectUserRefs(*G, Refs);
  for (const auto &[O, Count] : Refs)
    if (retainUser(O, Count))
      E->UserRefs.push_back({O, Count});
  E->HasConditionals = hasConditionals(*E);
  collectDefaults(*E, E->Defaults);
  std::lock_guard<std::mutex> L(GraphLock);
  if (Memory) {
    G->Instance = E.get();
    E->Source = G;
  }
  LiveExecs.insert(E.get());
  *Out = E.release();
  return cudaSuccess;
}

Status graphExecGetFlags(GraphExec *E, unsigned long long *Flags) {
  Runtime &R = Runtime::get();
  if (!isLiveExec(E) || !Flags)
    return R.record(cudaErrorInvalidValue);
  *Flags = E->Flags;
  return cudaSuccess;
}

Status graphExecDestroy(GraphExec *E) {
  Runtime &R = Runtime::get();
  {
    std::lock_guard<std::mutex> L(GraphLock);
    if (!E || !LiveExecs.erase(E))
      return R.record(cudaErrorInvalidValue);
    if (E->Source)
      E->Source->Instance = nullptr;
  }
  // A launch in flight holds references of its own (graphLaunch).
  releaseExec(*E);
  releaseAllUsers(E->UserRefs);
  delete E;
  return cudaSuccess;
}

Status graphUpload(GraphExec *E, void *Stream) {
  Runtime &R = Runtime::get();
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!isLiveExec(E))
    return R.record(cudaErrorInvalidValue);
  if (!R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  // Nodes are ready to run as instantiated: there is nothing to upload.
  return cudaSuccess;
}

namespace {
/// The references a launch holds until the stream reaches its end.
struct LaunchRefs {
  std::vector<std::pair<UserObject *, uint64_t>> Refs;
};
void releaseLaunchRefs(void *P) {
  auto *L = static_cast<LaunchRefs *>(P);
  releaseAllUsers(L->Refs);
  delete L;
}
} // namespace

Status graphLaunch(GraphExec *E, void *Stream) {
  Runtime &R = Runtime::get();
  // A sticky kernel fault fails graph work until cudaDeviceReset.
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!isLiveExec(E))
    return R.record(cudaErrorInvalidValue);
  if (!R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  // Memory the last launch allocated must have been freed since, unless
  // the instance frees it itself (cudaGraphInstantiateFlagAutoFreeOnLaunch).
  std::vector<void *> Allocs;
  collectAllocations(*E, Allocs);
  for (void *P : Allocs) {
    bool Live;
    {
      std::lock_guard<std::mutex> L(MemoryLock);
      auto It = Allocations.find(P);
      Live = It != Allocations.end() && It->second.Live;
    }
    if (!Live)
      continue;
    if (!(E->Flags & 1)) {
      CUHIP_ERROR("cudaGraphLaunch: the graph's allocation at %p from its "
                  "last launch was not freed; free it, or instantiate with "
                  "cudaGraphInstantiateFlagAutoFreeOnLaunch",
                  P);
      return R.record(cudaErrorInvalidValue);
    }
    markFreed(P);
  }
  auto *Refs = new LaunchRefs;
  for (const auto &[O, Count] : E->UserRefs)
    if (retainUser(O, Count))
      Refs->Refs.push_back({O, Count});
  // Conditions are read when the stream reaches the node, by a host
  // function of the launch's own: a capture would record it for replays it
  // was not made for.
  if (E->HasConditionals && capture::anyActive()) {
    CaptureStatus CS = CaptureStatus::None;
    if (streamIsCapturing(Stream, &CS) == cudaSuccess &&
        CS != CaptureStatus::None) {
      releaseLaunchRefs(Refs);
      CUHIP_ERROR("cudaGraphLaunch: a graph with conditional nodes cannot be "
                  "launched into a capturing stream; add it as a child graph "
                  "node instead");
      return R.record(cudaErrorNotSupported);
    }
  }
  if (!E->Defaults.empty()) {
    auto *D = new DefaultsToAssign{E->Defaults};
    if (Status S = R.streamAddHostFunc(Stream, assignDefaults, D)) {
      delete D;
      releaseLaunchRefs(Refs);
      return S;
    }
  }
  Status S = runExec(R, *E, Stream);
  if (Refs->Refs.empty() || R.streamAddHostFunc(Stream, releaseLaunchRefs,
                                                Refs) != cudaSuccess)
    releaseLaunchRefs(Refs);
  return S;
}

namespace {
/// The top-level instance node of E made from N, or null.
ExecNode *execNodeOf(GraphExec *E, GraphNode *N) {
  auto It = E->ByOrigin.find(N);
  return It == E->ByOrigin.end() ? nullptr : &E->Nodes[It->second];
}
} // namespace

Status graphExecSetNodeOp(GraphExec *E, GraphNode *N, NodeOp Op) {
  Runtime &R = Runtime::get();
  if (!isLiveExec(E) || !N)
    return R.record(cudaErrorInvalidValue);
  ExecNode *X = execNodeOf(E, N);
  if (!X || X->Op.K != Op.K)
    return R.record(cudaErrorInvalidValue);
  if (Op.K == NodeOp::MemAlloc || Op.K == NodeOp::MemFree ||
      Op.K == NodeOp::Conditional)
    return R.record(cudaErrorNotSupported);
  if (Status S = checkOp(R, Op))
    return R.record(S);
  switch (Op.K) {
  case NodeOp::Memcpy:
    // Pointers to memory of the same kinds as before; no arrays, nothing
    // empty.
    if (X->Op.DstEnd.A || X->Op.SrcEnd.A || Op.DstEnd.A || Op.SrcEnd.A ||
        (Op.Width ? !Op.Height || !Op.Depth : !Op.Bytes))
      return R.record(cudaErrorInvalidValue);
    break;
  case NodeOp::Memset:
    if (!Op.Width || !Op.Height)
      return R.record(cudaErrorInvalidValue);
    break;
  default:
    break;
  }
  UpdateFailure F;
  if (!checkNodeUpdate(R, *X, Op, N, F))
    return R.record(cudaErrorInvalidValue);
  applyNodeParams(*X, std::move(Op));
  return cudaSuccess;
}

Status graphNodeSetEnabled(GraphExec *E, GraphNode *N, bool Enabled) {
  Runtime &R = Runtime::get();
  if (!isLiveExec(E) || !N)
    return R.record(cudaErrorInvalidValue);
  ExecNode *X = execNodeOf(E, N);
  // Kernel, memcpy and memset nodes, as in CUDA.
  if (!X || (X->Op.K != NodeOp::KernelLaunch && X->Op.K != NodeOp::Memcpy &&
             X->Op.K != NodeOp::Memset))
    return R.record(cudaErrorInvalidValue);
  X->Enabled = Enabled;
  return cudaSuccess;
}

Status graphNodeGetEnabled(GraphExec *E, GraphNode *N, bool *Enabled) {
  Runtime &R = Runtime::get();
  if (!isLiveExec(E) || !N || !Enabled)
    return R.record(cudaErrorInvalidValue);
  ExecNode *X = execNodeOf(E, N);
  if (!X || (X->Op.K != NodeOp::KernelLaunch && X->Op.K != NodeOp::Memcpy &&
             X->Op.K != NodeOp::Memset))
    return R.record(cudaErrorInvalidValue);
  *Enabled = X->Enabled;
  return cudaSuccess;
}

Status graphExecUpdate(GraphExec *E, Graph *G, int *UpdateResult,
                       GraphNode **ErrorNode, GraphNode **ErrorFrom) {
  Runtime &R = Runtime::get();
  auto report = [&](const UpdateFailure &F) {
    if (UpdateResult)
      *UpdateResult = F.Result;
    if (ErrorNode)
      *ErrorNode = const_cast<GraphNode *>(F.Node);
    if (ErrorFrom)
      *ErrorFrom = const_cast<GraphNode *>(F.From);
  };
  if (!isLiveExec(E) || !isLive(G) || G->Moved) {
    report({UpdateError, nullptr, nullptr});
    return R.record(cudaErrorInvalidValue);
  }
  UpdateFailure F;
  if (!checkUpdate(R, *E, *G, F)) {
    report(F);
    return R.record(cudaErrorGraphExecUpdateFailure);
  }
  applyUpdate(*E, *G);
  report({UpdateSuccess, nullptr, nullptr});
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Graph memory
//===----------------------------------------------------------------------===//

namespace {
// cudaGraphMemAttributeType
enum : int {
  GraphMemUsedCurrent = 0,
  GraphMemUsedHigh = 1,
  GraphMemReservedCurrent = 2,
  GraphMemReservedHigh = 3,
};
} // namespace

Status deviceGetGraphMemAttribute(int Device, int Attr, uint64_t *Value) {
  Runtime &R = Runtime::get();
  if (Device < 0 || Device >= R.deviceCount())
    return R.record(cudaErrorInvalidDevice);
  if (!Value)
    return R.record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> L(MemoryLock);
  switch (Attr) {
  case GraphMemUsedCurrent:
    *Value = UsedBytes;
    return cudaSuccess;
  case GraphMemUsedHigh:
    *Value = UsedHigh;
    return cudaSuccess;
  case GraphMemReservedCurrent:
    *Value = ReservedBytes;
    return cudaSuccess;
  case GraphMemReservedHigh:
    *Value = ReservedHigh;
    return cudaSuccess;
  }
  return R.record(cudaErrorInvalidValue);
}

Status deviceSetGraphMemAttribute(int Device, int Attr, const uint64_t *Value) {
  Runtime &R = Runtime::get();
  if (Device < 0 || Device >= R.deviceCount())
    return R.record(cudaErrorInvalidDevice);
  // Only the high watermarks, and only back to zero, where they restart
  // from the current amount.
  if (!Value || *Value != 0 ||
      (Attr != GraphMemUsedHigh && Attr != GraphMemReservedHigh))
    return R.record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> L(MemoryLock);
  if (Attr == GraphMemUsedHigh)
    UsedHigh = UsedBytes;
  else
    ReservedHigh = ReservedBytes;
  return cudaSuccess;
}

Status deviceGraphMemTrim(int Device) {
  Runtime &R = Runtime::get();
  if (Device < 0 || Device >= R.deviceCount())
    return R.record(cudaErrorInvalidDevice);
  // Storage goes back as soon as no graph holds it and it is freed, so
  // nothing is cached to trim.
  return cudaSuccess;
}

graphmem::FreeResult graphmem::free(void *Ptr) {
  std::lock_guard<std::mutex> L(MemoryLock);
  auto It = Allocations.find(Ptr);
  if (It == Allocations.end())
    return FreeResult::NotGraphMemory;
  GraphAllocation &A = It->second;
  // Memory a free node of its own graph frees is never the program's.
  if (!A.Live || (A.FreedBy && A.FreedBy == A.Owner))
    return FreeResult::Refuse;
  A.Live = false;
  UsedBytes -= A.Bytes;
  if (A.Holders)
    return FreeResult::Kept;
  ReservedBytes -= A.Bytes;
  Allocations.erase(It);
  return FreeResult::Release;
}

//===----------------------------------------------------------------------===//
// Stream capture
//===----------------------------------------------------------------------===//

namespace capture {
std::atomic<int> Active{0};
}

namespace {

struct CaptureSeq {
  uint64_t Id = 0;
  Graph *G = nullptr;
  CaptureMode Mode = CaptureMode::Global;
  std::thread::id Thread;
  void *Origin = nullptr; // stream key
  bool Invalidated = false;
  bool OwnsGraph = true; // false: the program's graph (capture to graph)
  std::vector<void *> Streams; // keys of every stream taking part
  /// The last nodes of forked streams destroyed before the capture ended:
  /// the origin must still have joined them.
  std::vector<GraphNode *> DepartedDeps;
};

struct StreamCapture {
  CaptureSeq *Seq = nullptr;
  std::vector<GraphNode *> Deps;
  bool Blocking = true; // orders with the legacy stream
};

struct EventCapture {
  CaptureSeq *Seq = nullptr;
  std::vector<GraphNode *> Deps;
};

std::mutex CaptureLock;
std::unordered_map<void *, StreamCapture> CapturingStreams;
std::unordered_map<void *, EventCapture> CapturedEvents;
std::unordered_set<CaptureSeq *> Sequences;
uint64_t NextCaptureId = 1;

thread_local char PerThreadStreamKey;

bool isLegacy(void *S) {
  uintptr_t V = reinterpret_cast<uintptr_t>(S);
  return V == 0 || V == 1;
}

/// Capture state is per stream; cudaStreamPerThread is a different stream
/// on every host thread.
void *keyOf(void *Stream) {
  return reinterpret_cast<uintptr_t>(Stream) == 2 ? &PerThreadStreamKey
                                                  : Stream;
}

bool isBlockingStream(void *Stream) {
  if (reinterpret_cast<uintptr_t>(Stream) <= 2)
    return true;
  unsigned Flags = 0;
  Runtime::get().streamGetFlags(Stream, &Flags);
  return !(Flags & 0x1); // cudaStreamNonBlocking
}

/// Ends Seq: its streams and events leave capture. CaptureLock is held.
void endSequence(CaptureSeq *Seq) {
  for (void *K : Seq->Streams)
    CapturingStreams.erase(K);
  for (auto It = CapturedEvents.begin(); It != CapturedEvents.end();)
    It = It->second.Seq == Seq ? CapturedEvents.erase(It) : std::next(It);
  Sequences.erase(Seq);
  capture::Active.fetch_sub(1, std::memory_order_acq_rel);
}

/// Work on the legacy stream waits for every blocking stream; if one of
/// them is capturing, that would make captured work run now: CUDA refuses
/// with cudaErrorStreamCaptureImplicit and invalidates the capture.
/// CaptureLock is held.
Status checkLegacyLocked() {
  bool Conflict = false;
  for (auto &[Key, SC] : CapturingStreams)
    if (SC.Blocking) {
      SC.Seq->Invalidated = true;
      Conflict = true;
    }
  return Conflict ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

} // namespace

Status threadExchangeCaptureMode(CaptureMode *Mode) {
  Runtime &R = Runtime::get();
  if (!Mode || int(*Mode) < 0 || int(*Mode) > 2)
    return R.record(cudaErrorInvalidValue);
  std::swap(*Mode, ThreadMode);
  return cudaSuccess;
}

namespace {
/// Starts a capture on Stream into G (a new graph when null), its first
/// operation after Deps.
Status beginCapture(void *Stream, CaptureMode Mode, Graph *G,
                    std::vector<GraphNode *> Deps) {
  Runtime &R = Runtime::get();
  // A sticky kernel fault fails graph work until cudaDeviceReset.
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (int(Mode) < 0 || int(Mode) > 2)
    return R.record(cudaErrorInvalidValue);
  if (isLegacy(Stream))
    return R.record(cudaErrorStreamCaptureUnsupported);
  if (!R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  bool Blocking = isBlockingStream(Stream);
  std::lock_guard<std::mutex> L(CaptureLock);
  void *Key = keyOf(Stream);
  if (CapturingStreams.count(Key))
    return R.record(cudaErrorIllegalState);
  auto *Seq = new CaptureSeq;
  Seq->Id = NextCaptureId++;
  Seq->OwnsGraph = !G;
  Seq->G = G ? G : newGraph();
  Seq->Mode = Mode;
  Seq->Thread = std::this_thread::get_id();
  Seq->Origin = Key;
  Seq->Streams.push_back(Key);
  Sequences.insert(Seq);
  CapturingStreams[Key] = {Seq, std::move(Deps), Blocking};
  capture::Active.fetch_add(1, std::memory_order_acq_rel);
  return cudaSuccess;
}

/// Are the Deps distinct live nodes of G?
bool nodesOfGraph(Graph *G, GraphNode *const *Deps, size_t NumDeps) {
  if (NumDeps && !Deps)
    return false;
  std::lock_guard<std::mutex> L(GraphLock);
  for (size_t I = 0; I < NumDeps; ++I)
    if (!LiveNodes.count(Deps[I]) || Deps[I]->Owner != G ||
        std::find(Deps, Deps + I, Deps[I]) != Deps + I)
      return false;
  return true;
}
} // namespace

Status streamBeginCapture(void *Stream, CaptureMode Mode) {
  return beginCapture(Stream, Mode, nullptr, {});
}

Status streamBeginCaptureToGraph(void *Stream, Graph *G,
                                 GraphNode *const *Deps, size_t NumDeps,
                                 CaptureMode Mode) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !nodesOfGraph(G, Deps, NumDeps))
    return R.record(cudaErrorInvalidValue);
  return beginCapture(Stream, Mode, G,
                      std::vector<GraphNode *>(Deps, Deps + NumDeps));
}

Status streamUpdateCaptureDependencies(void *Stream, GraphNode *const *Deps,
                                       size_t NumDeps, unsigned Flags) {
  Runtime &R = Runtime::get();
  // cudaStreamAddCaptureDependencies (0) or cudaStreamSetCaptureDependencies
  // (1).
  if (Flags > 1)
    return R.record(cudaErrorInvalidValue);
  if (!isLegacy(Stream) && !R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> L(CaptureLock);
  auto It = CapturingStreams.find(keyOf(Stream));
  if (It == CapturingStreams.end())
    return R.record(cudaErrorIllegalState);
  StreamCapture &SC = It->second;
  if (SC.Seq->Invalidated)
    return R.record(cudaErrorStreamCaptureInvalidated);
  if (!nodesOfGraph(SC.Seq->G, Deps, NumDeps))
    return R.record(cudaErrorInvalidValue);
  if (Flags == 1)
    SC.Deps.clear();
  for (size_t I = 0; I < NumDeps; ++I)
    if (std::find(SC.Deps.begin(), SC.Deps.end(), Deps[I]) == SC.Deps.end())
      SC.Deps.push_back(Deps[I]);
  return cudaSuccess;
}

Status streamEndCapture(void *Stream, Graph **Out) {
  Runtime &R = Runtime::get();
  if (Out)
    *Out = nullptr;
  if (!isLegacy(Stream) && !R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  std::unique_ptr<CaptureSeq> Seq;
  Status Result = cudaSuccess;
  {
    std::lock_guard<std::mutex> L(CaptureLock);
    auto It = CapturingStreams.find(keyOf(Stream));
    if (It == CapturingStreams.end())
      return R.record(Out ? cudaErrorIllegalState : cudaErrorInvalidValue);
    CaptureSeq *S = It->second.Seq;
    // Only a capture into the program's own graph (BeginCaptureToGraph)
    // may be ended without asking for the graph.
    if (!Out && S->OwnsGraph)
      return R.record(cudaErrorInvalidValue);
    if (S->Origin != keyOf(Stream))
      return R.record(cudaErrorStreamCaptureUnmatched);
    if (S->Mode != CaptureMode::Relaxed &&
        S->Thread != std::this_thread::get_id())
      return R.record(cudaErrorStreamCaptureWrongThread);
    if (S->Invalidated) {
      Result = cudaErrorStreamCaptureInvalidated;
    } else {
      // Every stream that joined must have been joined back: its last
      // nodes must be among the nodes the origin's next work waits for.
      std::unordered_set<GraphNode *> Reached;
      std::vector<GraphNode *> Work = It->second.Deps;
      while (!Work.empty()) {
        GraphNode *N = Work.back();
        Work.pop_back();
        if (Reached.insert(N).second)
          Work.insert(Work.end(), N->Deps.begin(), N->Deps.end());
      }
      for (void *K : S->Streams)
        for (GraphNode *N : CapturingStreams[K].Deps)
          if (!Reached.count(N))
            Result = cudaErrorStreamCaptureUnjoined;
      for (GraphNode *N : S->DepartedDeps)
        if (!Reached.count(N))
          Result = cudaErrorStreamCaptureUnjoined;
    }
    Seq.reset(S);
    endSequence(S);
  }
  if (Result != cudaSuccess) {
    if (Seq->OwnsGraph)
      deleteGraph(Seq->G);
    return R.record(Result);
  }
  if (Out)
    *Out = Seq->G;
  return cudaSuccess;
}

Status streamIsCapturing(void *Stream, CaptureStatus *Out) {
  return streamGetCaptureInfo(Stream, Out, nullptr, nullptr, nullptr, nullptr);
}

Status streamGetCaptureInfo(void *Stream, CaptureStatus *Out, uint64_t *Id,
                            Graph **G, GraphNode *const **Deps,
                            size_t *NumDeps) {
  Runtime &R = Runtime::get();
  if (!Out)
    return R.record(cudaErrorInvalidValue);
  if (!isLegacy(Stream) && !R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> L(CaptureLock);
  if (isLegacy(Stream)) {
    // Asking about the legacy stream while a blocking stream captures is
    // itself an implicit dependency (not an invalidation).
    for (auto &[Key, SC] : CapturingStreams)
      if (SC.Blocking)
        return R.record(cudaErrorStreamCaptureImplicit);
    *Out = CaptureStatus::None;
    return cudaSuccess;
  }
  auto It = CapturingStreams.find(keyOf(Stream));
  if (It == CapturingStreams.end()) {
    *Out = CaptureStatus::None;
    return cudaSuccess;
  }
  StreamCapture &SC = It->second;
  *Out =
      SC.Seq->Invalidated ? CaptureStatus::Invalidated : CaptureStatus::Active;
  if (Id)
    *Id = SC.Seq->Id;
  if (G)
    *G = SC.Seq->G;
  if (Deps)
    *Deps = SC.Deps.data();
  if (NumDeps)
    *NumDeps = SC.Deps.size();
  return cudaSuccess;
}

namespace capture {

namespace {
/// The capture Stream takes part in: null when it is not capturing.
/// CaptureLock is held.
StreamCapture *capturingLocked(void *Stream) {
  auto It = CapturingStreams.find(keyOf(Stream));
  return It == CapturingStreams.end() ? nullptr : &It->second;
}

/// What a stream operation meets, CaptureLock held: the capture that takes
/// it as a node; or null with S the answer, which is an error (and
/// Captured set) on the legacy stream while a capture forbids it, or in an
/// invalidated capture, and success on a stream that is not capturing.
StreamCapture *captureForLocked(void *Stream, bool &Captured, Status &S) {
  S = cudaSuccess;
  if (isLegacy(Stream)) {
    S = checkLegacyLocked();
    Captured = S != cudaSuccess;
    return nullptr;
  }
  StreamCapture *SC = capturingLocked(Stream);
  if (!SC)
    return nullptr;
  Captured = true;
  if (SC->Seq->Invalidated) {
    S = cudaErrorStreamCaptureInvalidated;
    return nullptr;
  }
  return SC;
}
} // namespace

Status enqueue(void *Stream, NodeOp &&Op, bool &Captured) {
  Captured = false;
  if (!anyActive())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(CaptureLock);
  Status S;
  StreamCapture *SC = captureForLocked(Stream, Captured, S);
  if (!SC)
    return S;
  GraphNode *N = addNode(SC->Seq->G, SC->Deps, std::move(Op));
  SC->Deps.assign(1, N);
  return cudaSuccess;
}

Status allocate(void *Stream, size_t Bytes, const MemPoolProps &Props,
                void **Ptr, bool &Captured) {
  Captured = false;
  if (!anyActive())
    return cudaSuccess;
  Runtime &R = Runtime::get();
  NodeOp Op;
  Op.K = NodeOp::MemAlloc;
  Op.Bytes = Bytes;
  Op.Pool = Props;
  Graph *G;
  {
    std::lock_guard<std::mutex> L(CaptureLock);
    Status S;
    StreamCapture *SC = captureForLocked(Stream, Captured, S);
    if (!SC)
      return S;
    if ((S = checkOp(R, Op)))
      return S;
    G = SC->Seq->G;
  }
  // Allocating takes CaptureLock (a cudaMalloc is unsafe during capture),
  // so the node's memory is made before the node.
  if (Status S = newAllocation(Bytes, &Op.Dst, G))
    return S;
  void *P = Op.Dst;
  {
    std::lock_guard<std::mutex> L(CaptureLock);
    StreamCapture *SC = capturingLocked(Stream);
    if (SC && SC->Seq->G == G && !SC->Seq->Invalidated) {
      GraphNode *N = addNode(G, SC->Deps, std::move(Op));
      SC->Deps.assign(1, N);
      *Ptr = P;
      return cudaSuccess;
    }
  }
  // The capture ended or failed meanwhile, on another thread.
  dropAllocation(P);
  return cudaErrorStreamCaptureInvalidated;
}

Status free(void *Stream, void *Ptr, bool &Captured) {
  Captured = false;
  if (!anyActive())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(CaptureLock);
  Status S;
  StreamCapture *SC = captureForLocked(Stream, Captured, S);
  if (!SC)
    return S;
  // Only memory of allocation nodes, freed by no other free node.
  if (!claimFree(Ptr, SC->Seq->G))
    return cudaErrorInvalidValue;
  NodeOp Op;
  Op.K = NodeOp::MemFree;
  Op.Dst = Ptr;
  GraphNode *N = addNode(SC->Seq->G, SC->Deps, std::move(Op));
  SC->Deps.assign(1, N);
  return cudaSuccess;
}

Status recordEvent(void *Event, void *Stream, bool &Handled) {
  Handled = false;
  if (!anyActive())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(CaptureLock);
  if (isLegacy(Stream)) {
    CapturedEvents.erase(Event);
    Status S = checkLegacyLocked();
    Handled = S != cudaSuccess;
    return S;
  }
  auto It = CapturingStreams.find(keyOf(Stream));
  if (It == CapturingStreams.end()) {
    // Recorded outside any capture: it no longer names captured work.
    CapturedEvents.erase(Event);
    return cudaSuccess;
  }
  Handled = true;
  StreamCapture &SC = It->second;
  if (SC.Seq->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  CapturedEvents[Event] = {SC.Seq, SC.Deps};
  return cudaSuccess;
}

Status waitEvent(void *Stream, void *Event, bool &Handled) {
  Handled = false;
  if (!anyActive())
    return cudaSuccess;
  bool Blocking = isBlockingStream(Stream);
  std::lock_guard<std::mutex> L(CaptureLock);
  void *Key = keyOf(Stream);
  auto SIt = CapturingStreams.find(Key);
  auto EIt = CapturedEvents.find(Event);
  if (EIt == CapturedEvents.end()) {
    if (SIt == CapturingStreams.end())
      return cudaSuccess;
    // An event of work outside the capture: that work is ordered before
    // the capture began, which needs no edge.
    Handled = true;
    return SIt->second.Seq->Invalidated ? cudaErrorStreamCaptureInvalidated
                                        : cudaSuccess;
  }
  Handled = true;
  EventCapture &EC = EIt->second;
  if (EC.Seq->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  if (isLegacy(Stream)) {
    EC.Seq->Invalidated = true;
    return cudaErrorStreamCaptureImplicit;
  }
  if (SIt == CapturingStreams.end()) {
    // Fork: the stream joins the capture after the event's nodes.
    EC.Seq->Streams.push_back(Key);
    CapturingStreams[Key] = {EC.Seq, EC.Deps, Blocking};
    return cudaSuccess;
  }
  StreamCapture &SC = SIt->second;
  if (SC.Seq != EC.Seq) {
    SC.Seq->Invalidated = true;
    return cudaErrorStreamCaptureIsolation;
  }
  if (SC.Seq->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  // Join: the stream's next work waits for both.
  for (GraphNode *N : EC.Deps)
    if (std::find(SC.Deps.begin(), SC.Deps.end(), N) == SC.Deps.end())
      SC.Deps.push_back(N);
  return cudaSuccess;
}

Status checkWaitOn(void *Stream) {
  if (!anyActive())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(CaptureLock);
  if (isLegacy(Stream))
    return checkLegacyLocked();
  auto It = CapturingStreams.find(keyOf(Stream));
  if (It == CapturingStreams.end())
    return cudaSuccess;
  It->second.Seq->Invalidated = true;
  return cudaErrorStreamCaptureUnsupported;
}

Status checkUnsafeCall(bool TouchesLegacy) {
  if (!anyActive())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(CaptureLock);
  if (ThreadMode != CaptureMode::Relaxed) {
    // Global: a non-relaxed capture of this thread or a global one of any
    // thread forbids the call; thread-local: only this thread's.
    std::thread::id Self = std::this_thread::get_id();
    bool Refused = false;
    for (CaptureSeq *Seq : Sequences) {
      bool Own = Seq->Thread == Self && Seq->Mode != CaptureMode::Relaxed;
      bool Other =
          ThreadMode == CaptureMode::Global && Seq->Mode == CaptureMode::Global;
      if (Own || Other) {
        Seq->Invalidated = true;
        Refused = true;
      }
    }
    if (Refused)
      return cudaErrorStreamCaptureUnsupported;
  }
  return TouchesLegacy ? checkLegacyLocked() : cudaSuccess;
}

void forgetEvent(void *Event) {
  if (!anyActive())
    return;
  std::lock_guard<std::mutex> L(CaptureLock);
  CapturedEvents.erase(Event);
}

void forgetStream(void *Stream) {
  if (!anyActive())
    return;
  Graph *Orphan = nullptr;
  {
    std::lock_guard<std::mutex> L(CaptureLock);
    auto It = CapturingStreams.find(keyOf(Stream));
    if (It == CapturingStreams.end())
      return;
    CaptureSeq *Seq = It->second.Seq;
    if (Seq->Origin == It->first) {
      // Nobody can end this capture any more.
      Seq->Invalidated = true;
      Orphan = Seq->OwnsGraph ? Seq->G : nullptr;
      endSequence(Seq);
      delete Seq;
    } else {
      // A forked stream may go (NVIDIA's graphMemoryNodes destroys one
      // inside its capture); its work stays in the graph, and ending the
      // capture still requires that work to have been joined.
      Seq->DepartedDeps.insert(Seq->DepartedDeps.end(),
                               It->second.Deps.begin(), It->second.Deps.end());
      CapturingStreams.erase(It);
      auto &V = Seq->Streams;
      V.erase(std::remove(V.begin(), V.end(), keyOf(Stream)), V.end());
    }
  }
  if (Orphan)
    deleteGraph(Orphan);
}

} // namespace capture
} // namespace cuhip::rt
