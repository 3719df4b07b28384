//===- Graph.cpp - Graphs, executable graphs and stream capture -----------===//
//
// A graph owns its nodes; an edge is kept on both ends so topological order
// and cloning need no search. Instantiation fixes one topological order
// (Kahn's algorithm, ties broken by creation order, so launches are
// deterministic) and copies the node operations, so the graph may change or
// go away afterwards, as CUDA allows. A launch replays the operations through
// the runtime core's stream operations, which keeps argument checking,
// backends and error state in one place.
//
// Capture state is separate from the streams: a map from stream to the
// capture sequence it takes part in and the nodes its next operation depends
// on, and from event to the nodes it was recorded after. Forks and joins
// between streams are cudaEventRecord + cudaStreamWaitEvent, which move these
// dependency sets between streams. One mutex guards all of it; it is a leaf
// lock (nothing else is locked while it is held except GraphLock, never the
// reverse), and while no capture is in progress the hooks Runtime.cpp calls
// cost one atomic load.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Graph.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace cuhip::rt {

struct GraphNode {
  Graph *Owner = nullptr;
  size_t Index = 0; // creation order within Owner
  NodeOp Op;
  std::vector<GraphNode *> Deps, Succs;
};

struct Graph {
  std::vector<std::unique_ptr<GraphNode>> Nodes;
};

struct GraphExec {
  std::vector<NodeOp> Ops;           // in launch order
  std::vector<const void *> NodeIds; // the instantiated graph's node per op
  // The topology, for cudaGraphExecUpdate: per op its kind and the launch
  // positions of its dependencies.
  std::vector<std::vector<size_t>> DepPositions;
};

namespace {

std::mutex GraphLock; // the live handle sets
std::unordered_set<Graph *> LiveGraphs;
std::unordered_set<GraphNode *> LiveNodes;
std::unordered_set<GraphExec *> LiveExecs;

bool isLive(Graph *G) {
  std::lock_guard<std::mutex> L(GraphLock);
  return G && LiveGraphs.count(G);
}

Graph *newGraph() {
  auto *G = new Graph;
  std::lock_guard<std::mutex> L(GraphLock);
  LiveGraphs.insert(G);
  return G;
}

void deleteGraph(Graph *G) {
  {
    std::lock_guard<std::mutex> L(GraphLock);
    LiveGraphs.erase(G);
    for (auto &N : G->Nodes)
      LiveNodes.erase(N.get());
  }
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
  GraphNode *Raw = N.get();
  G->Nodes.push_back(std::move(N));
  std::lock_guard<std::mutex> L(GraphLock);
  LiveNodes.insert(Raw);
  return Raw;
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

/// A memset of 2- or 4-byte elements whose bytes differ cannot be one byte
/// memset: on the CPU backend, whose device memory is host memory, the
/// stream runs this host function for it.
void fillElements(void *P) {
  const NodeOp &Op = *static_cast<const NodeOp *>(P);
  for (size_t Row = 0; Row < Op.Height; ++Row) {
    char *Base = static_cast<char *>(Op.Dst) + Row * Op.Pitch;
    for (size_t I = 0; I < Op.Width; ++I)
      std::memcpy(Base + I * Op.ElementSize, &Op.Value, Op.ElementSize);
  }
}

Status runOp(Runtime &R, const NodeOp &Op, void *Stream) {
  switch (Op.K) {
  case NodeOp::Empty:
    return cudaSuccess;
  case NodeOp::KernelLaunch: {
    std::vector<void *> Args(Op.ParamOffsets.size());
    for (size_t I = 0; I < Args.size(); ++I)
      Args[I] =
          const_cast<uint8_t *>(Op.ParamBuffer.data()) + Op.ParamOffsets[I];
    return R.launch(Op.Fn, Op.Grid, Op.Block, Args.data(), Op.SharedMem,
                    Stream);
  }
  case NodeOp::Memcpy:
    if (Op.Height > 1)
      return R.memcpy3D({Op.Dst, Op.Pitch, Op.Height},
                        {const_cast<void *>(Op.Src), Op.SrcPitch, Op.Height},
                        Op.Width, Op.Height, 1, Op.Copy, Stream,
                        /*Async=*/true);
    return R.memcpyAsync(Op.Dst, Op.Src, Op.Bytes, Op.Copy, Stream);
  case NodeOp::Memset: {
    uint32_t V = Op.Value;
    bool Uniform = Op.ElementSize == 1 ||
                   (Op.ElementSize == 2 && (V & 0xff) == ((V >> 8) & 0xff)) ||
                   (Op.ElementSize == 4 && V == (V & 0xff) * 0x01010101u);
    if (Uniform) {
      for (size_t Row = 0; Row < Op.Height; ++Row)
        if (Status S =
                R.memsetAsync(static_cast<char *>(Op.Dst) + Row * Op.Pitch,
                              int(V & 0xff), Op.Width * Op.ElementSize, Stream))
          return S;
      return cudaSuccess;
    }
    if (!R.deviceInfo(0).Integrated) {
      CUHIP_ERROR("graph memset node of %u-byte elements with value 0x%x: "
                  "not supported on the HIP backend",
                  Op.ElementSize, V);
      return R.record(cudaErrorNotSupported);
    }
    return R.streamAddHostFunc(Stream, fillElements, const_cast<NodeOp *>(&Op));
  }
  case NodeOp::Host:
    return R.streamAddHostFunc(Stream, Op.HostFn, Op.HostData);
  }
  return cudaErrorInvalidValue;
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

} // namespace

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
  if (!isLive(G))
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
    for (GraphNode *N : D)
      if (!LiveNodes.count(N) || N->Owner != G)
        return R.record(cudaErrorInvalidValue);
  }
  switch (Op.K) {
  case NodeOp::Memcpy: {
    int K = static_cast<int>(Op.Copy);
    if (K < 0 || K > 4)
      return R.record(cudaErrorInvalidMemcpyDirection);
    bool DstDev = Op.Copy == CopyKind::HostToDevice ||
                  Op.Copy == CopyKind::DeviceToDevice;
    bool SrcDev = Op.Copy == CopyKind::DeviceToHost ||
                  Op.Copy == CopyKind::DeviceToDevice;
    if (Op.Bytes &&
        (!Op.Dst || !Op.Src || (DstDev && !R.isDeviceRange(Op.Dst, Op.Bytes)) ||
         (SrcDev && !R.isDeviceRange(Op.Src, Op.Bytes))))
      return R.record(cudaErrorInvalidValue);
    break;
  }
  case NodeOp::Memset:
    if (!memsetInBounds(R, Op))
      return R.record(cudaErrorInvalidValue);
    break;
  case NodeOp::Host:
    if (!Op.HostFn)
      return R.record(cudaErrorInvalidValue);
    break;
  case NodeOp::KernelLaunch:
    if (!Op.Fn)
      return R.record(cudaErrorInvalidDeviceFunction);
    break;
  case NodeOp::Empty:
    break;
  }
  *Out = addNode(G, D, std::move(Op));
  return cudaSuccess;
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
    auto &Deps = To[I]->Deps;
    // CUDA refuses an edge that exists already.
    if (std::find(Deps.begin(), Deps.end(), From[I]) != Deps.end())
      return R.record(cudaErrorInvalidValue);
    Deps.push_back(From[I]);
    From[I]->Succs.push_back(To[I]);
  }
  return cudaSuccess;
}

Status graphGetNodes(Graph *G, GraphNode **Nodes, size_t *Num) {
  Runtime &R = Runtime::get();
  if (!isLive(G) || !Num)
    return R.record(cudaErrorInvalidValue);
  if (Nodes) {
    // CUDA fills at most *Num entries and nulls the rest it was given room
    // for; *Num becomes the number it wrote.
    size_t N = std::min(*Num, G->Nodes.size());
    for (size_t I = 0; I < *Num; ++I)
      Nodes[I] = I < N ? G->Nodes[I].get() : nullptr;
    *Num = N;
  } else {
    *Num = G->Nodes.size();
  }
  return cudaSuccess;
}

const NodeOp *graphNodeOp(GraphNode *N) {
  std::lock_guard<std::mutex> L(GraphLock);
  return LiveNodes.count(N) ? &N->Op : nullptr;
}

Status graphClone(Graph **Out, Graph *G) {
  Runtime &R = Runtime::get();
  if (!Out || !isLive(G))
    return R.record(cudaErrorInvalidValue);
  Graph *C = newGraph();
  for (const auto &N : G->Nodes) {
    std::vector<GraphNode *> Deps;
    for (GraphNode *D : N->Deps)
      Deps.push_back(C->Nodes[D->Index].get());
    addNode(C, Deps, N->Op);
  }
  *Out = C;
  return cudaSuccess;
}

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
  for (const auto &N : G->Nodes) {
    const NodeOp &Op = N->Op;
    Out << "  n" << N->Index << " [label=\"" << N->Index << ": ";
    switch (Op.K) {
    case NodeOp::Empty:
      Out << "empty";
      break;
    case NodeOp::KernelLaunch:
      Out << "kernel " << kernelName(Op.Fn) << "\\ngrid (" << Op.Grid.X << ","
          << Op.Grid.Y << "," << Op.Grid.Z << ") block (" << Op.Block.X << ","
          << Op.Block.Y << "," << Op.Block.Z << ") shared " << Op.SharedMem;
      break;
    case NodeOp::Memcpy:
      Out << "memcpy " << copyKindName(Op.Copy) << " ";
      if (Op.Height > 1)
        Out << Op.Height << " rows of " << Op.Width << " bytes, pitch "
            << Op.SrcPitch << " -> " << Op.Pitch;
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
    }
    Out << "\"];\n";
  }
  for (const auto &N : G->Nodes)
    for (GraphNode *D : N->Deps)
      Out << "  n" << D->Index << " -> n" << N->Index << ";\n";
  Out << "}\n";
  if (!Out)
    return R.record(cudaErrorOperatingSystem);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Executable graphs
//===----------------------------------------------------------------------===//

Status graphInstantiate(GraphExec **Out, Graph *G, unsigned long long Flags) {
  Runtime &R = Runtime::get();
  // A sticky kernel fault fails graph work until cudaDeviceReset.
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!Out || !isLive(G))
    return R.record(cudaErrorInvalidValue);
  *Out = nullptr;
  // AutoFreeOnLaunch (1), Upload (2), DeviceLaunch (4), UseNodePriority (8):
  // the first and last change nothing without graph allocations and node
  // priorities; device launch is not available.
  if (Flags & ~0xbull)
    return R.record(cudaErrorInvalidValue);
  std::vector<GraphNode *> Order;
  if (!topologicalOrder(*G, Order))
    return R.record(cudaErrorInvalidValue);
  auto E = std::make_unique<GraphExec>();
  std::vector<size_t> Position(G->Nodes.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Position[Order[I]->Index] = I;
  for (GraphNode *N : Order) {
    E->Ops.push_back(N->Op);
    E->NodeIds.push_back(N);
    std::vector<size_t> Deps;
    for (GraphNode *D : N->Deps)
      Deps.push_back(Position[D->Index]);
    std::sort(Deps.begin(), Deps.end());
    E->DepPositions.push_back(std::move(Deps));
  }
  std::lock_guard<std::mutex> L(GraphLock);
  LiveExecs.insert(E.get());
  *Out = E.release();
  return cudaSuccess;
}

static bool isLiveExec(GraphExec *E) {
  std::lock_guard<std::mutex> L(GraphLock);
  return E && LiveExecs.count(E);
}

Status graphExecDestroy(GraphExec *E) {
  Runtime &R = Runtime::get();
  {
    std::lock_guard<std::mutex> L(GraphLock);
    if (!E || !LiveExecs.erase(E))
      return R.record(cudaErrorInvalidValue);
  }
  delete E;
  return cudaSuccess;
}

Status graphLaunch(GraphExec *E, void *Stream) {
  Runtime &R = Runtime::get();
  // A sticky kernel fault fails graph work until cudaDeviceReset.
  if (Status S = R.deviceStatus())
    return R.record(S);
  if (!isLiveExec(E))
    return R.record(cudaErrorInvalidValue);
  if (!R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  // One stream runs the nodes in topological order, which satisfies every
  // edge; on a capturing stream the nodes are captured the same way.
  for (const NodeOp &Op : E->Ops)
    if (Status S = runOp(R, Op, Stream))
      return S;
  return cudaSuccess;
}

Status graphExecSetNodeOp(GraphExec *E, GraphNode *N, NodeOp Op) {
  Runtime &R = Runtime::get();
  if (!isLiveExec(E) || !N)
    return R.record(cudaErrorInvalidValue);
  for (size_t I = 0; I < E->NodeIds.size(); ++I) {
    if (E->NodeIds[I] != N)
      continue;
    NodeOp &Old = E->Ops[I];
    // The node's kind, and a kernel node's function, cannot change.
    if (Old.K != Op.K || (Op.K == NodeOp::KernelLaunch && Old.Fn != Op.Fn))
      return R.record(cudaErrorInvalidValue);
    Old = std::move(Op);
    return cudaSuccess;
  }
  return R.record(cudaErrorInvalidValue);
}

Status graphExecUpdate(GraphExec *E, Graph *G, int *UpdateResult,
                       GraphNode **ErrorNode) {
  Runtime &R = Runtime::get();
  if (!isLiveExec(E) || !isLive(G))
    return R.record(cudaErrorInvalidValue);
  enum {
    Success = 0,
    TopologyChanged = 2,
    NodeTypeChanged = 3,
    UnsupportedFunctionChange = 7
  };
  auto fail = [&](int Result, GraphNode *N) {
    if (UpdateResult)
      *UpdateResult = Result;
    if (ErrorNode)
      *ErrorNode = N;
    return R.record(cudaErrorGraphExecUpdateFailure);
  };
  std::vector<GraphNode *> Order;
  if (G->Nodes.size() != E->Ops.size() || !topologicalOrder(*G, Order))
    return fail(TopologyChanged, nullptr);
  // Nodes correspond by creation order, as when the graph was captured or
  // built again by the same code.
  std::vector<size_t> Position(G->Nodes.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Position[Order[I]->Index] = I;
  std::vector<size_t>
      OldIndex; // launch position of each of E's ops, by creation
  std::vector<NodeOp> NewOps(E->Ops.size());
  // E's ops were ordered from the original graph's creation order the same
  // way, so the i-th created node sits at the same launch position if the
  // topology is equal.
  for (const auto &N : G->Nodes) {
    size_t P = Position[N->Index];
    std::vector<size_t> Deps;
    for (GraphNode *D : N->Deps)
      Deps.push_back(Position[D->Index]);
    std::sort(Deps.begin(), Deps.end());
    if (Deps != E->DepPositions[P])
      return fail(TopologyChanged, N.get());
    const NodeOp &Old = E->Ops[P];
    if (Old.K != N->Op.K)
      return fail(NodeTypeChanged, N.get());
    if (Old.K == NodeOp::KernelLaunch && Old.Fn != N->Op.Fn)
      return fail(UnsupportedFunctionChange, N.get());
    NewOps[P] = N->Op;
  }
  E->Ops = std::move(NewOps);
  if (UpdateResult)
    *UpdateResult = Success;
  if (ErrorNode)
    *ErrorNode = nullptr;
  return cudaSuccess;
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
  std::vector<void *> Streams; // keys of every stream taking part
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

thread_local CaptureMode ThreadMode = CaptureMode::Global;
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

Status streamBeginCapture(void *Stream, CaptureMode Mode) {
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
  Seq->G = newGraph();
  Seq->Mode = Mode;
  Seq->Thread = std::this_thread::get_id();
  Seq->Origin = Key;
  Seq->Streams.push_back(Key);
  Sequences.insert(Seq);
  CapturingStreams[Key] = {Seq, {}, Blocking};
  capture::Active.fetch_add(1, std::memory_order_acq_rel);
  return cudaSuccess;
}

Status streamEndCapture(void *Stream, Graph **Out) {
  Runtime &R = Runtime::get();
  if (!Out)
    return R.record(cudaErrorInvalidValue);
  *Out = nullptr;
  if (!isLegacy(Stream) && !R.isStreamHandle(Stream))
    return R.record(cudaErrorInvalidResourceHandle);
  std::unique_ptr<CaptureSeq> Seq;
  Status Result = cudaSuccess;
  {
    std::lock_guard<std::mutex> L(CaptureLock);
    auto It = CapturingStreams.find(keyOf(Stream));
    if (It == CapturingStreams.end())
      return R.record(cudaErrorIllegalState);
    CaptureSeq *S = It->second.Seq;
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
    }
    Seq.reset(S);
    endSequence(S);
  }
  if (Result != cudaSuccess) {
    deleteGraph(Seq->G);
    return R.record(Result);
  }
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

Status enqueue(void *Stream, NodeOp &&Op, bool &Captured) {
  Captured = false;
  if (!anyActive())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(CaptureLock);
  if (isLegacy(Stream)) {
    Status S = checkLegacyLocked();
    Captured = S != cudaSuccess;
    return S;
  }
  auto It = CapturingStreams.find(keyOf(Stream));
  if (It == CapturingStreams.end())
    return cudaSuccess;
  Captured = true;
  StreamCapture &SC = It->second;
  if (SC.Seq->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  GraphNode *N = addNode(SC.Seq->G, SC.Deps, std::move(Op));
  SC.Deps.assign(1, N);
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
    Seq->Invalidated = true;
    if (Seq->Origin == It->first) {
      // Nobody can end this capture any more.
      Orphan = Seq->G;
      endSequence(Seq);
      delete Seq;
    } else {
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
