//===- CompileCache.cpp - On-disk cache of compiled host objects ----------===//
//
// Entry layout (little-endian, as the host that wrote it; the key includes
// the target triple, so an entry is only ever read by a host like it):
//   "CUHIPCC\0", u32 format version, u32 kernel count,
//   per kernel: KernelInfo, then HostKernelLayout (strings as u32 length and
//   bytes), u64 object size, the object, and a SHA-256 of all that precedes.
// The checksum makes a flipped byte anywhere a miss instead of wrong code.
//
//===----------------------------------------------------------------------===//
#include "CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/stat.h>

using namespace llvm;

namespace cuhip::ptx::host {

const char *compilerVersion() {
  // Bump whenever lowering or the host target changes the code generated
  // for the same PTX: cached objects of other versions are then never used.
  return "cuhip-host-8";
}

/// The file holding this compiler (libcuhip-core.so, or a program that links
/// the frontend statically), with its size and modification time: a rebuilt
/// cuhip never reuses objects an older build compiled, even when nobody
/// remembered to bump compilerVersion().
static std::string compilerBinaryIdentity() {
  static const std::string Identity = [] {
    Dl_info Info;
    struct stat St;
    if (!dladdr(reinterpret_cast<void *>(&compilerBinaryIdentity), &Info) ||
        !Info.dli_fname || stat(Info.dli_fname, &St) != 0)
      return std::string("unknown");
    return std::string(Info.dli_fname) + ":" + std::to_string(St.st_size) +
           ":" + std::to_string(St.st_mtim.tv_sec) + "." +
           std::to_string(St.st_mtim.tv_nsec);
  }();
  return Identity;
}

std::string compileCacheDirectory() {
  if (const char *D = std::getenv("CUHIP_CACHE_DIR"); D && *D)
    return std::strcmp(D, "off") == 0 ? std::string() : std::string(D);
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/cuhip";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/cuhip";
  return {};
}

namespace {
constexpr char Magic[8] = {'C', 'U', 'H', 'I', 'P', 'C', 'C', '\0'};
constexpr size_t DigestBytes = 32;

class Writer {
public:
  std::string Out;
  void bytes(const void *P, size_t N) {
    Out.append(static_cast<const char *>(P), N);
  }
  void u32(uint32_t V) { bytes(&V, sizeof(V)); }
  void u64(uint64_t V) { bytes(&V, sizeof(V)); }
  void str(StringRef S) {
    u32(static_cast<uint32_t>(S.size()));
    bytes(S.data(), S.size());
  }
};

/// Bounds-checked reading: after the first short read every value is zero
/// and ok() is false.
class Reader {
public:
  explicit Reader(StringRef Data) : Data(Data) {}
  bool ok() const { return Ok; }
  bool bytes(void *P, size_t N) {
    if (!Ok || Data.size() - Pos < N) {
      Ok = false;
      std::memset(P, 0, N);
      return false;
    }
    std::memcpy(P, Data.data() + Pos, N);
    Pos += N;
    return true;
  }
  uint32_t u32() {
    uint32_t V;
    bytes(&V, sizeof(V));
    return V;
  }
  uint64_t u64() {
    uint64_t V;
    bytes(&V, sizeof(V));
    return V;
  }
  std::string str() {
    uint64_t N = u32();
    if (!Ok || Data.size() - Pos < N) {
      Ok = false;
      return {};
    }
    std::string S(Data.data() + Pos, N);
    Pos += N;
    return S;
  }
  size_t Pos = 0;

private:
  StringRef Data;
  bool Ok = true;
};

std::string hex(ArrayRef<uint8_t> Bytes) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  for (uint8_t B : Bytes) {
    S += Digits[B >> 4];
    S += Digits[B & 15];
  }
  return S;
}
} // namespace

std::string serializeCompileCacheEntry(const CompileCacheEntry &E) {
  Writer W;
  W.bytes(Magic, sizeof(Magic));
  W.u32(CompileCacheFormatVersion);
  W.u32(static_cast<uint32_t>(E.Kernels.size()));
  for (const CompiledKernel &K : E.Kernels) {
    const KernelInfo &I = K.Info;
    W.str(I.Name);
    W.u32(static_cast<uint32_t>(I.Params.size()));
    for (const KernelParamInfo &P : I.Params) {
      W.str(P.Name);
      W.u32(P.Offset);
      W.u32(P.Size);
      W.u32(P.Align);
    }
    W.u32(I.ParamBufferSize);
    W.u32(I.StaticSharedBytes);
    W.u32(I.UsesDynamicShared ? 1 : 0);
    for (unsigned D = 0; D < 3; ++D)
      W.u32(I.ReqNTid[D]);
    for (unsigned D = 0; D < 3; ++D)
      W.u32(I.MaxNTid[D]);
    W.u32(static_cast<uint32_t>(I.DynamicSharedSizeArgOffset));
    const HostKernelLayout &L = K.Layout;
    W.str(L.KernelName);
    W.str(L.BlockFunctionName);
    W.u32(L.FrameBytesPerThread);
    W.u32(L.StaticSharedBytes);
    W.u32(L.SharedAlign);
    W.u32(L.NumRegions);
    W.u32(L.VectorLanes);
    W.str(L.ScalarReason);
  }
  W.u64(E.Object.size());
  W.bytes(E.Object.data(), E.Object.size());
  auto Digest = SHA256::hash(arrayRefFromStringRef(W.Out));
  W.bytes(Digest.data(), Digest.size());
  return std::move(W.Out);
}

std::optional<CompileCacheEntry> parseCompileCacheEntry(StringRef Data,
                                                        std::string &Why) {
  if (Data.size() < sizeof(Magic) + 4 + DigestBytes ||
      std::memcmp(Data.data(), Magic, sizeof(Magic)) != 0) {
    Why = "not a cuhip cache entry";
    return std::nullopt;
  }
  StringRef Body = Data.drop_back(DigestBytes);
  auto Digest = SHA256::hash(arrayRefFromStringRef(Body));
  if (std::memcmp(Digest.data(), Data.data() + Body.size(), DigestBytes) != 0) {
    Why = "checksum mismatch (truncated or damaged)";
    return std::nullopt;
  }
  Reader R(Body);
  char M[sizeof(Magic)];
  R.bytes(M, sizeof(M));
  if (uint32_t V = R.u32(); V != CompileCacheFormatVersion) {
    Why = "format version " + std::to_string(V);
    return std::nullopt;
  }
  CompileCacheEntry E;
  uint32_t NumKernels = R.u32();
  // Each kernel takes well over 16 bytes: a bound on a damaged count.
  if (NumKernels > Body.size() / 16) {
    Why = "bad kernel count";
    return std::nullopt;
  }
  for (uint32_t KI = 0; KI < NumKernels && R.ok(); ++KI) {
    CompiledKernel K;
    KernelInfo &I = K.Info;
    I.Name = R.str();
    uint32_t NumParams = R.u32();
    if (NumParams > Body.size() / 16) {
      Why = "bad parameter count";
      return std::nullopt;
    }
    for (uint32_t PI = 0; PI < NumParams && R.ok(); ++PI) {
      KernelParamInfo P;
      P.Name = R.str();
      P.Offset = R.u32();
      P.Size = R.u32();
      P.Align = R.u32();
      I.Params.push_back(std::move(P));
    }
    I.ParamBufferSize = R.u32();
    I.StaticSharedBytes = R.u32();
    I.UsesDynamicShared = R.u32() != 0;
    for (unsigned D = 0; D < 3; ++D)
      I.ReqNTid[D] = R.u32();
    for (unsigned D = 0; D < 3; ++D)
      I.MaxNTid[D] = R.u32();
    I.DynamicSharedSizeArgOffset = static_cast<int32_t>(R.u32());
    HostKernelLayout &L = K.Layout;
    L.KernelName = R.str();
    L.BlockFunctionName = R.str();
    L.FrameBytesPerThread = R.u32();
    L.StaticSharedBytes = R.u32();
    L.SharedAlign = R.u32();
    L.NumRegions = R.u32();
    L.VectorLanes = R.u32();
    L.ScalarReason = R.str();
    E.Kernels.push_back(std::move(K));
  }
  uint64_t ObjectSize = R.u64();
  if (!R.ok() || Body.size() - R.Pos != ObjectSize) {
    Why = "bad layout";
    return std::nullopt;
  }
  E.Object = Body.substr(R.Pos).str();
  return E;
}

std::string compileCacheKey(StringRef Ptx, StringRef Triple, StringRef CPU,
                            StringRef Features, StringRef Options) {
  SHA256 H;
  // Every field is length-prefixed so that no two inputs hash alike by
  // moving bytes from one field to the next.
  auto add = [&](StringRef S) {
    uint64_t N = S.size();
    H.update(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&N), sizeof(N)));
    H.update(S);
  };
  add(compilerVersion());
  add(compilerBinaryIdentity());
  add(LLVM_VERSION_STRING);
  add(std::to_string(CompileCacheFormatVersion));
  add(Triple);
  add(CPU);
  add(Features);
  add(Options);
  add(Ptx);
  return hex(H.final());
}

CompileCache::CompileCache(std::string Dir, CompileCacheLogger Logger)
    : Directory(std::move(Dir)), Log(std::move(Logger)) {
  if (Directory.empty())
    return;
  if (std::error_code EC = sys::fs::create_directories(Directory)) {
    disable("cannot create '" + Directory + "': " + EC.message());
    return;
  }
  if (std::error_code EC = sys::fs::access(Directory, sys::fs::AccessMode::Write)) {
    disable("cannot write to '" + Directory + "': " + EC.message());
    return;
  }
  Enabled = true;
}

void CompileCache::debug(const std::string &Msg) const {
  if (Log)
    Log(false, Msg);
}

void CompileCache::disable(const std::string &Why) {
  if (Log)
    Log(true, "compile cache disabled: " + Why);
  Enabled = false;
}

std::string CompileCache::pathFor(const std::string &Key) const {
  return Directory + "/" + Key + ".cuhipobj";
}

std::optional<CompileCacheEntry> CompileCache::load(const std::string &Key) {
  if (!Enabled)
    return std::nullopt;
  std::string Path = pathFor(Key);
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf) {
    if (Buf.getError() == std::errc::no_such_file_or_directory)
      return std::nullopt;
    debug("compile cache: cannot read " + Path + ": " + Buf.getError().message());
    return std::nullopt;
  }
  std::string Why;
  auto E = parseCompileCacheEntry((*Buf)->getBuffer(), Why);
  if (!E)
    debug("compile cache: ignoring " + Path + ": " + Why);
  return E;
}

void CompileCache::store(const std::string &Key, const CompileCacheEntry &E) {
  if (!Enabled)
    return;
  std::string Data = serializeCompileCacheEntry(E);
  // A temporary in the same directory, renamed over the entry: rename is
  // atomic within a file system, so a concurrent reader sees the old entry,
  // the new one, or none, never a partial file.
  SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Directory + "/" + Key + ".tmp-%%%%%%%%", FD, Temp)) {
    disable("cannot create a file in '" + Directory + "': " + EC.message());
    return;
  }
  bool Failed;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Data;
    OS.close();
    Failed = OS.has_error();
    if (Failed) {
      debug("compile cache: writing " + Temp.str().str() + " failed: " +
            OS.error().message());
      OS.clear_error();
    }
  }
  if (!Failed) {
    if (std::error_code EC = sys::fs::rename(Temp, pathFor(Key))) {
      debug("compile cache: cannot rename " + Temp.str().str() + ": " +
            EC.message());
      Failed = true;
    }
  }
  if (Failed) {
    sys::fs::remove(Temp);
    return;
  }
  debug("compile cache: stored " + pathFor(Key));
}

} // namespace cuhip::ptx::host
