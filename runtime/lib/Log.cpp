//===- Log.cpp - The one logger --------------------------------------------===//
#include "cuhip/runtime/Log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <strings.h>
#include <algorithm>

namespace cuhip {
namespace {

std::atomic<int> Level{-1};
std::once_flag SinkOnce;
FILE *Sink = nullptr;

int levelFromEnv() {
  const char *V = std::getenv("CUHIP_LOG");
  if (!V || !*V)
    return static_cast<int>(LogLevel::Warn);
  static const struct { const char *Name; LogLevel L; } Names[] = {
      {"off", LogLevel::Off},     {"none", LogLevel::Off},
      {"error", LogLevel::Error}, {"warn", LogLevel::Warn},
      {"warning", LogLevel::Warn}, {"info", LogLevel::Info},
      {"debug", LogLevel::Debug}, {"trace", LogLevel::Trace}};
  for (const auto &N : Names)
    if (strcasecmp(V, N.Name) == 0)
      return static_cast<int>(N.L);
  if (V[0] >= '0' && V[0] <= '5' && V[1] == 0)
    return V[0] - '0';
  std::fprintf(stderr,
               "cuhip: warn: CUHIP_LOG=%s is not one of error, warn, info, "
               "debug, trace; using warn\n",
               V);
  return static_cast<int>(LogLevel::Warn);
}

const char *levelName(LogLevel L) {
  switch (L) {
  case LogLevel::Error: return "error";
  case LogLevel::Warn: return "warn";
  case LogLevel::Info: return "info";
  case LogLevel::Debug: return "debug";
  case LogLevel::Trace: return "trace";
  case LogLevel::Off: break;
  }
  return "log";
}

} // namespace

LogLevel logLevel() {
  int L = Level.load(std::memory_order_relaxed);
  if (L < 0) {
    L = levelFromEnv();
    Level.store(L, std::memory_order_relaxed);
  }
  return static_cast<LogLevel>(L);
}

void setLogLevel(LogLevel L) { Level.store(static_cast<int>(L)); }

void logMessageV(LogLevel L, const char *Fmt, va_list Args) {
  std::call_once(SinkOnce, [] {
    Sink = stderr;
    if (const char *Path = std::getenv("CUHIP_LOG_FILE"))
      if (FILE *F = std::fopen(Path, "a"))
        Sink = F;
  });
  char Buf[4096];
  int N = std::snprintf(Buf, sizeof(Buf), "cuhip: %s: ", levelName(L));
  if (N < 0 || N >= int(sizeof(Buf)))
    N = 0;
  int M = std::vsnprintf(Buf + N, sizeof(Buf) - N - 1, Fmt, Args);
  size_t Len = M < 0 ? size_t(N) : std::min(sizeof(Buf) - 2, size_t(N + M));
  Buf[Len++] = '\n';
  // One fwrite per message so lines from several threads do not interleave.
  std::fwrite(Buf, 1, Len, Sink);
  std::fflush(Sink);
}

void logMessage(LogLevel L, const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  logMessageV(L, Fmt, Args);
  va_end(Args);
}

} // namespace cuhip
