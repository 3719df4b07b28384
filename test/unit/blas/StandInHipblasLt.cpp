//===- StandInHipblasLt.cpp - A recording stand-in for libhipblaslt -------===//
//
// Debian has no hipBLASLt and no machine here has an AMD GPU. The cuBLASLt
// forwarding tests load this library instead (CUHIP_HIPBLASLT_LIBRARY): it
// exports the hipBLASLt entry points cuhip resolves, with hipBLASLt's
// signatures, keeps descriptors as plain objects, runs nothing, and records
// every call in a text log the tests read back through
// `standInHipblasLtLog`.
//
//===----------------------------------------------------------------------===//
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#define STANDIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
std::mutex Lock;
std::string Log;
int Objects = 0;

void logf(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
void logf(const char *Fmt, ...) {
  char Buf[512];
  va_list Ap;
  va_start(Ap, Fmt);
  vsnprintf(Buf, sizeof(Buf), Fmt, Ap);
  va_end(Ap);
  std::lock_guard<std::mutex> G(Lock);
  Log += Buf;
  Log += '\n';
}

/// An attribute value as the log shows it: integers by their size.
long long valueOf(const void *Buf, size_t Size) {
  switch (Size) {
  case 1:
    return *static_cast<const int8_t *>(Buf);
  case 4:
    return *static_cast<const int32_t *>(Buf);
  case 8:
    return *static_cast<const int64_t *>(Buf);
  default:
    return -1;
  }
}

struct Object {
  int Id;
};
Object *make() { return new Object{++Objects}; }
int id(void *O) { return O ? static_cast<Object *>(O)->Id : 0; }
} // namespace

STANDIN_EXPORT const char *standInHipblasLtLog() { return Log.c_str(); }
STANDIN_EXPORT void standInHipblasLtClearLog() {
  std::lock_guard<std::mutex> G(Lock);
  Log.clear();
}

STANDIN_EXPORT int hipblasLtCreate(void **Handle) {
  *Handle = make();
  logf("hipblasLtCreate -> %d", id(*Handle));
  return 0;
}
STANDIN_EXPORT int hipblasLtDestroy(void *Handle) {
  logf("hipblasLtDestroy %d", id(Handle));
  delete static_cast<Object *>(Handle);
  return 0;
}
STANDIN_EXPORT int hipblasLtMatmulDescCreate(void **Desc, int32_t Compute,
                                             int32_t Scale) {
  *Desc = make();
  logf("hipblasLtMatmulDescCreate compute=%d scale=%d -> %d", Compute, Scale,
       id(*Desc));
  return 0;
}
STANDIN_EXPORT int hipblasLtMatmulDescDestroy(void *Desc) {
  logf("hipblasLtMatmulDescDestroy %d", id(Desc));
  delete static_cast<Object *>(Desc);
  return 0;
}
STANDIN_EXPORT int hipblasLtMatmulDescSetAttribute(void *Desc, int32_t Attr,
                                                   const void *Buf,
                                                   size_t Size) {
  logf("hipblasLtMatmulDescSetAttribute %d attr=%d size=%zu value=%lld",
       id(Desc), Attr, Size, valueOf(Buf, Size));
  return 0;
}
STANDIN_EXPORT int hipblasLtMatrixLayoutCreate(void **Layout, int32_t Type,
                                               uint64_t Rows, uint64_t Cols,
                                               int64_t Ld) {
  *Layout = make();
  logf("hipblasLtMatrixLayoutCreate type=%d rows=%llu cols=%llu ld=%lld -> %d",
       Type, (unsigned long long)Rows, (unsigned long long)Cols,
       (long long)Ld, id(*Layout));
  return 0;
}
STANDIN_EXPORT int hipblasLtMatrixLayoutDestroy(void *Layout) {
  logf("hipblasLtMatrixLayoutDestroy %d", id(Layout));
  delete static_cast<Object *>(Layout);
  return 0;
}
STANDIN_EXPORT int hipblasLtMatrixLayoutSetAttribute(void *Layout,
                                                     int32_t Attr,
                                                     const void *Buf,
                                                     size_t Size) {
  logf("hipblasLtMatrixLayoutSetAttribute %d attr=%d value=%lld", id(Layout),
       Attr, valueOf(Buf, Size));
  return 0;
}
STANDIN_EXPORT int hipblasLtMatmul(void *Handle, void *Desc, const void *Alpha,
                                   const void *A, void *ADesc, const void *B,
                                   void *BDesc, const void *Beta,
                                   const void *C, void *CDesc, void *D,
                                   void *DDesc, const void *Algo,
                                   void *Workspace, size_t WorkspaceBytes,
                                   void *Stream) {
  logf("hipblasLtMatmul handle=%d desc=%d layouts=%d,%d,%d,%d alpha=%g "
       "A=%p B=%p C=%p D=%p algo=%p workspace=%zu stream=%p",
       id(Handle), id(Desc), id(ADesc), id(BDesc), id(CDesc), id(DDesc),
       double(*static_cast<const float *>(Alpha)), A, B, C, D, Algo,
       WorkspaceBytes, Stream);
  return 0;
}
