// Loads the library argv[1] names with dlopen and prints the file the
// dynamic linker mapped for it (the object that defines symbol argv[2]).
#include <cstdio>
#include <dlfcn.h>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  void *Lib = dlopen(argv[1], RTLD_NOW);
  if (!Lib) {
    std::printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  Dl_info Info;
  void *Sym = dlsym(Lib, argv[2]);
  if (!Sym || !dladdr(Sym, &Info)) {
    std::printf("no symbol %s\n", argv[2]);
    return 1;
  }
  std::printf("loaded %s\n", Info.dli_fname);
  return 0;
}
