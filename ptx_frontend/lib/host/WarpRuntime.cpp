//===- WarpRuntime.cpp - Warp collectives and barriers for block functions ===//
//
// A block function that contains warp-level collectives runs each warp's
// lanes one at a time up to their next collective, then calls
// cuhip_warp_step, which evaluates the collective over the lanes waiting at
// it exactly as the PTX ISA defines it (source-lane formulas with clamp and
// segment mask for shfl, member masks for vote/match/redux/elect) and hands
// every lane its result through its frame's WarpExchange. Writing these in
// C++ keeps the generated code small and the semantics in one place.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/HostTarget.h"

#include <bit>
#include <chrono>
#include <cstring>

namespace cuhip::ptx::host {
namespace {

inline WarpExchange &exchange(uint8_t *WarpFrames, uint32_t FrameBytes,
                              unsigned Lane) {
  return *reinterpret_cast<WarpExchange *>(WarpFrames + size_t(Lane) * FrameBytes);
}

inline uint8_t &stateOf(uint8_t *Frames, const WarpSchedule *S, size_t T) {
  return Frames[T * S->FrameBytes + S->StateOffset];
}

inline uint32_t &resumeOf(uint8_t *Frames, const WarpSchedule *S, size_t T) {
  return *reinterpret_cast<uint32_t *>(Frames + T * S->FrameBytes +
                                       S->ResumeOffset);
}

/// Evaluates shfl for lane L per the ISA: b selects the source lane, c
/// holds the clamp value (bits 4:0) and the segment mask (bits 12:8).
void shuffle(WarpOp Op, uint8_t *WF, uint32_t FB, uint32_t Waiting,
             unsigned Lane) {
  WarpExchange &X = exchange(WF, FB, Lane);
  int BVal = int(X.B & 31);
  int CVal = int(X.C & 31);
  int SegMask = int((X.C >> 8) & 31);
  int L = int(Lane);
  int MaxLane = (L & SegMask) | (CVal & ~SegMask);
  int MinLane = L & SegMask;
  int J = 0;
  bool P = false;
  switch (Op) {
  case WarpOp::ShflUp:
    J = L - BVal;
    P = J >= MaxLane;
    break;
  case WarpOp::ShflDown:
    J = L + BVal;
    P = J <= MaxLane;
    break;
  case WarpOp::ShflBfly:
    J = L ^ BVal;
    P = J <= MaxLane;
    break;
  default: // ShflIdx
    J = MinLane | (BVal & ~SegMask);
    P = J <= MaxLane;
    break;
  }
  if (!P)
    J = L;
  // A source lane that is not taking part gives an undefined value in PTX;
  // the lane's own value is as good as any.
  uint64_t V = (J >= 0 && J < 32 && (Waiting >> J & 1))
                   ? exchange(WF, FB, unsigned(J)).Value
                   : X.Value;
  X.Result = uint32_t(V);
  X.Pred = P;
}

} // namespace

extern "C" uint32_t cuhip_warp_step(uint8_t *WF, uint32_t Lanes,
                                    const WarpSchedule *S) {
  const uint32_t FB = S->FrameBytes;
  unsigned First = 32;
  for (unsigned L = 0; L < Lanes; ++L)
    if (stateOf(WF, S, L) == LaneAtWarpOp) {
      First = L;
      break;
    }
  if (First == 32)
    return 0;
  uint32_t Region = resumeOf(WF, S, First);
  WarpOp Op = Region < S->NumRegions ? WarpOp(S->OpOfRegion[Region]) : WarpOp::None;
  uint32_t Waiting = 0;
  for (unsigned L = First; L < Lanes; ++L)
    if (stateOf(WF, S, L) == LaneAtWarpOp && resumeOf(WF, S, L) == Region)
      Waiting |= 1u << L;

  auto forEach = [&](auto &&Fn) {
    for (uint32_t M = Waiting; M; M &= M - 1)
      Fn(unsigned(std::countr_zero(M)));
  };
  // Lanes taking part: waiting here and named by the lane's member mask.
  auto members = [&](unsigned L) { return Waiting & exchange(WF, FB, L).Mask; };
  auto ballot = [&](uint32_t Set) {
    uint32_t B = 0;
    for (uint32_t M = Set; M; M &= M - 1) {
      unsigned J = unsigned(std::countr_zero(M));
      if (exchange(WF, FB, J).Value & 1)
        B |= 1u << J;
    }
    return B;
  };

  switch (Op) {
  case WarpOp::ShflUp:
  case WarpOp::ShflDown:
  case WarpOp::ShflBfly:
  case WarpOp::ShflIdx: {
    // All sources are read before any result is written: results share
    // the exchange area with nothing, but keep the order obvious.
    forEach([&](unsigned L) { shuffle(Op, WF, FB, Waiting, L); });
    break;
  }
  case WarpOp::VoteAll:
  case WarpOp::VoteAny:
  case WarpOp::VoteUni:
  case WarpOp::VoteBallot:
    forEach([&](unsigned L) {
      uint32_t Set = members(L), B = ballot(Set);
      WarpExchange &X = exchange(WF, FB, L);
      switch (Op) {
      case WarpOp::VoteAll: X.Result = B == Set; break;
      case WarpOp::VoteAny: X.Result = B != 0; break;
      case WarpOp::VoteUni: X.Result = B == 0 || B == Set; break;
      default: X.Result = B; break;
      }
    });
    break;
  case WarpOp::MatchAny32:
  case WarpOp::MatchAny64:
  case WarpOp::MatchAll32:
  case WarpOp::MatchAll64: {
    bool Wide = Op == WarpOp::MatchAny64 || Op == WarpOp::MatchAll64;
    auto value = [&](unsigned J) {
      uint64_t V = exchange(WF, FB, J).Value;
      return Wide ? V : uint32_t(V);
    };
    forEach([&](unsigned L) {
      uint32_t Set = members(L), Same = 0;
      for (uint32_t M = Set; M; M &= M - 1) {
        unsigned J = unsigned(std::countr_zero(M));
        if (value(J) == value(L))
          Same |= 1u << J;
      }
      WarpExchange &X = exchange(WF, FB, L);
      if (Op == WarpOp::MatchAny32 || Op == WarpOp::MatchAny64) {
        X.Result = Same;
      } else {
        bool All = Same == Set;
        X.Result = All ? Set : 0;
        X.Pred = All;
      }
    });
    break;
  }
  case WarpOp::ReduxAdd:
  case WarpOp::ReduxMin:
  case WarpOp::ReduxMax:
  case WarpOp::ReduxUMin:
  case WarpOp::ReduxUMax:
  case WarpOp::ReduxAnd:
  case WarpOp::ReduxOr:
  case WarpOp::ReduxXor:
    forEach([&](unsigned L) {
      uint32_t Set = members(L);
      bool First = true;
      uint32_t Acc = 0;
      for (uint32_t M = Set; M; M &= M - 1) {
        uint32_t V = uint32_t(exchange(WF, FB, unsigned(std::countr_zero(M))).Value);
        if (First) {
          Acc = V;
          First = false;
          continue;
        }
        switch (Op) {
        case WarpOp::ReduxAdd: Acc += V; break;
        case WarpOp::ReduxMin: Acc = uint32_t(std::min(int32_t(Acc), int32_t(V))); break;
        case WarpOp::ReduxMax: Acc = uint32_t(std::max(int32_t(Acc), int32_t(V))); break;
        case WarpOp::ReduxUMin: Acc = std::min(Acc, V); break;
        case WarpOp::ReduxUMax: Acc = std::max(Acc, V); break;
        case WarpOp::ReduxAnd: Acc &= V; break;
        case WarpOp::ReduxOr: Acc |= V; break;
        default: Acc ^= V; break;
        }
      }
      exchange(WF, FB, L).Result = Acc;
    });
    break;
  case WarpOp::ActiveMask:
    forEach([&](unsigned L) { exchange(WF, FB, L).Result = Waiting; });
    break;
  case WarpOp::Elect:
    forEach([&](unsigned L) {
      uint32_t Set = members(L);
      unsigned Leader = Set ? unsigned(std::countr_zero(Set)) : L;
      WarpExchange &X = exchange(WF, FB, L);
      X.Result = Leader;
      X.Pred = L == Leader;
    });
    break;
  case WarpOp::WarpSync:
  case WarpOp::None:
    break;
  }
  forEach([&](unsigned L) { stateOf(WF, S, L) = LaneRunnable; });
  return 1;
}

extern "C" uint32_t cuhip_barrier_step(uint8_t *Frames, uint32_t Threads,
                                       const WarpSchedule *S) {
  bool Any = false;
  uint32_t Barrier = 0;
  for (uint32_t T = 0; T < Threads; ++T) {
    uint8_t St = stateOf(Frames, S, T);
    if (St == LaneExited)
      continue;
    if (St != LaneAtBarrier)
      return 2;
    uint32_t R = resumeOf(Frames, S, T);
    if (Any && R != Barrier)
      return 2;
    Any = true;
    Barrier = R;
  }
  if (!Any)
    return 1;
  // bar.red: reduce the waiting threads' predicates, hand everyone the
  // result.
  WarpOp Op = Barrier < S->NumRegions ? WarpOp(S->OpOfRegion[Barrier])
                                      : WarpOp::None;
  if (Op == WarpOp::BarRedPopc || Op == WarpOp::BarRedAnd ||
      Op == WarpOp::BarRedOr) {
    uint32_t Count = 0, Waiting = 0;
    for (uint32_t T = 0; T < Threads; ++T)
      if (stateOf(Frames, S, T) == LaneAtBarrier) {
        ++Waiting;
        Count += exchange(Frames, S->FrameBytes, T).Value & 1;
      }
    uint64_t R = Op == WarpOp::BarRedPopc  ? Count
                 : Op == WarpOp::BarRedAnd ? uint64_t(Count == Waiting)
                                           : uint64_t(Count != 0);
    for (uint32_t T = 0; T < Threads; ++T)
      if (stateOf(Frames, S, T) == LaneAtBarrier)
        exchange(Frames, S->FrameBytes, T).Result = R;
  }
  for (uint32_t T = 0; T < Threads; ++T)
    if (stateOf(Frames, S, T) == LaneAtBarrier)
      stateOf(Frames, S, T) = LaneRunnable;
  return 0;
}

extern "C" uint64_t cuhip_globaltimer(void) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

} // namespace cuhip::ptx::host
