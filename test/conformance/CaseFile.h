//===- CaseFile.h - A PTX conformance case: its data file and its checks --===//
//
// The parts of a conformance case that do not depend on how it reaches a
// device: the data file's directives (README.md next to this file), the
// element types, and the comparison of a buffer's contents with the values
// expected. Both runners share it: ptx_conformance runs a case through the
// runtime core, ptx_conformance_driver through any libcuda.so.1 (cuhip's or
// NVIDIA's), so the same cases can be checked against a real GPU.
//
// Self-contained on purpose: the driver runner is built where only a C++
// compiler exists, without the rest of the tree.
//
//===----------------------------------------------------------------------===//
#ifndef CUHIP_TEST_CONFORMANCE_CASEFILE_H
#define CUHIP_TEST_CONFORMANCE_CASEFILE_H

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace conformance {

struct Dim3 {
  unsigned X = 1, Y = 1, Z = 1;
};


enum class Kind { Int, UInt, Float };

struct ElemType {
  std::string Name;
  Kind K = Kind::UInt;
  unsigned Bytes = 4;
};

inline bool parseType(const std::string &S, ElemType &T) {
  static const struct {
    const char *N;
    Kind K;
    unsigned B;
  } Types[] = {{"u8", Kind::UInt, 1},   {"s8", Kind::Int, 1},
               {"b8", Kind::UInt, 1},   {"u16", Kind::UInt, 2},
               {"s16", Kind::Int, 2},   {"b16", Kind::UInt, 2},
               {"u32", Kind::UInt, 4},  {"s32", Kind::Int, 4},
               {"b32", Kind::UInt, 4},  {"u64", Kind::UInt, 8},
               {"s64", Kind::Int, 8},   {"b64", Kind::UInt, 8},
               {"f16", Kind::Float, 2}, {"bf16", Kind::Float, 2},
               {"f32", Kind::Float, 4}, {"f64", Kind::Float, 8}};
  for (const auto &X : Types)
    if (S == X.N) {
      T = {X.N, X.K, X.B};
      return true;
    }
  return false;
}

/// Round-to-nearest-even conversion of a float to IEEE half / bfloat16 bits.
inline uint16_t floatToHalfBits(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000;
  int Exp = int((X >> 23) & 0xff) - 127 + 15;
  uint32_t Man = X & 0x7fffff;
  if (((X >> 23) & 0xff) == 0xff)
    return uint16_t(Sign | 0x7c00 | (Man ? 0x200 | (Man >> 13) : 0));
  if (Exp >= 31)
    return uint16_t(Sign | 0x7c00);
  if (Exp <= 0) {
    if (Exp < -10)
      return uint16_t(Sign);
    Man |= 0x800000;
    unsigned Shift = unsigned(14 - Exp);
    uint32_t H = Man >> Shift, Rem = Man & ((1u << Shift) - 1),
             Half = 1u << (Shift - 1);
    if (Rem > Half || (Rem == Half && (H & 1)))
      ++H;
    return uint16_t(Sign | H);
  }
  uint32_t H = (uint32_t(Exp) << 10) | (Man >> 13);
  uint32_t Rem = Man & 0x1fff;
  if (Rem > 0x1000 || (Rem == 0x1000 && (H & 1)))
    ++H;
  return uint16_t(Sign | H);
}

inline uint16_t floatToBf16Bits(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  if ((X & 0x7fffffff) > 0x7f800000)
    return uint16_t((X >> 16) | 0x40);
  uint32_t Rounding = 0x7fff + ((X >> 16) & 1);
  return uint16_t((X + Rounding) >> 16);
}

inline float halfBitsToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  uint32_t X;
  if (Exp == 0x1f)
    X = Sign | 0x7f800000 | (Man << 13);
  else if (Exp == 0) {
    if (!Man)
      X = Sign;
    else {
      int E = -1;
      do {
        ++E;
        Man <<= 1;
      } while (!(Man & 0x400));
      X = Sign | uint32_t(127 - 15 - E) << 23 | (Man & 0x3ff) << 13;
    }
  } else
    X = Sign | (Exp + 127 - 15) << 23 | Man << 13;
  float F;
  std::memcpy(&F, &X, 4);
  return F;
}

/// An element value as raw bits of the element type, plus whether it is a
/// "any NaN" wildcard.
struct Value {
  uint64_t Bits = 0;
  bool AnyNaN = false;
};

inline bool parseValue(const std::string &Tok, const ElemType &T, Value &V,
                std::string &Err) {
  V = Value();
  if (Tok.size() > 2 && (Tok.rfind("0x", 0) == 0 || Tok.rfind("-0x", 0) == 0) &&
      T.K == Kind::Float) {
    // Raw bit patterns for floats.
    V.Bits = std::strtoull(Tok.c_str(), nullptr, 16);
    return true;
  }
  if (T.K == Kind::Float) {
    if (Tok == "nan") {
      V.AnyNaN = true;
      V.Bits = T.Bytes == 8 ? 0x7ff8000000000000ull
                            : T.Bytes == 4 ? 0x7fc00000u
                            : T.Name == "f16" ? 0x7e00u : 0x7fc0u;
      return true;
    }
    char *End;
    double D = std::strtod(Tok.c_str(), &End);
    if (*End) {
      Err = "bad number '" + Tok + "'";
      return false;
    }
    if (T.Bytes == 8) {
      std::memcpy(&V.Bits, &D, 8);
    } else {
      float F = std::strtof(Tok.c_str(), nullptr);
      uint32_t U;
      std::memcpy(&U, &F, 4);
      V.Bits = T.Bytes == 4 ? U
               : T.Name == "f16" ? floatToHalfBits(F)
                                 : floatToBf16Bits(F);
    }
    return true;
  }
  char *End;
  errno = 0;
  if (!Tok.empty() && Tok[0] == '-') {
    long long X = std::strtoll(Tok.c_str(), &End, 0);
    V.Bits = uint64_t(X);
  } else {
    V.Bits = std::strtoull(Tok.c_str(), &End, 0);
  }
  if (*End || errno) {
    Err = "bad integer '" + Tok + "'";
    return false;
  }
  if (T.Bytes < 8)
    V.Bits &= (1ull << (8 * T.Bytes)) - 1;
  return true;
}

/// Values after `=`: tokens, with `V*N` repeating V N times.
inline bool parseValues(std::istringstream &In, const ElemType &T,
                 std::vector<Value> &Out, std::string &Err) {
  std::string Tok;
  while (In >> Tok) {
    if (Tok[0] == '#')
      break;
    size_t Star = Tok.rfind('*');
    unsigned Repeat = 1;
    if (Star != std::string::npos && Star > 0) {
      Repeat = unsigned(std::strtoul(Tok.c_str() + Star + 1, nullptr, 10));
      Tok = Tok.substr(0, Star);
    }
    Value V;
    if (!parseValue(Tok, T, V, Err))
      return false;
    Out.insert(Out.end(), Repeat, V);
  }
  return true;
}

inline std::string formatValue(uint64_t Bits, const ElemType &T) {
  char Buf[96];
  if (T.K == Kind::Float) {
    double D;
    if (T.Bytes == 8)
      std::memcpy(&D, &Bits, 8);
    else if (T.Bytes == 4) {
      float F;
      uint32_t U = uint32_t(Bits);
      std::memcpy(&F, &U, 4);
      D = F;
    } else if (T.Name == "f16")
      D = halfBitsToFloat(uint16_t(Bits));
    else {
      uint32_t U = uint32_t(Bits) << 16;
      float F;
      std::memcpy(&F, &U, 4);
      D = F;
    }
    std::snprintf(Buf, sizeof(Buf), "%.17g (0x%0*llx)", D, int(2 * T.Bytes),
                  (unsigned long long)Bits);
  } else if (T.K == Kind::Int) {
    int64_t S = int64_t(Bits << (64 - 8 * T.Bytes)) >> (64 - 8 * T.Bytes);
    std::snprintf(Buf, sizeof(Buf), "%lld (0x%0*llx)", (long long)S,
                  int(2 * T.Bytes), (unsigned long long)Bits);
  } else {
    std::snprintf(Buf, sizeof(Buf), "%llu (0x%0*llx)", (unsigned long long)Bits,
                  int(2 * T.Bytes), (unsigned long long)Bits);
  }
  return Buf;
}

inline bool isNaN(uint64_t Bits, const ElemType &T) {
  switch (T.Bytes) {
  case 8: return (Bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  case 4: return (Bits & 0x7fffffff) > 0x7f800000;
  default:
    return T.Name == "f16" ? (Bits & 0x7fff) > 0x7c00 : (Bits & 0x7fff) > 0x7f80;
  }
}

inline double asDouble(uint64_t Bits, const ElemType &T) {
  if (T.Bytes == 8) {
    double D;
    std::memcpy(&D, &Bits, 8);
    return D;
  }
  if (T.Bytes == 4) {
    float F;
    uint32_t U = uint32_t(Bits);
    std::memcpy(&F, &U, 4);
    return F;
  }
  if (T.Name == "f16")
    return halfBitsToFloat(uint16_t(Bits));
  uint32_t U = uint32_t(Bits) << 16;
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}

/// Distance in units in the last place between two finite values of T.
inline uint64_t ulpDistance(uint64_t A, uint64_t B, const ElemType &T) {
  unsigned Bits = 8 * T.Bytes;
  uint64_t SignBit = 1ull << (Bits - 1);
  auto ordered = [&](uint64_t X) -> int64_t {
    int64_t Mag = int64_t(X & (SignBit - 1));
    return (X & SignBit) ? -Mag : Mag;
  };
  int64_t D = ordered(A) - ordered(B);
  return uint64_t(D < 0 ? -D : D);
}

struct Buffer {
  std::string Name;
  ElemType T;
  std::vector<Value> Init;
  size_t Count = 0;
  void *Device = nullptr;
};

struct Param {
  std::string Buffer; // pointer to this buffer, or
  ElemType T;         // a scalar of this type
  uint64_t Bits = 0;
};

struct Expect {
  std::string Buffer;
  ElemType T;
  std::vector<Value> Values;
  uint64_t MaxUlp = 0;
  double MaxAbs = 0;
  /// "gpu=differs": an NVIDIA GPU is known to compute other values for
  /// some elements (the data file says which GPU and why the ISA's values
  /// are kept).
  bool GpuDiffers = false;
  unsigned Line = 0;
};

struct Case {
  std::string Kernel;
  Dim3 Grid, Block;
  size_t Shared = 0;
  std::vector<Buffer> Buffers;
  std::vector<Param> Params;
  std::vector<Expect> Expects;
  std::string LaunchStatus = "cudaSuccess";
  /// "gpu hangs": the kernel never finishes on a GPU (cuhip reports what
  /// the launch status says instead), so a device run that times out is
  /// the expected outcome there.
  bool GpuHangs = false;
};

inline bool parseDims(std::istringstream &In, Dim3 &D) {
  unsigned V[3] = {1, 1, 1};
  for (int I = 0; I < 3 && In >> V[I]; ++I)
    ;
  D = {V[0], V[1], V[2]};
  return V[0] && V[1] && V[2];
}

inline bool parseCase(const std::string &Path, Case &C, std::string &Err) {
  std::ifstream F(Path);
  if (!F) {
    Err = "cannot read " + Path;
    return false;
  }
  std::string Line;
  unsigned N = 0;
  auto fail = [&](const std::string &Msg) {
    Err = Path + ":" + std::to_string(N) + ": " + Msg;
    return false;
  };
  while (std::getline(F, Line)) {
    ++N;
    std::istringstream In(Line);
    std::string Key;
    if (!(In >> Key) || Key[0] == '#')
      continue;
    if (Key == "kernel") {
      In >> C.Kernel;
    } else if (Key == "grid") {
      if (!parseDims(In, C.Grid))
        return fail("bad grid");
    } else if (Key == "block") {
      if (!parseDims(In, C.Block))
        return fail("bad block");
    } else if (Key == "shared") {
      In >> C.Shared;
    } else if (Key == "launch") {
      In >> C.LaunchStatus;
    } else if (Key == "gpu") {
      std::string What;
      In >> What;
      if (What != "hangs")
        return fail("expected 'gpu hangs'");
      C.GpuHangs = true;
    } else if (Key == "buffer") {
      // buffer NAME TYPE [N] [= values...]
      Buffer B;
      std::string Type, Tok;
      In >> B.Name >> Type;
      if (!parseType(Type, B.T))
        return fail("unknown type '" + Type + "'");
      while (In >> Tok) {
        if (Tok.size() > 2 && Tok.front() == '[' && Tok.back() == ']') {
          B.Count = std::strtoull(Tok.c_str() + 1, nullptr, 10);
        } else if (Tok == "=") {
          if (!parseValues(In, B.T, B.Init, Err))
            return fail(Err);
        } else {
          return fail("unexpected '" + Tok + "'");
        }
      }
      B.Count = std::max(B.Count, B.Init.size());
      if (!B.Count)
        return fail("buffer '" + B.Name + "' has no size");
      C.Buffers.push_back(std::move(B));
    } else if (Key == "param") {
      // param BUFFER | param TYPE VALUE
      std::string A, V;
      In >> A;
      Param P;
      // A buffer's name wins over a type name: `param b64` with a buffer
      // called b64 passes the buffer.
      bool IsBuffer = false;
      for (const auto &B : C.Buffers)
        IsBuffer = IsBuffer || B.Name == A;
      if (!IsBuffer && parseType(A, P.T)) {
        In >> V;
        Value X;
        if (!parseValue(V, P.T, X, Err))
          return fail(Err);
        P.Bits = X.Bits;
      } else {
        P.Buffer = A;
      }
      C.Params.push_back(P);
    } else if (Key == "expect") {
      // expect BUFFER TYPE [ulp=N] [abs=X] = values...
      Expect E;
      E.Line = N;
      std::string Type, Tok;
      In >> E.Buffer >> Type;
      if (!parseType(Type, E.T))
        return fail("unknown type '" + Type + "'");
      while (In >> Tok) {
        if (Tok.rfind("ulp=", 0) == 0)
          E.MaxUlp = std::strtoull(Tok.c_str() + 4, nullptr, 10);
        else if (Tok.rfind("abs=", 0) == 0)
          E.MaxAbs = std::strtod(Tok.c_str() + 4, nullptr);
        else if (Tok == "gpu=differs")
          E.GpuDiffers = true;
        else if (Tok == "=") {
          if (!parseValues(In, E.T, E.Values, Err))
            return fail(Err);
        } else
          return fail("unexpected '" + Tok + "'");
      }
      C.Expects.push_back(std::move(E));
    } else {
      return fail("unknown directive '" + Key + "'");
    }
  }
  if (C.Expects.empty() && C.LaunchStatus == "cudaSuccess")
    return fail("the case expects nothing");
  return true;
}

inline Buffer *findBuffer(Case &C, const std::string &Name) {
  for (auto &B : C.Buffers)
    if (B.Name == Name)
      return &B;
  return nullptr;
}

/// Reads a case's PTX: the data file's name with .ptx for .data.
inline bool readPtx(const std::string &DataPath, std::string &Ptx,
             std::string &Display) {
  std::string PtxPath = DataPath.substr(0, DataPath.rfind('.')) + ".ptx";
  std::ifstream PF(PtxPath, std::ios::binary);
  if (!PF) {
    std::fprintf(stderr, "error: cannot read %s\n", PtxPath.c_str());
    return false;
  }
  Ptx.assign(std::istreambuf_iterator<char>(PF), {});
  Display = PtxPath.substr(PtxPath.rfind('/') + 1);
  return true;
}

/// Parses a data file and reads its PTX; false, with a message, for a
/// malformed case.
inline bool loadCase(const std::string &DataPath, Case &C, std::string &Ptx,
                     std::string &Display) {
  std::string Err;
  if (!parseCase(DataPath, C, Err)) {
    std::fprintf(stderr, "error: %s\n", Err.c_str());
    return false;
  }
  if (!readPtx(DataPath, Ptx, Display))
    return false;
  if (C.Kernel.empty()) {
    std::fprintf(stderr, "error: %s: no 'kernel' line\n", DataPath.c_str());
    return false;
  }
  return true;
}

/// A buffer's initial contents, as the bytes to copy to the device.
inline std::vector<uint8_t> initialBytes(const Buffer &B) {
  std::vector<uint8_t> Host(B.Count * B.T.Bytes, 0);
  for (size_t I = 0; I < B.Init.size(); ++I)
    std::memcpy(Host.data() + I * B.T.Bytes, &B.Init[I].Bits, B.T.Bytes);
  return Host;
}

/// The launch's argument array: each parameter's 8-byte slot holds a
/// buffer's device address (Buffer::Device, set by the runner) or the
/// scalar's bits. False, with a message, for an unknown buffer.
inline bool kernelArgs(Case &C, std::vector<uint64_t> &Storage,
                       std::vector<void *> &Args) {
  Storage.assign(C.Params.size(), 0);
  Args.assign(C.Params.size(), nullptr);
  for (size_t I = 0; I < C.Params.size(); ++I) {
    const Param &P = C.Params[I];
    if (!P.Buffer.empty()) {
      Buffer *B = findBuffer(C, P.Buffer);
      if (!B) {
        std::fprintf(stderr, "error: unknown buffer '%s'\n", P.Buffer.c_str());
        return false;
      }
      std::memcpy(&Storage[I], &B->Device, sizeof(void *));
    } else {
      Storage[I] = P.Bits;
    }
    Args[I] = &Storage[I];
  }
  return true;
}

/// Whether checkExpects also prints every expected buffer's contents, in
/// the data file's own syntax ("got NAME TYPE = ..."), to take the values a
/// device computed.
inline bool DumpValues = false;

/// Whether mismatches in expect lines marked gpu=differs are reported as
/// known differences of an NVIDIA GPU instead of failures (set when the
/// cases run on one).
inline bool AllowGpuDifferences = false;

/// Compares every expected element. \p Read copies a buffer's device
/// contents into the vector it is given (sized to the buffer). Prints the
/// first mismatches and the summary line; returns 0 (all match), 1 (some
/// do not) or 2 (the case is malformed).
template <typename ReadFn>
int checkExpects(Case &C, const std::string &Display, ReadFn Read) {
  unsigned Bad = 0, Checked = 0, Known = 0;
  for (const Expect &E : C.Expects) {
    Buffer *B = findBuffer(C, E.Buffer);
    if (!B) {
      std::fprintf(stderr, "error: expect names unknown buffer '%s'\n",
                   E.Buffer.c_str());
      return 2;
    }
    size_t Bytes = B->Count * B->T.Bytes;
    if (E.Values.size() * E.T.Bytes > Bytes) {
      std::fprintf(stderr, "error: line %u expects %zu elements, buffer '%s' "
                           "holds %zu bytes\n",
                   E.Line, E.Values.size(), E.Buffer.c_str(), Bytes);
      return 2;
    }
    std::vector<uint8_t> Host(Bytes);
    Read(*B, Host);
    if (DumpValues) {
      std::string Line = "got " + E.Buffer + " " + E.T.Name + " =";
      char Buf[24];
      for (size_t I = 0; I < E.Values.size(); ++I) {
        uint64_t Got = 0;
        std::memcpy(&Got, Host.data() + I * E.T.Bytes, E.T.Bytes);
        std::snprintf(Buf, sizeof(Buf), " 0x%llx", (unsigned long long)Got);
        Line += Buf;
      }
      std::printf("%s\n", Line.c_str());
    }
    for (size_t I = 0; I < E.Values.size(); ++I) {
      uint64_t Got = 0;
      std::memcpy(&Got, Host.data() + I * E.T.Bytes, E.T.Bytes);
      const Value &W = E.Values[I];
      bool Ok;
      if (E.T.K == Kind::Float && W.AnyNaN)
        Ok = isNaN(Got, E.T);
      else if (E.T.K == Kind::Float && (E.MaxUlp || E.MaxAbs)) {
        Ok = Got == W.Bits ||
             (!isNaN(Got, E.T) && !isNaN(W.Bits, E.T) &&
              ((E.MaxUlp && ulpDistance(Got, W.Bits, E.T) <= E.MaxUlp) ||
               (E.MaxAbs && std::fabs(asDouble(Got, E.T) -
                                      asDouble(W.Bits, E.T)) <= E.MaxAbs)));
      } else
        Ok = Got == W.Bits;
      ++Checked;
      if (!Ok && E.GpuDiffers && AllowGpuDifferences) {
        ++Known;
        continue;
      }
      if (!Ok && ++Bad <= 16)
        std::printf("  %s[%zu]: got %s, expected %s%s (line %u)\n",
                    E.Buffer.c_str(), I, formatValue(Got, E.T).c_str(),
                    W.AnyNaN ? "any NaN" : formatValue(W.Bits, E.T).c_str(),
                    E.MaxUlp ? (" within " + std::to_string(E.MaxUlp) + " ulp").c_str()
                             : "",
                    E.Line);
    }
  }
  std::printf("%s: %s: %u of %u elements match", Bad ? "FAIL" : "PASS",
              Display.c_str(), Checked - Bad - Known, Checked);
  if (Known)
    std::printf(" (%u more differ where the case says a GPU does)", Known);
  std::printf("\n");
  return Bad ? 1 : 0;
}

} // namespace conformance

#endif // CUHIP_TEST_CONFORMANCE_CASEFILE_H
