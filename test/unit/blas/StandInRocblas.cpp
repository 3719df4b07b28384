//===- StandInRocblas.cpp - A recording stand-in for librocblas -----------===//
//
// Debian has no rocBLAS and no machine here has an AMD GPU, so the engine's
// forwarding is tested against this library (CUHIP_ROCBLAS_LIBRARY): it
// exports the rocBLAS entry points the engine resolves, with rocBLAS's
// signatures, does no arithmetic, and records every call and its arguments
// in a text log the tests read back through `standInRocblasLog`. A size of
// 77 makes a call answer rocblas_status_invalid_size (4).
//
//===----------------------------------------------------------------------===//
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

#define STANDIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
std::mutex Lock;
std::string Log;
int HandleStorage;

void record(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
void record(const char *Fmt, ...) {
  char Line[1024];
  va_list Args;
  va_start(Args, Fmt);
  std::vsnprintf(Line, sizeof(Line), Fmt, Args);
  va_end(Args);
  std::lock_guard<std::mutex> G(Lock);
  Log += Line;
  Log += '\n';
}

int sizeStatus(int64_t N) { return N == 77 ? 4 : 0; }
} // namespace

using Handle = void *;
using Int = int32_t;
using Stride = int64_t;

STANDIN_EXPORT const char *standInRocblasLog() {
  std::lock_guard<std::mutex> G(Lock);
  static std::string Copy;
  Copy = Log;
  Log.clear();
  return Copy.c_str();
}

STANDIN_EXPORT int rocblas_create_handle(Handle *H) {
  *H = &HandleStorage;
  record("rocblas_create_handle");
  return 0;
}
STANDIN_EXPORT int rocblas_set_stream(Handle, void *Stream) {
  record("rocblas_set_stream %p", Stream);
  return 0;
}
STANDIN_EXPORT int rocblas_set_pointer_mode(Handle, int Mode) {
  record("rocblas_set_pointer_mode %d", Mode);
  return 0;
}
STANDIN_EXPORT int rocblas_gemm_ex(Handle, int TA, int TB, Int M, Int N, Int K,
                                   const void *Alpha, const void *A, int AT,
                                   Int Lda, const void *B, int BT, Int Ldb,
                                   const void *Beta, const void *C, int CT,
                                   Int Ldc, void *D, int DT, Int Ldd,
                                   int Compute, int Algo, int32_t Solution,
                                   uint32_t Flags) {
  record("rocblas_gemm_ex ta=%d tb=%d m=%d n=%d k=%d a=%p:%d:%d b=%p:%d:%d "
         "c=%p:%d:%d d=%p:%d:%d compute=%d algo=%d alpha=%p beta=%p",
         TA, TB, M, N, K, A, AT, Lda, B, BT, Ldb, C, CT, Ldc, D, DT, Ldd,
         Compute, Algo, Alpha, Beta);
  return sizeStatus(M);
}
STANDIN_EXPORT int rocblas_gemm_strided_batched_ex(
    Handle, int TA, int TB, Int M, Int N, Int K, const void *Alpha,
    const void *A, int AT, Int Lda, Stride SA, const void *B, int BT, Int Ldb,
    Stride SB, const void *Beta, const void *C, int CT, Int Ldc, Stride SC,
    void *D, int DT, Int Ldd, Stride SD, Int Batch, int Compute, int Algo,
    int32_t Solution, uint32_t Flags) {
  record("rocblas_gemm_strided_batched_ex ta=%d tb=%d m=%d n=%d k=%d "
         "a=%p:%d:%d:%lld b=%p:%d:%d:%lld c=%p:%d:%d:%lld d=%p:%d:%d:%lld "
         "batch=%d compute=%d",
         TA, TB, M, N, K, A, AT, Lda, (long long)SA, B, BT, Ldb,
         (long long)SB, C, CT, Ldc, (long long)SC, D, DT, Ldd, (long long)SD,
         Batch, Compute);
  return sizeStatus(M);
}
STANDIN_EXPORT int rocblas_gemm_batched_ex(
    Handle, int TA, int TB, Int M, Int N, Int K, const void *Alpha,
    const void *A, int AT, Int Lda, const void *B, int BT, Int Ldb,
    const void *Beta, const void *C, int CT, Int Ldc, void *D, int DT, Int Ldd,
    Int Batch, int Compute, int Algo, int32_t Solution, uint32_t Flags) {
  record("rocblas_gemm_batched_ex m=%d n=%d k=%d a=%p b=%p c=%p d=%p "
         "batch=%d compute=%d",
         M, N, K, A, B, C, D, Batch, Compute);
  return sizeStatus(M);
}
STANDIN_EXPORT int rocblas_axpy_ex(Handle, Int N, const void *Alpha, int AlT,
                                   const void *X, int XT, Int IncX, void *Y,
                                   int YT, Int IncY, int ExT) {
  record("rocblas_axpy_ex n=%d alpha=%d x=%d:%d y=%d:%d exec=%d", N, AlT, XT,
         IncX, YT, IncY, ExT);
  return sizeStatus(N);
}
STANDIN_EXPORT int rocblas_scal_ex(Handle, Int N, const void *Alpha, int AlT,
                                   void *X, int XT, Int IncX, int ExT) {
  record("rocblas_scal_ex n=%d alpha=%d x=%d:%d exec=%d", N, AlT, XT, IncX,
         ExT);
  return sizeStatus(N);
}
STANDIN_EXPORT int rocblas_dot_ex(Handle, Int N, const void *X, int XT,
                                  Int IncX, const void *Y, int YT, Int IncY,
                                  void *R, int RT, int ExT) {
  record("rocblas_dot_ex n=%d x=%d:%d y=%d:%d result=%d exec=%d", N, XT, IncX,
         YT, IncY, RT, ExT);
  return sizeStatus(N);
}
STANDIN_EXPORT int rocblas_nrm2_ex(Handle, Int N, const void *X, int XT,
                                   Int IncX, void *R, int RT, int ExT) {
  record("rocblas_nrm2_ex n=%d x=%d:%d result=%d exec=%d", N, XT, IncX, RT,
         ExT);
  return sizeStatus(N);
}
STANDIN_EXPORT int rocblas_isamax(Handle, Int N, const float *, Int IncX,
                                  Int *R) {
  record("rocblas_isamax n=%d incx=%d", N, IncX);
  return sizeStatus(N);
}
STANDIN_EXPORT int rocblas_idamax(Handle, Int N, const double *, Int IncX,
                                  Int *R) {
  record("rocblas_idamax n=%d incx=%d", N, IncX);
  return sizeStatus(N);
}
STANDIN_EXPORT int rocblas_sgemv(Handle, int T, Int M, Int N, const float *,
                                 const float *, Int Lda, const float *,
                                 Int IncX, const float *, float *, Int IncY) {
  record("rocblas_sgemv trans=%d m=%d n=%d lda=%d incx=%d incy=%d", T, M, N,
         Lda, IncX, IncY);
  return sizeStatus(M);
}
STANDIN_EXPORT int rocblas_dgemv(Handle, int T, Int M, Int N, const double *,
                                 const double *, Int Lda, const double *,
                                 Int IncX, const double *, double *,
                                 Int IncY) {
  record("rocblas_dgemv trans=%d m=%d n=%d lda=%d incx=%d incy=%d", T, M, N,
         Lda, IncX, IncY);
  return sizeStatus(M);
}
