//===- Dft.cpp - One-dimensional complex DFTs of any length ---------------===//
//
// The mixed-radix transform follows the decimation-in-time split of a
// length L = P * M: the P interleaved subsequences x[j + P*i] are
// transformed (length M) into consecutive blocks of the output, then each
// column k1 < M of those blocks is twiddled by exp(-2 pi i j k1 / L) and
// combined by a length-P DFT into positions k1 + M*k2. A column's inputs
// and outputs occupy the same P positions, so the combination runs in place.
//
//===----------------------------------------------------------------------===//
#include "Dft.h"

#include <cmath>
#include <cstdint>

namespace cuhip::fft {

namespace {

/// The largest prime a butterfly handles directly; a length with a larger
/// prime factor runs as Bluestein's convolution.
constexpr unsigned MaxDirectPrime = 64;

std::complex<double> unitRoot(uint64_t K, uint64_t N) {
  // exp(-2 pi i K / N), with K reduced first so the angle stays small.
  K %= N;
  double A = -2.0 * M_PI * double(K) / double(N);
  return {std::cos(A), std::sin(A)};
}

template <typename T, bool Inverse>
inline std::complex<T> twiddle(const std::complex<T> &W) {
  return Inverse ? std::conj(W) : W;
}

/// -i * X (forward) or +i * X (inverse): multiplication by W4.
template <typename T, bool Inverse>
inline std::complex<T> rotate(const std::complex<T> &X) {
  return Inverse ? std::complex<T>(-X.imag(), X.real())
                 : std::complex<T>(X.imag(), -X.real());
}

template <typename T, bool Inverse>
void mixedRadixImpl(const std::vector<unsigned> &Radices,
                    const std::complex<T> *W, size_t N,
                    const std::complex<T> *In, size_t Stride,
                    std::complex<T> *Out, size_t Len, size_t Factor,
                    size_t TwiddleStep) {
  using C = std::complex<T>;
  if (Len == 1) {
    Out[0] = In[0];
    return;
  }
  unsigned P = Radices[Factor];
  size_t M = Len / P;
  for (unsigned J = 0; J < P; ++J)
    mixedRadixImpl<T, Inverse>(Radices, W, N, In + J * Stride, Stride * P,
                               Out + J * M, M, Factor + 1, TwiddleStep * P);
  switch (P) {
  case 2:
    for (size_t K = 0; K < M; ++K) {
      C A = Out[K];
      C B = K ? Out[K + M] * twiddle<T, Inverse>(W[TwiddleStep * K])
              : Out[K + M];
      Out[K] = A + B;
      Out[K + M] = A - B;
    }
    return;
  case 4:
    for (size_t K = 0; K < M; ++K) {
      C T0 = Out[K], T1 = Out[K + M], T2 = Out[K + 2 * M],
        T3 = Out[K + 3 * M];
      if (K) {
        T1 *= twiddle<T, Inverse>(W[TwiddleStep * K]);
        T2 *= twiddle<T, Inverse>(W[TwiddleStep * 2 * K]);
        T3 *= twiddle<T, Inverse>(W[TwiddleStep * 3 * K]);
      }
      C S02 = T0 + T2, D02 = T0 - T2, S13 = T1 + T3;
      C R13 = rotate<T, Inverse>(T1 - T3);
      Out[K] = S02 + S13;
      Out[K + M] = D02 + R13;
      Out[K + 2 * M] = S02 - S13;
      Out[K + 3 * M] = D02 - R13;
    }
    return;
  case 3: {
    const T H = T(0.86602540378443864676); // sqrt(3) / 2
    for (size_t K = 0; K < M; ++K) {
      C T0 = Out[K], T1 = Out[K + M], T2 = Out[K + 2 * M];
      if (K) {
        T1 *= twiddle<T, Inverse>(W[TwiddleStep * K]);
        T2 *= twiddle<T, Inverse>(W[TwiddleStep * 2 * K]);
      }
      C S = T1 + T2;
      C D = (T1 - T2) * H;
      C Mid = T0 - S * T(0.5);
      // -i * D forward, +i * D inverse.
      C R = rotate<T, Inverse>(D);
      Out[K] = T0 + S;
      Out[K + M] = Mid + R;
      Out[K + 2 * M] = Mid - R;
    }
    return;
  }
  default: {
    // exp(-2 pi i (j k2 mod P) / P) is W[(N / P) * (j k2 mod P)].
    size_t RootStep = TwiddleStep * M;
    C Tmp[MaxDirectPrime];
    for (size_t K = 0; K < M; ++K) {
      for (unsigned J = 0; J < P; ++J)
        Tmp[J] = J && K ? Out[K + J * M] *
                              twiddle<T, Inverse>(W[TwiddleStep * J * K])
                        : Out[K + J * M];
      for (unsigned K2 = 0; K2 < P; ++K2) {
        C Sum = Tmp[0];
        unsigned E = 0;
        for (unsigned J = 1; J < P; ++J) {
          E += K2;
          if (E >= P)
            E -= P;
          Sum += Tmp[J] * twiddle<T, Inverse>(W[RootStep * E]);
        }
        Out[K + K2 * M] = Sum;
      }
    }
    return;
  }
  }
}

} // namespace

Dft::Dft(size_t Len) : N(Len) {
  // Radix 4 first, then 2, 3, 5 and the other primes in increasing order.
  size_t R = N;
  while (R % 4 == 0) {
    Radices.push_back(4);
    R /= 4;
  }
  for (unsigned P = 2; R > 1 && size_t(P) * P <= R; P += (P == 2 ? 1 : 2))
    while (R % P == 0) {
      Radices.push_back(P);
      R /= P;
    }
  if (R > 1)
    Radices.push_back(unsigned(R > MaxDirectPrime ? 0 : R));
  bool Direct = true;
  for (unsigned P : Radices)
    if (P == 0 || P > MaxDirectPrime)
      Direct = false;
  if (Direct) {
    TwiddleD.resize(N);
    for (size_t K = 0; K < N; ++K)
      TwiddleD[K] = unitRoot(K, N);
    TwiddleF.assign(TwiddleD.begin(), TwiddleD.end());
    return;
  }
  Radices.clear();
  M = 1;
  while (M < 2 * N - 1)
    M *= 2;
  Sub = std::make_unique<Dft>(M);
  ChirpD.resize(N);
  for (size_t K = 0; K < N; ++K) {
    // exp(-pi i k^2 / N) = exp(-2 pi i (k^2 mod 2N) / 2N).
    uint64_t Sq = (uint64_t(K) * K) % (2 * uint64_t(N));
    ChirpD[K] = unitRoot(Sq, 2 * uint64_t(N));
  }
  std::vector<std::complex<double>> Kernel(M);
  Kernel[0] = std::conj(ChirpD[0]);
  for (size_t K = 1; K < N; ++K)
    Kernel[K] = Kernel[M - K] = std::conj(ChirpD[K]);
  ChirpSpecD.resize(M);
  Sub->run<double>(Kernel.data(), ChirpSpecD.data(), nullptr, -1);
  ChirpF.assign(ChirpD.begin(), ChirpD.end());
  ChirpSpecF.assign(ChirpSpecD.begin(), ChirpSpecD.end());
}

Dft::~Dft() = default;

size_t Dft::scratchSize() const { return Sub ? 2 * M : 0; }

template <> const std::complex<float> *Dft::twiddles<float>() const {
  return TwiddleF.data();
}
template <> const std::complex<double> *Dft::twiddles<double>() const {
  return TwiddleD.data();
}
template <> const std::complex<float> *Dft::chirp<float>() const {
  return ChirpF.data();
}
template <> const std::complex<double> *Dft::chirp<double>() const {
  return ChirpD.data();
}
template <> const std::complex<float> *Dft::chirpSpectrum<float>() const {
  return ChirpSpecF.data();
}
template <> const std::complex<double> *Dft::chirpSpectrum<double>() const {
  return ChirpSpecD.data();
}

template <typename T>
void Dft::run(const std::complex<T> *In, std::complex<T> *Out,
              std::complex<T> *Scratch, int Sign) const {
  if (!Sub) {
    if (Sign < 0)
      mixedRadixImpl<T, false>(Radices, twiddles<T>(), N, In, 1, Out, N, 0, 1);
    else
      mixedRadixImpl<T, true>(Radices, twiddles<T>(), N, In, 1, Out, N, 0, 1);
    return;
  }
  // Bluestein: X_k = w_k * sum_j (x_j w_j) conj(w_{k-j}), w_j = exp(-pi i
  // j^2 / N), a cyclic convolution of length M. The inverse transform is
  // the conjugate of the forward transform of the conjugate.
  const std::complex<T> *Chirp = chirp<T>(), *Spec = chirpSpectrum<T>();
  std::complex<T> *A = Scratch, *B = Scratch + M;
  for (size_t J = 0; J < N; ++J)
    A[J] = (Sign < 0 ? In[J] : std::conj(In[J])) * Chirp[J];
  for (size_t J = N; J < M; ++J)
    A[J] = 0;
  Sub->run<T>(A, B, nullptr, -1);
  for (size_t K = 0; K < M; ++K)
    B[K] *= Spec[K];
  Sub->run<T>(B, A, nullptr, +1);
  T Scale = T(1) / T(M);
  for (size_t K = 0; K < N; ++K) {
    std::complex<T> V = A[K] * Chirp[K] * Scale;
    Out[K] = Sign < 0 ? V : std::conj(V);
  }
}

template void Dft::run<float>(const std::complex<float> *,
                              std::complex<float> *, std::complex<float> *,
                              int) const;
template void Dft::run<double>(const std::complex<double> *,
                               std::complex<double> *, std::complex<double> *,
                               int) const;

} // namespace cuhip::fft
