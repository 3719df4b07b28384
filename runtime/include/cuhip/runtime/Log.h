//===- Log.h - The one logger, controlled by CUHIP_LOG --------------------===//
//
// Libraries never print to stdout: stdout belongs to the user's program. All
// messages go to stderr (or to the file named by CUHIP_LOG_FILE) prefixed
// with "cuhip: <level>:". CUHIP_LOG selects the least severe level shown:
// error, warn (the default), info, debug or trace.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdarg>

namespace cuhip {

enum class LogLevel : int { Off = 0, Error = 1, Warn = 2, Info = 3, Debug = 4, Trace = 5 };

/// The level in force (read from CUHIP_LOG once).
LogLevel logLevel();
inline bool logEnabled(LogLevel L) { return static_cast<int>(L) <= static_cast<int>(logLevel()); }
/// For tests: override the level read from the environment.
void setLogLevel(LogLevel L);

void logMessage(LogLevel L, const char *Fmt, ...) __attribute__((format(printf, 2, 3)));
void logMessageV(LogLevel L, const char *Fmt, va_list Args);

} // namespace cuhip

#define CUHIP_LOG_AT(LEVEL, ...)                                               \
  do {                                                                         \
    if (::cuhip::logEnabled(LEVEL))                                            \
      ::cuhip::logMessage(LEVEL, __VA_ARGS__);                                 \
  } while (0)
#define CUHIP_ERROR(...) CUHIP_LOG_AT(::cuhip::LogLevel::Error, __VA_ARGS__)
#define CUHIP_WARN(...) CUHIP_LOG_AT(::cuhip::LogLevel::Warn, __VA_ARGS__)
#define CUHIP_INFO(...) CUHIP_LOG_AT(::cuhip::LogLevel::Info, __VA_ARGS__)
#define CUHIP_DEBUG(...) CUHIP_LOG_AT(::cuhip::LogLevel::Debug, __VA_ARGS__)
#define CUHIP_TRACE(...) CUHIP_LOG_AT(::cuhip::LogLevel::Trace, __VA_ARGS__)
