//===- Transform.cpp - Batched multi-dimensional FFTs over strided data ---===//
//
// Each transform of the batch is loaded into a dense complex array of the
// full shape, transformed one dimension at a time, and stored.
//  - Complex-to-complex: every dimension, every line.
//  - Real-to-complex: the real input is the real part; after the last
//    dimension only the first n/2 + 1 columns are needed, so the outer
//    dimensions transform only those lines, and those columns are stored.
//  - Complex-to-real: the half spectrum X fills the first n/2 + 1 columns,
//    doubled except for column 0 and (n even) column n/2, the rest zero;
//    the real part of the full inverse is then the inverse of the Hermitian
//    array X completes, with the imaginary parts of those two columns
//    ignored, as cuFFT ignores them. The outer dimensions again transform
//    only the columns that are not zero.
//
//===----------------------------------------------------------------------===//
#include "Transform.h"

#include "cuhip/runtime/HalfFloat.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <thread>

namespace cuhip::fft {

unsigned elemBytes(Elem E) {
  switch (E) {
  case Elem::R16F:
  case Elem::R16BF:
    return 2;
  case Elem::C16F:
  case Elem::C16BF:
  case Elem::R32F:
    return 4;
  case Elem::C32F:
  case Elem::R64F:
    return 8;
  case Elem::C64F:
    return 16;
  }
  return 0;
}

bool elemIsComplex(Elem E) {
  return E == Elem::C16F || E == Elem::C16BF || E == Elem::C32F ||
         E == Elem::C64F;
}

const char *elemName(Elem E) {
  switch (E) {
  case Elem::R16F: return "CUDA_R_16F";
  case Elem::C16F: return "CUDA_C_16F";
  case Elem::R16BF: return "CUDA_R_16BF";
  case Elem::C16BF: return "CUDA_C_16BF";
  case Elem::R32F: return "CUDA_R_32F";
  case Elem::C32F: return "CUDA_C_32F";
  case Elem::R64F: return "CUDA_R_64F";
  case Elem::C64F: return "CUDA_C_64F";
  }
  return "?";
}

namespace {

/// The precision family of an element type: 0 half, 1 bfloat16, 2 single,
/// 3 double.
int family(Elem E) {
  switch (E) {
  case Elem::R16F:
  case Elem::C16F:
    return 0;
  case Elem::R16BF:
  case Elem::C16BF:
    return 1;
  case Elem::R32F:
  case Elem::C32F:
    return 2;
  case Elem::R64F:
  case Elem::C64F:
    return 3;
  }
  return -1;
}

/// A shape or embedding padded to three dimensions with leading ones.
struct Dims3 {
  int64_t D[3] = {1, 1, 1};
  explicit Dims3(const std::vector<int64_t> &V) {
    for (size_t I = 0; I < V.size(); ++I)
      D[3 - V.size() + I] = V[I];
  }
  int64_t total() const { return D[0] * D[1] * D[2]; }
};

template <typename T>
inline std::complex<T> loadAt(Elem E, const char *P, int64_t I) {
  switch (E) {
  case Elem::R16F: {
    uint16_t H;
    std::memcpy(&H, P + 2 * I, 2);
    return {T(halfToFloat(H)), T(0)};
  }
  case Elem::C16F: {
    uint16_t H[2];
    std::memcpy(H, P + 4 * I, 4);
    return {T(halfToFloat(H[0])), T(halfToFloat(H[1]))};
  }
  case Elem::R16BF: {
    uint16_t H;
    std::memcpy(&H, P + 2 * I, 2);
    return {T(bf16ToFloat(H)), T(0)};
  }
  case Elem::C16BF: {
    uint16_t H[2];
    std::memcpy(H, P + 4 * I, 4);
    return {T(bf16ToFloat(H[0])), T(bf16ToFloat(H[1]))};
  }
  case Elem::R32F: {
    float F;
    std::memcpy(&F, P + 4 * I, 4);
    return {T(F), T(0)};
  }
  case Elem::C32F: {
    float F[2];
    std::memcpy(F, P + 8 * I, 8);
    return {T(F[0]), T(F[1])};
  }
  case Elem::R64F: {
    double F;
    std::memcpy(&F, P + 8 * I, 8);
    return {T(F), T(0)};
  }
  case Elem::C64F: {
    double F[2];
    std::memcpy(F, P + 16 * I, 16);
    return {T(F[0]), T(F[1])};
  }
  }
  return {};
}

template <typename T>
inline void storeAt(Elem E, char *P, int64_t I, const std::complex<T> &V) {
  switch (E) {
  case Elem::R16F: {
    uint16_t H = floatToHalf(float(V.real()));
    std::memcpy(P + 2 * I, &H, 2);
    return;
  }
  case Elem::C16F: {
    uint16_t H[2] = {floatToHalf(float(V.real())),
                     floatToHalf(float(V.imag()))};
    std::memcpy(P + 4 * I, H, 4);
    return;
  }
  case Elem::R16BF: {
    uint16_t H = floatToBf16(float(V.real()));
    std::memcpy(P + 2 * I, &H, 2);
    return;
  }
  case Elem::C16BF: {
    uint16_t H[2] = {floatToBf16(float(V.real())),
                     floatToBf16(float(V.imag()))};
    std::memcpy(P + 4 * I, H, 4);
    return;
  }
  case Elem::R32F: {
    float F = float(V.real());
    std::memcpy(P + 4 * I, &F, 4);
    return;
  }
  case Elem::C32F: {
    float F[2] = {float(V.real()), float(V.imag())};
    std::memcpy(P + 8 * I, F, 8);
    return;
  }
  case Elem::R64F: {
    double F = double(V.real());
    std::memcpy(P + 8 * I, &F, 8);
    return;
  }
  case Elem::C64F: {
    double F[2] = {double(V.real()), double(V.imag())};
    std::memcpy(P + 16 * I, F, 16);
    return;
  }
  }
}

/// Runs Fn(Begin, End) over [0, Count) split into Threads parts, the
/// calling thread taking the first.
template <typename F> void parallelFor(int64_t Count, unsigned Threads, F Fn) {
  if (Threads <= 1 || Count <= 1) {
    Fn(int64_t(0), Count);
    return;
  }
  int64_t Parts = std::min<int64_t>(Threads, Count);
  std::vector<std::thread> Pool;
  Pool.reserve(size_t(Parts - 1));
  for (int64_t P = 1; P < Parts; ++P)
    Pool.emplace_back(Fn, Count * P / Parts, Count * (P + 1) / Parts);
  Fn(int64_t(0), Count / Parts);
  for (std::thread &Th : Pool)
    Th.join();
}

/// The offset, in elements, of the last element of a side from its first.
int64_t lastOffset(const Dims3 &Shape, const Layout &L) {
  Dims3 E(L.Embed); // E.D[0] (or the outermost embedding) is not used
  int64_t Off =
      ((Shape.D[0] - 1) * E.D[1] + (Shape.D[1] - 1)) * E.D[2] + Shape.D[2] - 1;
  return Off * L.Stride;
}

} // namespace

Transform::Transform(const TransformDesc &D) : Desc(D) {}

std::unique_ptr<Transform> Transform::create(const TransformDesc &D,
                                             PlanError &Error) {
  size_t Rank = D.N.size();
  if (Rank < 1 || Rank > 3) {
    Error = {PlanError::Size, "rank " + std::to_string(Rank) + " is not 1, 2 or 3"};
    return nullptr;
  }
  int64_t Total = 1;
  for (int64_t V : D.N) {
    if (V < 1) {
      Error = {PlanError::Size,
               "a transform size of " + std::to_string(V) + " is not positive"};
      return nullptr;
    }
    if (__builtin_mul_overflow(Total, V, &Total) || Total > (int64_t(1) << 36)) {
      Error = {PlanError::Size, "the transform has too many elements"};
      return nullptr;
    }
  }
  if (D.Batch < 1) {
    Error = {PlanError::Size,
             "a batch of " + std::to_string(D.Batch) + " is not positive"};
    return nullptr;
  }
  bool InC = elemIsComplex(D.In), OutC = elemIsComplex(D.Out);
  bool TypesOk = family(D.In) == family(D.Out) &&
                 (D.K == Kind::C2C   ? InC && OutC
                  : D.K == Kind::R2C ? !InC && OutC
                                     : InC && !OutC);
  if (!TypesOk) {
    Error = {PlanError::Type,
             std::string("input ") + elemName(D.In) + " and output " +
                 elemName(D.Out) + " do not fit a " +
                 (D.K == Kind::C2C   ? "complex-to-complex"
                  : D.K == Kind::R2C ? "real-to-complex"
                                     : "complex-to-real") +
                 " transform"};
    return nullptr;
  }
  std::unique_ptr<Transform> T(new Transform(D));
  if (D.Advanced) {
    for (bool Output : {false, true}) {
      const Layout &L = Output ? D.OutLayout : D.InLayout;
      std::vector<int64_t> S = T->shape(Output);
      if (L.Embed.size() != Rank || L.Stride < 1 || L.Dist < 0) {
        Error = {PlanError::Layout,
                 std::string(Output ? "onembed/ostride/odist"
                                    : "inembed/istride/idist") +
                     " do not describe a layout (stride below 1 or distance "
                     "negative)"};
        return nullptr;
      }
      for (size_t I = 1; I < Rank; ++I)
        if (L.Embed[I] < S[I]) {
          Error = {PlanError::Layout,
                   std::string(Output ? "onembed" : "inembed") + "[" +
                       std::to_string(I) + "] = " +
                       std::to_string(L.Embed[I]) +
                       " is smaller than the dimension it embeds (" +
                       std::to_string(S[I]) + ")"};
          return nullptr;
        }
    }
  }
  std::map<int64_t, std::shared_ptr<Dft>> Planned;
  for (int64_t V : D.N) {
    auto &P = Planned[V];
    if (!P)
      P = std::make_shared<Dft>(size_t(V));
    T->Dfts.push_back(P);
  }
  return T;
}

std::vector<int64_t> Transform::shape(bool Output) const {
  std::vector<int64_t> S = Desc.N;
  bool Half = (Desc.K == Kind::R2C && Output) || (Desc.K == Kind::C2R && !Output);
  if (Half)
    S.back() = S.back() / 2 + 1;
  return S;
}

Layout Transform::layout(bool Output, bool InPlace) const {
  if (Desc.Advanced)
    return Output ? Desc.OutLayout : Desc.InLayout;
  Layout L;
  L.Embed = shape(Output);
  bool RealSide = (Desc.K == Kind::R2C && !Output) || (Desc.K == Kind::C2R && Output);
  if (InPlace && RealSide)
    L.Embed.back() = 2 * (Desc.N.back() / 2 + 1);
  L.Stride = 1;
  L.Dist = Dims3(L.Embed).total();
  return L;
}

uint64_t Transform::extentBytes(bool Output, bool InPlace) const {
  Layout L = layout(Output, InPlace);
  Dims3 S(shape(Output));
  int64_t Last = (Desc.Batch - 1) * L.Dist + lastOffset(S, L);
  return uint64_t(Last + 1) * elemBytes(Output ? Desc.Out : Desc.In);
}

void Transform::execute(const void *In, void *Out, int Sign,
                        unsigned Threads) const {
  if (family(Desc.In) == 3)
    run<double>(In, Out, Sign, Threads);
  else
    run<float>(In, Out, Sign, Threads);
}

template <typename T>
void Transform::run(const void *InPtr, void *OutPtr, int Sign,
                    unsigned Threads) const {
  using C = std::complex<T>;
  size_t Rank = Desc.N.size();
  bool InPlace = InPtr == OutPtr;
  Layout LI = layout(false, InPlace), LO = layout(true, InPlace);
  Dims3 Full(Desc.N), SI(shape(false)), SO(shape(true));
  Dims3 EI(LI.Embed), EO(LO.Embed);
  int64_t Total = Full.total();
  int64_t Last = Full.D[2], HalfLast = Last / 2 + 1;
  if (Desc.K == Kind::R2C)
    Sign = -1;
  else if (Desc.K == Kind::C2R)
    Sign = +1;

  // Batches whose input and output can overlap another batch's are read
  // from a copy of the whole input: writing one batch must not change what
  // a later one reads.
  const char *In = static_cast<const char *>(InPtr);
  char *Out = static_cast<char *>(OutPtr);
  uint64_t InBytes = extentBytes(false, InPlace),
           OutBytes = extentBytes(true, InPlace);
  bool Overlap = In < Out + OutBytes && Out < In + InBytes;
  std::vector<char> Snapshot;
  if (Overlap && Desc.Batch > 1) {
    uint64_t OneIn = uint64_t(lastOffset(SI, LI) + 1) * elemBytes(Desc.In);
    uint64_t OneOut = uint64_t(lastOffset(SO, LO) + 1) * elemBytes(Desc.Out);
    uint64_t DistIn = uint64_t(LI.Dist) * elemBytes(Desc.In);
    uint64_t DistOut = uint64_t(LO.Dist) * elemBytes(Desc.Out);
    bool Separate = InPlace && DistIn == DistOut && OneIn <= DistIn &&
                    OneOut <= DistOut;
    if (!Separate) {
      Snapshot.assign(In, In + InBytes);
      In = Snapshot.data();
    }
  }

  // One dimension's lines of the dense array W: Limit columns of the last
  // dimension take part (the others are zero or not needed).
  auto Pass = [&](C *W, size_t Dim, int64_t Limit, unsigned PassThreads) {
    int64_t Len = Desc.N[Dim];
    int64_t Step = 1;
    for (size_t I = Dim + 1; I < Rank; ++I)
      Step *= Desc.N[I];
    int64_t Lines = Total / Len;
    const Dft &F = *Dfts[Dim];
    parallelFor(Lines, PassThreads, [&](int64_t Begin, int64_t End) {
      std::vector<C> Buf(size_t(2 * Len) + F.scratchSize());
      C *A = Buf.data(), *B = A + Len, *Scratch = B + Len;
      for (int64_t Line = Begin; Line < End; ++Line) {
        int64_t Outer = Line / Step, Inner = Line % Step;
        if (Dim + 1 < Rank && Inner % Last >= Limit)
          continue;
        C *Base = W + Outer * Len * Step + Inner;
        for (int64_t I = 0; I < Len; ++I)
          A[I] = Base[I * Step];
        F.run<T>(A, B, Scratch, Sign);
        for (int64_t I = 0; I < Len; ++I)
          Base[I * Step] = B[I];
      }
    });
  };

  auto OneBatch = [&](int64_t B, C *W, unsigned PassThreads) {
    const char *BIn = In + B * LI.Dist * int64_t(elemBytes(Desc.In));
    char *BOut = Out + B * LO.Dist * int64_t(elemBytes(Desc.Out));
    // Load.
    if (Desc.K == Kind::C2R)
      std::fill(W, W + Total, C(0));
    for (int64_t I0 = 0; I0 < SI.D[0]; ++I0)
      for (int64_t I1 = 0; I1 < SI.D[1]; ++I1)
        for (int64_t I2 = 0; I2 < SI.D[2]; ++I2) {
          int64_t Src = ((I0 * EI.D[1] + I1) * EI.D[2] + I2) * LI.Stride;
          int64_t Dst = (I0 * Full.D[1] + I1) * Full.D[2] + I2;
          C V = loadAt<T>(Desc.In, BIn, Src);
          if (Desc.K == Kind::C2R && I2 != 0 && !(Last % 2 == 0 && I2 == Last / 2))
            V *= T(2);
          W[Dst] = V;
        }
    // Transform.
    switch (Desc.K) {
    case Kind::C2C:
      for (size_t D = Rank; D-- > 0;)
        Pass(W, D, Last, PassThreads);
      break;
    case Kind::R2C:
      Pass(W, Rank - 1, Last, PassThreads);
      for (size_t D = Rank - 1; D-- > 0;)
        Pass(W, D, HalfLast, PassThreads);
      break;
    case Kind::C2R:
      for (size_t D = Rank - 1; D-- > 0;)
        Pass(W, D, HalfLast, PassThreads);
      Pass(W, Rank - 1, Last, PassThreads);
      break;
    }
    // Store.
    for (int64_t I0 = 0; I0 < SO.D[0]; ++I0)
      for (int64_t I1 = 0; I1 < SO.D[1]; ++I1)
        for (int64_t I2 = 0; I2 < SO.D[2]; ++I2) {
          int64_t Src = (I0 * Full.D[1] + I1) * Full.D[2] + I2;
          int64_t Dst = ((I0 * EO.D[1] + I1) * EO.D[2] + I2) * LO.Stride;
          storeAt<T>(Desc.Out, BOut, Dst, W[Src]);
        }
  };

  if (Threads > 1 && Desc.Batch >= int64_t(Threads)) {
    parallelFor(Desc.Batch, Threads, [&](int64_t Begin, int64_t End) {
      std::vector<C> W(static_cast<size_t>(Total));
      for (int64_t B = Begin; B < End; ++B)
        OneBatch(B, W.data(), 1);
    });
    return;
  }
  std::vector<C> W(static_cast<size_t>(Total));
  for (int64_t B = 0; B < Desc.Batch; ++B)
    OneBatch(B, W.data(), Total >= 4096 ? Threads : 1);
}

} // namespace cuhip::fft
