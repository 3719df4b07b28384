//===- Toolchain.h - Where CUDA and HIP are, and how to parse CUDA -*- C++ -*-===//
//
// The translator parses CUDA with the installed toolkit's headers, as nvcc
// would see them, and writes HIP for the HIP that is installed (or the one
// --hip-version names). This file finds both and builds the Clang command
// line for one input.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/translate/Translate.h"

#include <string>
#include <vector>

namespace cuhip::translate {

/// The CUDA toolkit to parse with: Explicit if given, else $CUDA_PATH,
/// $CUDA_HOME, the directory above the `nvcc` on PATH, /usr/local/cuda.
/// Empty (and Why says what was tried) when none has include/cuda.h.
std::string findCudaPath(const std::string &Explicit, std::string &Why);

/// The installed HIP's version from hip/hip_version.h ($HIP_PATH/include,
/// $ROCM_PATH/include, /opt/rocm/include, /usr/include); 0.0 if none.
HipVersion findInstalledHip(std::string &Where);

/// Parses "X.Y" (or "X.Y.Z"); false if malformed.
bool parseHipVersion(const std::string &Text, HipVersion &V);

/// The Clang arguments, after the executable, that parse File as CUDA:
/// host-side parsing (which sees device function bodies too) with the
/// toolkit's headers and the include directories nvcc adds itself, then
/// UserArgs (-I/-D/... from the command line or compile_commands.json).
std::vector<std::string> cudaParseArgs(const std::string &CudaPath,
                                       const std::vector<std::string> &UserArgs);

/// The flags of a compile_commands.json command that matter for parsing
/// (-I, -isystem, -iquote, -D, -U, -include, -std=, also nvcc's spellings
/// such as --include-path and --define-macro), relative paths made absolute
/// against Directory. Everything else, nvcc's own flags included, is dropped.
std::vector<std::string> parseRelevantFlags(const std::vector<std::string> &Argv,
                                            const std::string &Directory);

/// Clang's resource directory (builtin headers, CUDA wrappers).
std::string clangResourceDir();
/// The clang executable name the driver is told it is.
std::string clangExecutable();

} // namespace cuhip::translate
