//===- AmdPipeline.h - AMD mode's helpers ----------------------*- C++ -*-===//
#pragma once

#include <string>
#include <vector>

namespace cuhip::nvcc {

/// The ROCm device-library directory Clang is given for Archs: the
/// installed one when it has an isa-version file for every target, else a
/// directory under $CUHIP_CACHE_DIR (or ~/.cache/cuhip) with links to the
/// installed files plus generated oclc_isa_version_<N>.bc files. Safe to
/// run from concurrent builds. False, with Err, when it cannot be made.
bool prepareDeviceLibs(const std::vector<std::string> &Archs, std::string &Dir,
                       std::string &Err);

/// The directory with the installed ROCm device libraries (ocml.bc ...);
/// empty when none is found.
std::string installedDeviceLibs();

} // namespace cuhip::nvcc
