//===- Transform.h - Batched multi-dimensional FFTs over strided data -----===//
//
// What one cuFFT plan computes, apart from the API: a batch of rank-1, -2
// or -3 complex-to-complex, real-to-complex or complex-to-real transforms,
// read from and written to arrays in cuFFT's data layouts (basic, or
// advanced: embedding dimensions, element stride, batch distance), with
// elements in half, bfloat16, single or double precision. Each transform
// is computed in a dense complex array of the full shape, one dimension at
// a time (Dft), in single precision or, for double elements, double.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Dft.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuhip::fft {

/// Element types, as cudaDataType names them.
enum class Elem { R16F, C16F, R16BF, C16BF, R32F, C32F, R64F, C64F };

enum class Kind { C2C, R2C, C2R };

unsigned elemBytes(Elem E);
bool elemIsComplex(Elem E);
const char *elemName(Elem E);

/// Where the elements of one side (input or output) are: element (i0, i1,
/// i2) of batch b is at b * Dist + ((i0 * Embed[1] + i1) * Embed[2] + i2) *
/// Stride, in elements.
struct Layout {
  std::vector<int64_t> Embed;
  int64_t Stride = 1;
  int64_t Dist = 0;
};

struct TransformDesc {
  Kind K = Kind::C2C;
  /// The transform's dimensions, outermost first (cuFFT's n[]).
  std::vector<int64_t> N;
  int64_t Batch = 1;
  Elem In = Elem::C32F, Out = Elem::C32F;
  /// The advanced layouts; false for cuFFT's basic layout (inembed or
  /// onembed NULL), which packs each side and, when the transform runs in
  /// place, pads a real side's rows to 2 * (n/2 + 1) elements.
  bool Advanced = false;
  Layout InLayout, OutLayout;
};

/// Why a description is not a transform: a size (rank, dimension, batch,
/// element count), the element types, or a layout.
struct PlanError {
  enum Kind { Size, Type, Layout } K = Size;
  std::string Message;
};

class Transform {
public:
  /// Checks Desc and plans it; null, with Error filled, if it is not a
  /// transform.
  static std::unique_ptr<Transform> create(const TransformDesc &Desc,
                                           PlanError &Error);

  const TransformDesc &desc() const { return Desc; }

  /// The logical shape of the input or output (the half-spectrum side of a
  /// real transform has n/2 + 1 elements in its last dimension).
  std::vector<int64_t> shape(bool Output) const;

  /// The layout one side has when the transform runs in place or not.
  Layout layout(bool Output, bool InPlace) const;

  /// Bytes from the first element of a side to one past its last.
  uint64_t extentBytes(bool Output, bool InPlace) const;

  /// Runs every transform of the batch: reads In, writes Out (which may be
  /// In). Sign is -1 (forward) or +1 (inverse) for complex-to-complex
  /// transforms; real-to-complex ones are forward and complex-to-real ones
  /// inverse. Threads > 1 spreads the work over that many threads.
  void execute(const void *In, void *Out, int Sign, unsigned Threads) const;

private:
  explicit Transform(const TransformDesc &Desc);
  template <typename T>
  void run(const void *In, void *Out, int Sign, unsigned Threads) const;

  TransformDesc Desc;
  std::vector<std::shared_ptr<Dft>> Dfts; // one per dimension
};

} // namespace cuhip::fft
