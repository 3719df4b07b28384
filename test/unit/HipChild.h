//===- HipChild.h - Tests that must run on the HIP backend ----------------===//
//
// The runtime picks its backend once per process, so a test of the HIP
// backend over a stand-in libamdhip64 runs itself again, filtered to its
// own tests, in a child process with CUHIP_BACKEND=hip.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>

/// True in a process on the HIP backend: the test goes on. Otherwise runs
/// this program again on the HIP backend over StandIn, with the tests Filter
/// names and the extra environment Env ("NAME=value ..."), checks that the
/// child passed, and returns false: the test returns.
inline bool onHipBackendOrRerun(const char *StandIn, const char *Filter,
                                const char *Env = "") {
  const char *Backend = std::getenv("CUHIP_BACKEND");
  if (Backend && std::string(Backend) == "hip")
    return true;
  char Self[4096];
  ssize_t Len = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  EXPECT_GT(Len, 0);
  if (Len <= 0)
    return false;
  Self[Len] = 0;
  std::string Cmd = std::string("CUHIP_BACKEND=hip CUHIP_HIP_LIBRARY=") +
                    StandIn + " " + Env + " " + Self +
                    " --gtest_filter=" + Filter + " >/dev/null 2>&1";
  EXPECT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
  return false;
}
