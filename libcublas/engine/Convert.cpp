//===- Convert.cpp - Element sizes of the GEMM engine's types -------------===//
//
// f16 and bf16 GEMMs run as f32 GEMMs: inputs are widened exactly, results
// narrowed with round to nearest even (cuhip/runtime/HalfFloat.h).
//
//===----------------------------------------------------------------------===//
#include "Gemm.h"

namespace cuhip::blas {

unsigned dtypeSize(DType T) {
  switch (T) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::C32:
    return 8;
  case DType::C64:
    return 16;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I8:
    return 1;
  }
  return 0;
}

} // namespace cuhip::blas
