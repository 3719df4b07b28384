// A CUDA program that starts other CUDA programs: it runs a kernel itself,
// then runs the program argv[1] (with an rpath into the CUDA toolkit) once
// through fork and execv and once through system(), and checks that both
// exit with status 0 — which they do only when `cuhip run`'s environment
// reached them and cuhip served their CUDA calls too. Prints PASS.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

__global__ void fill(int *Out, int V) { Out[threadIdx.x] = V + threadIdx.x; }

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CHILD-PROGRAM\n", argv[0]);
    return 2;
  }
  int Errors = 0;
  int *Dev = nullptr;
  int Host[32] = {};
  if (cudaMalloc(&Dev, sizeof(Host)) != cudaSuccess) {
    std::printf("parent: cudaMalloc failed\nFAIL\n");
    return 1;
  }
  fill<<<1, 32>>>(Dev, 10);
  if (cudaMemcpy(Host, Dev, sizeof(Host), cudaMemcpyDeviceToHost) !=
      cudaSuccess) {
    std::printf("parent: kernel or copy failed\nFAIL\n");
    return 1;
  }
  for (int I = 0; I < 32; ++I)
    Errors += Host[I] != 10 + I;
  std::fflush(stdout);

  // fork/exec: the child inherits the environment as it is.
  pid_t Pid = fork();
  if (Pid == 0) {
    char *ChildArgv[] = {argv[1], nullptr};
    execv(argv[1], ChildArgv);
    _exit(127);
  }
  int Status = 0;
  if (Pid < 0 || waitpid(Pid, &Status, 0) != Pid || !WIFEXITED(Status) ||
      WEXITSTATUS(Status) != 0) {
    std::printf("fork/exec child: status %d\n", Status);
    ++Errors;
  } else {
    std::printf("fork/exec child: ok\n");
  }
  std::fflush(stdout);

  // system(): through /bin/sh, which passes the environment on.
  std::string Command = std::string("'") + argv[1] + "'";
  int Rc = std::system(Command.c_str());
  if (Rc == -1 || !WIFEXITED(Rc) || WEXITSTATUS(Rc) != 0) {
    std::printf("system child: status %d\n", Rc);
    ++Errors;
  } else {
    std::printf("system child: ok\n");
  }

  // The parent's own device state survived its children.
  if (cudaMemcpy(Host, Dev, sizeof(Host), cudaMemcpyDeviceToHost) !=
          cudaSuccess ||
      Host[31] != 41)
    ++Errors;
  cudaFree(Dev);
  std::printf("%s\n", Errors ? "FAIL" : "PASS");
  return Errors ? 1 : 0;
}
