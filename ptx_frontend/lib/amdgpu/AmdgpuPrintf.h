//===- AmdgpuPrintf.h - Device printf and assert for the AMDGPU target ----===//
//
// CUDA's device printf (vprintf with a packed argument buffer) and assert
// (__assertfail) on AMDGPU, through the hostcall printf of ROCm's device
// library ockl. The format-string parser is exposed for unit tests.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/AmdgpuTarget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <vector>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace cuhip::ptx::amdgpu {

/// One value a printf format reads from CUDA's packed argument buffer.
struct PrintfArgument {
  enum KindT {
    Int32,   ///< int-sized (no length, h, hh; %c; a `*` width or precision)
    Int64,   ///< l, ll, j, z, t
    Double,  ///< floating conversions (floats arrive promoted to double)
    Pointer, ///< %p
    String,  ///< %s: a device pointer to a NUL-terminated string
  } Kind;
  bool Signed;     ///< d/i and `*`: sign-extended when widened to 64 bits
  unsigned Offset; ///< byte offset in the packed buffer
};

/// A parsed format: what it reads, where, and how many conversions it has.
struct PrintfFormat {
  std::vector<PrintfArgument> Args;
  unsigned Conversions = 0; ///< conversion specifications, `%%` excluded
};

/// Parses Fmt with C's printf rules (flags, width and precision, `*`,
/// length modifiers hh/h/l/ll/j/z/t) and lays the arguments out as CUDA
/// packs them: each at the next multiple of its size. Fails on a
/// conversion the AMDGPU printf cannot pass on (%n, wide %ls, long double,
/// an unknown or unterminated conversion).
llvm::Expected<PrintfFormat> parsePrintfFormat(llvm::StringRef Fmt);

/// Lowers CB if it calls __assertfail (the message, printed through ockl's
/// stderr printf, then llvm.trap) or vprintf (replaced by a placeholder
/// that expandDevicePrintf completes); returns false for any other call.
bool lowerDeviceLibraryCall(llvm::CallBase &CB, const Target &T);

/// Completes the vprintf calls of F that lowerDeviceLibraryCall replaced:
/// reads each constant format, and emits the ockl hostcall calls passing
/// the format and each argument loaded from the packed buffer. Reports
/// (through Fail) a format that is not a constant string.
void expandDevicePrintf(llvm::Function &F, const Target &T,
                        const std::function<void(const llvm::Twine &)> &Fail);

} // namespace cuhip::ptx::amdgpu
