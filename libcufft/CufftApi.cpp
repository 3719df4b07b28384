//===- CufftApi.cpp - libcufft: cuFFT's API over cuhip's transforms -------===//
//
// Plans are handles into a table; making a plan checks its description and
// plans the transform (Transform). An exec call checks its pointers against
// the allocations they fall in and puts the transform on the plan's stream
// as a host function, so it keeps the stream's order with kernels and
// copies and the call returns at once, as cuFFT's does. On the CPU backend
// device memory is host memory and the transform reads it in place. The
// HIP backend has no FFT here (rocFFT is not used): plans are refused with
// CUFFT_NOT_SUPPORTED, and the log says why.
//
// Not provided, each answering CUFFT_NOT_SUPPORTED and logging it: load and
// store callbacks (device functions cuhip cannot call from the host), and
// the multi-GPU calls that need more than one device (cufftXtSetGPUs with
// several GPUs, the cudaLibXtDesc descriptors).
//
//===----------------------------------------------------------------------===//
#include "CufftTypes.h"
#include "Transform.h"

#include "cuhip/runtime/HostJob.h"
#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Runtime.h"

#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#define CUFFT_EXPORT extern "C" __attribute__((visibility("default")))

using cuhip::fft::Elem;
using cuhip::fft::Kind;
using cuhip::fft::Layout;
using cuhip::fft::PlanError;
using cuhip::fft::Transform;
using cuhip::fft::TransformDesc;
namespace rt = cuhip::rt;

namespace {

/// A handle's state: its transform once made (the exec calls check their
/// types against it), its stream and its properties. Work areas are not
/// kept: the transforms use none.
struct Plan {
  std::shared_ptr<const Transform> T;
  cudaStream_t Stream = nullptr;
  std::map<int, long long> Properties;
};

std::mutex Lock;
std::map<cufftHandle, Plan> Plans;
cufftHandle NextHandle = 1;

cufftResult refuse(cufftResult R, const char *Fn, const std::string &Why);

/// Runs Use(plan) under the lock, or answers CUFFT_INVALID_PLAN (naming Fn)
/// for a handle that is no plan.
template <typename UseFn>
cufftResult withPlan(const char *Fn, cufftHandle Handle, UseFn Use) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Plans.find(Handle);
  if (It == Plans.end())
    return refuse(CUFFT_INVALID_PLAN, Fn,
                  "handle " + std::to_string(Handle) + " is not a plan");
  return Use(It->second);
}

/// CUFFT_INVALID_PLAN for a handle that is no plan.
cufftResult checkHandle(const char *Fn, cufftHandle Handle) {
  return withPlan(Fn, Handle, [](Plan &) { return CUFFT_SUCCESS; });
}

cufftResult refuse(cufftResult R, const char *Fn, const std::string &Why) {
  if (R == CUFFT_NOT_SUPPORTED)
    CUHIP_WARN("%s: not supported: %s", Fn, Why.c_str());
  else
    CUHIP_INFO("%s: %s", Fn, Why.c_str());
  return R;
}

bool onHip() { return rt::Runtime::get().onHipBackend(); }

cufftResult refuseOnHip(const char *Fn) {
  return refuse(CUFFT_NOT_SUPPORTED, Fn,
                "cuhip's cuFFT runs on the CPU backend only; the HIP backend "
                "has no FFT library here (rocFFT is not used)");
}

/// A legacy cufftType as a transform kind and element types.
bool fromType(cufftType Type, Kind &K, Elem &In, Elem &Out) {
  switch (Type) {
  case CUFFT_C2C: K = Kind::C2C; In = Out = Elem::C32F; return true;
  case CUFFT_Z2Z: K = Kind::C2C; In = Out = Elem::C64F; return true;
  case CUFFT_R2C: K = Kind::R2C; In = Elem::R32F; Out = Elem::C32F; return true;
  case CUFFT_D2Z: K = Kind::R2C; In = Elem::R64F; Out = Elem::C64F; return true;
  case CUFFT_C2R: K = Kind::C2R; In = Elem::C32F; Out = Elem::R32F; return true;
  case CUFFT_Z2D: K = Kind::C2R; In = Elem::C64F; Out = Elem::R64F; return true;
  }
  return false;
}

bool fromDataType(cudaDataType T, Elem &E) {
  switch (T) {
  case CUDA_R_16F: E = Elem::R16F; return true;
  case CUDA_C_16F: E = Elem::C16F; return true;
  case CUDA_R_16BF: E = Elem::R16BF; return true;
  case CUDA_C_16BF: E = Elem::C16BF; return true;
  case CUDA_R_32F: E = Elem::R32F; return true;
  case CUDA_C_32F: E = Elem::C32F; return true;
  case CUDA_R_64F: E = Elem::R64F; return true;
  case CUDA_C_64F: E = Elem::C64F; return true;
  }
  return false;
}

/// The shape, batch and layouts of a plan call, in 64 bits.
template <typename I>
cufftResult describe(const char *Fn, int Rank, const I *N, const I *InEmbed,
                     I IStride, I IDist, const I *OnEmbed, I OStride, I ODist,
                     I Batch, TransformDesc &D) {
  if (Rank < 1 || Rank > 3)
    return refuse(CUFFT_INVALID_SIZE, Fn,
                  "rank " + std::to_string(Rank) + " is not 1, 2 or 3");
  if (!N)
    return refuse(CUFFT_INVALID_VALUE, Fn, "n is NULL");
  for (int D = 0; D < Rank; ++D)
    if (N[D] < 1)
      return refuse(CUFFT_INVALID_SIZE, Fn,
                    "n[" + std::to_string(D) + "] = " +
                        std::to_string((long long)N[D]) + " is not positive");
  if (Batch < 1)
    return refuse(CUFFT_INVALID_SIZE, Fn,
                  "batch " + std::to_string((long long)Batch) +
                      " is not positive");
  D.N.assign(N, N + Rank);
  D.Batch = Batch;
  // Either embedding NULL is the basic layout: the strides and distances
  // are then ignored.
  D.Advanced = InEmbed && OnEmbed;
  if (D.Advanced) {
    D.InLayout.Embed.assign(InEmbed, InEmbed + Rank);
    D.InLayout.Stride = IStride;
    D.InLayout.Dist = IDist;
    D.OutLayout.Embed.assign(OnEmbed, OnEmbed + Rank);
    D.OutLayout.Stride = OStride;
    D.OutLayout.Dist = ODist;
  }
  return CUFFT_SUCCESS;
}

/// Plans D; the error names Fn.
cufftResult planTransform(const char *Fn, const TransformDesc &D,
                          std::shared_ptr<const Transform> &Out) {
  PlanError Error;
  std::unique_ptr<Transform> T;
  try {
    T = Transform::create(D, Error);
  } catch (const std::bad_alloc &) {
    return refuse(CUFFT_ALLOC_FAILED, Fn, "out of host memory planning it");
  }
  if (!T)
    return refuse(Error.K == PlanError::Type   ? CUFFT_INVALID_TYPE
                  : Error.K == PlanError::Size ? CUFFT_INVALID_SIZE
                                                           : CUFFT_INVALID_VALUE,
                  Fn, Error.Message);
  Out = std::move(T);
  return CUFFT_SUCCESS;
}

/// Makes Handle's plan from D (checked already by describe).
cufftResult makePlan(const char *Fn, cufftHandle Handle, TransformDesc &D,
                     size_t *WorkSize) {
  if (onHip())
    return refuseOnHip(Fn);
  auto Unmade = [&](Plan &P) {
    if (P.T)
      return refuse(CUFFT_INVALID_PLAN, Fn,
                    "plan " + std::to_string(Handle) +
                        " is made already; cufftDestroy it and create another");
    return CUFFT_SUCCESS;
  };
  if (cufftResult R = withPlan(Fn, Handle, Unmade))
    return R;
  // Planned outside the lock: large plans take a while.
  std::shared_ptr<const Transform> T;
  if (cufftResult R = planTransform(Fn, D, T))
    return R;
  return withPlan(Fn, Handle, [&](Plan &P) {
    if (cufftResult R = Unmade(P))
      return R;
    P.T = std::move(T);
    // The transforms need no device work area: they run on the host.
    if (WorkSize)
      *WorkSize = 0;
    return CUFFT_SUCCESS;
  });
}

template <typename I>
cufftResult makeMany(const char *Fn, cufftHandle Handle, int Rank, const I *N,
                     const I *InEmbed, I IStride, I IDist, const I *OnEmbed,
                     I OStride, I ODist, cufftType Type, I Batch,
                     size_t *WorkSize) {
  TransformDesc D;
  if (!fromType(Type, D.K, D.In, D.Out))
    return refuse(CUFFT_INVALID_TYPE, Fn,
                  "type " + std::to_string(int(Type)) + " is not a cufftType");
  if (cufftResult R = describe<I>(Fn, Rank, N, InEmbed, IStride, IDist,
                                  OnEmbed, OStride, ODist, Batch, D))
    return R;
  return makePlan(Fn, Handle, D, WorkSize);
}

/// The checks a plan call makes, without making the plan (GetSize,
/// Estimate): the work size is 0.
template <typename I>
cufftResult sizeMany(const char *Fn, int Rank, const I *N, const I *InEmbed,
                     I IStride, I IDist, const I *OnEmbed, I OStride, I ODist,
                     cufftType Type, I Batch, size_t *WorkSize) {
  if (!WorkSize)
    return refuse(CUFFT_INVALID_VALUE, Fn, "workSize is NULL");
  TransformDesc D;
  if (!fromType(Type, D.K, D.In, D.Out))
    return refuse(CUFFT_INVALID_TYPE, Fn,
                  "type " + std::to_string(int(Type)) + " is not a cufftType");
  if (cufftResult R = describe<I>(Fn, Rank, N, InEmbed, IStride, IDist,
                                  OnEmbed, OStride, ODist, Batch, D))
    return R;
  *WorkSize = 0;
  return CUFFT_SUCCESS;
}

cufftResult createHandle(cufftHandle *Handle) {
  if (!Handle)
    return refuse(CUFFT_INVALID_VALUE, "cufftCreate", "handle is NULL");
  std::lock_guard<std::mutex> G(Lock);
  cufftHandle H = NextHandle++;
  Plans[H];
  *Handle = H;
  return CUFFT_SUCCESS;
}

void destroyHandle(cufftHandle Handle) {
  std::lock_guard<std::mutex> G(Lock);
  Plans.erase(Handle);
}

/// Creates a plan and makes it (the cufftPlan* calls); on failure no
/// handle is left behind.
template <typename MakeFn>
cufftResult createAndMake(const char *Fn, cufftHandle *Handle, MakeFn Make) {
  if (!Handle)
    return refuse(CUFFT_INVALID_VALUE, Fn, "plan is NULL");
  if (onHip())
    return refuseOnHip(Fn);
  cufftHandle H;
  if (cufftResult R = createHandle(&H))
    return R;
  if (cufftResult R = Make(H)) {
    destroyHandle(H);
    return R;
  }
  *Handle = H;
  return CUFFT_SUCCESS;
}

/// The CPU backend's threads, or fewer if the plan's
/// NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS says so.
unsigned hostThreads(const Plan &P) {
  unsigned N = rt::Runtime::get().cpuThreads();
  auto It = P.Properties.find(NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS);
  if (It != P.Properties.end() && It->second >= 1 && It->second < N)
    N = unsigned(It->second);
  return N ? N : 1;
}

struct ExecJob {
  std::shared_ptr<const Transform> T;
  const void *In = nullptr;
  void *Out = nullptr;
  int Sign = -1;
  unsigned Threads = 1;
  bool OneShot = true;
};

void runExecJob(void *Data) {
  auto *J = static_cast<ExecJob *>(Data);
  // A host function cannot return an error: the stream goes on, and the
  // log says the output was not (fully) written.
  try {
    J->T->execute(J->In, J->Out, J->Sign, J->Threads);
  } catch (const std::exception &E) {
    CUHIP_ERROR("cufftExec: the transform failed (%s); its output is not "
                "written",
                E.what());
  }
  if (J->OneShot)
    delete J;
}

/// Does [P, P + Bytes) stay inside the device memory P points into? Memory
/// that is not device memory (host memory, which the CPU backend's device
/// reads) passes.
bool fitsDeviceMemory(const void *P, uint64_t Bytes) {
  rt::Runtime &R = rt::Runtime::get();
  return !R.isDeviceRange(P, 1) || R.isDeviceRange(P, Bytes);
}

/// What every exec call shares. A legacy call is for one cufftType, which
/// the plan's transform must be; cufftXtExec (no type) takes any.
/// Direction is checked for complex-to-complex transforms only.
cufftResult exec(const char *Fn, cufftHandle Handle, const void *In,
                 void *Out, int Direction,
                 std::optional<cufftType> Legacy = std::nullopt) {
  if (onHip())
    return refuseOnHip(Fn);
  std::shared_ptr<const Transform> T;
  cudaStream_t Stream;
  unsigned Threads;
  if (cufftResult R = withPlan(Fn, Handle, [&](Plan &P) {
        if (!P.T)
          return refuse(CUFFT_INVALID_PLAN, Fn,
                        "plan " + std::to_string(Handle) + " is not made");
        T = P.T;
        Stream = P.Stream;
        Threads = hostThreads(P);
        return CUFFT_SUCCESS;
      }))
    return R;
  const TransformDesc &D = T->desc();
  Kind WantKind;
  Elem WantIn, WantOut;
  if (Legacy && (!fromType(*Legacy, WantKind, WantIn, WantOut) ||
                 WantKind != D.K || WantIn != D.In))
    return refuse(CUFFT_INVALID_VALUE, Fn,
                  std::string("the plan's transform is ") +
                      cuhip::fft::elemName(D.In) + " to " +
                      cuhip::fft::elemName(D.Out) + ", not this call's");
  if (!In || !Out)
    return refuse(CUFFT_INVALID_VALUE, Fn, "a data pointer is NULL");
  if (D.K == Kind::C2C && Direction != -1 && Direction != 1)
    return refuse(CUFFT_INVALID_VALUE, Fn,
                  "direction " + std::to_string(Direction) +
                      " is neither CUFFT_FORWARD nor CUFFT_INVERSE");
  bool InPlace = In == Out;
  for (bool Output : {false, true}) {
    uint64_t Bytes = T->extentBytes(Output, InPlace);
    if (!fitsDeviceMemory(Output ? Out : In, Bytes))
      return refuse(CUFFT_INVALID_VALUE, Fn,
                    std::string(Output ? "the output" : "the input") +
                        " spans " + std::to_string(Bytes) +
                        " bytes, past the end of the device memory it "
                        "starts in");
  }
  auto Job = std::make_unique<ExecJob>();
  Job->T = std::move(T);
  Job->In = In;
  Job->Out = Out;
  Job->Sign = Direction;
  Job->Threads = Threads;
  int S = rt::enqueueHostJob(std::move(Job), runExecJob, Stream);
  if (S != rt::cudaSuccess)
    return refuse(CUFFT_EXEC_FAILED, Fn,
                  std::string("the transform could not be put on its stream: ") +
                      rt::statusDescription(rt::Status(S)));
  return CUFFT_SUCCESS;
}

constexpr int VersionMajor = CUHIP_CUFFT_MAJOR;

} // namespace

// --- plans -------------------------------------------------------------------

CUFFT_EXPORT cufftResult cufftCreate(cufftHandle *Handle) {
  if (Handle && onHip())
    return refuseOnHip("cufftCreate");
  return createHandle(Handle);
}

CUFFT_EXPORT cufftResult cufftDestroy(cufftHandle Handle) {
  std::lock_guard<std::mutex> G(Lock);
  // Transforms already on a stream keep the plan's transform alive.
  if (!Plans.erase(Handle))
    return refuse(CUFFT_INVALID_PLAN, "cufftDestroy",
                  "handle " + std::to_string(Handle) + " is not a plan");
  return CUFFT_SUCCESS;
}

CUFFT_EXPORT cufftResult cufftMakePlanMany64(
    cufftHandle Plan, int Rank, long long *N, long long *InEmbed,
    long long IStride, long long IDist, long long *OnEmbed, long long OStride,
    long long ODist, cufftType Type, long long Batch, size_t *WorkSize) {
  return makeMany<long long>("cufftMakePlanMany64", Plan, Rank, N, InEmbed,
                             IStride, IDist, OnEmbed, OStride, ODist, Type,
                             Batch, WorkSize);
}

CUFFT_EXPORT cufftResult cufftMakePlanMany(cufftHandle Plan, int Rank, int *N,
                                           int *InEmbed, int IStride,
                                           int IDist, int *OnEmbed,
                                           int OStride, int ODist,
                                           cufftType Type, int Batch,
                                           size_t *WorkSize) {
  return makeMany<int>("cufftMakePlanMany", Plan, Rank, N, InEmbed, IStride,
                       IDist, OnEmbed, OStride, ODist, Type, Batch, WorkSize);
}

CUFFT_EXPORT cufftResult cufftMakePlan1d(cufftHandle Plan, int Nx,
                                         cufftType Type, int Batch,
                                         size_t *WorkSize) {
  int N[1] = {Nx};
  return makeMany<int>("cufftMakePlan1d", Plan, 1, N, nullptr, 1, 0, nullptr,
                       1, 0, Type, Batch, WorkSize);
}

CUFFT_EXPORT cufftResult cufftMakePlan2d(cufftHandle Plan, int Nx, int Ny,
                                         cufftType Type, size_t *WorkSize) {
  int N[2] = {Nx, Ny};
  return makeMany<int>("cufftMakePlan2d", Plan, 2, N, nullptr, 1, 0, nullptr,
                       1, 0, Type, 1, WorkSize);
}

CUFFT_EXPORT cufftResult cufftMakePlan3d(cufftHandle Plan, int Nx, int Ny,
                                         int Nz, cufftType Type,
                                         size_t *WorkSize) {
  int N[3] = {Nx, Ny, Nz};
  return makeMany<int>("cufftMakePlan3d", Plan, 3, N, nullptr, 1, 0, nullptr,
                       1, 0, Type, 1, WorkSize);
}

CUFFT_EXPORT cufftResult cufftPlan1d(cufftHandle *Plan, int Nx,
                                     cufftType Type, int Batch) {
  return createAndMake("cufftPlan1d", Plan, [&](cufftHandle H) {
    return cufftMakePlan1d(H, Nx, Type, Batch, nullptr);
  });
}

CUFFT_EXPORT cufftResult cufftPlan2d(cufftHandle *Plan, int Nx, int Ny,
                                     cufftType Type) {
  return createAndMake("cufftPlan2d", Plan, [&](cufftHandle H) {
    return cufftMakePlan2d(H, Nx, Ny, Type, nullptr);
  });
}

CUFFT_EXPORT cufftResult cufftPlan3d(cufftHandle *Plan, int Nx, int Ny, int Nz,
                                     cufftType Type) {
  return createAndMake("cufftPlan3d", Plan, [&](cufftHandle H) {
    return cufftMakePlan3d(H, Nx, Ny, Nz, Type, nullptr);
  });
}

CUFFT_EXPORT cufftResult cufftPlanMany(cufftHandle *Plan, int Rank, int *N,
                                       int *InEmbed, int IStride, int IDist,
                                       int *OnEmbed, int OStride, int ODist,
                                       cufftType Type, int Batch) {
  return createAndMake("cufftPlanMany", Plan, [&](cufftHandle H) {
    return cufftMakePlanMany(H, Rank, N, InEmbed, IStride, IDist, OnEmbed,
                             OStride, ODist, Type, Batch, nullptr);
  });
}

// --- work sizes: the transforms run on the host and need no work area ------

CUFFT_EXPORT cufftResult cufftEstimateMany(int Rank, int *N, int *InEmbed,
                                           int IStride, int IDist,
                                           int *OnEmbed, int OStride,
                                           int ODist, cufftType Type,
                                           int Batch, size_t *WorkSize) {
  return sizeMany<int>("cufftEstimateMany", Rank, N, InEmbed, IStride, IDist,
                       OnEmbed, OStride, ODist, Type, Batch, WorkSize);
}

CUFFT_EXPORT cufftResult cufftEstimate1d(int Nx, cufftType Type, int Batch,
                                         size_t *WorkSize) {
  int N[1] = {Nx};
  return sizeMany<int>("cufftEstimate1d", 1, N, nullptr, 1, 0, nullptr, 1, 0,
                       Type, Batch, WorkSize);
}

CUFFT_EXPORT cufftResult cufftEstimate2d(int Nx, int Ny, cufftType Type,
                                         size_t *WorkSize) {
  int N[2] = {Nx, Ny};
  return sizeMany<int>("cufftEstimate2d", 2, N, nullptr, 1, 0, nullptr, 1, 0,
                       Type, 1, WorkSize);
}

CUFFT_EXPORT cufftResult cufftEstimate3d(int Nx, int Ny, int Nz,
                                         cufftType Type, size_t *WorkSize) {
  int N[3] = {Nx, Ny, Nz};
  return sizeMany<int>("cufftEstimate3d", 3, N, nullptr, 1, 0, nullptr, 1, 0,
                       Type, 1, WorkSize);
}

CUFFT_EXPORT cufftResult cufftGetSizeMany(cufftHandle Handle, int Rank, int *N,
                                          int *InEmbed, int IStride, int IDist,
                                          int *OnEmbed, int OStride, int ODist,
                                          cufftType Type, int Batch,
                                          size_t *WorkSize) {
  if (cufftResult R = checkHandle("cufftGetSizeMany", Handle))
    return R;
  return sizeMany<int>("cufftGetSizeMany", Rank, N, InEmbed, IStride, IDist,
                       OnEmbed, OStride, ODist, Type, Batch, WorkSize);
}

CUFFT_EXPORT cufftResult cufftGetSizeMany64(
    cufftHandle Handle, int Rank, long long *N, long long *InEmbed,
    long long IStride, long long IDist, long long *OnEmbed, long long OStride,
    long long ODist, cufftType Type, long long Batch, size_t *WorkSize) {
  if (cufftResult R = checkHandle("cufftGetSizeMany64", Handle))
    return R;
  return sizeMany<long long>("cufftGetSizeMany64", Rank, N, InEmbed, IStride,
                             IDist, OnEmbed, OStride, ODist, Type, Batch,
                             WorkSize);
}

CUFFT_EXPORT cufftResult cufftGetSize1d(cufftHandle Handle, int Nx,
                                        cufftType Type, int Batch,
                                        size_t *WorkSize) {
  int N[1] = {Nx};
  return cufftGetSizeMany(Handle, 1, N, nullptr, 1, 0, nullptr, 1, 0, Type,
                          Batch, WorkSize);
}

CUFFT_EXPORT cufftResult cufftGetSize2d(cufftHandle Handle, int Nx, int Ny,
                                        cufftType Type, size_t *WorkSize) {
  int N[2] = {Nx, Ny};
  return cufftGetSizeMany(Handle, 2, N, nullptr, 1, 0, nullptr, 1, 0, Type, 1,
                          WorkSize);
}

CUFFT_EXPORT cufftResult cufftGetSize3d(cufftHandle Handle, int Nx, int Ny,
                                        int Nz, cufftType Type,
                                        size_t *WorkSize) {
  int N[3] = {Nx, Ny, Nz};
  return cufftGetSizeMany(Handle, 3, N, nullptr, 1, 0, nullptr, 1, 0, Type, 1,
                          WorkSize);
}

CUFFT_EXPORT cufftResult cufftGetSize(cufftHandle Handle, size_t *WorkSize) {
  if (cufftResult R = checkHandle("cufftGetSize", Handle))
    return R;
  if (!WorkSize)
    return refuse(CUFFT_INVALID_VALUE, "cufftGetSize", "workSize is NULL");
  *WorkSize = 0;
  return CUFFT_SUCCESS;
}

// The transforms use no device work area: a work area the program gives is
// not needed, and neither is allocating one.
CUFFT_EXPORT cufftResult cufftSetWorkArea(cufftHandle Handle, void *) {
  return checkHandle("cufftSetWorkArea", Handle);
}

CUFFT_EXPORT cufftResult cufftSetAutoAllocation(cufftHandle Handle, int) {
  return checkHandle("cufftSetAutoAllocation", Handle);
}

CUFFT_EXPORT cufftResult cufftSetStream(cufftHandle Handle,
                                        cudaStream_t Stream) {
  if (Stream && !rt::Runtime::get().isStreamHandle(Stream))
    return refuse(CUFFT_INVALID_VALUE, "cufftSetStream",
                  "the stream is not a live stream");
  return withPlan("cufftSetStream", Handle, [&](Plan &P) {
    P.Stream = Stream;
    return CUFFT_SUCCESS;
  });
}

// --- execution ---------------------------------------------------------------

CUFFT_EXPORT cufftResult cufftExecC2C(cufftHandle Plan, cufftComplex *In,
                                      cufftComplex *Out, int Direction) {
  return exec("cufftExecC2C", Plan, In, Out, Direction, CUFFT_C2C);
}

CUFFT_EXPORT cufftResult cufftExecZ2Z(cufftHandle Plan,
                                      cufftDoubleComplex *In,
                                      cufftDoubleComplex *Out, int Direction) {
  return exec("cufftExecZ2Z", Plan, In, Out, Direction, CUFFT_Z2Z);
}

CUFFT_EXPORT cufftResult cufftExecR2C(cufftHandle Plan, cufftReal *In,
                                      cufftComplex *Out) {
  return exec("cufftExecR2C", Plan, In, Out, CUFFT_FORWARD, CUFFT_R2C);
}

CUFFT_EXPORT cufftResult cufftExecD2Z(cufftHandle Plan, cufftDoubleReal *In,
                                      cufftDoubleComplex *Out) {
  return exec("cufftExecD2Z", Plan, In, Out, CUFFT_FORWARD, CUFFT_D2Z);
}

CUFFT_EXPORT cufftResult cufftExecC2R(cufftHandle Plan, cufftComplex *In,
                                      cufftReal *Out) {
  return exec("cufftExecC2R", Plan, In, Out, CUFFT_INVERSE, CUFFT_C2R);
}

CUFFT_EXPORT cufftResult cufftExecZ2D(cufftHandle Plan,
                                      cufftDoubleComplex *In,
                                      cufftDoubleReal *Out) {
  return exec("cufftExecZ2D", Plan, In, Out, CUFFT_INVERSE, CUFFT_Z2D);
}

// --- versions and plan properties --------------------------------------------

CUFFT_EXPORT cufftResult cufftGetVersion(int *Version) {
  if (!Version)
    return refuse(CUFFT_INVALID_VALUE, "cufftGetVersion", "version is NULL");
  *Version = VersionMajor * 1000;
  return CUFFT_SUCCESS;
}

CUFFT_EXPORT cufftResult cufftGetProperty(libraryPropertyType Type,
                                          int *Value) {
  if (!Value)
    return refuse(CUFFT_INVALID_VALUE, "cufftGetProperty", "value is NULL");
  switch (Type) {
  case MAJOR_VERSION: *Value = VersionMajor; return CUFFT_SUCCESS;
  case MINOR_VERSION: *Value = 0; return CUFFT_SUCCESS;
  case PATCH_LEVEL: *Value = 0; return CUFFT_SUCCESS;
  }
  return refuse(CUFFT_INVALID_TYPE, "cufftGetProperty",
                "type " + std::to_string(int(Type)) +
                    " is not a libraryPropertyType");
}

static bool knownProperty(cufftProperty P) {
  return P == NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT ||
         P == NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS;
}

CUFFT_EXPORT cufftResult cufftSetPlanPropertyInt64(cufftHandle Handle,
                                                   cufftProperty Property,
                                                   const long long Value) {
  const char *Fn = "cufftSetPlanPropertyInt64";
  if (!knownProperty(Property))
    return refuse(CUFFT_NOT_SUPPORTED, Fn,
                  "property " + std::to_string(int(Property)) +
                      " is not a cufftProperty");
  if (Property == NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT && Value != 0 &&
      Value != 1)
    return refuse(CUFFT_INVALID_VALUE, Fn, "patient JIT is 0 or 1");
  if (Property == NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS && Value < 1)
    return refuse(CUFFT_INVALID_VALUE, Fn,
                  "the number of host threads must be at least 1");
  return withPlan(Fn, Handle, [&](Plan &P) {
    P.Properties[Property] = Value;
    return CUFFT_SUCCESS;
  });
}

CUFFT_EXPORT cufftResult cufftGetPlanPropertyInt64(cufftHandle Handle,
                                                   cufftProperty Property,
                                                   long long *Value) {
  const char *Fn = "cufftGetPlanPropertyInt64";
  if (!knownProperty(Property))
    return refuse(CUFFT_NOT_SUPPORTED, Fn,
                  "property " + std::to_string(int(Property)) +
                      " is not a cufftProperty");
  if (!Value)
    return refuse(CUFFT_INVALID_VALUE, Fn, "the result pointer is NULL");
  return withPlan(Fn, Handle, [&](Plan &P) {
    auto It = P.Properties.find(Property);
    if (It != P.Properties.end())
      *Value = It->second;
    else
      *Value = Property == NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT
                   ? 0
                   : (long long)hostThreads(P);
    return CUFFT_SUCCESS;
  });
}

CUFFT_EXPORT cufftResult cufftResetPlanProperty(cufftHandle Handle,
                                                cufftProperty Property) {
  const char *Fn = "cufftResetPlanProperty";
  if (!knownProperty(Property))
    return refuse(CUFFT_NOT_SUPPORTED, Fn,
                  "property " + std::to_string(int(Property)) +
                      " is not a cufftProperty");
  return withPlan(Fn, Handle, [&](Plan &P) {
    P.Properties.erase(Property);
    return CUFFT_SUCCESS;
  });
}

// --- cufftXt: typed plans on one GPU -----------------------------------------

static cufftResult xtDescribe(const char *Fn, int Rank, long long *N,
                              long long *InEmbed, long long IStride,
                              long long IDist, cudaDataType InType,
                              long long *OnEmbed, long long OStride,
                              long long ODist, cudaDataType OutType,
                              long long Batch, cudaDataType ExecType,
                              TransformDesc &D) {
  Elem In, Out, Exec;
  if (!fromDataType(InType, In) || !fromDataType(OutType, Out) ||
      !fromDataType(ExecType, Exec))
    return refuse(CUFFT_INVALID_TYPE, Fn,
                  "the input, output or execution type is not a floating "
                  "cudaDataType");
  bool InC = cuhip::fft::elemIsComplex(In), OutC = cuhip::fft::elemIsComplex(Out);
  D.K = InC && OutC ? Kind::C2C : InC ? Kind::C2R : Kind::R2C;
  D.In = In;
  D.Out = Out;
  // The execution type is the complex type of the transform's precision.
  Elem Complex = InC ? In : Out;
  if (!InC && !OutC)
    return refuse(CUFFT_INVALID_TYPE, Fn,
                  "a real-to-real transform is not a cuFFT transform");
  if (Exec != Complex)
    return refuse(CUFFT_INVALID_TYPE, Fn,
                  std::string("execution type ") + cuhip::fft::elemName(Exec) +
                      " is not the transform's complex type " +
                      cuhip::fft::elemName(Complex));
  return describe<long long>(Fn, Rank, N, InEmbed, IStride, IDist, OnEmbed,
                             OStride, ODist, Batch, D);
}

CUFFT_EXPORT cufftResult cufftXtMakePlanMany(
    cufftHandle Handle, int Rank, long long *N, long long *InEmbed,
    long long IStride, long long IDist, cudaDataType InType,
    long long *OnEmbed, long long OStride, long long ODist,
    cudaDataType OutType, long long Batch, size_t *WorkSize,
    cudaDataType ExecType) {
  const char *Fn = "cufftXtMakePlanMany";
  TransformDesc D;
  if (cufftResult R = xtDescribe(Fn, Rank, N, InEmbed, IStride, IDist, InType,
                                 OnEmbed, OStride, ODist, OutType, Batch,
                                 ExecType, D))
    return R;
  return makePlan(Fn, Handle, D, WorkSize);
}

CUFFT_EXPORT cufftResult cufftXtGetSizeMany(
    cufftHandle Handle, int Rank, long long *N, long long *InEmbed,
    long long IStride, long long IDist, cudaDataType InType,
    long long *OnEmbed, long long OStride, long long ODist,
    cudaDataType OutType, long long Batch, size_t *WorkSize,
    cudaDataType ExecType) {
  const char *Fn = "cufftXtGetSizeMany";
  if (cufftResult R = checkHandle(Fn, Handle))
    return R;
  if (!WorkSize)
    return refuse(CUFFT_INVALID_VALUE, Fn, "workSize is NULL");
  TransformDesc D;
  if (cufftResult R = xtDescribe(Fn, Rank, N, InEmbed, IStride, IDist, InType,
                                 OnEmbed, OStride, ODist, OutType, Batch,
                                 ExecType, D))
    return R;
  *WorkSize = 0;
  return CUFFT_SUCCESS;
}

CUFFT_EXPORT cufftResult cufftXtExec(cufftHandle Plan, void *In, void *Out,
                                     int Direction) {
  return exec("cufftXtExec", Plan, In, Out, Direction);
}

CUFFT_EXPORT cufftResult cufftXtSetWorkArea(cufftHandle Handle,
                                            void **WorkArea) {
  return cufftSetWorkArea(Handle, WorkArea ? WorkArea[0] : nullptr);
}

CUFFT_EXPORT cufftResult cufftXtSetWorkAreaPolicy(cufftHandle Handle,
                                                  cufftXtWorkAreaPolicy Policy,
                                                  size_t *WorkSize) {
  const char *Fn = "cufftXtSetWorkAreaPolicy";
  if (cufftResult R = checkHandle(Fn, Handle))
    return R;
  if (Policy != CUFFT_WORKAREA_MINIMAL && Policy != CUFFT_WORKAREA_USER &&
      Policy != CUFFT_WORKAREA_PERFORMANCE)
    return refuse(CUFFT_INVALID_VALUE, Fn,
                  "policy " + std::to_string(int(Policy)) +
                      " is not a cufftXtWorkAreaPolicy");
  // Every policy is met: the transforms use no device work area.
  (void)WorkSize;
  return CUFFT_SUCCESS;
}

CUFFT_EXPORT cufftResult cufftXtSetGPUs(cufftHandle Handle, int NGpus,
                                        int *WhichGpus) {
  const char *Fn = "cufftXtSetGPUs";
  if (cufftResult R = checkHandle(Fn, Handle))
    return R;
  if (NGpus < 1 || !WhichGpus)
    return refuse(CUFFT_INVALID_VALUE, Fn, "no GPUs are given");
  int Count = rt::Runtime::get().deviceCount();
  for (int I = 0; I < NGpus; ++I)
    if (WhichGpus[I] < 0 || WhichGpus[I] >= Count)
      return refuse(CUFFT_INVALID_DEVICE, Fn,
                    "device " + std::to_string(WhichGpus[I]) +
                        " does not exist (" + std::to_string(Count) +
                        " present)");
  return refuse(CUFFT_NOT_SUPPORTED, Fn,
                "multi-GPU plans are not provided: a plan runs on the "
                "current device");
}

// --- not provided: multi-GPU descriptors, callbacks ---------------------------

static cufftResult multiGpuOnly(const char *Fn) {
  return refuse(CUFFT_NOT_SUPPORTED, Fn,
                "cudaLibXtDesc descriptors belong to multi-GPU plans, which "
                "are not provided");
}

// Each answers CUFFT_NOT_SUPPORTED, whatever its arguments.
#define CUFFT_MULTI_GPU_ONLY(Name, ...)                                        \
  CUFFT_EXPORT cufftResult Name(__VA_ARGS__) { return multiGpuOnly(#Name); }
CUFFT_MULTI_GPU_ONLY(cufftXtMalloc, cufftHandle, cudaLibXtDesc **,
                     cufftXtSubFormat)
CUFFT_MULTI_GPU_ONLY(cufftXtMemcpy, cufftHandle, void *, void *,
                     cufftXtCopyType)
CUFFT_MULTI_GPU_ONLY(cufftXtFree, cudaLibXtDesc *)
CUFFT_MULTI_GPU_ONLY(cufftXtExecDescriptor, cufftHandle, cudaLibXtDesc *,
                     cudaLibXtDesc *, int)
CUFFT_MULTI_GPU_ONLY(cufftXtExecDescriptorC2C, cufftHandle, cudaLibXtDesc *,
                     cudaLibXtDesc *, int)
CUFFT_MULTI_GPU_ONLY(cufftXtExecDescriptorZ2Z, cufftHandle, cudaLibXtDesc *,
                     cudaLibXtDesc *, int)
CUFFT_MULTI_GPU_ONLY(cufftXtExecDescriptorR2C, cufftHandle, cudaLibXtDesc *,
                     cudaLibXtDesc *)
CUFFT_MULTI_GPU_ONLY(cufftXtExecDescriptorD2Z, cufftHandle, cudaLibXtDesc *,
                     cudaLibXtDesc *)
CUFFT_MULTI_GPU_ONLY(cufftXtExecDescriptorC2R, cufftHandle, cudaLibXtDesc *,
                     cudaLibXtDesc *)
CUFFT_MULTI_GPU_ONLY(cufftXtExecDescriptorZ2D, cufftHandle, cudaLibXtDesc *,
                     cudaLibXtDesc *)
#undef CUFFT_MULTI_GPU_ONLY
CUFFT_EXPORT cufftResult cufftXtQueryPlan(cufftHandle Handle, void *,
                                          cufftXtQueryType) {
  if (cufftResult R = checkHandle("cufftXtQueryPlan", Handle))
    return R;
  return refuse(CUFFT_NOT_SUPPORTED, "cufftXtQueryPlan",
                "the 1D factor query describes multi-GPU plans, which are "
                "not provided");
}

static cufftResult noCallbacks(const char *Fn, cufftHandle Handle) {
  if (cufftResult R = checkHandle(Fn, Handle))
    return R;
  return refuse(CUFFT_NOT_SUPPORTED, Fn,
                "load and store callbacks are device functions, which cuhip's "
                "host-side transforms cannot call");
}

CUFFT_EXPORT cufftResult cufftXtSetCallback(cufftHandle Handle, void **,
                                            cufftXtCallbackType, void **) {
  return noCallbacks("cufftXtSetCallback", Handle);
}
CUFFT_EXPORT cufftResult cufftXtSetCallbackSharedSize(cufftHandle Handle,
                                                      cufftXtCallbackType,
                                                      size_t) {
  return noCallbacks("cufftXtSetCallbackSharedSize", Handle);
}
CUFFT_EXPORT cufftResult cufftXtSetJITCallback(cufftHandle Handle,
                                               const char *, const void *,
                                               size_t, cufftXtCallbackType,
                                               void **) {
  return noCallbacks("cufftXtSetJITCallback", Handle);
}
CUFFT_EXPORT cufftResult cufftXtClearCallback(cufftHandle Handle,
                                              cufftXtCallbackType) {
  // No callback can have been set: there is nothing to clear.
  return checkHandle("cufftXtClearCallback", Handle);
}

// --- exported by NVIDIA's library but declared in no public header -----------

CUFFT_EXPORT cufftResult cufftDebug() {
  return refuse(CUFFT_NOT_SUPPORTED, "cufftDebug",
                "it is in no public cuFFT header, and cuhip does not provide it");
}

CUFFT_EXPORT cufftResult cufftXtMakePlanGuru64() {
  return refuse(CUFFT_NOT_SUPPORTED, "cufftXtMakePlanGuru64",
                "it is in no public cuFFT header, and cuhip does not provide it");
}
