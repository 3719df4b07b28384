/*===- CuhipAudit.c - rtld-audit module that serves cuhip's libraries ----===*\
 *
 * `cuhip run` names this library in LD_AUDIT. The dynamic linker then asks
 * la_objsearch before it searches for any library, and this module answers
 * the CUDA runtime and driver sonames (libcudart.so.12/.13, libcuda.so.1 and
 * their unversioned names) and the cuBLAS ones (libcublas.so.12/.13,
 * libcublasLt.so.12/.13 and theirs), the cuFFT ones (libcufft.so.11/.12 and
 * theirs), nvJitLink's (libnvJitLink.so.13 and its own) and NVRTC's (libnvrtc.so.12/.13, asked
 * for by name only: cuhip's NVRTC bridge opens NVIDIA's by full path) with
 * cuhip's copies, which lie in the
 * directory this module was loaded from. LD_LIBRARY_PATH alone does not suffice: a
 * program's DT_RPATH is searched before it, so a program linked with an
 * rpath into a CUDA toolkit would load NVIDIA's libcudart. Every other name
 * passes through untouched, and LD_AUDIT is inherited by child processes,
 * so CUDA programs a program starts are served too. The dynamic linker
 * ignores LD_AUDIT for setuid and setgid programs.
 *
 * Written in C without allocation: the module runs inside the dynamic
 * linker's audit namespace, before the program's own libraries exist.
 *
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The names cuhip answers, and the file of cuhip's lib directory each one
 * gets: the unversioned libcudart.so (what a program that dlopens the
 * runtime without a version asks for) is CUDA 13's, and so for cuBLAS and
 * cuFFT (CUDA 13's cuFFT is libcufft.so.12). */
static const char *const Names[][2] = {{"libcudart.so.13", "libcudart.so.13"},
                                       {"libcudart.so.12", "libcudart.so.12"},
                                       {"libcudart.so", "libcudart.so.13"},
                                       {"libcuda.so.1", "libcuda.so.1"},
                                       {"libcuda.so", "libcuda.so.1"},
                                       {"libcublas.so.13", "libcublas.so.13"},
                                       {"libcublas.so.12", "libcublas.so.12"},
                                       {"libcublas.so", "libcublas.so.13"},
                                       {"libcublasLt.so.13", "libcublasLt.so.13"},
                                       {"libcublasLt.so.12", "libcublasLt.so.12"},
                                       {"libcublasLt.so", "libcublasLt.so.13"},
                                       {"libcufft.so.12", "libcufft.so.12"},
                                       {"libcufft.so.11", "libcufft.so.11"},
                                       {"libcufft.so", "libcufft.so.12"},
                                       {"libnvJitLink.so.13", "libnvJitLink.so.13"},
                                       {"libnvJitLink.so", "libnvJitLink.so.13"},
                                       {"libnvrtc.so.13", "libnvrtc.so.13"},
                                       {"libnvrtc.so.12", "libnvrtc.so.12"},
                                       {"libnvrtc.so", "libnvrtc.so.13"}};
enum { NumNames = sizeof(Names) / sizeof(Names[0]) };
/* The names at and after this index are redirected only when asked for
 * without a directory. */
enum { FirstByNameOnly = NumNames - 3 };
/* The path each name is redirected to; empty when cuhip's lib directory
 * lacks the file (the name is then left alone). */
static char Paths[NumNames][4096];

/* Fills Paths from the directory holding this module. */
static void findLibraries(void) {
  Dl_info Info;
  if (!dladdr((void *)&findLibraries, &Info) || !Info.dli_fname ||
      Info.dli_fname[0] != '/')
    return;
  const char *Slash = strrchr(Info.dli_fname, '/');
  int DirLen = (int)(Slash - Info.dli_fname);
  for (int I = 0; I < NumNames; ++I) {
    int N = snprintf(Paths[I], sizeof(Paths[I]), "%.*s/%s", DirLen,
                     Info.dli_fname, Names[I][1]);
    if (N <= 0 || (size_t)N >= sizeof(Paths[I]) || access(Paths[I], R_OK) != 0)
      Paths[I][0] = 0;
  }
}

unsigned int la_version(unsigned int Version) {
  findLibraries();
  /* Any interface version from 1 on has la_objsearch as used here. */
  return Version < LAV_CURRENT ? Version : LAV_CURRENT;
}

char *la_objsearch(const char *Name, uintptr_t *Cookie, unsigned int Flag) {
  (void)Cookie;
  /* Only the name as the program or library asked for it; the later calls
   * are for each directory the linker tries. */
  if (Flag != LA_SER_ORIG || !Name)
    return (char *)Name;
  /* A path names a file on purpose, unless it is one of the CUDA names in
   * some other directory (dlopen of a toolkit's libcudart by full path). */
  const char *Slash = strrchr(Name, '/');
  const char *Base = Slash ? Slash + 1 : Name;
  for (int I = 0; I < NumNames; ++I)
    if (Paths[I][0] && strcmp(Base, Names[I][0]) == 0 &&
        !(Slash && I >= FirstByNameOnly))
      return Paths[I];
  return (char *)Name;
}
