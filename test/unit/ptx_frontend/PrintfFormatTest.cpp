//===- PrintfFormatTest.cpp - CUDA printf formats for the AMDGPU target ---===//
//
// parsePrintfFormat reads a device printf format with C's rules and lays
// its arguments out as nvcc packs them (each at the next multiple of its
// size, floats as doubles, `*` as int); these cases pin the offsets, kinds
// and signedness, the conversion count printf returns, and the formats
// refused.
//
//===----------------------------------------------------------------------===//
#include "amdgpu/AmdgpuPrintf.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace cuhip::ptx::amdgpu;

namespace {

using Kind = PrintfArgument::KindT;

struct Expect {
  Kind K;
  bool Signed;
  unsigned Offset;
};

void expectLayout(const char *Fmt, std::vector<Expect> Want,
                  unsigned Conversions) {
  SCOPED_TRACE(Fmt);
  auto F = parsePrintfFormat(Fmt);
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Conversions, Conversions);
  ASSERT_EQ(F->Args.size(), Want.size());
  for (size_t I = 0; I < Want.size(); ++I) {
    SCOPED_TRACE("argument " + std::to_string(I));
    EXPECT_EQ(F->Args[I].Kind, Want[I].K);
    EXPECT_EQ(F->Args[I].Signed, Want[I].Signed);
    EXPECT_EQ(F->Args[I].Offset, Want[I].Offset);
  }
}

std::string refusal(const char *Fmt) {
  auto F = parsePrintfFormat(Fmt);
  if (F)
    return "";
  return llvm::toString(F.takeError());
}

TEST(PrintfFormat, NoConversions) {
  expectLayout("hello\n", {}, 0);
  expectLayout("100%% sure %%d", {}, 0);
  expectLayout("", {}, 0);
}

TEST(PrintfFormat, IntegersAndLongLongsAreAlignedToTheirSize) {
  expectLayout("%d %lld %u %llx",
               {{Kind::Int32, true, 0},
                {Kind::Int64, true, 8},
                {Kind::Int32, false, 16},
                {Kind::Int64, false, 24}},
               4);
  expectLayout(
      "%i %i %ld",
      {{Kind::Int32, true, 0}, {Kind::Int32, true, 4}, {Kind::Int64, true, 8}},
      3);
}

TEST(PrintfFormat, LengthModifiers) {
  // hh and h pass an int; j, z and t are 64-bit on CUDA's LP64 device.
  expectLayout("%hhd %hu %jd %zu %td %lc",
               {{Kind::Int32, true, 0},
                {Kind::Int32, false, 4},
                {Kind::Int64, true, 8},
                {Kind::Int64, false, 16},
                {Kind::Int64, true, 24},
                {Kind::Int32, false, 32}},
               6);
}

TEST(PrintfFormat, DoublesPointersAndStrings) {
  expectLayout("%c%f %s %p %e %G %a",
               {{Kind::Int32, false, 0},
                {Kind::Double, false, 8},
                {Kind::String, false, 16},
                {Kind::Pointer, false, 24},
                {Kind::Double, false, 32},
                {Kind::Double, false, 40},
                {Kind::Double, false, 48}},
               7);
}

TEST(PrintfFormat, StarWidthAndPrecisionTakeAnInt) {
  // printf("%*d|%-*.*f|%.*s", w, x, w2, p, d, n, s)
  expectLayout("%*d|%-*.*f|%.*s",
               {{Kind::Int32, true, 0},
                {Kind::Int32, true, 4},
                {Kind::Int32, true, 8},
                {Kind::Int32, true, 12},
                {Kind::Double, false, 16},
                {Kind::Int32, true, 24},
                {Kind::String, false, 32}},
               3);
}

TEST(PrintfFormat, FlagsWidthAndPrecisionTakeNoArgument) {
  expectLayout("%-+ #010.3f %08.3lld",
               {{Kind::Double, false, 0}, {Kind::Int64, true, 8}}, 2);
}

TEST(PrintfFormat, Refused) {
  EXPECT_NE(refusal("%n").find("'%n' stores a count"), std::string::npos);
  EXPECT_NE(refusal("%ls").find("'%ls' reads a wide string"),
            std::string::npos);
  EXPECT_NE(refusal("%Lf").find("long double"), std::string::npos);
  EXPECT_NE(refusal("%Ld").find("'%Ld' has no meaning"), std::string::npos);
  EXPECT_NE(refusal("x %y").find("unknown conversion '%y'"), std::string::npos);
  EXPECT_NE(refusal("%-5").find("incomplete conversion specification '%-5'"),
            std::string::npos);
  EXPECT_NE(refusal("%ll").find("incomplete"), std::string::npos);
}

} // namespace
