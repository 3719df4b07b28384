//===- BenchPtxFrontend.cpp - Throughput of PTX parsing and lowering ------===//
//
// Measures how fast the PTX frontend turns PTX text into the target-neutral
// IR: parseModule, then lowerModule into a fresh LLVMContext. The target is
// "1 MB of PTX in 0.2 s" (5 MB/s for both stages together), so every row
// prints its throughput as a multiple of that target: >= 1.00x meets it.
// Inputs: deterministic synthetic modules of 5 MB and 1 MB (SyntheticPtx),
// the PTX of the project's samples (built by nvcc next to this program when
// a CUDA toolkit was found), and any PTX files named on the command line.
// Each time is the median over several repetitions; small inputs are run in
// batches long enough for the clock to resolve them.
//
// usage: bench_ptx_frontend [--reps N] [--cpu-time] [--quick] [FILE.ptx...]
//
//===----------------------------------------------------------------------===//
#include "SyntheticPtx.h"

#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <vector>

using namespace cuhip;

namespace {

constexpr double MB = 1024.0 * 1024.0;
/// The goal: 1 MB of PTX parsed and lowered in 0.2 s.
constexpr double TargetMBPerSecond = 1.0 / 0.2;
/// A timed batch repeats a small input until it lasts at least this long.
constexpr double MinBatchSeconds = 0.05;

struct Input {
  std::string Name;
  std::string Text;
};

/// Wall-clock time, or with --cpu-time the CPU time of this thread, which
/// leaves out the time other processes on a busy machine took from it.
bool UseCpuTime = false;
/// Over the whole run, for the note on how busy the machine was.
double TotalWall = 0, TotalCpu = 0;

double threadCpuNow() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
}
double wallNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Measures the time between its construction and elapsed().
class Stopwatch {
public:
  Stopwatch() : Wall(wallNow()), Cpu(threadCpuNow()) {}
  double elapsed() const {
    double W = wallNow() - Wall, C = threadCpuNow() - Cpu;
    TotalWall += W;
    TotalCpu += C;
    return UseCpuTime ? C : W;
  }

private:
  double Wall, Cpu;
};

struct Result {
  double ParseSeconds = 0; // median, per module
  double LowerSeconds = 0; // median, per module
  unsigned Kernels = 0;
};

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

/// Parses once, reporting the diagnostics and exiting if the frontend does
/// not accept the input: a benchmark of error paths would measure nothing.
ptx::Module parseOrDie(const Input &In) {
  ptx::DiagnosticEngine Diags(In.Name);
  auto M = ptx::parseModule(In.Text, Diags);
  if (!M) {
    std::fprintf(stderr, "bench_ptx_frontend: %s does not parse:\n%s", In.Name.c_str(),
                 Diags.formatAll().c_str());
    std::exit(1);
  }
  return std::move(*M);
}

void lowerOrDie(const Input &In, const ptx::Module &M) {
  ptx::DiagnosticEngine Diags(In.Name);
  llvm::LLVMContext Ctx;
  if (!ptx::lowerModule(M, Ctx, Diags)) {
    std::fprintf(stderr,
                 "bench_ptx_frontend: %s does not lower (first errors below); "
                 "only inputs the frontend accepts can be timed\n%s",
                 In.Name.c_str(), Diags.formatAll().substr(0, 4000).c_str());
    std::exit(1);
  }
}

/// Runs Fn in batches of Count calls and returns the median time of one
/// call, with Count chosen so that a batch lasts at least MinBatchSeconds.
template <typename F> double timePerCall(unsigned Reps, F Fn) {
  Stopwatch First;
  Fn();
  double One = First.elapsed();
  unsigned Count = One >= MinBatchSeconds ? 1 : unsigned(MinBatchSeconds / std::max(One, 1e-7)) + 1;
  std::vector<double> PerCall;
  for (unsigned Rep = 0; Rep < Reps; ++Rep) {
    Stopwatch Batch;
    for (unsigned I = 0; I < Count; ++I)
      Fn();
    PerCall.push_back(Batch.elapsed() / Count);
  }
  return median(PerCall);
}

Result measure(const Input &In, unsigned Reps) {
  Result R;
  ptx::Module Parsed = parseOrDie(In);
  lowerOrDie(In, Parsed); // also warms up LLVM's lazily built tables
  for (const auto &F : Parsed.Functions)
    R.Kernels += F.IsEntry;

  R.ParseSeconds = timePerCall(Reps, [&] {
    ptx::DiagnosticEngine Diags(In.Name);
    auto M = ptx::parseModule(In.Text, Diags);
    if (!M)
      std::abort();
  });
  // Only lowerModule is timed: the context and the finished module are made
  // and destroyed outside the clock, as a runtime keeps its context alive.
  std::vector<double> Lower;
  for (unsigned Rep = 0; Rep < Reps; ++Rep) {
    double Total = 0;
    unsigned Count = 0;
    do {
      ptx::DiagnosticEngine Diags(In.Name);
      llvm::LLVMContext Ctx;
      Stopwatch Lowering;
      auto L = ptx::lowerModule(Parsed, Ctx, Diags);
      Total += Lowering.elapsed();
      ++Count;
      if (!L)
        std::abort();
    } while (Total < MinBatchSeconds);
    Lower.push_back(Total / Count);
  }
  R.LowerSeconds = median(Lower);
  return R;
}

std::string readFile(const std::filesystem::path &P) {
  std::ifstream F(P, std::ios::binary);
  std::ostringstream S;
  S << F.rdbuf();
  if (!F) {
    std::fprintf(stderr, "bench_ptx_frontend: cannot read %s\n", P.c_str());
    std::exit(1);
  }
  return S.str();
}

void usage(FILE *Out) {
  std::fprintf(Out,
               "usage: bench_ptx_frontend [--reps N] [--cpu-time] [--quick] [FILE.ptx...]\n"
               "  --reps N   repetitions per measurement; the median is shown (default 5)\n"
               "  --cpu-time time with this thread's CPU time instead of the wall clock\n"
               "  --quick    only the 1 MB synthetic module and the files given\n");
}

} // namespace

int main(int argc, char **argv) {
  unsigned Reps = 5;
  bool Quick = false;
  std::vector<std::string> Files;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--reps" && I + 1 < argc) {
      Reps = unsigned(std::max(1, std::atoi(argv[++I])));
    } else if (A == "--cpu-time") {
      UseCpuTime = true;
    } else if (A == "--quick") {
      Quick = true;
    } else if (A == "--help" || A == "-h") {
      usage(stdout);
      return 0;
    } else if (!A.empty() && A[0] == '-') {
      usage(stderr);
      return 2;
    } else {
      Files.push_back(A);
    }
  }

  std::vector<Input> Inputs;
  if (!Quick)
    Inputs.push_back({"synthetic 5 MB", bench::generateSyntheticPtx(5 * 1024 * 1024)});
  Inputs.push_back({"synthetic 1 MB", bench::generateSyntheticPtx(1024 * 1024)});
#ifdef CUHIP_BENCH_SAMPLE_PTX_DIR
  if (!Quick) {
    std::vector<std::filesystem::path> Samples;
    std::error_code EC;
    for (const auto &E : std::filesystem::directory_iterator(CUHIP_BENCH_SAMPLE_PTX_DIR, EC))
      if (E.path().extension() == ".ptx")
        Samples.push_back(E.path());
    std::sort(Samples.begin(), Samples.end());
    if (Samples.empty())
      std::printf("note: no sample PTX in %s (build the bench_ptx_frontend target)\n",
                  CUHIP_BENCH_SAMPLE_PTX_DIR);
    for (const auto &P : Samples)
      Inputs.push_back({"sample " + P.filename().string(), readFile(P)});
  }
#else
  std::printf("note: built without nvcc; the samples' PTX is not measured\n");
#endif
  for (const auto &F : Files)
    Inputs.push_back({F, readFile(F)});

  std::printf("PTX frontend throughput: parse + lower to target-neutral IR\n"
              "target: 1 MB in 0.2 s = %.1f MB/s (MB = 2^20 bytes); median of %u "
              "repetitions of %s; one thread\n\n",
              TargetMBPerSecond, Reps, UseCpuTime ? "thread CPU time" : "wall-clock time");
  std::printf("%-34s %9s %7s %10s %10s %10s %8s %8s\n", "input", "size", "kernels",
              "parse ms", "lower ms", "total ms", "MB/s", "x target");
  for (const Input &In : Inputs) {
    Result R = measure(In, Reps);
    double SizeMB = In.Text.size() / MB;
    double Total = R.ParseSeconds + R.LowerSeconds;
    double Rate = SizeMB / Total;
    char Size[32];
    if (In.Text.size() >= 100 * 1024)
      std::snprintf(Size, sizeof Size, "%.2f MB", SizeMB);
    else
      std::snprintf(Size, sizeof Size, "%.1f KB", In.Text.size() / 1024.0);
    std::printf("%-34s %9s %7u %10.3f %10.3f %10.3f %8.2f %7.2fx\n", In.Name.c_str(), Size,
                R.Kernels, R.ParseSeconds * 1e3, R.LowerSeconds * 1e3, Total * 1e3, Rate,
                Rate / TargetMBPerSecond);
    std::fflush(stdout);
  }
  // Wall time well above CPU time means other processes competed for the
  // CPU, and the wall-clock figures above understate the frontend's speed.
  if (TotalWall > 1.1 * TotalCpu)
    std::printf("\nnote: the machine was busy: this thread ran %.0f%% of the wall-clock "
                "time%s\n",
                100 * TotalCpu / TotalWall,
                UseCpuTime ? "" : "; --cpu-time measures CPU time instead");
  return 0;
}
