//===- BlasCall.cpp - What the typed level-1/2/3 entry points share ------===//
//
// See BlasCall.h.
//
//===----------------------------------------------------------------------===//
#include "BlasCall.h"

#include "cuhip/runtime/Log.h"

#include <climits>
#include <mutex>
#include <set>
#include <string>

using namespace cuhip;

namespace cuhip::cublas {

namespace {

/// Has Name been logged already? (Stubs and HIP refusals say so once.)
bool firstTime(const char *Name) {
  static std::mutex Lock;
  static auto *Seen = new std::set<std::string>;
  std::lock_guard<std::mutex> G(Lock);
  return Seen->insert(Name).second;
}

} // namespace

bool toOp(cublasOperation_t T, blas::Op &Out) {
  switch (T) {
  case CUBLAS_OP_N:
    Out = blas::Op::N;
    return true;
  case CUBLAS_OP_T:
    Out = blas::Op::T;
    return true;
  case CUBLAS_OP_C:
    Out = blas::Op::C;
    return true;
  default:
    return false;
  }
}

bool toUplo(cublasFillMode_t U, blas::Uplo &Out) {
  if (U != CUBLAS_FILL_MODE_LOWER && U != CUBLAS_FILL_MODE_UPPER)
    return false;
  Out = U == CUBLAS_FILL_MODE_LOWER ? blas::Uplo::Lower : blas::Uplo::Upper;
  return true;
}

bool toSide(cublasSideMode_t S, blas::Side &Out) {
  if (S != CUBLAS_SIDE_LEFT && S != CUBLAS_SIDE_RIGHT)
    return false;
  Out = S == CUBLAS_SIDE_LEFT ? blas::Side::Left : blas::Side::Right;
  return true;
}

bool toDiag(cublasDiagType_t D, blas::Diag &Out) {
  if (D != CUBLAS_DIAG_NON_UNIT && D != CUBLAS_DIAG_UNIT)
    return false;
  Out = D == CUBLAS_DIAG_UNIT ? blas::Diag::Unit : blas::Diag::NonUnit;
  return true;
}

cublasOperation_t legacyOp(char C) {
  switch (C) {
  case 'N':
  case 'n':
    return CUBLAS_OP_N;
  case 'T':
  case 't':
    return CUBLAS_OP_T;
  case 'C':
  case 'c':
    return CUBLAS_OP_C;
  default:
    return static_cast<cublasOperation_t>(-1);
  }
}

cublasFillMode_t legacyUplo(char C) {
  return C == 'U' || C == 'u'   ? CUBLAS_FILL_MODE_UPPER
         : C == 'L' || C == 'l' ? CUBLAS_FILL_MODE_LOWER
                                : static_cast<cublasFillMode_t>(-1);
}

cublasSideMode_t legacySide(char C) {
  return C == 'L' || C == 'l'   ? CUBLAS_SIDE_LEFT
         : C == 'R' || C == 'r' ? CUBLAS_SIDE_RIGHT
                                : static_cast<cublasSideMode_t>(-1);
}

cublasDiagType_t legacyDiag(char C) {
  return C == 'U' || C == 'u'   ? CUBLAS_DIAG_UNIT
         : C == 'N' || C == 'n' ? CUBLAS_DIAG_NON_UNIT
                                : static_cast<cublasDiagType_t>(-1);
}

cublasStatus_t Call::start() const {
  return isLive(H) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t Call::invalid(const char *What) const {
  CUHIP_DEBUG("%s: invalid %s: CUBLAS_STATUS_INVALID_VALUE", Name, What);
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t Call::unsupported(const char *Why) const {
  CUHIP_WARN("%s: not supported: %s", Name, Why);
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

bool Call::fits(std::initializer_list<int64_t> Values) const {
  for (int64_t V : Values)
    if (V > INT_MAX || V < -INT_MAX) {
      CUHIP_WARN("%s: not supported: a size, leading dimension or increment "
                 "beyond 2^31-1 (OpenBLAS takes 32-bit sizes)",
                 Name);
      return false;
    }
  return true;
}

cublasStatus_t Call::run(std::function<void()> Work, bool HostResult) const {
  rt::Runtime &R = rt::Runtime::get();
  if (R.onHipBackend()) {
    if (firstTime(Name))
      CUHIP_WARN("%s is not forwarded to rocBLAS on the HIP backend: it "
                 "answers CUBLAS_STATUS_NOT_SUPPORTED (run with "
                 "CUHIP_BACKEND=cpu)",
                 Name);
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  if (apiLogOn())
    apiLog("%s(handle=%p)", Name, static_cast<void *>(H));
  int S = blas::runOnStream(H->Stream, std::move(Work));
  // Host-mode results are the caller's to read when the call returns.
  if (S == rt::cudaSuccess && HostResult && !deviceScalars())
    S = R.streamSynchronize(H->Stream);
  if (S != rt::cudaSuccess)
    CUHIP_WARN("%s failed: %s", Name, rt::statusDescription(S));
  return fromRuntime(S);
}

cublasStatus_t notImplemented(const char *Name, const char *Why) {
  if (firstTime(Name))
    CUHIP_WARN("%s is not implemented by cuhip's cuBLAS (%s): it answers "
               "CUBLAS_STATUS_NOT_SUPPORTED",
               Name, Why);
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

} // namespace cuhip::cublas
