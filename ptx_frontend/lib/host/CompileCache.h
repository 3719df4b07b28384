//===- CompileCache.h - On-disk cache of compiled host objects ------------===//
//
// The host target's compile cache keeps, per PTX module, the relocatable
// object the JIT would produce together with the kernel metadata the runtime
// launches with, so a second run of the same program skips parsing, lowering,
// O3 and code generation. An entry is named by a SHA-256 over everything the
// generated code depends on (the PTX text, the host CPU and its features, the
// LLVM and cuhip compiler versions, the options). Entries are written to a
// temporary file and renamed into place, so readers never see a partial one;
// an entry that is short, has a bad header or a bad checksum is a miss.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/HostTarget.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
}

namespace cuhip::ptx::host {

/// The version of the on-disk entry layout (not of the generated code: that
/// is compilerVersion(), which is part of the key).
inline constexpr uint32_t CompileCacheFormatVersion = 3;

/// One cache entry: the kernels' metadata (Fn is null) and their object.
struct CompileCacheEntry {
  std::vector<CompiledKernel> Kernels;
  std::string Object;
};

/// Serialises an entry to its file contents, and back. parse returns
/// nothing, with Why set, for anything that is not a complete entry.
std::string serializeCompileCacheEntry(const CompileCacheEntry &E);
std::optional<CompileCacheEntry> parseCompileCacheEntry(llvm::StringRef Data,
                                                        std::string &Why);

/// The cache key (64 hex digits) for a module's PTX text compiled for a
/// target. Options names every setting that changes the generated code.
std::string compileCacheKey(llvm::StringRef Ptx, llvm::StringRef Triple,
                            llvm::StringRef CPU, llvm::StringRef Features,
                            llvm::StringRef Options);

class CompileCache {
public:
  /// An empty Directory disables the cache. A directory that cannot be
  /// created or written disables it too, with one warning.
  CompileCache(std::string Directory, CompileCacheLogger Log);

  bool enabled() const { return Enabled; }
  const std::string &directory() const { return Directory; }
  std::string pathFor(const std::string &Key) const;

  /// The entry for Key, or nothing (a miss, or an entry that is unusable:
  /// logged at debug level).
  std::optional<CompileCacheEntry> load(const std::string &Key);
  /// Writes the entry for Key atomically; failures are logged, never fatal.
  void store(const std::string &Key, const CompileCacheEntry &E);

  void debug(const std::string &Msg) const;

private:
  /// Logs one warning and turns the cache off.
  void disable(const std::string &Why);

  std::string Directory;
  CompileCacheLogger Log;
  bool Enabled = false;
};

} // namespace cuhip::ptx::host
