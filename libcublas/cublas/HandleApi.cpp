//===- HandleApi.cpp - cuBLAS handles, modes, versions, logging, copies ---===//
//
// Handles carry a stream, the pointer, math and atomics modes and a
// workspace; on cuhip the modes other than the pointer mode change nothing
// in the results (the CPU backend has no tensor cores to opt into) but are
// kept and reported. cublasSet/GetVector/Matrix are strided copies of the
// runtime (memcpy3D). The legacy API's implicit context (cublasInit,
// cublasGetError, ...) is a handle like the others.
//
//===----------------------------------------------------------------------===//
#include "Handle.h"

#include "ApiCommon.h"

#include "cuhip/runtime/Log.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

using namespace cuhip;
using namespace cuhip::cublas;

namespace {

std::mutex HandleLock;
std::unordered_set<cublasHandle_t> &handles() {
  static auto *Set = new std::unordered_set<cublasHandle_t>;
  return *Set;
}

// cuBLAS's API log (cublasLoggerConfigure, CUBLAS_LOGINFO_DBG).
std::mutex LogLock;
std::atomic<bool> LogOn{[] {
  const char *E = std::getenv("CUBLAS_LOGINFO_DBG");
  return E && std::atoi(E) != 0;
}()};
bool LogToStdout = false, LogToStderr = false;
FILE *LogFile = nullptr;
cublasLogCallback LogCallback = nullptr;

rt::Runtime &runtime() { return rt::Runtime::get(); }

/// MAJOR*10000 + MINOR*100 + PATCH: 13.1.0 or 12.9.1.
constexpr int Version =
    CUHIP_CUBLAS_MAJOR * 10000 + (CUHIP_CUBLAS_MAJOR == 13 ? 100 : 901);

} // namespace

namespace cuhip::cublas {

bool isLive(cublasHandle_t H) {
  std::lock_guard<std::mutex> G(HandleLock);
  return H && handles().count(H);
}
void addHandle(cublasHandle_t H) {
  std::lock_guard<std::mutex> G(HandleLock);
  handles().insert(H);
}
bool removeHandle(cublasHandle_t H) {
  std::lock_guard<std::mutex> G(HandleLock);
  return handles().erase(H) != 0;
}

cublasStatus_t fromRuntime(int S) {
  switch (S) {
  case rt::cudaSuccess:
    return CUBLAS_STATUS_SUCCESS;
  case rt::cudaErrorInvalidValue:
    return CUBLAS_STATUS_INVALID_VALUE;
  case rt::cudaErrorNotSupported:
    return CUBLAS_STATUS_NOT_SUPPORTED;
  case rt::cudaErrorMemoryAllocation:
    return CUBLAS_STATUS_ALLOC_FAILED;
  case rt::cudaErrorNoDevice:
  case rt::cudaErrorInitializationError:
    return CUBLAS_STATUS_NOT_INITIALIZED;
  default:
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
}

bool apiLogOn() { return LogOn.load(std::memory_order_relaxed); }

void apiLog(const char *Fmt, ...) {
  char Line[512];
  va_list Args;
  va_start(Args, Fmt);
  std::vsnprintf(Line, sizeof(Line), Fmt, Args);
  va_end(Args);
  std::lock_guard<std::mutex> G(LogLock);
  if (LogCallback) {
    LogCallback(Line);
    return;
  }
  // The program asked for these destinations (cublasLoggerConfigure).
  if (LogToStdout)
    std::fprintf(stdout, "%s\n", Line);
  if (LogToStderr)
    std::fprintf(stderr, "%s\n", Line);
  if (LogFile) {
    std::fprintf(LogFile, "%s\n", Line);
    std::fflush(LogFile);
  }
  if (!LogToStdout && !LogToStderr && !LogFile)
    CUHIP_INFO("cublas: %s", Line);
}

} // namespace cuhip::cublas

#define LOG_CALL(...)                                                          \
  do {                                                                         \
    if (apiLogOn())                                                            \
      apiLog(__VA_ARGS__);                                                     \
  } while (0)

#define CHECK_HANDLE(H)                                                        \
  do {                                                                         \
    if (!isLive(H))                                                            \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
  } while (0)

CUHIP_EXPORT cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  LOG_CALL("cublasCreate_v2(handle=%p)", static_cast<void *>(handle));
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (runtime().deviceStatus() != rt::cudaSuccess) {
    CUHIP_ERROR("cublasCreate: no usable device (%s); check CUHIP_BACKEND "
                "or `cuhip info`",
                rt::statusDescription(runtime().deviceStatus()));
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  auto *H = new cublasContext;
  addHandle(H);
  *handle = H;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  LOG_CALL("cublasDestroy_v2(handle=%p)", static_cast<void *>(handle));
  if (!removeHandle(handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  // cuBLAS waits for the handle's work before it releases it; a stream the
  // program destroyed first has nothing left to wait for.
  if (runtime().isStreamHandle(handle->Stream))
    runtime().streamSynchronize(handle->Stream);
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle,
                                                int *version) {
  CHECK_HANDLE(handle);
  if (!version)
    return CUBLAS_STATUS_INVALID_VALUE;
  *version = Version;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetProperty(libraryPropertyType type,
                                              int *value) {
  if (!value)
    return CUBLAS_STATUS_INVALID_VALUE;
  return blas::versionProperty(type, Version, *value) ? CUBLAS_STATUS_SUCCESS
                                                : CUBLAS_STATUS_INVALID_VALUE;
}

CUHIP_EXPORT size_t cublasGetCudartVersion(void) {
  return CUHIP_CUBLAS_MAJOR == 13 ? 13000 : 12090;
}

CUHIP_EXPORT cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle,
                                                  void *workspace,
                                                  size_t workspaceSizeInBytes) {
  LOG_CALL("cublasSetWorkspace_v2(handle=%p, workspace=%p, size=%zu)",
           static_cast<void *>(handle), workspace, workspaceSizeInBytes);
  CHECK_HANDLE(handle);
  if (workspaceSizeInBytes && !workspace)
    return CUBLAS_STATUS_INVALID_VALUE;
  // The engine needs no workspace; the one given is kept and unused.
  handle->Workspace = workspace;
  handle->WorkspaceBytes = workspaceSizeInBytes;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t handle,
                                               cudaStream_t streamId) {
  LOG_CALL("cublasSetStream_v2(handle=%p, stream=%p)",
           static_cast<void *>(handle), static_cast<void *>(streamId));
  CHECK_HANDLE(handle);
  if (!runtime().isStreamHandle(streamId))
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->Stream = streamId;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetStream_v2(cublasHandle_t handle,
                                               cudaStream_t *streamId) {
  CHECK_HANDLE(handle);
  if (!streamId)
    return CUBLAS_STATUS_INVALID_VALUE;
  *streamId = handle->Stream;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t
cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode) {
  CHECK_HANDLE(handle);
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->PointerMode;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t
cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  LOG_CALL("cublasSetPointerMode_v2(handle=%p, mode=%d)",
           static_cast<void *>(handle), static_cast<int>(mode));
  CHECK_HANDLE(handle);
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->PointerMode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle,
                                                 cublasAtomicsMode_t *mode) {
  CHECK_HANDLE(handle);
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->AtomicsMode;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle,
                                                 cublasAtomicsMode_t mode) {
  CHECK_HANDLE(handle);
  if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->AtomicsMode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetMathMode(cublasHandle_t handle,
                                              cublasMath_t *mode) {
  CHECK_HANDLE(handle);
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->MathMode;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasSetMathMode(cublasHandle_t handle,
                                              cublasMath_t mode) {
  LOG_CALL("cublasSetMathMode(handle=%p, mode=%d)",
           static_cast<void *>(handle), static_cast<int>(mode));
  CHECK_HANDLE(handle);
  // One base mode, optionally with the reduced-precision flag.
  int Base = mode & ~CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
  if (Base != CUBLAS_DEFAULT_MATH && Base != CUBLAS_TENSOR_OP_MATH &&
      Base != CUBLAS_PEDANTIC_MATH && Base != CUBLAS_TF32_TENSOR_OP_MATH &&
      Base != CUBLAS_FP32_EMULATED_BF16X9_MATH &&
      Base != CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->MathMode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetSmCountTarget(cublasHandle_t handle,
                                                   int *smCountTarget) {
  CHECK_HANDLE(handle);
  if (!smCountTarget)
    return CUBLAS_STATUS_INVALID_VALUE;
  *smCountTarget = handle->SmCountTarget;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasSetSmCountTarget(cublasHandle_t handle,
                                                   int smCountTarget) {
  CHECK_HANDLE(handle);
  if (smCountTarget < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->SmCountTarget = smCountTarget;
  return CUBLAS_STATUS_SUCCESS;
}

// Undocumented; libcusolver sets it on its handles. cuBLAS accepts 0 and 1.
CUHIP_EXPORT cublasStatus_t cublasSetEnvironmentMode(cublasHandle_t handle,
                                                     int mode) {
  CHECK_HANDLE(handle);
  if (mode < 0 || mode > 1)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->EnvironmentMode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetEnvironmentMode(cublasHandle_t handle,
                                                     int *mode) {
  CHECK_HANDLE(handle);
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->EnvironmentMode;
  return CUBLAS_STATUS_SUCCESS;
}

// --- emulation settings: kept and reported ----------------------------------

/// A getter and a setter of one field of the handle; VALID, an expression
/// of `value`, says whether the setter accepts it.
#define HANDLE_SETTING(GET, SET, TYPE, FIELD, VALID)                           \
  CUHIP_EXPORT cublasStatus_t GET(cublasHandle_t handle, TYPE *value) {        \
    CHECK_HANDLE(handle);                                                      \
    if (!value)                                                                \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    *value = handle->FIELD;                                                    \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  CUHIP_EXPORT cublasStatus_t SET(cublasHandle_t handle, TYPE value) {         \
    CHECK_HANDLE(handle);                                                      \
    if (!(VALID))                                                              \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    handle->FIELD = value;                                                     \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }
HANDLE_SETTING(cublasGetEmulationStrategy, cublasSetEmulationStrategy,
               cublasEmulationStrategy_t, EmulationStrategy,
               value >= CUBLAS_EMULATION_STRATEGY_DEFAULT &&
                   value <= CUBLAS_EMULATION_STRATEGY_EAGER)
HANDLE_SETTING(cublasGetEmulationSpecialValuesSupport,
               cublasSetEmulationSpecialValuesSupport,
               cudaEmulationSpecialValuesSupport, SpecialValues,
               (static_cast<unsigned>(value) & ~0xFFFFu) == 0)
HANDLE_SETTING(cublasGetFixedPointEmulationMantissaControl,
               cublasSetFixedPointEmulationMantissaControl,
               cudaEmulationMantissaControl, MantissaControl,
               value == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC ||
                   value == CUDA_EMULATION_MANTISSA_CONTROL_FIXED)
HANDLE_SETTING(cublasGetFixedPointEmulationMaxMantissaBitCount,
               cublasSetFixedPointEmulationMaxMantissaBitCount, int,
               MaxMantissaBitCount, value >= 0)
HANDLE_SETTING(cublasGetFixedPointEmulationMantissaBitOffset,
               cublasSetFixedPointEmulationMantissaBitOffset, int,
               MantissaBitOffset, true)
HANDLE_SETTING(cublasGetFixedPointEmulationMantissaBitCountPointer,
               cublasSetFixedPointEmulationMantissaBitCountPointer, int *,
               MantissaBitCountPointer, true)
#undef HANDLE_SETTING

CUHIP_EXPORT const char *cublasGetStatusName(cublasStatus_t status) {
  return blas::statusName(status);
}

CUHIP_EXPORT const char *cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "success";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "the handle is not initialized (create one with cublasCreate), "
           "or no device is usable";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "memory allocation failed";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "an argument is invalid (a size, leading dimension, increment, "
           "enumerator or null pointer)";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "the device lacks a feature the call needs";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "a copy to or from device memory failed";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "the operation failed to run on the device";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "an internal operation failed";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "the combination of types, compute type or options is not "
           "supported (CUHIP_LOG=warn names it)";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "license check failed";
  }
  return "unknown cuBLAS status";
}

CUHIP_EXPORT cublasStatus_t cublasLoggerConfigure(int logIsOn,
                                                  int logToStdOut,
                                                  int logToStdErr,
                                                  const char *logFileName) {
  std::lock_guard<std::mutex> G(LogLock);
  if (LogFile) {
    std::fclose(LogFile);
    LogFile = nullptr;
  }
  if (logIsOn && logFileName && *logFileName) {
    LogFile = std::fopen(logFileName, "a");
    if (!LogFile) {
      CUHIP_ERROR("cublasLoggerConfigure: cannot open the log file %s: %s",
                  logFileName, std::strerror(errno));
      return CUBLAS_STATUS_INVALID_VALUE;
    }
  }
  LogToStdout = logToStdOut != 0;
  LogToStderr = logToStdErr != 0;
  LogOn.store(logIsOn != 0, std::memory_order_relaxed);
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t
cublasSetLoggerCallback(cublasLogCallback userCallback) {
  std::lock_guard<std::mutex> G(LogLock);
  LogCallback = userCallback;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t
cublasGetLoggerCallback(cublasLogCallback *userCallback) {
  if (!userCallback)
    return CUBLAS_STATUS_INVALID_VALUE;
  std::lock_guard<std::mutex> G(LogLock);
  *userCallback = LogCallback;
  return CUBLAS_STATUS_SUCCESS;
}

// --- vectors and matrices between host and device ---------------------------

namespace {

/// Copies Cols columns of Rows elements of ElemSize bytes, column starts
/// SrcLd / DstLd elements apart (a vector is Rows 1 with the increments as
/// leading dimensions).
cublasStatus_t stridedCopy(int64_t Rows, int64_t Cols, int64_t ElemSize,
                           const void *Src, int64_t SrcLd, void *Dst,
                           int64_t DstLd, rt::CopyKind Kind,
                           cudaStream_t Stream, bool Async) {
  if (Rows == 0 || Cols == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!Src || !Dst)
    return CUBLAS_STATUS_INVALID_VALUE;
  rt::PitchedSide D{Dst, static_cast<size_t>(DstLd * ElemSize),
                    static_cast<size_t>(Cols)};
  rt::PitchedSide S{const_cast<void *>(Src),
                    static_cast<size_t>(SrcLd * ElemSize),
                    static_cast<size_t>(Cols)};
  int St = runtime().memcpy3D(D, S, Rows * ElemSize, Cols, 1, Kind, Stream,
                              Async);
  if (St == rt::cudaSuccess)
    return CUBLAS_STATUS_SUCCESS;
  CUHIP_WARN("cuBLAS copy between host and device failed: %s",
             rt::statusDescription(St));
  return St == rt::cudaErrorInvalidValue ? CUBLAS_STATUS_INVALID_VALUE
                                         : CUBLAS_STATUS_MAPPING_ERROR;
}

cublasStatus_t vectorCopy(int64_t N, int64_t ElemSize, const void *X,
                          int64_t IncX, void *Y, int64_t IncY,
                          rt::CopyKind Kind, cudaStream_t Stream, bool Async) {
  if (N < 0 || ElemSize <= 0 || IncX <= 0 || IncY <= 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  // Element i of a vector is column i of a one-row matrix.
  return stridedCopy(1, N, ElemSize, X, IncX, Y, IncY, Kind, Stream, Async);
}

cublasStatus_t matrixCopy(int64_t Rows, int64_t Cols, int64_t ElemSize,
                          const void *A, int64_t Lda, void *B, int64_t Ldb,
                          rt::CopyKind Kind, cudaStream_t Stream, bool Async) {
  if (Rows < 0 || Cols < 0 || ElemSize <= 0 || Lda <= 0 || Ldb <= 0 ||
      Lda < Rows || Ldb < Rows)
    return CUBLAS_STATUS_INVALID_VALUE;
  return stridedCopy(Rows, Cols, ElemSize, A, Lda, B, Ldb, Kind, Stream,
                     Async);
}

} // namespace

#define VECTOR_COPY(NAME, INT, KIND, ASYNC, SRC, DST)                          \
  CUHIP_EXPORT cublasStatus_t NAME(INT n, INT elemSize, const void *SRC,       \
                                   INT incx, void *DST, INT incy) {            \
    return vectorCopy(n, elemSize, SRC, incx, DST, incy, KIND, nullptr,        \
                      false);                                                  \
  }
VECTOR_COPY(cublasSetVector, int, rt::CopyKind::HostToDevice, false, x,
            devicePtr)
VECTOR_COPY(cublasSetVector_64, int64_t, rt::CopyKind::HostToDevice, false, x,
            devicePtr)
VECTOR_COPY(cublasGetVector, int, rt::CopyKind::DeviceToHost, false, x, y)
VECTOR_COPY(cublasGetVector_64, int64_t, rt::CopyKind::DeviceToHost, false, x,
            y)
#undef VECTOR_COPY

#define VECTOR_COPY_ASYNC(NAME, INT, KIND, SRC, DST)                           \
  CUHIP_EXPORT cublasStatus_t NAME(INT n, INT elemSize, const void *SRC,       \
                                   INT incx, void *DST, INT incy,              \
                                   cudaStream_t stream) {                      \
    return vectorCopy(n, elemSize, SRC, incx, DST, incy, KIND, stream, true);  \
  }
VECTOR_COPY_ASYNC(cublasSetVectorAsync, int, rt::CopyKind::HostToDevice,
                  hostPtr, devicePtr)
VECTOR_COPY_ASYNC(cublasSetVectorAsync_64, int64_t,
                  rt::CopyKind::HostToDevice, hostPtr, devicePtr)
VECTOR_COPY_ASYNC(cublasGetVectorAsync, int, rt::CopyKind::DeviceToHost,
                  devicePtr, hostPtr)
VECTOR_COPY_ASYNC(cublasGetVectorAsync_64, int64_t,
                  rt::CopyKind::DeviceToHost, devicePtr, hostPtr)
#undef VECTOR_COPY_ASYNC

#define MATRIX_COPY(NAME, INT, KIND)                                           \
  CUHIP_EXPORT cublasStatus_t NAME(INT rows, INT cols, INT elemSize,           \
                                   const void *A, INT lda, void *B, INT ldb) { \
    return matrixCopy(rows, cols, elemSize, A, lda, B, ldb, KIND, nullptr,     \
                      false);                                                  \
  }
MATRIX_COPY(cublasSetMatrix, int, rt::CopyKind::HostToDevice)
MATRIX_COPY(cublasSetMatrix_64, int64_t, rt::CopyKind::HostToDevice)
MATRIX_COPY(cublasGetMatrix, int, rt::CopyKind::DeviceToHost)
MATRIX_COPY(cublasGetMatrix_64, int64_t, rt::CopyKind::DeviceToHost)
#undef MATRIX_COPY

#define MATRIX_COPY_ASYNC(NAME, INT, KIND)                                     \
  CUHIP_EXPORT cublasStatus_t NAME(INT rows, INT cols, INT elemSize,           \
                                   const void *A, INT lda, void *B, INT ldb,   \
                                   cudaStream_t stream) {                      \
    return matrixCopy(rows, cols, elemSize, A, lda, B, ldb, KIND, stream,      \
                      true);                                                   \
  }
MATRIX_COPY_ASYNC(cublasSetMatrixAsync, int, rt::CopyKind::HostToDevice)
MATRIX_COPY_ASYNC(cublasSetMatrixAsync_64, int64_t, rt::CopyKind::HostToDevice)
MATRIX_COPY_ASYNC(cublasGetMatrixAsync, int, rt::CopyKind::DeviceToHost)
MATRIX_COPY_ASYNC(cublasGetMatrixAsync_64, int64_t, rt::CopyKind::DeviceToHost)
#undef MATRIX_COPY_ASYNC

// --- the legacy API's context (cublas.h) ------------------------------------

namespace {

std::mutex LegacyLock;
cublasHandle_t Legacy = nullptr;
std::atomic<int> LegacyError{CUBLAS_STATUS_SUCCESS};

} // namespace

namespace cuhip::cublas {

cublasHandle_t legacyHandle() {
  std::lock_guard<std::mutex> G(LegacyLock);
  if (!Legacy && cublasCreate_v2(&Legacy) != CUBLAS_STATUS_SUCCESS)
    Legacy = nullptr;
  return Legacy;
}

void legacyRecord(cublasStatus_t S) {
  if (S != CUBLAS_STATUS_SUCCESS)
    LegacyError.store(S, std::memory_order_relaxed);
}

} // namespace cuhip::cublas

CUHIP_EXPORT cublasStatus_t cublasInit(void) {
  return legacyHandle() ? CUBLAS_STATUS_SUCCESS
                        : CUBLAS_STATUS_NOT_INITIALIZED;
}

CUHIP_EXPORT cublasStatus_t cublasShutdown(void) {
  cublasHandle_t H;
  {
    std::lock_guard<std::mutex> G(LegacyLock);
    H = Legacy;
    Legacy = nullptr;
  }
  // A later legacy call starts a new context, as after cublasInit.
  return H ? cublasDestroy_v2(H) : CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasGetError(void) {
  return static_cast<cublasStatus_t>(
      LegacyError.exchange(CUBLAS_STATUS_SUCCESS, std::memory_order_relaxed));
}

CUHIP_EXPORT cublasStatus_t cublasGetVersion(int *version) {
  if (!version)
    return CUBLAS_STATUS_INVALID_VALUE;
  *version = Version;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasSetKernelStream(cudaStream_t stream) {
  cublasHandle_t H = legacyHandle();
  if (!H)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  return cublasSetStream_v2(H, stream);
}

CUHIP_EXPORT cublasStatus_t cublasAlloc(int n, int elemSize,
                                        void **devicePtr) {
  if (n <= 0 || elemSize <= 0 || !devicePtr)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (runtime().malloc(devicePtr, static_cast<size_t>(n) * elemSize) !=
      rt::cudaSuccess)
    return CUBLAS_STATUS_ALLOC_FAILED;
  return CUBLAS_STATUS_SUCCESS;
}

CUHIP_EXPORT cublasStatus_t cublasFree(void *devicePtr) {
  return runtime().free(devicePtr) == rt::cudaSuccess
             ? CUBLAS_STATUS_SUCCESS
             : CUBLAS_STATUS_INTERNAL_ERROR;
}

// cuBLAS's report of an invalid argument to a legacy routine; NVIDIA's
// prints it, cuhip logs it (stdout is the program's).
CUHIP_EXPORT void cublasXerbla(const char *srName, int info) {
  CUHIP_ERROR("** On entry to %s parameter number %d had an illegal value",
              srName ? srName : "(null)", info);
}
