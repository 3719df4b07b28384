//===- ElfExports.h - The names a shared library exports, for tests -------===//
//
// Export-list tests compare cuhip's drop-in libraries with NVIDIA's: this
// reads the defined dynamic symbols of an ELF file without loading it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <elf.h>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

/// The names a shared library exports (defined dynamic symbols), read from
/// its ELF dynamic symbol table.
inline std::vector<std::string> dynamicExports(const char *Path) {
  std::vector<std::string> Names;
  int Fd = open(Path, O_RDONLY);
  if (Fd < 0)
    return Names;
  struct stat St;
  fstat(Fd, &St);
  void *Map = mmap(nullptr, St.st_size, PROT_READ, MAP_PRIVATE, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED)
    return Names;
  auto *Base = static_cast<const char *>(Map);
  auto *Eh = reinterpret_cast<const Elf64_Ehdr *>(Base);
  auto *Sh = reinterpret_cast<const Elf64_Shdr *>(Base + Eh->e_shoff);
  for (int I = 0; I < Eh->e_shnum; ++I) {
    if (Sh[I].sh_type != SHT_DYNSYM)
      continue;
    auto *Syms = reinterpret_cast<const Elf64_Sym *>(Base + Sh[I].sh_offset);
    const char *Str = Base + Sh[Sh[I].sh_link].sh_offset;
    for (size_t J = 0; J < Sh[I].sh_size / sizeof(Elf64_Sym); ++J)
      // SHN_ABS: the version node's own name, not a function.
      if (Syms[J].st_shndx != SHN_UNDEF && Syms[J].st_shndx != SHN_ABS &&
          Syms[J].st_name)
        Names.push_back(Str + Syms[J].st_name);
  }
  munmap(Map, St.st_size);
  return Names;
}

