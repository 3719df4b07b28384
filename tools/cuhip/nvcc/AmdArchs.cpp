//===- AmdArchs.cpp - Which AMD targets AMD mode compiles for --------------===//
//
// AMD mode's targets come from --amdgpu-arch=, else $CUHIP_AMDGPU_ARCH, else
// the CUDA architectures the command line names (-arch, -gencode, -code)
// through the table below, else gfx942,gfx1100. The table picks, for each
// CUDA generation, the AMD GPU of the same class: data-centre parts map to
// Instinct (CDNA), consumer parts to Radeon (RDNA). The reverse direction
// is what `-v` reports as "-arch compute_XX", so CMake's default
// CMAKE_CUDA_ARCHITECTURES comes back to the same AMD targets.
// docs/nvcc.md shows the same table; keep them together.
//
//===----------------------------------------------------------------------===//
#include "Nvcc.h"

#include <algorithm>
#include <cstdlib>

namespace cuhip::nvcc {
namespace {

/// CUDA architectures (numbers, suffix dropped) from First up to Last map
/// to Amd; Canonical is what cudaArchsForAmd reports for that target.
struct ArchRange {
  unsigned First, Last;
  const char *Amd;
};
const ArchRange CudaToAmd[] = {
    {0, 79, "gfx906"},     // Kepler..Turing: Vega 20 (MI50/MI60)
    {80, 85, "gfx90a"},    // A100: MI200
    {86, 88, "gfx1030"},   // RTX 30, Jetson Orin: RDNA2
    {89, 89, "gfx1100"},   // RTX 40: RDNA3
    {90, 99, "gfx942"},    // H100/H200: MI300
    {100, 119, "gfx950"},  // B200/GB200: MI350
    {120, 999, "gfx1201"}, // RTX 50: RDNA4
};

/// The AMD targets AMD mode knows, with the CUDA architecture `-v` reports
/// for each.
struct AmdTarget {
  const char *Name;
  const char *Cuda;
};
const AmdTarget KnownTargets[] = {
    {"gfx900", "70"},   {"gfx906", "70"},   {"gfx908", "70"},
    {"gfx90a", "80"},   {"gfx940", "90"},   {"gfx941", "90"},
    {"gfx942", "90"},   {"gfx950", "100"},  {"gfx1010", "86"},
    {"gfx1030", "86"},  {"gfx1031", "86"},  {"gfx1032", "86"},
    {"gfx1100", "89"},  {"gfx1101", "89"},  {"gfx1102", "89"},
    {"gfx1150", "89"},  {"gfx1151", "89"},  {"gfx1200", "120"},
    {"gfx1201", "120"},
};

const AmdTarget *findTarget(const std::string &Name) {
  // A target ID may carry features: gfx90a:xnack+.
  std::string Base = Name.substr(0, Name.find(':'));
  for (const AmdTarget &T : KnownTargets)
    if (Base == T.Name)
      return &T;
  return nullptr;
}

std::string knownList() {
  std::string S;
  for (const AmdTarget &T : KnownTargets)
    S += (S.empty() ? "" : ", ") + std::string(T.Name);
  return S;
}

std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : S + ",") {
    if (C == ',' || C == ';' || C == ' ') {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  return Out;
}

/// "sm_90a" / "compute_80" / "90" -> 90; 0 when it names no architecture
/// (e.g. "native", "all").
unsigned cudaArchNumber(const std::string &Code) {
  std::string S = Code;
  for (const char *Prefix : {"sm_", "compute_", "lto_"})
    if (S.rfind(Prefix, 0) == 0)
      S = S.substr(std::string(Prefix).size());
  unsigned N = 0;
  size_t I = 0;
  for (; I < S.size() && S[I] >= '0' && S[I] <= '9'; ++I)
    N = N * 10 + (S[I] - '0');
  return I == 0 ? 0 : N;
}

void addUnique(std::vector<std::string> &V, const std::string &S) {
  if (std::find(V.begin(), V.end(), S) == V.end())
    V.push_back(S);
}

} // namespace

bool resolveAmdArchs(const Invocation &Inv, std::vector<std::string> &Out,
                     std::string &Err) {
  Out.clear();
  std::vector<std::string> Named;
  std::string From;
  if (!Inv.AmdArchOption.empty()) {
    for (const std::string &A : Inv.AmdArchOption)
      for (const std::string &S : splitList(A))
        Named.push_back(S);
    From = "--amdgpu-arch";
  } else if (const char *E = std::getenv("CUHIP_AMDGPU_ARCH");
             E && *E) {
    Named = splitList(E);
    From = "CUHIP_AMDGPU_ARCH";
  }
  if (!From.empty()) {
    for (const std::string &N : Named) {
      if (!findTarget(N)) {
        Err = From + ": unknown AMD target '" + N + "'; known targets: " +
              knownList();
        return false;
      }
      addUnique(Out, N);
    }
    if (!Out.empty())
      return true;
  }
  for (const GpuCode &G : Inv.GpuCodes) {
    unsigned N = cudaArchNumber(G.Real.empty() ? G.Virtual : G.Real);
    if (!N)
      N = cudaArchNumber(G.Virtual);
    if (!N)
      continue;
    for (const ArchRange &R : CudaToAmd)
      if (N >= R.First && N <= R.Last)
        addUnique(Out, R.Amd);
  }
  if (Out.empty())
    Out = {"gfx942", "gfx1100"};
  return true;
}

std::vector<std::string>
cudaArchsForAmd(const std::vector<std::string> &Amd) {
  std::vector<std::string> Out;
  for (const std::string &A : Amd)
    if (const AmdTarget *T = findTarget(A))
      addUnique(Out, T->Cuda);
  return Out;
}

} // namespace cuhip::nvcc
