//===- CpuVsNative.cpp - cuhip's CPU backend against native OpenMP C++ ----===//
//
// Runs the CUDA kernels of kernels.cu (nvcc's PTX, loaded into cuhip's
// runtime core in this process) and their OpenMP twins below, which do the
// same work with the same algorithm, and prints each workload's time on
// both sides and the ratio cuhip/native against its target. The two sides
// run back to back, interleaved repetition by repetition, after a warm-up
// (JIT compilation, first touch), and each time is the median over the
// repetitions, so that a noisy shared machine affects both alike. Every
// cuhip result is checked against the native one; a wrong result is marked
// FAIL and makes the exit status 1. Missing a target does not: this is a
// measurement. Two rows have no native twin: the cost of an empty launch
// (next to an empty OpenMP parallel region, for reference) and the time a
// second process takes to load the module from the compile cache, measured
// by running this program again as a child with the same cache directory.
// OpenMP's idle workers are made to sleep (OMP_WAIT_POLICY=passive, unless
// the environment sets a policy), as cuhip's do: spinning workers of one
// side would take the cores the other side is being measured on.
//
// usage: cpu_vs_native [--quick] [--reps N] [--only WORKLOAD]
//                      [--ptx kernels.ptx]
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace cuhip::rt;

namespace {

struct Options {
  bool Quick = false;
  int Reps = 7;
  std::string PtxPath;
  bool ModuleLoadChild = false;
  std::string Only; // run just this workload (for profiling); empty: all
};

/// One line of the table.
struct Row {
  std::string Name;
  std::string CuhipText, NativeText, RatioText, Target;
  bool Met = false;
  bool Checked = false; // a result compared against the native one
  bool Correct = true;
  double MaxAbs = 0, MaxRel = 0;
};

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <class F> double timed(F &&Fn) {
  double T0 = now();
  Fn();
  return now() - T0;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
}

/// Runs both sides once untimed, then Reps times each, alternating, and
/// returns the medians {cuhip, native} in seconds.
template <class C, class N>
std::pair<double, double> interleaved(int Reps, C &&Cuhip, N &&Native) {
  Native();
  Cuhip();
  std::vector<double> TC, TN;
  for (int I = 0; I < Reps; ++I) {
    TN.push_back(timed(Native));
    TC.push_back(timed(Cuhip));
  }
  return {median(TC), median(TN)};
}

[[noreturn]] void die(const std::string &Msg) {
  std::fprintf(stderr, "cpu_vs_native: error: %s\n", Msg.c_str());
  std::exit(2);
}

void check(Status S, const char *What) {
  if (S != cudaSuccess)
    die(std::string(What) + " failed with CUDA error " +
        std::to_string(int(S)));
}

/// The kernels' module, loaded once per process.
struct Kernels {
  Kernel *Triad, *Layernorm, *Softmax, *Sgemm, *Histogram, *Empty;
};

Kernel *function(Module *M, const char *Name) {
  Kernel *K = nullptr;
  check(Runtime::get().moduleGetFunction(M, Name, &K), Name);
  return K;
}

void launch(Kernel *K, Dim3 Grid, Dim3 Block, std::vector<void *> Args) {
  Runtime &R = Runtime::get();
  check(R.launch(K, Grid, Block, Args.data(), 0, nullptr), "launch");
  check(R.synchronize(), "synchronize");
}

/// A device buffer holding a copy of Host (or uninitialized when Host is
/// empty), freed on destruction.
template <class T> struct DeviceBuffer {
  T *Ptr = nullptr;
  size_t Count;
  explicit DeviceBuffer(size_t Count, const std::vector<T> &Host = {})
      : Count(Count) {
    void *P = nullptr;
    check(Runtime::get().malloc(&P, Count * sizeof(T)), "malloc");
    Ptr = static_cast<T *>(P);
    if (!Host.empty())
      check(Runtime::get().memcpy(Ptr, Host.data(), Count * sizeof(T),
                                  CopyKind::HostToDevice),
            "memcpy");
    else
      check(Runtime::get().memset(Ptr, 0, Count * sizeof(T)), "memset");
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { Runtime::get().free(Ptr); }
  std::vector<T> read() const {
    std::vector<T> H(Count);
    check(Runtime::get().memcpy(H.data(), Ptr, Count * sizeof(T),
                                CopyKind::DeviceToHost),
          "memcpy");
    return H;
  }
};

std::vector<float> uniform(size_t N, float Lo, float Hi, unsigned Seed) {
  std::mt19937 G(Seed);
  std::uniform_real_distribution<float> D(Lo, Hi);
  std::vector<float> V(N);
  for (float &X : V)
    X = D(G);
  return V;
}

/// Folds the difference between Got and Ref into R: the relative error is
/// taken against max(|ref|, Floor), so that values near zero are judged by
/// their absolute error. Tol bounds the relative error.
template <class T>
void compare(Row &R, const std::vector<T> &Got, const std::vector<T> &Ref,
             double Floor, double Tol) {
  R.Checked = true;
  if (Got.size() != Ref.size()) {
    R.Correct = false;
    return;
  }
  for (size_t I = 0; I < Got.size(); ++I) {
    double G = double(Got[I]), F = double(Ref[I]);
    double Abs = std::fabs(G - F);
    double Rel = Abs / std::max(std::fabs(F), Floor);
    if (!(Abs == Abs) || !(G == G)) // NaN on either side
      Rel = Abs = INFINITY;
    R.MaxAbs = std::max(R.MaxAbs, Abs);
    R.MaxRel = std::max(R.MaxRel, Rel);
  }
  if (!(R.MaxRel <= Tol))
    R.Correct = false;
}

std::string fmt(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

/// Fills the time and ratio columns of a row with a native twin; a
/// TargetRatio of 0 means the workload has no target.
void setTimes(Row &R, double TC, double TN, double TargetRatio,
              const std::string &Extra = "", double ExtraC = 0,
              double ExtraN = 0) {
  R.CuhipText = fmt("%.3f ms", TC * 1e3);
  R.NativeText = fmt("%.3f ms", TN * 1e3);
  if (!Extra.empty()) {
    R.CuhipText += fmt(" (%.1f ", ExtraC) + Extra + ")";
    R.NativeText += fmt(" (%.1f ", ExtraN) + Extra + ")";
  }
  double Ratio = TC / TN;
  R.RatioText = fmt("%.2f", Ratio);
  R.Target = TargetRatio > 0 ? fmt("<= %.2f", TargetRatio) : "-";
  R.Met = TargetRatio <= 0 || Ratio <= TargetRatio;
}

// --- 1. triad ----------------------------------------------------------------

Row benchTriad(const Options &O, const Kernels &K) {
  size_t N = O.Quick ? (size_t(1) << 20) : (size_t(64) << 20) / sizeof(float);
  float S = 3.0f;
  std::vector<float> B = uniform(N, -1, 1, 1), C = uniform(N, -1, 1, 2);
  std::vector<float> A(N);
  DeviceBuffer<float> DA(N), DB(N, B), DC(N, C);
  unsigned long long NN = N;
  unsigned Grid = unsigned((N + 255) / 256);
  auto [TC, TN] = interleaved(
      O.Reps,
      [&] {
        launch(K.Triad, {Grid, 1, 1}, {256, 1, 1},
               {&DA.Ptr, &DB.Ptr, &DC.Ptr, &S, &NN});
      },
      [&] {
        float *a = A.data();
        const float *b = B.data(), *c = C.data();
#pragma omp parallel for schedule(static)
        for (size_t I = 0; I < N; ++I)
          a[I] = b[I] + S * c[I];
      });
  Row R;
  R.Name = fmt("triad (3 x %.0f MB)", double(N * sizeof(float)) / (1 << 20));
  double Bytes = 3.0 * double(N) * sizeof(float);
  setTimes(R, TC, TN, 1.25, "GB/s", Bytes / TC * 1e-9, Bytes / TN * 1e-9);
  compare(R, DA.read(), A, 1e-6, 1e-6);
  return R;
}

// --- 2. layernorm ------------------------------------------------------------

Row benchLayernorm(const Options &O, const Kernels &K) {
  int N = O.Quick ? 256 : 4096, C = 768;
  size_t NC = size_t(N) * C;
  std::vector<float> In = uniform(NC, -2, 2, 3), W = uniform(C, 0.5f, 1.5f, 4),
                     Bi = uniform(C, -0.5f, 0.5f, 5);
  std::vector<float> Out(NC), Mean(N), Rstd(N);
  DeviceBuffer<float> DOut(NC), DMean(N), DRstd(N), DIn(NC, In), DW(C, W),
      DB(C, Bi);
  unsigned Grid = unsigned((N + 7) / 8);
  auto [TC, TN] = interleaved(
      O.Reps,
      [&] {
        launch(K.Layernorm, {Grid, 1, 1}, {256, 1, 1},
               {&DOut.Ptr, &DMean.Ptr, &DRstd.Ptr, &DIn.Ptr, &DW.Ptr, &DB.Ptr,
                &N, &C});
      },
      [&] {
#pragma omp parallel for schedule(static)
        for (int Rw = 0; Rw < N; ++Rw) {
          const float *X = In.data() + size_t(Rw) * C;
          float Sum = 0;
          for (int I = 0; I < C; ++I)
            Sum += X[I];
          float M = Sum / C;
          float Var = 0;
          for (int I = 0; I < C; ++I) {
            float D = X[I] - M;
            Var += D * D;
          }
          float S = 1.0f / std::sqrt(Var / C + 1e-5f);
          float *Y = Out.data() + size_t(Rw) * C;
          for (int I = 0; I < C; ++I)
            Y[I] = S * (X[I] - M) * W[I] + Bi[I];
          Mean[Rw] = M;
          Rstd[Rw] = S;
        }
      });
  Row R;
  R.Name = "layernorm (" + std::to_string(N) + " x " + std::to_string(C) + ")";
  setTimes(R, TC, TN, 1.5);
  compare(R, DOut.read(), Out, 1.0, 1e-4);
  compare(R, DMean.read(), Mean, 1.0, 1e-4);
  compare(R, DRstd.read(), Rstd, 1.0, 1e-4);
  return R;
}

// --- 3. softmax --------------------------------------------------------------

Row benchSoftmax(const Options &O, const Kernels &K) {
  int N = O.Quick ? 256 : 4096, C = 1024;
  size_t NC = size_t(N) * C;
  std::vector<float> In = uniform(NC, -8, 8, 6), Out(NC);
  DeviceBuffer<float> DOut(NC), DIn(NC, In);
  unsigned Grid = unsigned((N + 7) / 8);
  auto [TC, TN] = interleaved(
      O.Reps,
      [&] {
        launch(K.Softmax, {Grid, 1, 1}, {256, 1, 1},
               {&DOut.Ptr, &DIn.Ptr, &N, &C});
      },
      [&] {
#pragma omp parallel for schedule(static)
        for (int Rw = 0; Rw < N; ++Rw) {
          const float *X = In.data() + size_t(Rw) * C;
          float Mx = -INFINITY;
          for (int I = 0; I < C; ++I)
            Mx = std::fmax(Mx, X[I]);
          float Sum = 0;
          for (int I = 0; I < C; ++I)
            Sum += std::exp(X[I] - Mx);
          float Inv = 1.0f / Sum;
          float *Y = Out.data() + size_t(Rw) * C;
          for (int I = 0; I < C; ++I)
            Y[I] = std::exp(X[I] - Mx) * Inv;
        }
      });
  Row R;
  R.Name = "softmax (" + std::to_string(N) + " x " + std::to_string(C) + ")";
  setTimes(R, TC, TN, 1.5);
  // Probabilities: relative to the row's scale (1/C), not to tiny entries.
  compare(R, DOut.read(), Out, 1.0 / C, 1e-4);
  return R;
}

// --- 4. SGEMM ----------------------------------------------------------------

Row benchSgemm(const Options &O, const Kernels &K) {
  constexpr int T = 16;
  int N = O.Quick ? 128 : 512;
  size_t NN = size_t(N) * N;
  std::vector<float> A = uniform(NN, -1, 1, 7), B = uniform(NN, -1, 1, 8),
                     C(NN);
  DeviceBuffer<float> DC(NN), DA(NN, A), DB(NN, B);
  unsigned G = unsigned(N / T);
  auto [TC, TN] = interleaved(
      O.Reps,
      [&] {
        launch(K.Sgemm, {G, G, 1}, {T, T, 1}, {&DC.Ptr, &DA.Ptr, &DB.Ptr, &N});
      },
      [&] {
  // The same 16x16 output tiles and k-tiles as the kernel, each
  // element's sum in increasing k; the j loop vectorizes.
#pragma omp parallel for collapse(2) schedule(static)
        for (int BI = 0; BI < N; BI += T)
          for (int BJ = 0; BJ < N; BJ += T) {
            float Acc[T][T] = {};
            for (int K0 = 0; K0 < N; K0 += T)
              for (int I = 0; I < T; ++I)
                for (int Kk = 0; Kk < T; ++Kk) {
                  float AV = A[size_t(BI + I) * N + K0 + Kk];
                  const float *BRow = &B[size_t(K0 + Kk) * N + BJ];
                  for (int J = 0; J < T; ++J)
                    Acc[I][J] += AV * BRow[J];
                }
            for (int I = 0; I < T; ++I)
              for (int J = 0; J < T; ++J)
                C[size_t(BI + I) * N + BJ + J] = Acc[I][J];
          }
      });
  Row R;
  R.Name = "sgemm 16x16 tiles (" + std::to_string(N) + "^3)";
  double Flop = 2.0 * double(N) * N * N;
  setTimes(R, TC, TN, 2.0, "GFLOP/s", Flop / TC * 1e-9, Flop / TN * 1e-9);
  compare(R, DC.read(), C, 1.0, 1e-4);
  return R;
}

// --- 5. histogram ------------------------------------------------------------

Row benchHistogram(const Options &O, const Kernels &K) {
  size_t N = O.Quick ? (size_t(1) << 20) : (size_t(64) << 20);
  unsigned Chunk = 16384;
  std::vector<unsigned char> Data(N);
  {
    // Skewed towards low values, as real data is, so that bins collide.
    std::mt19937 G(9);
    std::geometric_distribution<int> D(0.02);
    for (unsigned char &X : Data)
      X = (unsigned char)std::min(D(G), 255);
  }
  std::vector<unsigned> Hist(256);
  DeviceBuffer<unsigned> DHist(256);
  DeviceBuffer<unsigned char> DData(N, Data);
  unsigned long long NN = N;
  unsigned Grid = unsigned((N + Chunk - 1) / Chunk);
  auto [TC, TN] = interleaved(
      O.Reps,
      [&] {
        check(Runtime::get().memset(DHist.Ptr, 0, 256 * sizeof(unsigned)),
              "memset");
        launch(K.Histogram, {Grid, 1, 1}, {256, 1, 1},
               {&DHist.Ptr, &DData.Ptr, &NN, &Chunk});
      },
      [&] {
        std::fill(Hist.begin(), Hist.end(), 0u);
        unsigned *H = Hist.data();
        const unsigned char *D = Data.data();
#pragma omp parallel
        {
          unsigned Local[256] = {};
#pragma omp for schedule(static)
          for (size_t I = 0; I < N; ++I)
            ++Local[D[I]];
          for (int B = 0; B < 256; ++B)
            if (Local[B]) {
#pragma omp atomic
              H[B] += Local[B];
            }
        }
      });
  Row R;
  R.Name = fmt("histogram 256 bins (%.0f MB)", double(N) / (1 << 20));
  setTimes(R, TC, TN, 0, "GB/s", double(N) / TC * 1e-9, double(N) / TN * 1e-9);
  compare(R, DHist.read(), Hist, 1.0, 0.0);
  return R;
}

// --- 6. launch overhead ------------------------------------------------------

Row benchLaunch(const Options &O, const Kernels &K) {
  int Count = O.Quick ? 200 : 20000;
  auto [TC, TN] = interleaved(
      O.Reps,
      [&] {
        for (int I = 0; I < Count; ++I)
          launch(K.Empty, {1, 1, 1}, {32, 1, 1}, {});
      },
      [&] {
        for (int I = 0; I < Count; ++I) {
#pragma omp parallel
          { asm volatile("" ::: "memory"); }
        }
      });
  double UsC = TC / Count * 1e6, UsN = TN / Count * 1e6;
  Row R;
  R.Name = "empty launch <<<1,32>>> + sync";
  R.CuhipText = fmt("%.2f us", UsC);
  R.NativeText = fmt("%.2f us (omp parallel)", UsN);
  R.RatioText = "-";
  R.Target = "<= 5 us";
  R.Met = UsC <= 5.0;
  return R;
}

// --- 7. module load from the compile cache -----------------------------------

/// The child's side: load the module (a compile-cache hit, the parent
/// compiled and stored it), look up a kernel and launch it once.
int moduleLoadChild(const std::string &Ptx) {
  double T0 = now();
  Runtime &R = Runtime::get();
  double T1 = now();
  Module *M = nullptr;
  check(R.loadModuleData(Ptx.c_str(), 0, "kernels.ptx", &M), "loadModuleData");
  launch(function(M, "empty_kernel"), {1, 1, 1}, {32, 1, 1}, {});
  double T2 = now();
  std::printf("runtime-init-ms %.3f module-load-ms %.3f\n", (T1 - T0) * 1e3,
              (T2 - T1) * 1e3);
  return 0;
}

Row benchCachedModuleLoad(const Options &O, double ColdLoadSeconds) {
  Row R;
  R.Name = "module load, cached (2nd process)";
  R.NativeText = fmt("cold: %.0f ms", ColdLoadSeconds * 1e3);
  R.RatioText = "-";
  R.Target = "<= 20 ms";
  std::error_code EC;
  std::string Self = std::filesystem::read_symlink("/proc/self/exe", EC);
  if (EC)
    die("cannot find this program's path: " + EC.message());
  std::string Cmd =
      "'" + Self + "' --module-load-child --ptx '" + O.PtxPath + "'";
  std::vector<double> Ms;
  for (int I = 0; I < std::max(3, O.Quick ? 1 : O.Reps); ++I) {
    FILE *P = popen(Cmd.c_str(), "r");
    if (!P)
      die("cannot start " + Cmd);
    char Line[256] = {};
    double Init = 0, Load = -1;
    while (std::fgets(Line, sizeof(Line), P))
      std::sscanf(Line, "runtime-init-ms %lf module-load-ms %lf", &Init, &Load);
    if (pclose(P) != 0 || Load < 0)
      die("the module-load child failed: " + Cmd);
    Ms.push_back(Load);
  }
  double Med = median(Ms);
  R.CuhipText = fmt("%.2f ms", Med);
  R.Met = Med <= 20.0;
  return R;
}

void printTable(const std::vector<Row> &Rows) {
  std::printf("\n%-36s %-26s %-32s %-6s %-9s %-8s %s\n", "workload", "cuhip",
              "native", "ratio", "target", "met", "check (max abs / rel err)");
  for (const Row &R : Rows) {
    std::string Check = "-";
    if (R.Checked) {
      char Buf[96];
      std::snprintf(Buf, sizeof(Buf), "%s (%.2g / %.2g)",
                    R.Correct ? "ok" : "FAIL", R.MaxAbs, R.MaxRel);
      Check = Buf;
    }
    std::printf("%-36s %-26s %-32s %-6s %-9s %-8s %s\n", R.Name.c_str(),
                R.CuhipText.c_str(), R.NativeText.c_str(), R.RatioText.c_str(),
                R.Target.c_str(),
                R.Target == "-" ? "-"
                : R.Met         ? "met"
                                : "not met",
                Check.c_str());
  }
}

std::string readFile(const std::string &Path) {
  std::ifstream F(Path, std::ios::binary);
  if (!F)
    die("cannot read '" + Path + "'");
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

Options parseOptions(int Argc, char **Argv) {
  Options O;
#ifdef CUHIP_BENCH_KERNELS_PTX
  O.PtxPath = CUHIP_BENCH_KERNELS_PTX;
#endif
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--quick")
      O.Quick = true;
    else if (A == "--module-load-child")
      O.ModuleLoadChild = true;
    else if (A == "--reps" && I + 1 < Argc)
      O.Reps = std::atoi(Argv[++I]);
    else if (A == "--only" && I + 1 < Argc)
      O.Only = Argv[++I];
    else if (A == "--ptx" && I + 1 < Argc)
      O.PtxPath = Argv[++I];
    else {
      std::fprintf(stderr, "usage: cpu_vs_native [--quick] [--reps N] "
                           "[--only WORKLOAD] [--ptx kernels.ptx]\n"
                           "workloads: triad layernorm softmax sgemm histogram "
                           "launch module-load\n");
      std::exit(2);
    }
  }
  if (O.Quick && O.Reps == 7)
    O.Reps = 1;
  if (O.Reps < 1)
    die("--reps needs a positive count");
  if (O.PtxPath.empty())
    die("no kernels PTX: pass --ptx kernels.ptx");
  return O;
}

} // namespace

int main(int Argc, char **Argv) {
  // OpenMP's idle workers spin by default, on the cores that cuhip's
  // threads are then measured on; cuhip's pool sleeps. libgomp reads the
  // policy when it is loaded, so the process starts again with workers
  // that sleep between parallel regions too.
  if (!std::getenv("OMP_WAIT_POLICY")) {
    setenv("OMP_WAIT_POLICY", "passive", 1);
    execv("/proc/self/exe", Argv);
    std::fprintf(stderr, "cpu_vs_native: cannot restart itself: %s\n",
                 std::strerror(errno));
    return 1;
  }
  Options O = parseOptions(Argc, Argv);
  std::string Ptx = readFile(O.PtxPath);
  // What is measured is the CPU backend, whatever the environment selects.
  setenv("CUHIP_BACKEND", "cpu", 1);
  if (O.ModuleLoadChild)
    return moduleLoadChild(Ptx);

  // A cache of our own: this process's load is a miss that stores the
  // module, the children's loads are hits on exactly that entry.
  char CacheDir[] = "/tmp/cuhip-bench-cache-XXXXXX";
  if (!mkdtemp(CacheDir))
    die("cannot create a temporary cache directory");
  setenv("CUHIP_CACHE_DIR", CacheDir, 1);

  Runtime &R = Runtime::get();
  Module *M = nullptr;
  double Cold = timed([&] {
    check(R.loadModuleData(Ptx.c_str(), 0, "kernels.ptx", &M),
          "loadModuleData");
  });
  Kernels K{function(M, "triad"),           function(M, "layernorm_forward"),
            function(M, "softmax_forward"), function(M, "sgemm_tiled"),
            function(M, "histogram256"),    function(M, "empty_kernel")};

  const char *Threads = std::getenv("CUHIP_CPU_THREADS");
  std::printf("cuhip CPU backend vs native C++/OpenMP, %s, median of %d "
              "interleaved repetitions\n",
              O.Quick ? "quick sizes" : "full sizes", O.Reps);
  std::printf("threads: cuhip %s, OpenMP %d (OMP_WAIT_POLICY=%s)\n",
              Threads
                  ? Threads
                  : std::to_string(std::thread::hardware_concurrency()).c_str(),
              omp_get_max_threads(), std::getenv("OMP_WAIT_POLICY"));
  std::fflush(stdout);

  std::vector<Row> Rows;
  auto Want = [&](const char *Name) {
    return O.Only.empty() || O.Only == Name;
  };
  if (Want("triad"))
    Rows.push_back(benchTriad(O, K));
  if (Want("layernorm"))
    Rows.push_back(benchLayernorm(O, K));
  if (Want("softmax"))
    Rows.push_back(benchSoftmax(O, K));
  if (Want("sgemm"))
    Rows.push_back(benchSgemm(O, K));
  if (Want("histogram"))
    Rows.push_back(benchHistogram(O, K));
  if (Want("launch"))
    Rows.push_back(benchLaunch(O, K));
  bool Stored = !std::filesystem::is_empty(CacheDir);
  if (Want("module-load"))
    Rows.push_back(benchCachedModuleLoad(O, Cold));
  if (Rows.empty())
    die("no workload named '" + O.Only + "'");
  std::filesystem::remove_all(CacheDir);
  printTable(Rows);
  if (!Stored)
    std::printf("note: the module was not stored in the compile cache, so "
                "the cached-load row measured a compile\n");

  bool AllCorrect = true;
  for (const Row &Rw : Rows)
    AllCorrect &= Rw.Correct;
  std::printf("\n%s\n", AllCorrect ? "all results correct"
                                   : "FAIL: some results are wrong");
  return AllCorrect ? 0 : 1;
}
