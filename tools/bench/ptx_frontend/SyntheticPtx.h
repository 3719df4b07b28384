//===- SyntheticPtx.h - Deterministic PTX modules for benchmarking --------===//
//
// Generates PTX modules of a requested size shaped like nvcc's output: many
// kernels whose bodies mix global and shared loads and stores, integer and
// float arithmetic, conversions, compare-and-branch loops and barriers, using
// only forms the frontend lowers. The same size always gives the same text,
// so timings from different runs and machines describe the same input.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>

namespace cuhip::bench {

/// A whole PTX module (header plus kernels) of at least TargetBytes bytes.
std::string generateSyntheticPtx(size_t TargetBytes);

} // namespace cuhip::bench
