// Thrust and CUB as NVIDIA's Thrust samples use them: merge and radix sorts
// (by key, over zip iterators, with a custom comparator), reductions,
// scans, unique and a segmented reduction, each checked against the same
// computation in host code. Built for compute_90, CUB's kernels use
// programmatic dependent launch (griddepcontrol). Run with an argument N,
// the program repeats everything N times with different data (a stress
// run for races between the CPU backend's workers).
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

struct ByFirstThenSecond {
  __host__ __device__ bool operator()(const thrust::tuple<unsigned, unsigned> &A,
                                      const thrust::tuple<unsigned, unsigned> &B) const {
    if (thrust::get<0>(A) != thrust::get<0>(B))
      return thrust::get<0>(A) < thrust::get<0>(B);
    return thrust::get<1>(A) < thrust::get<1>(B);
  }
};

static unsigned next(unsigned long long &S) {
  S = S * 6364136223846793005ULL + 1442695040888963407ULL;
  return unsigned(S >> 33);
}

static int round(int Seed) {
  const int N = 50000;
  unsigned long long S = 0x9E3779B97F4A7C15ULL + Seed;
  std::vector<unsigned> A(N), B(N);
  for (int i = 0; i < N; ++i) {
    A[i] = next(S) % 1000;
    B[i] = next(S);
  }
  int Bad = 0;
  auto expect = [&](bool Ok, const char *What) {
    if (!Ok) {
      printf("round %d: %s differs from the host's\n", Seed, What);
      ++Bad;
    }
  };

  // Radix sort of keys, and by key.
  thrust::device_vector<unsigned> DA(A.begin(), A.end()), DB(B.begin(), B.end());
  thrust::sort(DA.begin(), DA.end());
  std::vector<unsigned> HA = A;
  std::sort(HA.begin(), HA.end());
  thrust::host_vector<unsigned> Got = DA;
  expect(std::equal(HA.begin(), HA.end(), Got.begin()), "sort");

  // Merge sort of (key, value) pairs through a zip iterator.
  DA = A;
  auto Zip = thrust::make_zip_iterator(thrust::make_tuple(DA.begin(), DB.begin()));
  thrust::sort(Zip, Zip + N, ByFirstThenSecond());
  std::vector<std::pair<unsigned, unsigned>> HP(N);
  for (int i = 0; i < N; ++i)
    HP[i] = {A[i], B[i]};
  std::sort(HP.begin(), HP.end());
  thrust::host_vector<unsigned> GA = DA, GB = DB;
  bool PairsOk = true;
  for (int i = 0; i < N; ++i)
    PairsOk &= GA[i] == HP[i].first && GB[i] == HP[i].second;
  expect(PairsOk, "zip sort");

  // Segmented reduction of the values by their sorted keys.
  thrust::device_vector<unsigned> Keys(N), Sums(N);
  auto Ends = thrust::reduce_by_key(DA.begin(), DA.end(), DB.begin(), Keys.begin(),
                                    Sums.begin());
  size_t Segments = Ends.first - Keys.begin();
  std::vector<unsigned> HK, HS;
  for (int i = 0; i < N; ++i) {
    if (HK.empty() || HK.back() != HP[i].first) {
      HK.push_back(HP[i].first);
      HS.push_back(0);
    }
    HS.back() += HP[i].second;
  }
  thrust::host_vector<unsigned> GK = Keys, GS = Sums;
  bool SegOk = Segments == HK.size();
  for (size_t i = 0; SegOk && i < Segments; ++i)
    SegOk = GK[i] == HK[i] && GS[i] == HS[i];
  expect(SegOk, "reduce_by_key");

  // Reduction, inclusive and exclusive scans, unique.
  thrust::device_vector<unsigned> DC(A.begin(), A.end());
  unsigned long long Sum =
      thrust::reduce(DC.begin(), DC.end(), 0ULL, thrust::plus<unsigned long long>());
  expect(Sum == std::accumulate(A.begin(), A.end(), 0ULL), "reduce");
  thrust::device_vector<unsigned> Scan(N);
  thrust::inclusive_scan(DC.begin(), DC.end(), Scan.begin());
  std::vector<unsigned> HScan(N);
  std::partial_sum(A.begin(), A.end(), HScan.begin());
  thrust::host_vector<unsigned> GScan = Scan;
  expect(std::equal(HScan.begin(), HScan.end(), GScan.begin()), "inclusive_scan");
  thrust::exclusive_scan(DC.begin(), DC.end(), Scan.begin(), 7u);
  GScan = Scan;
  bool ExOk = GScan[0] == 7;
  for (int i = 1; ExOk && i < N; ++i)
    ExOk = GScan[i] == HScan[i - 1] + 7;
  expect(ExOk, "exclusive_scan");
  thrust::sort(DC.begin(), DC.end());
  size_t Unique = thrust::unique(DC.begin(), DC.end()) - DC.begin();
  expect(Unique == size_t(std::unique(HA.begin(), HA.end()) - HA.begin()), "unique");
  return Bad;
}

int main(int argc, char **argv) {
  int Rounds = argc > 1 ? atoi(argv[1]) : 1;
  int Bad = 0;
  for (int r = 0; r < Rounds; ++r)
    Bad += round(r);
  cudaError_t E = cudaDeviceSynchronize();
  if (E != cudaSuccess) {
    printf("cudaDeviceSynchronize: %s\n", cudaGetErrorString(E));
    ++Bad;
  }
  printf("%d rounds: %s\n", Rounds, Bad ? "FAIL" : "PASS");
  return Bad ? 1 : 0;
}
