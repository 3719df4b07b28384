//===- HipLibrary.h - Where the HIP runtime is looked for -----------------===//
//
// One list for everything that looks for libamdhip64 (the HIP backend and
// `cuhip info`), newest ROCm first; CUHIP_HIP_LIBRARY names an exact file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

namespace cuhip::rt {

inline std::vector<std::string> hipLibraryCandidates() {
  if (const char *E = std::getenv("CUHIP_HIP_LIBRARY"); E && *E)
    return {E};
  return {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5",
          "libamdhip64.so"};
}

} // namespace cuhip::rt
