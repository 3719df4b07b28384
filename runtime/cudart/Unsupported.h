//===- Unsupported.h - Entry points cuhip does not implement --------------===//
//
// An API function cuhip does not provide returns cudaErrorNotSupported and
// says so once per process through the logger, so a program that depends
// on it fails visibly instead of crashing or silently doing nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <mutex>

#define CUHIP_RETURN_NOT_SUPPORTED(Name, Why)                                  \
  do {                                                                         \
    static std::once_flag Once;                                                \
    std::call_once(Once, [] {                                                  \
      CUHIP_WARN("%s is not supported (%s); it returns "                       \
                 "cudaErrorNotSupported",                                      \
                 Name, Why);                                                   \
    });                                                                        \
    return ::cuhip::cudart::runtime().record(                                  \
        ::cuhip::rt::cudaErrorNotSupported);                                   \
  } while (0)
