#!/usr/bin/env python3
"""Writes the bit-manipulation conformance cases (cases/bits/*.ptx and
*.data) from the ISA model in isa.py. Run it after changing a case:
    python3 test/conformance/cases/integer/model/bits.py
"""
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from case import Case  # noqa: E402
from isa import *  # noqa: E402,F401,F403

ONES32, ONES64 = M(32), M(64)
HOW = """Expected values: the PTX ISA's pseudo-code for each instruction run on
Python integers; see each expect line for the rule it exercises. Generated
by integer/model/bits.py from the ISA model in integer/model/isa.py,
written from the ISA text independently of the lowering."""


# --- logic and shifts -------------------------------------------------------------
def logic_shift():
    n = 10
    c = Case("bits", "logic-shift", "logicShift", """
and/or/xor/not/cnot on .b16/.b32/.b64 and on .pred, shl and shr on
16/32/64 bits (shr.s fills with the sign, shr.u/shr.b with zeros), with
shift amounts of 0, inside the width, equal to it and far beyond it: the
ISA clamps amounts greater than the width to the width.
""" + HOW, n)
    a16 = [0, 0xffff, 0x8000, 0x1234, 0x7fff, 0x8001, 0xf00f, 1, 0xabcd, 0x8000]
    b16 = [0, 0x00ff, 0xffff, 0x4321, 0x8000, 0x0001, 0x0ff0, 0, 0x5a5a, 0x8000]
    a32 = [0, ONES32, 0x80000000, 0x12345678, 0x7fffffff, 0x80000001, 0xf0f0f0f0, 1, 0xdeadbeef, 0x80000000]
    b32 = [0, 0x0000ffff, ONES32, 0x87654321, 0x80000000, 1, 0x0ff00ff0, 0, 0x5a5a5a5a, 0x80000000]
    a64 = [0, ONES64, 1 << 63, 0x123456789abcdef0, (1 << 63) - 1, (1 << 63) + 1,
           0xf0f0f0f0f0f0f0f0, 1, 0xdeadbeefcafebabe, 1 << 63]
    b64 = [0, 0xffffffff, ONES64, 0x0fedcba987654321, 1 << 63, 1,
           0x0ff00ff00ff00ff0, 0, 0x5a5a5a5a5a5a5a5a, 1 << 63]
    sh = [0, 1, 15, 16, 31, 32, 33, 63, 64, ONES32]
    for nm, t, v in [("a16", "u16", a16), ("bv16", "u16", b16), ("a32", "u32", a32),
                     ("bv32", "u32", b32), ("a64", "u64", a64), ("bv64", "u64", b64),
                     ("sh", "u32", sh)]:
        c.input(nm, t, v)
    c.regs += [".reg .b16 %a16, %bv16, %and16, %not16, %cnot16, %shl16, %shrs16, %shru16;",
               ".reg .b32 %a32, %bv32, %sh, %and32, %or32, %xor32, %not32, %cnot32, "
               "%shl32, %shrs32, %shru32, %shrb32, %predbits;",
               ".reg .b64 %a64, %bv64, %or64, %xor64, %cnot64, %shl64, %shrs64, %shru64;",
               ".reg .pred %p, %q, %pand, %por, %pxor, %pnot;"]
    c.body += ["and.b16 %and16, %a16, %bv16;",
               "not.b16 %not16, %a16;",
               "cnot.b16 %cnot16, %a16;",
               "and.b32 %and32, %a32, %bv32;",
               "or.b32 %or32, %a32, %bv32;",
               "xor.b32 %xor32, %a32, %bv32;",
               "not.b32 %not32, %a32;",
               "cnot.b32 %cnot32, %a32;",
               "or.b64 %or64, %a64, %bv64;",
               "xor.b64 %xor64, %a64, %bv64;",
               "cnot.b64 %cnot64, %a64;",
               "// Predicate logic on p = (a32 odd), q = (b32 odd).",
               "and.b32 %predbits, %a32, 1;",
               "setp.ne.u32 %p, %predbits, 0;",
               "and.b32 %predbits, %bv32, 1;",
               "setp.ne.u32 %q, %predbits, 0;",
               "and.pred %pand, %p, %q;",
               "or.pred %por, %p, !%q;",
               "xor.pred %pxor, %p, %q;",
               "not.pred %pnot, %p;",
               "selp.u32 %predbits, 1, 0, %pand;",
               "selp.u32 %sh, 2, 0, %por;",
               "or.b32 %predbits, %predbits, %sh;",
               "selp.u32 %sh, 4, 0, %pxor;",
               "or.b32 %predbits, %predbits, %sh;",
               "selp.u32 %sh, 8, 0, %pnot;",
               "or.b32 %predbits, %predbits, %sh;",
               "// Reload the shift amount clobbered above.",
               "ld.param.u64 %base, [p_sh];",
               "add.s64 %addr, %base, %off4;",
               "ld.global.u32 %sh, [%addr];",
               "shl.b16 %shl16, %a16, %sh;",
               "shr.s16 %shrs16, %a16, %sh;",
               "shr.u16 %shru16, %a16, %sh;",
               "shl.b32 %shl32, %a32, %sh;",
               "shr.s32 %shrs32, %a32, %sh;",
               "shr.u32 %shru32, %a32, %sh;",
               "shr.b32 %shrb32, %a32, %sh;",
               "shl.b64 %shl64, %a64, %sh;",
               "shr.s64 %shrs64, %a64, %sh;",
               "shr.u64 %shru64, %a64, %sh;"]
    r = range(n)
    c.output("and16", "u16", "%and16", [a16[i] & b16[i] for i in r], "a & b")
    c.output("not16", "u16", "%not16", [U(~x, 16) for x in a16], "~a")
    c.output("cnot16", "u16", "%cnot16", [int(x == 0) for x in a16], "a == 0 ? 1 : 0")
    c.output("and32", "u32", "%and32", [a32[i] & b32[i] for i in r], "a & b")
    c.output("or32", "u32", "%or32", [a32[i] | b32[i] for i in r], "a | b")
    c.output("xor32", "u32", "%xor32", [a32[i] ^ b32[i] for i in r], "a ^ b")
    c.output("not32", "u32", "%not32", [U(~x, 32) for x in a32], "~a")
    c.output("cnot32", "u32", "%cnot32", [int(x == 0) for x in a32], "a == 0 ? 1 : 0")
    c.output("or64", "u64", "%or64", [a64[i] | b64[i] for i in r], "a | b")
    c.output("xor64", "u64", "%xor64", [a64[i] ^ b64[i] for i in r], "a ^ b")
    c.output("cnot64", "u64", "%cnot64", [int(x == 0) for x in a64], "a == 0 ? 1 : 0")
    pb = []
    for i in r:
        p, q = a32[i] & 1, b32[i] & 1
        pb.append((p & q) | (p | (1 - q)) << 1 | (p ^ q) << 2 | (1 - p) << 3)
    c.output("predbits", "u32", "%predbits", pb,
             "p&q | (p|!q)<<1 | (p^q)<<2 | !p<<3 with p = a odd, q = b odd")
    c.output("shl16", "u16", "%shl16", [shl(a16[i], sh[i], 16) for i in r], "a << n, 0 for n >= 16")
    c.output("shrs16", "s16", "%shrs16", [shr(a16[i], sh[i], 16, True) for i in r], "a >> min(n, 16), sign fill")
    c.output("shru16", "u16", "%shru16", [shr(a16[i], sh[i], 16, False) for i in r], "a >> min(n, 16), zero fill")
    c.output("shl32", "u32", "%shl32", [shl(a32[i], sh[i], 32) for i in r], "a << n, 0 for n >= 32")
    c.output("shrs32", "s32", "%shrs32", [shr(a32[i], sh[i], 32, True) for i in r], "a >> min(n, 32), sign fill")
    c.output("shru32", "u32", "%shru32", [shr(a32[i], sh[i], 32, False) for i in r], "a >> min(n, 32), zero fill")
    c.output("shrb32", "u32", "%shrb32", [shr(a32[i], sh[i], 32, False) for i in r], "untyped: zero fill")
    c.output("shl64", "u64", "%shl64", [shl(a64[i], sh[i], 64) for i in r], "a << n, 0 for n >= 64")
    c.output("shrs64", "s64", "%shrs64", [shr(a64[i], sh[i], 64, True) for i in r], "a >> min(n, 64), sign fill")
    c.output("shru64", "u64", "%shru64", [shr(a64[i], sh[i], 64, False) for i in r], "a >> min(n, 64), zero fill")
    c.write()


# --- counting: popc, clz, bfind, brev, fns ----------------------------------------
def count():
    n = 12
    c = Case("bits", "count", "bitCount", """
popc, clz, brev on .b32/.b64; bfind on .u32/.s32/.u64/.s64 with and
without .shiftamt (0xffffffff when no non-sign bit exists); fns with
positive, negative and zero offsets, offsets past the last set bit and
bases at both ends.
""" + HOW, n)
    a32 = [0, 1, ONES32, 0x80000000, 0x7fffffff, 0x00010000, 0xfffe0000, 0x12345678,
           0xffffffe0, 0x40000000, 0xc0000000, 0x00000100]
    a64 = [0, 1, ONES64, 1 << 63, (1 << 63) - 1, 1 << 32, 0xfffe000000000000,
           0x123456789abcdef0, ONES64 - 31, 1 << 62, 3 << 62, 0x0000000100000000]
    mask = [0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, 0, ONES32, ONES32,
            0x80000001, 0x80000001, 0x00f000f0, 0x00f000f0, 0x12345678]
    base = [3, 3, 2, 2, 5, 0, 31, 0, 31, 10, 10, 31]
    off = [1, -1, 1, -1, 1, 32, -32, 2, -2, 0, 0, U(-14, 32)]
    for nm, t, v in [("a32", "u32", a32), ("a64", "u64", a64), ("fmask", "u32", mask),
                     ("fbase", "u32", base), ("foff", "u32", [U(x, 32) for x in off])]:
        c.input(nm, t, v)
    # A few extra fns cases: offset past the available bits, base 0 downwards.
    c.regs += [".reg .b32 %a32, %fmask, %fbase, %foff, %popc32, %popc64, %clz32, %clz64, "
               "%brev32, %bfu32, %bfs32, %bfu64, %bfs64, %bfsau32, %bfsas32, %bfsas64, %fns;",
               ".reg .b64 %a64, %brev64;"]
    c.body += ["popc.b32 %popc32, %a32;",
               "popc.b64 %popc64, %a64;",
               "clz.b32 %clz32, %a32;",
               "clz.b64 %clz64, %a64;",
               "brev.b32 %brev32, %a32;",
               "brev.b64 %brev64, %a64;",
               "bfind.u32 %bfu32, %a32;",
               "bfind.s32 %bfs32, %a32;",
               "bfind.u64 %bfu64, %a64;",
               "bfind.s64 %bfs64, %a64;",
               "bfind.shiftamt.u32 %bfsau32, %a32;",
               "bfind.shiftamt.s32 %bfsas32, %a32;",
               "bfind.shiftamt.s64 %bfsas64, %a64;",
               "fns.b32 %fns, %fmask, %fbase, %foff;"]
    r = range(n)
    c.output("popc32", "u32", "%popc32", [popc(x, 32) for x in a32], "number of 1 bits")
    c.output("popc64", "u32", "%popc64", [popc(x, 64) for x in a64], "number of 1 bits")
    c.output("clz32", "u32", "%clz32", [clz(x, 32) for x in a32], "leading zeros, 32 for 0")
    c.output("clz64", "u32", "%clz64", [clz(x, 64) for x in a64], "leading zeros, 64 for 0")
    c.output("brev32", "u32", "%brev32", [brev(x, 32) for x in a32], "bit i -> bit 31-i")
    c.output("brev64", "u64", "%brev64", [brev(x, 64) for x in a64], "bit i -> bit 63-i")
    c.output("bfu32", "u32", "%bfu32", [bfind(x, 32, False, False) for x in a32], "position of the highest 1")
    c.output("bfs32", "u32", "%bfs32", [bfind(x, 32, True, False) for x in a32],
             "position of the highest bit differing from the sign")
    c.output("bfu64", "u32", "%bfu64", [bfind(x, 64, False, False) for x in a64], "position of the highest 1")
    c.output("bfs64", "u32", "%bfs64", [bfind(x, 64, True, False) for x in a64],
             "position of the highest bit differing from the sign")
    c.output("bfsau32", "u32", "%bfsau32", [bfind(x, 32, False, True) for x in a32], ".shiftamt: 31 - position")
    c.output("bfsas32", "u32", "%bfsas32", [bfind(x, 32, True, True) for x in a32], ".shiftamt: 31 - position")
    c.output("bfsas64", "u32", "%bfsas64", [bfind(x, 64, True, True) for x in a64], ".shiftamt: 63 - position")
    c.output("fns", "u32", "%fns", [fns(mask[i], base[i], U(off[i], 32)) for i in r],
             "the |offset|-th set bit of mask from base, up for offset > 0,\n"
             "down for offset < 0, base itself for 0; 0xffffffff if none")
    c.write()


# --- bit fields: bfe, bfi, szext, bmsk ---------------------------------------------
def bitfield():
    n = 14
    c = Case("bits", "bitfield", "bitField", """
bfe (.u32/.s32/.u64/.s64) and bfi (.b32/.b64) with the ISA's position and
length rules: both are taken mod 256 (0x103 is 3, 0xffffffff is 255),
fields running past the msb are cut there, a start past the msb gives the
replicated sign (bfe.s) or 0 (bfe.u) or b unchanged (bfi), and length 0
gives 0 (bfe) or b (bfi); szext and bmsk in .clamp and .wrap modes with
widths and positions of 0, 31, 32 and beyond.
""" + HOW, n)
    a32 = [0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0x80000000, 0x0000f000, 0xdeadbeef, 0xdeadbeef,
           0x12345678, 0xfffffff0, 0x7fffffff, 0x00000080, 0xcafebabe, 0x89abcdef, 0x00ff00ff]
    bb32 = [0x11111111, 0, ONES32, 0x55555555, 0xaaaaaaaa, 0, 0x12345678,
            0xffff0000, 0, 0, ONES32, 0x0f0f0f0f, 0x01234567, 0x76543210]
    pos = [0, 4, 28, 31, 12, 32, 255, 0x103, 0, 1, 7, 16, 0, 60]
    length = [8, 8, 8, 1, 4, 5, 1, 4, 32, 0, 1, 0xffffffff, 0x100, 8]
    a64 = [0xdeadbeefcafebabe, 0x8000000000000000, 0x00000000fff00000, 0x123456789abcdef0,
           ONES64, 0x7fffffffffffffff, 0x8000000000000000, 0x0123456789abcdef,
           0xfffffffffffffff0, 0, 0x8000000000000001, 0xf0f0f0f0f0f0f0f0, 1, 0xffff000000000000]
    bb64 = [0, ONES64, 0x5555555555555555, 0, 0, 0x1111111111111111, 0x2222222222222222,
            0x3333333333333333, 0, ONES64, 0, 0xffffffff00000000, 0x8000000000000000, 1]
    pos64 = [0, 63, 20, 60, 64, 32, 255, 0x143, 0, 62, 63, 4, 63, 48]
    len64 = [16, 1, 12, 8, 3, 33, 2, 8, 64, 3, 2, 0xff, 1, 0]
    zb = [0, 1, 8, 16, 31, 32, 33, 64, ONES32, 4, 24, 12, 0x21, 30]
    ma = [0, 0, 1, 31, 31, 32, 33, 5, 0, 16, 40, 8, 0xffffffff, 2]
    mb = [0, 32, 2, 1, 2, 1, 0, 27, 31, 16, 3, 0, 5, 40]
    for nm, t, v in [("a32", "u32", a32), ("bb32", "u32", bb32), ("pos", "u32", pos),
                     ("len", "u32", length), ("a64", "u64", a64), ("bb64", "u64", bb64),
                     ("pos64", "u32", pos64), ("len64", "u32", len64), ("zb", "u32", zb),
                     ("ma", "u32", ma), ("mb", "u32", mb)]:
        c.input(nm, t, v)
    c.regs += [".reg .b32 %a32, %bb32, %pos, %len, %pos64, %len64, %zb, %ma, %mb, %bfeu32, "
               "%bfes32, %bfi32, %szcu, %szcs, %szwu, %szws, %bmskc, %bmskw;",
               ".reg .b64 %a64, %bb64, %bfeu64, %bfes64, %bfi64;"]
    c.body += ["bfe.u32 %bfeu32, %a32, %pos, %len;",
               "bfe.s32 %bfes32, %a32, %pos, %len;",
               "bfi.b32 %bfi32, %a32, %bb32, %pos, %len;",
               "bfe.u64 %bfeu64, %a64, %pos64, %len64;",
               "bfe.s64 %bfes64, %a64, %pos64, %len64;",
               "bfi.b64 %bfi64, %a64, %bb64, %pos64, %len64;",
               "szext.clamp.u32 %szcu, %a32, %zb;",
               "szext.clamp.s32 %szcs, %a32, %zb;",
               "szext.wrap.u32 %szwu, %a32, %zb;",
               "szext.wrap.s32 %szws, %a32, %zb;",
               "bmsk.clamp.b32 %bmskc, %ma, %mb;",
               "bmsk.wrap.b32 %bmskw, %ma, %mb;"]
    r = range(n)
    c.output("bfeu32", "u32", "%bfeu32", [bfe(a32[i], pos[i], length[i], 32, False) for i in r],
             "bits pos..pos+len-1 of a (pos, len mod 256), zero-extended")
    c.output("bfes32", "u32", "%bfes32", [bfe(a32[i], pos[i], length[i], 32, True) for i in r],
             "the same, filled with a[min(pos+len-1, 31)] (0 when len is 0)")
    c.output("bfi32", "u32", "%bfi32", [bfi(a32[i], bb32[i], pos[i], length[i], 32) for i in r],
             "b with bits pos.. replaced by a's low bits, cut at bit 31")
    c.output("bfeu64", "u64", "%bfeu64", [bfe(a64[i], pos64[i], len64[i], 64, False) for i in r],
             "64-bit bfe, zero-extended")
    c.output("bfes64", "u64", "%bfes64", [bfe(a64[i], pos64[i], len64[i], 64, True) for i in r],
             "64-bit bfe, filled with a[min(pos+len-1, 63)]")
    c.output("bfi64", "u64", "%bfi64", [bfi(a64[i], bb64[i], pos64[i], len64[i], 64) for i in r],
             "64-bit bfi")
    c.output("szcu", "u32", "%szcu", [szext(a32[i], zb[i], True, False) for i in r],
             "low N = b bits of a zero-extended; .clamp: N >= 32 keeps a")
    c.output("szcs", "u32", "%szcs", [szext(a32[i], zb[i], True, True) for i in r],
             "low N bits sign-extended from bit N-1; N = 0 gives 0")
    c.output("szwu", "u32", "%szwu", [szext(a32[i], zb[i], False, False) for i in r],
             ".wrap: N = b mod 32")
    c.output("szws", "u32", "%szws", [szext(a32[i], zb[i], False, True) for i in r],
             ".wrap, sign-extended")
    c.output("bmskc", "u32", "%bmskc", [bmsk(ma[i], mb[i], True) for i in r],
             "b ones from bit a; .clamp: a >= 32 gives 0, b >= 32 or a+b >= 32\n"
             "runs to bit 31")
    c.output("bmskw", "u32", "%bmskw", [bmsk(ma[i], mb[i], False) for i in r],
             ".wrap: a and b mod 32, then the same rule")
    c.write()


# --- prmt ---------------------------------------------------------------------------
def prmt_case():
    n = 12
    c = Case("bits", "prmt", "permute", """
prmt.b32 in the default mode (four 4-bit selectors from c[15:0]; selector
bit 3 replicates the chosen byte's sign; the upper half of c is ignored)
and in each special mode (.f4e .b4e .rc8 .ecl .ecr .rc16: the ISA's byte
table indexed by c[1:0], other bits of c ignored). Source bytes are
{b, a} = b7..b4 a3..a0.
""" + HOW, n)
    a = [0x33221100, 0x80ff7f01, 0x33221100, 0x7f80fe01, 0x44332211, 0x80818283,
         0x03020100, 0xa0b0c0d0, 0x00000000, 0x11223344, 0x8899aabb, 0xdeadbeef]
    b = [0x77665544, 0x7f00ff80, 0x77665544, 0x00ff0180, 0x88776655, 0x04050607,
         0x07060504, 0x0a0b0c0d, 0xffffffff, 0x55667788, 0xccddeeff, 0xcafebabe]
    cc = [0x3210, 0x7654, 0x0123, 0x8888, 0xba98, 0xffff4567, 0x1, 0x2,
          0x3, 0xfffffffc, 0x5, 0xc9e1]
    c.input("a", "u32", a); c.input("bv", "u32", b); c.input("c", "u32", cc)
    c.regs.append(".reg .b32 %a, %bv, %c, %def, %f4e, %b4e, %rc8, %ecl, %ecr, %rc16;")
    c.body += ["prmt.b32 %def, %a, %bv, %c;",
               "prmt.b32.f4e %f4e, %a, %bv, %c;",
               "prmt.b32.b4e %b4e, %a, %bv, %c;",
               "prmt.b32.rc8 %rc8, %a, %bv, %c;",
               "prmt.b32.ecl %ecl, %a, %bv, %c;",
               "prmt.b32.ecr %ecr, %a, %bv, %c;",
               "prmt.b32.rc16 %rc16, %a, %bv, %c;"]
    r = range(n)
    c.output("def", "u32", "%def", [prmt(a[i], b[i], cc[i]) for i in r],
             "byte k = source byte c[4k+2:4k], or its sign replicated if c[4k+3]")
    for mode in ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]:
        c.output(mode, "u32", "%" + mode, [prmt(a[i], b[i], cc[i], mode) for i in r],
                 f".{mode}: the ISA's selector row for c[1:0]")
    c.write()


# --- shf and lop3 --------------------------------------------------------------------
LUTS = [0x00, 0xff, 0x80, 0xfe, 0x96, 0xe8, 0xca, 0x1a, 0x40, 0xf0, 0xcc, 0xaa, 0x3c, 0x01]


def shf_lop3():
    n = 10
    c = Case("bits", "shf-lop3", "funnelLogic", """
shf.l/shf.r with .clamp (shift amount min(c, 32)) and .wrap (c mod 32) on
the 64-bit value b:a; lop3.b32 with several truth tables (0x00 false, 0xff
true, 0x80 a&b&c, 0xfe a|b|c, 0x96 a^b^c, 0xe8 majority, 0xca a?b:c, 0x1a
(a&b|c)^a, 0x40 a&b&~c, 0xf0 a, 0xcc b, 0xaa c, 0x3c a^b, 0x01 ~(a|b|c)),
and the predicate forms lop3.or / lop3.and (p = (d != 0) BoolOp q, with
the sink '_' as d).
""" + HOW, n)
    a = [0x89abcdef, 0x89abcdef, 0x89abcdef, 0x89abcdef, 0x89abcdef, 0x89abcdef,
         0x89abcdef, 0x89abcdef, 0, 0xf0f0f0f0]
    b = [0x01234567, 0x01234567, 0x01234567, 0x01234567, 0x01234567, 0x01234567,
         0x01234567, 0x01234567, 0xffffffff, 0xcccccccc]
    cc = [0, 1, 4, 31, 32, 33, 63, 64, ONES32, 0xaaaaaaaa]
    q = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    c.input("a", "u32", a); c.input("bv", "u32", b); c.input("c", "u32", cc)
    c.input("q", "u32", q)
    names = [f"%lut{k:02x}" for k in LUTS]
    c.regs.append(".reg .b32 %a, %bv, %c, %q, %shflc, %shflw, %shfrc, %shfrw, %zero, %pbits, %t, "
                  + ", ".join(names) + ";")
    c.regs.append(".reg .pred %qp, %por, %pand, %pand0;")
    c.body += ["shf.l.clamp.b32 %shflc, %a, %bv, %c;",
               "shf.l.wrap.b32 %shflw, %a, %bv, %c;",
               "shf.r.clamp.b32 %shfrc, %a, %bv, %c;",
               "shf.r.wrap.b32 %shfrw, %a, %bv, %c;"]
    for k, nm in zip(LUTS, names):
        c.body.append(f"lop3.b32 {nm}, %a, %bv, %c, {hex(k)};")
    c.body += ["setp.ne.u32 %qp, %q, 0;",
               "lop3.or.b32 %zero|%por, %a, %bv, %c, 0x80, %qp;",
               "lop3.and.b32 _|%pand, %a, %bv, %c, 0x96, %qp;",
               "lop3.and.b32 _|%pand0, %a, %bv, %c, 0x00, %qp;",
               "selp.u32 %pbits, 1, 0, %por;",
               "selp.u32 %t, 2, 0, %pand;",
               "or.b32 %pbits, %pbits, %t;",
               "selp.u32 %t, 4, 0, %pand0;",
               "or.b32 %pbits, %pbits, %t;"]
    r = range(n)
    c.output("shflc", "u32", "%shflc", [shf(a[i], b[i], cc[i], True, True) for i in r],
             "upper 32 bits of (b:a) << min(c, 32)")
    c.output("shflw", "u32", "%shflw", [shf(a[i], b[i], cc[i], True, False) for i in r],
             "upper 32 bits of (b:a) << (c mod 32)")
    c.output("shfrc", "u32", "%shfrc", [shf(a[i], b[i], cc[i], False, True) for i in r],
             "lower 32 bits of (b:a) >> min(c, 32)")
    c.output("shfrw", "u32", "%shfrw", [shf(a[i], b[i], cc[i], False, False) for i in r],
             "lower 32 bits of (b:a) >> (c mod 32)")
    for k, nm in zip(LUTS, names):
        c.output(nm[1:], "u32", nm, [lop3(a[i], b[i], cc[i], k) for i in r],
                 f"bit i = immLut {hex(k)} bit (a_i<<2 | b_i<<1 | c_i)")
    c.output("zero", "u32", "%zero", [lop3(a[i], b[i], cc[i], 0x80) for i in r],
             "d of lop3.or.b32 d|p with immLut 0x80")
    pb = []
    for i in r:
        d1 = lop3(a[i], b[i], cc[i], 0x80)
        d2 = lop3(a[i], b[i], cc[i], 0x96)
        pb.append(int(d1 != 0 or q[i] != 0) | int(d2 != 0 and q[i] != 0) << 1 | 0 << 2)
    c.output("pbits", "u32", "%pbits", pb,
             "((a&b&c) != 0 || q) | ((a^b^c) != 0 && q) << 1 | (0 != 0 && q) << 2")
    c.write()


# --- dp4a / dp2a ------------------------------------------------------------------------
def dot():
    n = 8
    c = Case("bits", "dot-product", "dotProduct", """
dp4a and dp2a.lo/.hi for every combination of .u32/.s32 for a and b:
d = c + sum of the products of a's bytes (dp4a) or half-words (dp2a) with
b's bytes (dp2a: bytes 0-1 for .lo, 2-3 for .hi), each element zero- or
sign-extended by its own type; the sum wraps modulo 2^32.
""" + HOW, n)
    a = [0, 0x01020304, 0xffffffff, 0x80808080, 0x7f7f7f7f, 0x80017fff, 0x12345678, 0xff00ff00]
    b = [0, 0x01010101, 0xffffffff, 0x80808080, 0x7f808001, 0xff7f0180, 0x9abcdef0, 0x00ff00ff]
    cc = [0, 10, 0, 0x7fffffff, 0xffffffff, 0x80000000, 12345, 0xfffffffe]
    c.input("a", "u32", a); c.input("bv", "u32", b); c.input("c", "u32", cc)
    combos = [("u32", "u32"), ("u32", "s32"), ("s32", "u32"), ("s32", "s32")]
    outs = []
    for at, bt in combos:
        outs.append((f"dp4{at[0]}{bt[0]}", f"dp4a.{at}.{bt}", None))
        for mode in ["lo", "hi"]:
            outs.append((f"dp2{mode}{at[0]}{bt[0]}", f"dp2a.{mode}.{at}.{bt}", mode))
    c.regs.append(".reg .b32 %a, %bv, %c, " + ", ".join("%" + o[0] for o in outs) + ";")
    for nm, instr, _ in outs:
        c.body.append(f"{instr} %{nm}, %a, %bv, %c;")
    r = range(n)
    for nm, instr, mode in outs:
        at, bt = instr.split(".")[-2:]
        asg, bsg = at == "s32", bt == "s32"
        if mode is None:
            exp = [dp4a(a[i], b[i], cc[i], asg, bsg) for i in r]
        else:
            exp = [dp2a(a[i], b[i], cc[i], asg, bsg, mode == "hi") for i in r]
        c.output(nm, "u32", "%" + nm, exp, instr)
    c.write()


logic_shift()
count()
bitfield()
prmt_case()
shf_lop3()
dot()
