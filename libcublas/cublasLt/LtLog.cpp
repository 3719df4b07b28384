//===- LtLog.cpp - cuBLASLt's logger API over cuhip's logger --------------===//
//
// cuBLASLt has a logger of its own that programs steer: a level (0 off,
// 1 errors, ... 5 API trace) or mask, a callback, a file, and the
// environment variables CUBLASLT_LOG_LEVEL, CUBLASLT_LOG_MASK and
// CUBLASLT_LOG_FILE. cuhip keeps those semantics for the messages its
// cuBLASLt produces (refusals are errors, every matmul and heuristic query
// is an API trace line); without a callback or file they go to stderr,
// never to stdout, which belongs to the program. Refusals are logged through
// CUHIP_LOG as well, so `CUHIP_LOG=warn` shows why a call was refused.
//
//===----------------------------------------------------------------------===//
#include "LtState.h"

#include "cuhip/runtime/Log.h"

#include <atomic>
#include <cstdarg>
#include <cstdlib>
#include <mutex>
#include <string>

using namespace cuhip::blaslt;

namespace {

struct LtLogger {
  std::mutex Lock;
  // Read without the lock on every call that might log.
  std::atomic<int> Mask{0};
  std::atomic<bool> Disabled{false};
  cublasLtLoggerCallback_t Callback = nullptr;
  FILE *File = nullptr;
  bool OwnsFile = false;

  LtLogger() {
    if (const char *L = std::getenv("CUBLASLT_LOG_LEVEL"))
      Mask = maskForLevel(std::atoi(L));
    if (const char *M = std::getenv("CUBLASLT_LOG_MASK"))
      Mask = std::atoi(M);
    if (const char *F = std::getenv("CUBLASLT_LOG_FILE"))
      if ((File = std::fopen(F, "a")))
        OwnsFile = true;
  }
  static int maskForLevel(int Level) {
    return Level <= 0 ? 0 : Level >= 5 ? 0x1f : (1 << Level) - 1;
  }
  void setFile(FILE *F, bool Owns) {
    if (OwnsFile && File)
      std::fclose(File);
    File = F;
    OwnsFile = Owns;
  }
};

LtLogger &logger() {
  static LtLogger L;
  return L;
}

const char *levelTag(int Level) {
  switch (Level) {
  case 1:
    return "Error";
  case 2:
    return "Trace";
  case 3:
    return "Hints";
  case 4:
    return "Heuristics";
  default:
    return "Api";
  }
}

void emit(int Level, const char *Function, const char *Message) {
  LtLogger &L = logger();
  std::lock_guard<std::mutex> G(L.Lock);
  if (L.Disabled || !(L.Mask & (1 << (Level - 1))))
    return;
  if (L.Callback) {
    L.Callback(Level, Function, Message);
    return;
  }
  FILE *Out = L.File ? L.File : stderr;
  std::fprintf(Out, "[cublasLt][%s][%s] %s\n", levelTag(Level), Function,
               Message);
  std::fflush(Out);
}

} // namespace

void cuhip::blaslt::ltLog(int Level, const char *Function, const char *Fmt,
                          ...) {
  LtLogger &L = logger();
  if (L.Disabled || !(L.Mask & (1 << (Level - 1))))
    return;
  char Buf[1024];
  va_list Ap;
  va_start(Ap, Fmt);
  std::vsnprintf(Buf, sizeof(Buf), Fmt, Ap);
  va_end(Ap);
  emit(Level, Function, Buf);
}

cublasStatus_t cuhip::blaslt::ltRefuse(cublasStatus_t Status,
                                       const char *Function, const char *Fmt,
                                       ...) {
  char Buf[1024];
  va_list Ap;
  va_start(Ap, Fmt);
  std::vsnprintf(Buf, sizeof(Buf), Fmt, Ap);
  va_end(Ap);
  CUHIP_WARN("%s: %s: %s", Function,
             Status == CUBLAS_STATUS_NOT_SUPPORTED ? "not supported"
             : Status == CUBLAS_STATUS_INVALID_VALUE ? "invalid value"
                                                      : "failed",
             Buf);
  emit(LtLogError, Function, Buf);
  return Status;
}

CUHIP_LT_EXPORT cublasStatus_t
cublasLtLoggerSetCallback(cublasLtLoggerCallback_t callback) {
  LtLogger &L = logger();
  std::lock_guard<std::mutex> G(L.Lock);
  L.Callback = callback;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtLoggerSetFile(FILE *file) {
  LtLogger &L = logger();
  std::lock_guard<std::mutex> G(L.Lock);
  L.setFile(file, false);
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtLoggerOpenFile(const char *logFile) {
  if (!logFile)
    return CUBLAS_STATUS_INVALID_VALUE;
  FILE *F = std::fopen(logFile, "a");
  if (!F) {
    CUHIP_WARN("cublasLtLoggerOpenFile: cannot open %s for appending; check "
               "the directory exists and is writable",
               logFile);
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  LtLogger &L = logger();
  std::lock_guard<std::mutex> G(L.Lock);
  L.setFile(F, true);
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtLoggerSetLevel(int level) {
  if (level < 0 || level > 5)
    return CUBLAS_STATUS_INVALID_VALUE;
  LtLogger &L = logger();
  std::lock_guard<std::mutex> G(L.Lock);
  L.Mask = LtLogger::maskForLevel(level);
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtLoggerSetMask(int mask) {
  LtLogger &L = logger();
  std::lock_guard<std::mutex> G(L.Lock);
  L.Mask = mask;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_LT_EXPORT cublasStatus_t cublasLtLoggerForceDisable() {
  LtLogger &L = logger();
  std::lock_guard<std::mutex> G(L.Lock);
  L.Disabled = true;
  return CUBLAS_STATUS_SUCCESS;
}
