//===- main.cpp - The cuhip command ---------------------------------------===//
//
// One executable, several subcommands, like git: `cuhip run`, `cuhip
// extract`, `cuhip ptx`. Each subcommand gets argv starting at its name.
//
//===----------------------------------------------------------------------===//
#include "Tool.h"
#include "cuhip/translate/Translate.h"
#include "nvcc/Nvcc.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

#ifndef CUHIP_VERSION
#define CUHIP_VERSION "unknown"
#endif

std::string cuhipBinDir() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0)
    return ".";
  Buf[N] = 0;
  std::string S(Buf);
  size_t Slash = S.rfind('/');
  return Slash == std::string::npos ? "." : S.substr(0, Slash);
}

static void usage(FILE *Out) {
  std::fprintf(Out,
               "usage: cuhip <command> [options]\n"
               "\n"
               "Runs CUDA programs on AMD GPUs or the host CPU.\n"
               "\n"
               "commands:\n"
               "  run [--backend cpu|hip|auto] -- PROGRAM [ARGS...]\n"
               "        run an unmodified CUDA program on cuhip\n"
               "  extract PROGRAM [--dump DIR]\n"
               "        list (and dump) the fatbin entries of a program\n"
               "  ptx IN.ptx --arch host [--emit llvm|asm|obj|gpu-ir] [-o OUT]\n"
               "        compile PTX with cuhip's PTX frontend\n"
               "  translate IN.cu... [-o OUT | --o-dir DIR | --inplace]\n"
               "        translate CUDA source to HIP\n"
               "  nvcc [nvcc options] FILES...\n"
               "        compile CUDA for AMD GPUs (or, --cuhip-backend=cpu, for\n"
               "        cuhip's runtime) with nvcc's command line\n"
               "  info\n"
               "        backends, devices, library locations\n"
               "  version\n"
               "        print the version\n"
               "\n"
               "Run 'cuhip <command> --help' for a command's options.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string Cmd = argv[1];
  if (Cmd == "run")
    return cuhipRunMain(argc - 1, argv + 1);
  if (Cmd == "extract")
    return cuhipExtractMain(argc - 1, argv + 1);
  if (Cmd == "ptx")
    return cuhipPtxMain(argc - 1, argv + 1);
  if (Cmd == "translate")
    return cuhip::translate::translateMain(argc - 1, argv + 1);
  if (Cmd == "nvcc")
    return cuhip::nvcc::nvccMain(argc - 1, argv + 1);
  if (Cmd == "info")
    return cuhipInfoMain(argc - 1, argv + 1);
  if (Cmd == "version" || Cmd == "--version") {
    std::printf("cuhip %s\n", CUHIP_VERSION);
    return 0;
  }
  if (Cmd == "help" || Cmd == "--help" || Cmd == "-h") {
    usage(stdout);
    return 0;
  }
  std::fprintf(stderr, "cuhip: error: unknown command '%s'\n\n", Cmd.c_str());
  usage(stderr);
  return 2;
}
