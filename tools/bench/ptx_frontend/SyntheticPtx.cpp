//===- SyntheticPtx.cpp - Deterministic PTX modules for benchmarking ------===//
//
// Each kernel follows the skeleton nvcc gives a typical element-wise or
// tiled kernel: parameter loads, cvta, a global index from %ctaid/%ntid/%tid,
// a bounds check, a tile staged through shared memory around bar.sync, then
// a counted loop whose body is a random but type-correct mix of the
// instructions nvcc emits most (about a third memory, the rest integer and
// float arithmetic, conversions, compares and selects), and a final store.
// A fixed-seed generator picks the mix, so the output depends only on the
// requested size. Register numbers grow as nvcc's do, which also gives the
// lowering realistic numbers of distinct registers per kernel.
//
//===----------------------------------------------------------------------===//
#include "SyntheticPtx.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cuhip::bench {

namespace {

/// splitmix64: tiny, fast and identical on every platform, unlike the
/// distributions of <random>.
class Rng {
public:
  explicit Rng(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ull);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    return Z ^ (Z >> 31);
  }
  /// Uniform in [0, N).
  unsigned below(unsigned N) { return unsigned(next() % N); }

private:
  uint64_t State;
};

class KernelWriter {
public:
  KernelWriter(std::string &Out, Rng &R, unsigned Index)
      : Out(Out), R(R), K(Index), Name("bench_kernel_" + std::to_string(Index)) {}
  void write();

private:
  // Fresh registers, numbered from 1 as nvcc numbers them.
  std::string newF() { return "%f" + std::to_string(++NumF); }
  std::string newR() { return "%r" + std::to_string(++NumR); }
  std::string newRd() { return "%rd" + std::to_string(++NumRd); }
  std::string newP() { return "%p" + std::to_string(++NumP); }
  // A register written earlier in the kernel, biased towards recent ones
  // as in real dependence chains.
  std::string pick(const std::vector<std::string> &Pool) {
    unsigned Window = Pool.size() < 8 ? unsigned(Pool.size()) : 8;
    return Pool[Pool.size() - 1 - R.below(Window)];
  }
  static constexpr unsigned ExitLabel = 99; // loops use 0, 1, ...
  std::string label(unsigned N) {
    return "$L__BB" + std::to_string(K) + "_" + std::to_string(N);
  }
  void inst(const std::string &Op, const std::string &Operands) {
    Out += '\t';
    Out += Op;
    Out += " \t";
    Out += Operands;
    Out += ";\n";
  }
  void emitBodyInstruction();

  std::string &Out;
  Rng &R;
  unsigned K;
  std::string Name;
  unsigned NumF = 0, NumR = 0, NumRd = 0, NumP = 0;
  std::vector<std::string> Floats, Ints;
  std::string In, OutPtr, Counts; // global base addresses (.u64)
  std::string TileAddr;           // this thread's shared slot (.u32)
  std::string Index64;            // byte offset of this thread's element
};

void KernelWriter::emitBodyInstruction() {
  auto F = [&] { return pick(Floats); };
  auto I = [&] { return pick(Ints); };
  auto defF = [&](const std::string &Op, const std::string &Srcs) {
    std::string D = newF();
    inst(Op, D + ", " + Srcs);
    Floats.push_back(D);
  };
  auto defI = [&](const std::string &Op, const std::string &Srcs) {
    std::string D = newR();
    inst(Op, D + ", " + Srcs);
    Ints.push_back(D);
  };
  static const char *const Comparisons[] = {"lt", "le", "gt", "ge", "eq", "ne"};
  switch (R.below(24)) {
  case 0:
  case 1: { // global load at a small constant offset
    std::string A = newRd();
    inst("add.s64", A + ", " + In + ", " + Index64);
    defF("ld.global.nc.f32", "[" + A + "+" + std::to_string(4 * R.below(64)) + "]");
    break;
  }
  case 2: { // neighbour from the shared tile
    defF("ld.shared.f32", "[" + TileAddr + "+" + std::to_string(4 * R.below(64)) + "]");
    break;
  }
  case 3:
    inst("st.shared.f32", "[" + TileAddr + "], " + F());
    break;
  case 4: { // vector load of four floats
    std::string A = newRd(), D0 = newF(), D1 = newF(), D2 = newF(), D3 = newF();
    inst("add.s64", A + ", " + In + ", " + Index64);
    inst("ld.global.v4.f32", "{" + D0 + ", " + D1 + ", " + D2 + ", " + D3 + "}, [" + A + "]");
    Floats.insert(Floats.end(), {D0, D1, D2, D3});
    break;
  }
  case 5:
    defF("fma.rn.f32", F() + ", " + F() + ", " + F());
    break;
  case 6:
    defF("fma.rn.f32", F() + ", 0f3F000000, " + F());
    break;
  case 7:
    defF("add.f32", F() + ", " + F());
    break;
  case 8:
    defF("mul.f32", F() + ", " + F());
    break;
  case 9:
    defF("sub.f32", F() + ", " + F());
    break;
  case 10:
    defF(R.below(2) ? "max.f32" : "min.f32", F() + ", " + F());
    break;
  case 11:
    defF(R.below(2) ? "abs.f32" : "neg.f32", F());
    break;
  case 12:
    if (R.below(2))
      defF("div.rn.f32", F() + ", " + F());
    else
      defF("sqrt.rn.f32", F());
    break;
  case 13:
    defF("ex2.approx.ftz.f32", F());
    break;
  case 14:
    defI("mad.lo.s32", I() + ", " + I() + ", " + I());
    break;
  case 15:
    defI(R.below(2) ? "add.s32" : "sub.s32", I() + ", " + I());
    break;
  case 16: {
    static const char *const Bitwise[] = {"and.b32", "or.b32", "xor.b32"};
    defI(Bitwise[R.below(3)], I() + ", " + I());
    break;
  }
  case 17: {
    static const char *const Shifts[] = {"shl.b32", "shr.u32", "shr.s32"};
    defI(Shifts[R.below(3)], I() + ", " + std::to_string(1 + R.below(31)));
    break;
  }
  case 18:
    defI(R.below(2) ? "min.s32" : "max.u32", I() + ", " + I());
    break;
  case 19: {
    static const char *const Bits[] = {"popc.b32", "clz.b32", "brev.b32", "not.b32"};
    defI(Bits[R.below(4)], I());
    break;
  }
  case 20:
    defF("cvt.rn.f32.s32", I());
    break;
  case 21:
    defI("cvt.rzi.s32.f32", F());
    break;
  case 22: { // compare and select
    std::string P = newP();
    inst(std::string("setp.") + Comparisons[R.below(6)] + ".f32", P + ", " + F() + ", " + F());
    defF("selp.f32", F() + ", " + F() + ", " + P);
    break;
  }
  case 23: { // histogram-style atomic into one of 256 bins
    std::string Bin = newR(), Off = newRd(), A = newRd();
    inst("and.b32", Bin + ", " + I() + ", 255");
    inst("mul.wide.u32", Off + ", " + Bin + ", 4");
    inst("add.s64", A + ", " + Counts + ", " + Off);
    defI("atom.global.add.u32", "[" + A + "], 1");
    break;
  }
  }
}

void KernelWriter::write() {
  const std::string P = Name + "_param_";
  Out += "\t// .globl\t" + Name + "\n";
  Out += ".visible .entry " + Name + "(\n";
  Out += "\t.param .u64 " + P + "0,\n";
  Out += "\t.param .u64 " + P + "1,\n";
  Out += "\t.param .u64 " + P + "2,\n";
  Out += "\t.param .u32 " + P + "3\n)\n{\n";
  // The register declarations come first in PTX but their counts are only
  // known at the end: write the body separately and splice.
  std::string Header = Out;
  Out.clear();

  const std::string Tile = Name + "_tile";
  std::string InParam = newRd(), OutParam = newRd(), CountParam = newRd();
  std::string N = newR();
  inst("ld.param.u64", InParam + ", [" + P + "0]");
  inst("ld.param.u64", OutParam + ", [" + P + "1]");
  inst("ld.param.u64", CountParam + ", [" + P + "2]");
  inst("ld.param.u32", N + ", [" + P + "3]");
  std::string Ctaid = newR(), Ntid = newR(), Tid = newR(), Gid = newR();
  inst("mov.u32", Ctaid + ", %ctaid.x");
  inst("mov.u32", Ntid + ", %ntid.x");
  inst("mov.u32", Tid + ", %tid.x");
  inst("mad.lo.s32", Gid + ", " + Ctaid + ", " + Ntid + ", " + Tid);
  Ints = {N, Ctaid, Ntid, Tid, Gid};
  std::string Oob = newP();
  inst("setp.ge.s32", Oob + ", " + Gid + ", " + N);
  inst("@" + Oob + " bra", label(ExitLabel));
  Out += "\n";
  In = newRd();
  OutPtr = newRd();
  Counts = newRd();
  inst("cvta.to.global.u64", In + ", " + InParam);
  inst("cvta.to.global.u64", OutPtr + ", " + OutParam);
  inst("cvta.to.global.u64", Counts + ", " + CountParam);
  Index64 = newRd();
  inst("mul.wide.s32", Index64 + ", " + Gid + ", 4");
  std::string First = newRd(), X = newF();
  inst("add.s64", First + ", " + In + ", " + Index64);
  inst("ld.global.f32", X + ", [" + First + "]");
  Floats = {X};
  std::string Base = newR(), Scaled = newR();
  TileAddr = newR();
  inst("mov.u32", Base + ", " + Tile);
  inst("shl.b32", Scaled + ", " + Tid + ", 2");
  inst("add.s32", TileAddr + ", " + Base + ", " + Scaled);
  inst("st.shared.f32", "[" + TileAddr + "], " + X);
  inst("bar.sync", "0");

  // Counted loops over random bodies; about half of them end with bar.sync,
  // so that values live across a barrier inside a loop, as in tiled kernels.
  unsigned Loops = 2 + R.below(3);
  for (unsigned Loop = 0; Loop < Loops; ++Loop) {
    std::string Counter = newR();
    inst("mov.u32", Counter + ", 0");
    Out += '\n';
    Out += label(Loop);
    Out += ":\n";
    unsigned BodySize = 12 + R.below(28);
    for (unsigned B = 0; B < BodySize; ++B)
      emitBodyInstruction();
    if (R.below(2))
      inst("bar.sync", "0");
    std::string Again = newP();
    inst("add.s32", Counter + ", " + Counter + ", 1");
    inst("setp.lt.u32", Again + ", " + Counter + ", " + std::to_string(4 + R.below(60)));
    inst("@" + Again + " bra", label(Loop));
    Out += "\n";
  }
  std::string Dst = newRd();
  inst("add.s64", Dst + ", " + OutPtr + ", " + Index64);
  inst("st.global.f32", "[" + Dst + "], " + pick(Floats));

  std::string Body = std::move(Out);
  Out = std::move(Header);
  Out += "\t.reg .pred \t%p<" + std::to_string(NumP + 1) + ">;\n";
  Out += "\t.reg .f32 \t%f<" + std::to_string(NumF + 1) + ">;\n";
  Out += "\t.reg .b32 \t%r<" + std::to_string(NumR + 1) + ">;\n";
  Out += "\t.reg .b64 \t%rd<" + std::to_string(NumRd + 1) + ">;\n";
  Out += "\t// demoted variable\n";
  Out += "\t.shared .align 4 .b8 " + Tile + "[1280];\n\n";
  Out += Body;
  Out += '\n';
  Out += label(ExitLabel);
  Out += ":\n";
  Out += "\tret;\n\n}\n";
}

} // namespace

std::string generateSyntheticPtx(size_t TargetBytes) {
  std::string Module =
      "//\n// Generated by cuhip's bench_ptx_frontend (synthetic, deterministic)\n//\n\n"
      ".version 9.0\n.target sm_80\n.address_size 64\n\n";
  Module.reserve(TargetBytes + 16384);
  Rng R(0x5eed);
  std::string Kernel;
  for (unsigned K = 0; Module.size() < TargetBytes; ++K) {
    Kernel.clear();
    KernelWriter(Kernel, R, K).write();
    Module += Kernel;
    Module += '\n';
  }
  return Module;
}

} // namespace cuhip::bench
