//===- Runner.cpp - Runs one PTX conformance case on the CPU backend ------===//
//
// A case is a PTX file and a data file beside it (same name, .data) that
// says how to launch the kernel, what its buffers hold before the launch,
// and what they must hold after it. The runner loads the PTX through the
// runtime core (as cuModuleLoadData would), runs it on the CPU backend and
// compares every expected element. The data format is described in
// README.md next to this file.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace cuhip::rt;

namespace {

enum class Kind { Int, UInt, Float };

struct ElemType {
  std::string Name;
  Kind K = Kind::UInt;
  unsigned Bytes = 4;
};

bool parseType(const std::string &S, ElemType &T) {
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
uint16_t floatToHalfBits(float F) {
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

uint16_t floatToBf16Bits(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  if ((X & 0x7fffffff) > 0x7f800000)
    return uint16_t((X >> 16) | 0x40);
  uint32_t Rounding = 0x7fff + ((X >> 16) & 1);
  return uint16_t((X + Rounding) >> 16);
}

float halfBitsToFloat(uint16_t H) {
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

bool parseValue(const std::string &Tok, const ElemType &T, Value &V,
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
bool parseValues(std::istringstream &In, const ElemType &T,
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

std::string formatValue(uint64_t Bits, const ElemType &T) {
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

bool isNaN(uint64_t Bits, const ElemType &T) {
  switch (T.Bytes) {
  case 8: return (Bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  case 4: return (Bits & 0x7fffffff) > 0x7f800000;
  default:
    return T.Name == "f16" ? (Bits & 0x7fff) > 0x7c00 : (Bits & 0x7fff) > 0x7f80;
  }
}

double asDouble(uint64_t Bits, const ElemType &T) {
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
uint64_t ulpDistance(uint64_t A, uint64_t B, const ElemType &T) {
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
};

bool parseDims(std::istringstream &In, Dim3 &D) {
  unsigned V[3] = {1, 1, 1};
  for (int I = 0; I < 3 && In >> V[I]; ++I)
    ;
  D = {V[0], V[1], V[2]};
  return V[0] && V[1] && V[2];
}

bool parseCase(const std::string &Path, Case &C, std::string &Err) {
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

Buffer *findBuffer(Case &C, const std::string &Name) {
  for (auto &B : C.Buffers)
    if (B.Name == Name)
      return &B;
  return nullptr;
}

int runCase(const std::string &DataPath) {
  Case C;
  std::string Err;
  if (!parseCase(DataPath, C, Err)) {
    std::fprintf(stderr, "error: %s\n", Err.c_str());
    return 2;
  }
  std::string PtxPath = DataPath.substr(0, DataPath.rfind('.')) + ".ptx";
  std::ifstream PF(PtxPath, std::ios::binary);
  if (!PF) {
    std::fprintf(stderr, "error: cannot read %s\n", PtxPath.c_str());
    return 2;
  }
  std::string Ptx((std::istreambuf_iterator<char>(PF)), {});
  std::string Display = PtxPath.substr(PtxPath.rfind('/') + 1);

  Runtime &R = Runtime::get();
  Module *M = nullptr;
  if (Status S = R.loadModuleData(Ptx.data(), Ptx.size(), Display, &M)) {
    std::printf("FAIL: %s: loading the module: %s\n", Display.c_str(),
                statusName(S));
    return 1;
  }
  Kernel *K = nullptr;
  if (C.Kernel.empty()) {
    std::fprintf(stderr, "error: %s: no 'kernel' line\n", DataPath.c_str());
    return 2;
  }
  if (Status S = R.moduleGetFunction(M, C.Kernel.c_str(), &K)) {
    std::printf("FAIL: %s: kernel '%s': %s\n", Display.c_str(),
                C.Kernel.c_str(), statusName(S));
    return 1;
  }
  for (auto &B : C.Buffers) {
    size_t Bytes = B.Count * B.T.Bytes;
    if (R.malloc(&B.Device, Bytes) != cudaSuccess) {
      std::printf("FAIL: cannot allocate %zu bytes\n", Bytes);
      return 1;
    }
    std::vector<uint8_t> Host(Bytes, 0);
    for (size_t I = 0; I < B.Init.size(); ++I)
      std::memcpy(Host.data() + I * B.T.Bytes, &B.Init[I].Bits, B.T.Bytes);
    R.memcpy(B.Device, Host.data(), Bytes, CopyKind::HostToDevice);
  }
  std::vector<uint64_t> Storage(C.Params.size());
  std::vector<void *> Args(C.Params.size());
  for (size_t I = 0; I < C.Params.size(); ++I) {
    const Param &P = C.Params[I];
    if (!P.Buffer.empty()) {
      Buffer *B = findBuffer(C, P.Buffer);
      if (!B) {
        std::fprintf(stderr, "error: unknown buffer '%s'\n", P.Buffer.c_str());
        return 2;
      }
      std::memcpy(&Storage[I], &B->Device, sizeof(void *));
    } else {
      Storage[I] = P.Bits;
    }
    Args[I] = &Storage[I];
  }
  Status S = R.launch(K, C.Grid, C.Block, Args.data(), C.Shared, nullptr);
  // A launch is queued; what goes wrong while the kernel runs (a trap, a
  // block that cannot go on) is reported by the synchronisation after it.
  if (S == cudaSuccess)
    S = R.synchronize();
  R.getLastError();
  if (std::string(statusName(S)) != C.LaunchStatus) {
    std::printf("FAIL: %s: launch returned %s, expected %s\n", Display.c_str(),
                statusName(S), C.LaunchStatus.c_str());
    return 1;
  }
  unsigned Bad = 0, Checked = 0;
  for (const Expect &E : C.Expects) {
    Buffer *B = findBuffer(C, E.Buffer);
    if (!B) {
      std::fprintf(stderr, "error: expect names unknown buffer '%s'\n",
                   E.Buffer.c_str());
      return 2;
    }
    size_t Bytes = B->Count * B->T.Bytes;
    std::vector<uint8_t> Host(Bytes);
    R.memcpy(Host.data(), B->Device, Bytes, CopyKind::DeviceToHost);
    if (E.Values.size() * E.T.Bytes > Bytes) {
      std::fprintf(stderr, "error: line %u expects %zu elements, buffer '%s' "
                           "holds %zu bytes\n",
                   E.Line, E.Values.size(), E.Buffer.c_str(), Bytes);
      return 2;
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
      if (!Ok && ++Bad <= 16)
        std::printf("  %s[%zu]: got %s, expected %s%s (line %u)\n",
                    E.Buffer.c_str(), I, formatValue(Got, E.T).c_str(),
                    W.AnyNaN ? "any NaN" : formatValue(W.Bits, E.T).c_str(),
                    E.MaxUlp ? (" within " + std::to_string(E.MaxUlp) + " ulp").c_str()
                             : "",
                    E.Line);
    }
  }
  for (auto &B : C.Buffers)
    R.free(B.Device);
  std::printf("%s: %s: %u of %u elements match\n", Bad ? "FAIL" : "PASS",
              Display.c_str(), Checked - Bad, Checked);
  return Bad ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ptx_conformance CASE.data...\n");
    return 2;
  }
  int Worst = 0;
  for (int I = 1; I < argc; ++I)
    Worst = std::max(Worst, runCase(argv[I]));
  return Worst;
}
