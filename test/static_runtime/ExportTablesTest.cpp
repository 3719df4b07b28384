//===- ExportTablesTest.cpp - cuhipExportTable against recording stand-ins
//-===//
//
// Calls every table cuhipExportTable hands out the way NVIDIA's static CUDA
// runtime does (argument lists as docs/static-runtime.md records them) and
// checks what each slot answers and which driver function it forwards to.
// The driver API the tables are built over is defined here as recording
// stand-ins. That NVIDIA's runtime accepts the answers (the integrity check
// above all) is checked by the static_runtime.* programs.
//
//===----------------------------------------------------------------------===//
#include "ExportTables.h"

#include <gtest/gtest.h>

#include <cstring>
#include <pthread.h>
#include <string>
#include <unistd.h>

namespace {

int RetainCalls = 0;
const void *LoadedImage = nullptr;
void *CurrentCtx = nullptr;
char PrimaryCtx[8], TheModule[8];

} // namespace

extern "C" {
int cuDriverGetVersion(int *V) {
  *V = 13000;
  return 0;
}
int cuDeviceGetCount(int *N) {
  *N = 1;
  return 0;
}
int cuDeviceGetAttribute(int *V, int Attr, int) {
  *V = Attr == 33 ? 2 : 0; // PCI bus 2, domain and device 0
  return 0;
}
int cuDeviceGetUuid(CUuuid *U, int) {
  std::memcpy(U->bytes, "0123456789abcdef", 16);
  return 0;
}
int cuDevicePrimaryCtxRetain(void **Ctx, int) {
  ++RetainCalls;
  *Ctx = PrimaryCtx;
  return 0;
}
int cuhipDevicePrimaryContext(void **Ctx, int Dev) {
  if (Dev != 0)
    return 101;
  *Ctx = PrimaryCtx;
  return 0;
}
int cuCtxGetCurrent(void **Ctx) {
  *Ctx = CurrentCtx;
  return 0;
}
int cuModuleLoadData(void **Module, const void *Image) {
  LoadedImage = Image;
  *Module = TheModule;
  return 0;
}
}

namespace {

CUuuid uuid(const char *Hex) {
  CUuuid U{};
  for (int I = 0; I < 16; ++I)
    U.bytes[I] =
        static_cast<char>(std::stoi(std::string(Hex + 2 * I, 2), nullptr, 16));
  return U;
}

const char *const CudartInterface = "6bd5fb6c5bf4e74a8987d93912fd9df9";
const char *const ToolsCallbacks = "a094798c2e742e7493f20800200c0a66";
const char *const ToolsTls = "42d85a8123f6cb478298f6e78a3aecdc";
const char *const ContextLocalStorage = "c693336e1121df11a8c368f355d89593";
const char *const ContextChecks = "263e88607cd2614392f6bbd5006dfa7e";
const char *const IntegrityCheck = "d4082055bde6704b8d34ba123c66e1f2";

const void *const *table(const char *Hex) {
  const void *T = nullptr;
  CUuuid U = uuid(Hex);
  EXPECT_EQ(cuhipExportTable(&T, &U), 0) << Hex;
  return static_cast<const void *const *>(T);
}

template <typename Fn> Fn slot(const void *const *T, int I) {
  return reinterpret_cast<Fn>(const_cast<void *>(T[I]));
}

TEST(ExportTables, RejectsNullArgumentsAndUnknownTables) {
  const void *T = &T;
  CUuuid U = uuid(CudartInterface);
  EXPECT_EQ(cuhipExportTable(nullptr, &U), 1);
  EXPECT_EQ(cuhipExportTable(&T, nullptr), 1);
  // Asked for before cuInit by CUDA 13.0, which copes with its absence.
  CUuuid Unknown = uuid("f8cff95121468b4eb9e2fb469e7c0dd9");
  EXPECT_EQ(cuhipExportTable(&T, &Unknown), 500);
  EXPECT_EQ(T, nullptr);
}

TEST(ExportTables, SizedTablesStartWithTheirSize) {
  struct {
    const char *Uuid;
    size_t Slots;
  } Sized[] = {{CudartInterface, 10},
               {ToolsCallbacks, 7},
               {ToolsTls, 4},
               {ContextChecks, 4},
               {IntegrityCheck, 3},
               {"0ca50b8c1004929a89a7d0df10e77286", 2},
               {"195bcbf4d67d024aacc51d29cea631ae", 3},
               {"b10541e1f7c7c74a9f64f223be99f1e2", 26}};
  for (auto &S : Sized) {
    const void *const *T = table(S.Uuid);
    ASSERT_NE(T, nullptr);
    EXPECT_EQ(reinterpret_cast<size_t>(T[0]), S.Slots * sizeof(void *))
        << S.Uuid;
    for (size_t I = 1; I < S.Slots; ++I)
      EXPECT_NE(T[I], nullptr) << S.Uuid << " slot " << I;
  }
}

TEST(ExportTables, UnimplementedSlotsRefuse) {
  const void *const *T = table("0ca50b8c1004929a89a7d0df10e77286");
  EXPECT_EQ(slot<int (*)()>(T, 1)(), 801);
  T = table(CudartInterface);
  EXPECT_EQ(slot<int (*)()>(T, 3)(), 801);
}

TEST(ExportTables, CudartInterfaceLoadsTheWrappedContainer) {
  const void *const *T = table(CudartInterface);
  alignas(8) unsigned char Container[16] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16};
  struct {
    uint32_t Magic, Version;
    const void *Data;
    const void *Extra;
  } Wrapper{0x466243B1, 1, Container, nullptr};
  void *Module = nullptr;
  LoadedImage = nullptr;
  auto Load = slot<int (*)(void **, const void *)>(T, 1);
  EXPECT_EQ(Load(&Module, &Wrapper), 0);
  EXPECT_EQ(LoadedImage, Container);
  EXPECT_EQ(Module, TheModule);

  Wrapper.Magic = 0x12345678;
  LoadedImage = nullptr;
  EXPECT_EQ(Load(&Module, &Wrapper), 200); // CUDA_ERROR_INVALID_IMAGE
  EXPECT_EQ(LoadedImage, nullptr);
  EXPECT_EQ(Load(nullptr, &Wrapper), 1);
  Wrapper.Magic = 0x466243B1;

  auto LoadExt =
      slot<int (*)(void **, const void *, void *, void *, unsigned)>(T, 6);
  EXPECT_EQ(LoadExt(&Module, &Wrapper, nullptr, nullptr, 0), 0);
  EXPECT_EQ(LoadExt(&Module, &Wrapper, &Module, nullptr, 0), 801);

  auto LoadFatbin =
      slot<int (*)(const void *, void **, void *, void *, unsigned)>(T, 8);
  LoadedImage = nullptr;
  EXPECT_EQ(LoadFatbin(Container, &Module, nullptr, nullptr, 0), 0);
  EXPECT_EQ(LoadedImage, Container);
}

TEST(ExportTables, CudartInterfacePrimaryContextTakesNoReference) {
  auto Get = slot<int (*)(void **, int)>(table(CudartInterface), 2);
  void *Ctx = nullptr;
  RetainCalls = 0;
  EXPECT_EQ(Get(&Ctx, 0), 0);
  EXPECT_EQ(Ctx, PrimaryCtx);
  EXPECT_EQ(RetainCalls, 0);
  EXPECT_EQ(Get(&Ctx, 3), 101);
  EXPECT_EQ(Get(nullptr, 0), 1);
}

TEST(ExportTables, ToolsCallbackBuffers) {
  const void *const *T = table(ToolsCallbacks);
  void *P1 = nullptr, *P2 = nullptr;
  size_t S1 = 0, S2 = 0;
  slot<void (*)(void **, size_t *)>(T, 2)(&P1, &S1);
  slot<void (*)(void **, size_t *)>(T, 6)(&P2, &S2);
  EXPECT_NE(P1, nullptr);
  EXPECT_NE(P2, nullptr);
  EXPECT_NE(P1, P2);
  EXPECT_EQ(S1, 4096u);
  EXPECT_EQ(S2, 56u);
}

int DtorCalls = 0;
void *DtorArgs[3];
void recordDtor(void *Ctx, void *Key, void *Value) {
  ++DtorCalls;
  DtorArgs[0] = Ctx;
  DtorArgs[1] = Key;
  DtorArgs[2] = Value;
}

TEST(ExportTables, ContextLocalStorage) {
  const void *const *T = table(ContextLocalStorage);
  auto Put =
      slot<int (*)(void *, void *, void *, void (*)(void *, void *, void *))>(
          T, 0);
  auto Delete = slot<int (*)(void *, void *)>(T, 1);
  auto Get = slot<int (*)(void **, void *, void *)>(T, 2);
  char Ctx[4], Key[4], Value[4];
  void *Out = &Out;

  // A miss is an error that clears the result: the runtime then makes its
  // state and stores it.
  EXPECT_EQ(Get(&Out, Ctx, Key), 400);
  EXPECT_EQ(Out, nullptr);
  // A null context is the current one; none current is an error.
  CurrentCtx = nullptr;
  EXPECT_EQ(Put(nullptr, Key, Value, recordDtor), 201);
  CurrentCtx = Ctx;
  EXPECT_EQ(Put(nullptr, Key, Value, recordDtor), 0);
  EXPECT_EQ(Get(&Out, Ctx, Key), 0);
  EXPECT_EQ(Out, Value);
  EXPECT_EQ(Get(&Out, nullptr, Key), 0);
  EXPECT_EQ(Out, Value);
  EXPECT_EQ(Get(nullptr, Ctx, Key), 1);

  // Deleting forgets without calling the destructor.
  EXPECT_EQ(Delete(Ctx, Key), 0);
  EXPECT_EQ(Delete(Ctx, Key), 500);
  EXPECT_EQ(Get(&Out, Ctx, Key), 400);
  EXPECT_EQ(DtorCalls, 0);

  // Destroying the context runs the destructor once with what was stored.
  EXPECT_EQ(Put(Ctx, Key, Value, recordDtor), 0);
  cuhipExportTablesContextDestroyed(Ctx);
  EXPECT_EQ(DtorCalls, 1);
  EXPECT_EQ(DtorArgs[0], Ctx);
  EXPECT_EQ(DtorArgs[1], Key);
  EXPECT_EQ(DtorArgs[2], Value);
  EXPECT_EQ(Get(&Out, Ctx, Key), 400);
  cuhipExportTablesContextDestroyed(Ctx);
  EXPECT_EQ(DtorCalls, 1);
  CurrentCtx = nullptr;
}

TEST(ExportTables, ContextChecksReportNothingSet) {
  const void *const *T = table(ContextChecks);
  unsigned Flags = 7;
  void *Out = nullptr;
  EXPECT_EQ(slot<int (*)(void *, unsigned *, void **)>(T, 2)(PrimaryCtx, &Flags,
                                                             &Out),
            0);
  EXPECT_EQ(Flags, 0u);
  EXPECT_EQ(slot<unsigned (*)()>(T, 3)(), 0u);
}

std::string hex(const uint8_t *B, size_t N) {
  std::string S;
  char Buf[3];
  for (size_t I = 0; I < N; ++I) {
    std::snprintf(Buf, sizeof(Buf), "%02x", B[I]);
    S += Buf;
  }
  return S;
}

TEST(ExportTables, Md2MatchesRfc1319) {
  struct {
    const char *In, *Digest;
  } Vectors[] = {
      {"", "8350e5a3e24c153df2275c9f80692773"},
      {"a", "32ec01ec4a6dac72c0ab96fb34c0b5d1"},
      {"abc", "da853b0d3f88d99b30283a69e6ded6bb"},
      {"message digest", "ab4f496bfb2a530b219ff33031fe06b0"},
      {"abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b"},
      {"12345678901234567890123456789012345678901234567890123456789012345678"
       "901234567890",
       "d5976f79d83d3a0dc9806c3c66f3efd8"},
  };
  for (auto &V : Vectors) {
    uint8_t D[16];
    cuhip::cuda::md2(V.In, std::strlen(V.In), D);
    EXPECT_EQ(hex(D, 16), V.Digest) << '"' << V.In << '"';
  }
}

TEST(ExportTables, IntegrityCheckConstantsAndHash) {
  const void *const *T = table(IntegrityCheck);
  auto Check = slot<int (*)(unsigned, uint64_t, uint64_t *)>(T, 1);
  uint64_t Out[2] = {};
  EXPECT_EQ(Check(13000, 1, Out), 0);
  EXPECT_EQ(Out[0], 0x3341181C03CB675Cull);
  EXPECT_EQ(Out[1], 0x8ED383AA1F4CD1E8ull);
  EXPECT_EQ(Check(12081, 1, Out), 0);
  EXPECT_EQ(Out[0], 0x1841181C03CB675Cull);
  EXPECT_EQ(Out[1], 0x8ED383AA1F4CD1E8ull);
  EXPECT_EQ(Check(13002, 5, nullptr), 1);

  // Other versions hash the process, the tables and the devices as the
  // stand-ins above describe them.
  const uint64_t Seconds = 0x682b9cee;
  ASSERT_EQ(Check(13002, Seconds, Out), 0);
  cuhip::cuda::IntegrityInput In{};
  In.DriverVersion = 13000;
  In.Version = 13002;
  In.ProcessId = static_cast<uint32_t>(getpid());
  In.ThreadId = static_cast<uint32_t>(
      reinterpret_cast<uintptr_t>(reinterpret_cast<void *>(pthread_self())));
  In.CudartTable = table(CudartInterface);
  In.IntegrityTable = T;
  In.CheckFunction = T[1];
  In.UnixSeconds = Seconds;
  cuhip::cuda::IntegrityDevice Dev{};
  std::memcpy(Dev.Uuid, "0123456789abcdef", 16);
  Dev.PciBus = 2;
  uint64_t Expected[2];
  cuhip::cuda::integrityHash(In, &Dev, 1, Expected);
  EXPECT_EQ(Out[0], Expected[0]);
  EXPECT_EQ(Out[1], Expected[1]);
  // Every input matters: another second gives another answer.
  uint64_t Later[2];
  ASSERT_EQ(Check(13002, Seconds + 1, Later), 0);
  EXPECT_NE(Later[0], Out[0]);
}

TEST(ExportTables, IntegrityHashKnownAnswer) {
  // Fixed inputs, so the HMAC-MD2 construction itself is pinned; that this
  // construction is the one NVIDIA's runtime checks is shown by the
  // static_runtime.* programs, which fail with error 103 otherwise.
  cuhip::cuda::IntegrityInput In{};
  In.DriverVersion = 0x2f30;
  In.Version = 12082;
  In.ProcessId = 0x002fa423;
  In.ThreadId = 0xf79c1000;
  In.CudartTable = reinterpret_cast<const void *>(0x00007ffff6958240ull);
  In.IntegrityTable = reinterpret_cast<const void *>(0x00007ffff6958220ull);
  In.CheckFunction = reinterpret_cast<const void *>(0x00007ffff2aaf4a0ull);
  In.UnixSeconds = 0x682b9cee;
  cuhip::cuda::IntegrityDevice Dev{};
  const uint32_t Uuid[4] = {0x8a2bfe9a, 0x382d25ac, 0xc5ae37ea, 0x5f32716d};
  std::memcpy(Dev.Uuid, Uuid, 16);
  Dev.PciBus = 2;
  uint64_t Out[2];
  cuhip::cuda::integrityHash(In, &Dev, 1, Out);
  EXPECT_EQ(hex(reinterpret_cast<const uint8_t *>(Out), 16),
            "4448a171b026cef76c8c3e39051b02dd");
}

} // namespace
