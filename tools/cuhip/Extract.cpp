//===- Extract.cpp - `cuhip extract`: list and dump device code -----------===//
//
// Shows what device code nvcc embedded in a program, shared library, object
// or fatbin file: every fatbin container (one per registration wrapper) with
// a table of its entries, and with --dump writes each entry's payload,
// decompressed, to a file (PTX as .ptx, ELF as .cubin). It is how a user sees
// which PTX `cuhip run` will compile and why a program has none, and how the
// tests look at embedded PTX.
//
//===----------------------------------------------------------------------===//
#include "Tool.h"

#include "cuhip/runtime/Fatbin.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

using namespace cuhip;

namespace {

const char *const Usage =
    "usage: cuhip extract PROGRAM... [--dump DIR]\n"
    "\n"
    "Lists the fatbin containers nvcc embedded in each PROGRAM (executable,\n"
    "shared library, object file or `nvcc -fatbin` file) and their entries:\n"
    "kind (ptx or elf), architecture, PTX ISA or ELF version, compression,\n"
    "stored and uncompressed size in bytes, name and recorded ptxas options.\n"
    "\n"
    "options:\n"
    "  --dump DIR   also write every entry, decompressed, to\n"
    "               DIR/<program>.<container>.<entry>.sm_NN.{ptx,cubin}\n"
    "               (DIR is created if needed) and print the paths\n"
    "  -h, --help   show this help\n";

int fail(const std::string &What, const std::string &Message) {
  std::fprintf(stderr, "cuhip extract: error: %s%s%s\n", What.c_str(),
               What.empty() ? "" : ": ", Message.c_str());
  return 1;
}

std::string hex(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

/// Names, options and section names come from the file: show bytes that
/// are not printable ASCII as \xNN so a corrupt file cannot garble the
/// terminal.
std::string printable(const std::string &S) {
  std::string Out;
  for (unsigned char C : S) {
    if (C >= 0x20 && C < 0x7f) {
      Out += char(C);
    } else {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\x%02x", C);
      Out += Buf;
    }
  }
  return Out;
}

std::string kindText(const fatbin::Entry &E) {
  if (E.Kind == fatbin::EntryKind::Unknown)
    return "kind" + std::to_string(E.RawKind);
  return std::string(fatbin::kindName(E.Kind));
}

std::string containerTitle(size_t Index, const fatbin::Container &C) {
  std::string S = "container " + std::to_string(Index) + ":";
  if (C.WrapperVersion == 2)
    S += " device-linked image (wrapper version 2),";
  else if (C.WrapperVersion != 0)
    S += " wrapper version " + std::to_string(C.WrapperVersion) + ",";
  if (!C.Section.empty())
    S += " " + printable(C.Section);
  S += C.Address != 0 ? " at " + hex(C.Address)
                      : " at file offset " + hex(C.FileOffset);
  S += ", " + std::to_string(C.TotalSize) + " bytes, " +
       std::to_string(C.Entries.size()) +
       (C.Entries.size() == 1 ? " entry" : " entries");
  return S;
}

void printTable(const fatbin::Container &C) {
  if (C.Entries.empty())
    return;
  constexpr size_t Columns = 9;
  // Numbers right-aligned, text left-aligned; the last column is not padded.
  constexpr bool RightAligned[Columns] = {true, false, false, false, false,
                                          true, true,  false, false};
  std::vector<std::array<std::string, Columns>> Rows;
  Rows.push_back({"entry", "kind", "arch", "version", "compression", "stored",
                  "uncompressed", "name", "options"});
  for (const fatbin::Entry &E : C.Entries) {
    std::string Uncompressed =
        E.Comp == fatbin::Compression::None ? std::to_string(E.StoredSize)
        : E.UncompressedSize != 0           ? std::to_string(E.UncompressedSize)
                                            : "?";
    Rows.push_back(
        {std::to_string(E.Index), kindText(E), "sm_" + std::to_string(E.Sm),
         std::to_string(E.IsaMajor) + "." + std::to_string(E.IsaMinor),
         std::string(fatbin::compressionName(E.Comp)),
         std::to_string(E.StoredSize), Uncompressed,
         E.Name.empty() ? "-" : printable(E.Name),
         E.Options.empty() ? "-" : printable(E.Options)});
  }
  size_t Width[Columns] = {};
  for (const auto &Row : Rows)
    for (size_t I = 0; I < Columns; ++I)
      Width[I] = std::max(Width[I], Row[I].size());
  for (const auto &Row : Rows) {
    std::string Line;
    for (size_t I = 0; I < Columns; ++I) {
      std::string Pad(Width[I] - Row[I].size(), ' ');
      Line += "  ";
      if (I + 1 == Columns)
        Line += Row[I];
      else
        Line += RightAligned[I] ? Pad + Row[I] : Row[I] + Pad;
    }
    std::printf("%s\n", Line.c_str());
  }
}

/// Writes every entry of the program's containers under Dir; returns the
/// number of failures (each reported).
int dumpEntries(const std::string &Program,
                const std::vector<fatbin::Container> &Containers,
                const std::string &Dir) {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  if (EC)
    return fail(Dir, "cannot create directory: " + EC.message());
  std::string Stem = std::filesystem::path(Program).filename().string();
  int Failures = 0;
  for (size_t CI = 0; CI < Containers.size(); ++CI) {
    for (const fatbin::Entry &E : Containers[CI].Entries) {
      const char *Ext = E.Kind == fatbin::EntryKind::PTX   ? "ptx"
                        : E.Kind == fatbin::EntryKind::ELF ? "cubin"
                                                           : "bin";
      std::string Path =
          (std::filesystem::path(Dir) /
           (Stem + "." + std::to_string(CI) + "." + std::to_string(E.Index) +
            ".sm_" + std::to_string(E.Sm) + "." + Ext))
              .string();
      std::string Bytes, Err;
      if (!fatbin::decompressPayload(E, Bytes, Err)) {
        Failures +=
            fail(Program, "container " + std::to_string(CI) + ": " + Err);
        continue;
      }
      FILE *F = std::fopen(Path.c_str(), "wb");
      if (!F) {
        Failures +=
            fail(Path, std::string("cannot create: ") + std::strerror(errno));
        continue;
      }
      bool Ok = std::fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
      Ok &= std::fclose(F) == 0;
      if (!Ok) {
        Failures +=
            fail(Path, std::string("cannot write: ") + std::strerror(errno));
        continue;
      }
      std::printf("%s\n", Path.c_str());
    }
  }
  return Failures;
}

} // namespace

int cuhipExtractMain(int argc, char **argv) {
  std::vector<std::string> Programs;
  std::string DumpDir;
  bool OptionsDone = false;
  for (int I = 1; I < argc; ++I) {
    std::string_view Arg = argv[I];
    if (OptionsDone || Arg.empty() || Arg[0] != '-' || Arg == "-") {
      Programs.emplace_back(Arg);
    } else if (Arg == "--") {
      OptionsDone = true;
    } else if (Arg == "-h" || Arg == "--help") {
      std::fputs(Usage, stdout);
      return 0;
    } else if (Arg == "--dump" || Arg.starts_with("--dump=")) {
      if (Arg == "--dump" && I + 1 < argc)
        DumpDir = argv[++I];
      else
        DumpDir = Arg.substr(std::min<size_t>(Arg.size(), 7));
      if (DumpDir.empty())
        return fail("", "--dump needs a directory; run 'cuhip extract --help'");
    } else {
      return fail("", "unknown option '" + std::string(Arg) +
                          "'; run 'cuhip extract --help'");
    }
  }
  if (Programs.empty())
    return fail("", "no program given; usage: cuhip extract PROGRAM "
                    "[--dump DIR]");

  int Failures = 0;
  for (const std::string &Program : Programs) {
    std::string Storage, Err;
    std::vector<fatbin::Container> Containers;
    if (!fatbin::readProgramFatbins(Program, Storage, Containers, Err)) {
      Failures += fail(Program, Err);
      continue;
    }
    std::printf("%s: %zu fatbin container%s\n", Program.c_str(),
                Containers.size(), Containers.size() == 1 ? "" : "s");
    for (size_t CI = 0; CI < Containers.size(); ++CI) {
      std::printf("%s\n", containerTitle(CI, Containers[CI]).c_str());
      printTable(Containers[CI]);
    }
    if (!DumpDir.empty())
      Failures += dumpEntries(Program, Containers, DumpDir);
  }
  std::fflush(stdout);
  return Failures ? 1 : 0;
}
