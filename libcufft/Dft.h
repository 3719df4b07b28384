//===- Dft.h - One-dimensional complex DFTs of any length -----------------===//
//
// The arithmetic under libcufft: a complex discrete Fourier transform of
// one length, planned once and run any number of times, in float or double.
// Lengths whose prime factors are all small run as a mixed-radix
// Cooley-Tukey transform (decimation in time, radix 4, 2, 3 and 5
// butterflies, a generic one for the other primes); a length with a large
// prime factor runs as Bluestein's chirp-z convolution over a power of two.
// Transforms are unnormalised, as cuFFT's are: forward then inverse
// multiplies by the length.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <vector>

namespace cuhip::fft {

class Dft {
public:
  /// Plans the transform of length N (N >= 1).
  explicit Dft(size_t N);
  ~Dft();

  size_t size() const { return N; }

  /// Complex elements of scratch run() needs.
  size_t scratchSize() const;

  /// Out = DFT(In) with exponent sign Sign (-1 forward, +1 inverse). In and
  /// Out hold N contiguous elements and must not overlap; Scratch holds
  /// scratchSize(). In is left unchanged.
  template <typename T>
  void run(const std::complex<T> *In, std::complex<T> *Out,
           std::complex<T> *Scratch, int Sign) const;

  /// The factors the mixed-radix transform uses, in order (empty when the
  /// length runs as Bluestein's convolution).
  const std::vector<unsigned> &radices() const { return Radices; }

private:
  template <typename T> const std::complex<T> *twiddles() const;
  template <typename T> const std::complex<T> *chirp() const;
  template <typename T> const std::complex<T> *chirpSpectrum() const;

  size_t N;
  std::vector<unsigned> Radices;
  /// exp(-2 pi i k / N) for k < N, in both precisions.
  std::vector<std::complex<double>> TwiddleD;
  std::vector<std::complex<float>> TwiddleF;
  /// Bluestein: the power-of-two length M >= 2N - 1 and its transform, the
  /// chirp exp(-pi i k^2 / N) for k < N, and the transform of the
  /// convolution kernel (the chirp's conjugate, wrapped around M).
  size_t M = 0;
  std::unique_ptr<Dft> Sub;
  std::vector<std::complex<double>> ChirpD, ChirpSpecD;
  std::vector<std::complex<float>> ChirpF, ChirpSpecF;
};

} // namespace cuhip::fft
