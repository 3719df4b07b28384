#!/usr/bin/env python3
"""Writes the compare/ conformance cases (setp, set, selp, slct).

Expected values come from the PTX ISA's definitions evaluated in Python:
integer comparisons on the operands read as the instruction type (Python
integers), float comparisons on the exact decoded values (Fractions, with
-0 equal to +0), where the ordered operators are false and the unordered
ones true when either operand is NaN, `num` is true when neither is NaN and
`nan` when either is. .ftz flushes f32/f16 subnormal operands to zero
first. Bit j of a mask output is the result of the j-th operator of the
list used for it (INT_SIGNED_OPS, INT_UNSIGNED_OPS, BIT_OPS or FLOAT_OPS);
for f16x2/bf16x2 the lower halves' result p is bit j and the upper halves'
result q is bit 16 + j. Run it from anywhere; it rewrites the .ptx/.data
pairs beside it.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the case directories clean
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "convert"))
from casegen import (BF16, F16, F32, F64, Case, decode, f32_bits, f64_bits,
                     hexv, wrap)

ROOT = os.path.dirname(HERE)

OPS = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ",
       "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]
INT_SIGNED_OPS = OPS[:6]
INT_UNSIGNED_OPS = OPS[:10]
BIT_OPS = OPS[:2]
FLOAT_OPS = OPS[:6] + OPS[10:]


def pad(values, n):
    return [values[i % len(values)] for i in range(n)]


def sext(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def int_compare(op, a, b):
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b,
            "gt": a > b, "ge": a >= b, "lo": a < b, "ls": a <= b,
            "hi": a > b, "hs": a >= b}[op]


def flush(bits, f):
    if (bits >> f.m) & ((1 << f.e) - 1) == 0:
        return bits & (1 << (f.e + f.m))
    return bits


def key(v):
    """A totally ordered stand-in for a non-NaN value (-0 equals +0)."""
    if v.is_inf():
        return (-2, 0) if v.sign else (2, 0)
    return (0, v.exact())


def float_compare(op, va, vb):
    unordered = va.is_nan() or vb.is_nan()
    if op == "num":
        return not unordered
    if op == "nan":
        return unordered
    if unordered:
        return op.endswith("u")
    a, b = key(va), key(vb)
    base = op[:-1] if op.endswith("u") else op
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b,
            "gt": a > b, "ge": a >= b}[base]


def fcmp_bits(op, x, y, f, ftz=False):
    if ftz:
        x, y = flush(x, f), flush(y, f)
    return float_compare(op, decode(x, f), decode(y, f))


def mask_lines(c, mask, ops, ptx_type, a, b, extra=""):
    """Accumulates setp results of every op into register %mask."""
    c.line("mov.b32 %%%s, 0;" % mask)
    for k, op in enumerate(ops):
        c.line("setp.%s%s.%s %%p, %s, %s;" % (op, extra, ptx_type, a, b))
        c.line("selp.b32 %%t, %d, 0, %%p;" % (1 << k))
        c.line("or.b32 %%%s, %%%s, %%t;" % (mask, mask))


def pair_mask_lines(c, mask, ops, ptx_type, a, b, extra=""):
    """f16x2/bf16x2: p (lower halves) in bit k, q (upper) in bit 16 + k."""
    c.line("mov.b32 %%%s, 0;" % mask)
    for k, op in enumerate(ops):
        c.line("setp.%s%s.%s %%p|%%q, %s, %s;" % (op, extra, ptx_type, a, b))
        c.line("selp.b32 %%t, %d, 0, %%p;" % (1 << k))
        c.line("or.b32 %%%s, %%%s, %%t;" % (mask, mask))
        c.line("selp.b32 %%t, %d, 0, %%q;" % (1 << (k + 16)))
        c.line("or.b32 %%%s, %%%s, %%t;" % (mask, mask))


def common_regs(c):
    for r, t in [("p", "pred"), ("q", "pred"), ("c", "pred"), ("t", "b32")]:
        c.reg(r, t)


#===------------------------------------------------------------------------===#
# setp on integers
#===------------------------------------------------------------------------===#

def setp_int():
    pairs = [(0, 0), (1, 2), (2, 1), (-1, 1), (1, -1), (-1, -1),
             (-2**63, 2**63 - 1), (2**63 - 1, -2**63), (0x80000000, 0x7fffffff),
             (0x7fffffff, 0x80000000), (0x8000, 0x7fff), (0xffff, 0x1),
             (0x1_00000000, 0x2_00000000), (-5, -3), (0x12345678_00018000,
                                                      0x12345678_00018000),
             (0xffffffff, 0), (0x00010000, 0xffff0000), (-2**31, 2**31 - 1)]
    n = len(pairs)
    a = [sext(x, 64) for x, _ in pairs]
    b = [sext(y, 64) for _, y in pairs]
    cflag = [i % 3 != 0 for i in range(n)]
    c = Case("compare", "setp-int", "setpInt", n,
             "setp on integer and bit types: every comparison operator the\n"
             "ISA defines for the type (signed: eq ne lt le gt ge; unsigned\n"
             "also lo ls hi hs; bit-size: eq ne), and the .and/.or/.xor forms\n"
             "with a (negated) predicate, with both p|q destinations and a\n"
             "sink. Narrower types use the low bits of a and b.\n"
             "Expected values: Python integer comparisons of the operands read\n"
             "as the type. m_<type>: bit k is the k-th of eq ne lt le gt ge lo\n"
             "ls hi hs (the ones defined for the type). BoolOp outputs: bit 0 is p =\n"
             "BoolOp(t, c), bit 1 is q = BoolOp(!t, c), where c is the input c\n"
             "(nonzero) or its negation as written. Generated by generate.py.")
    c.input("a", "s64", [str(x) for x in a], regty="b64", ldty="u64")
    c.input("b", "s64", [str(x) for x in b], regty="b64", ldty="u64")
    c.input("cin", "u32", [str(int(x)) for x in cflag], regty="b32",
            ldty="u32")
    common_regs(c)
    for r, t in [("a32", "b32"), ("b32", "b32"), ("ah", "b32"), ("bh", "b32"),
                 ("a16", "b16"), ("b16", "b16"), ("ah16", "b16"),
                 ("bh16", "b16")]:
        c.reg(r, t)
    c.line("setp.ne.u32 %c, %cin, 0;")
    c.line("mov.b64 {%a32, %ah}, %a;")
    c.line("mov.b64 {%b32, %bh}, %b;")
    c.line("mov.b32 {%a16, %ah16}, %a32;")
    c.line("mov.b32 {%b16, %bh16}, %b32;")
    types = [("s16", "%a16", "%b16", 16), ("u16", "%a16", "%b16", 16),
             ("b16", "%a16", "%b16", 16), ("s32", "%a32", "%b32", 32),
             ("u32", "%a32", "%b32", 32), ("b32", "%a32", "%b32", 32),
             ("s64", "%a", "%b", 64), ("u64", "%a", "%b", 64),
             ("b64", "%a", "%b", 64)]
    for t, ra, rb, bits in types:
        ops = {"s": INT_SIGNED_OPS, "u": INT_UNSIGNED_OPS, "b": BIT_OPS}[t[0]]
        m = "m_" + t
        c.reg(m, "b32")
        mask_lines(c, m, ops, t, ra, rb)
        exp = []
        for x, y in zip(a, b):
            xv, yv = wrap(x, bits), wrap(y, bits)
            if t[0] == "s":
                xv, yv = sext(xv, bits), sext(yv, bits)
            exp.append(hexv(sum(1 << k for k, op in enumerate(ops)
                                if int_compare(op, xv, yv)), 32))
        c.output(m, "b32", "b32", "u32", exp, declare=False)
    # BoolOp forms: (op, boolop, type, negate c, register a, b, bits, sink)
    forms = [("lt", "and", "s32", False, "%a32", "%b32", 32, ""),
             ("lt", "or", "s32", True, "%a32", "%b32", 32, ""),
             ("ge", "xor", "u32", False, "%a32", "%b32", 32, ""),
             ("hi", "and", "u64", True, "%a", "%b", 64, ""),
             ("ne", "or", "b16", False, "%a16", "%b16", 16, ""),
             ("gt", "xor", "s64", True, "%a", "%b", 64, ""),
             ("eq", "", "s32", False, "%a32", "%b32", 32, "p"),
             ("le", "and", "s16", False, "%a16", "%b16", 16, "q")]
    for op, bo, t, neg, ra, rb, bits, sink in forms:
        out = "o_%s_%s_%s%s%s" % (op, bo or "none", t, "_notc" if neg else "",
                                  "_sink" + sink if sink else "")
        c.reg(out, "b32")
        pd = "_" if sink == "p" else "%p"
        qd = "_" if sink == "q" else "%q"
        c.line("setp.%s%s.%s %s|%s, %s, %s%s;" % (
            op, "." + bo if bo else "", t, pd, qd, ra, rb,
            (", %s%%c" % ("!" if neg else "")) if bo else ""))
        c.line("mov.b32 %%%s, 0;" % out)
        if sink != "p":
            c.line("selp.b32 %t, 1, 0, %p;")
            c.line("or.b32 %%%s, %%%s, %%t;" % (out, out))
        if sink != "q":
            c.line("selp.b32 %t, 2, 0, %q;")
            c.line("or.b32 %%%s, %%%s, %%t;" % (out, out))
        exp = []
        for x, y, cf in zip(a, b, cflag):
            xv, yv = wrap(x, bits), wrap(y, bits)
            if t[0] == "s":
                xv, yv = sext(xv, bits), sext(yv, bits)
            tv = int_compare(op, xv, yv)
            cv = (not cf) if neg else cf
            comb = {"and": lambda u: u and cv, "or": lambda u: u or cv,
                    "xor": lambda u: u != cv, "": lambda u: u}[bo]
            p, q = comb(tv), comb(not tv)
            exp.append(str((0 if sink == "p" else int(p)) |
                           (0 if sink == "q" else int(q) << 1)))
        c.output(out, "b32", "b32", "u32", exp, declare=False)
    return c


#===------------------------------------------------------------------------===#
# setp on f32/f64
#===------------------------------------------------------------------------===#

NAN32, NAN64 = 0x7fc00000, 0x7ff8000000000000


def setp_float():
    f = [(1.0, 2.0), (2.0, 1.0), (1.0, 1.0), (-0.0, 0.0), ("nan", 1.0),
         (1.0, "nan"), ("nan", "nan"), ("inf", "inf"), ("-inf", "inf"),
         (2**-149, 0.0), (-2**-149, 0.0), (1e-40, 2e-40), ("inf", "nan"),
         (-1.0, -2.0), (3.4e38, "inf"), (2**-149, -2**-149), (-1e-40, 1e-40),
         ("-inf", -3.4e38)]

    def b32(x):
        return {"nan": NAN32, "inf": 0x7f800000,
                "-inf": 0xff800000}.get(x) if isinstance(x, str) else f32_bits(x)

    def b64(x):
        return {"nan": NAN64 | 1, "inf": 0x7ff0000000000000,
                "-inf": 0xfff0000000000000}.get(x) if isinstance(x, str) \
            else f64_bits(x if abs(x) > 1e-30 or x == 0 else x * 2**-900)

    n = len(f)
    fa, fb = [b32(x) for x, _ in f], [b32(y) for _, y in f]
    da, db = [b64(x) for x, _ in f], [b64(y) for _, y in f]
    cflag = [i % 3 != 1 for i in range(n)]
    c = Case("compare", "setp-float", "setpFloat", n,
             "setp on f32 and f64 with every float comparison operator\n"
             "(eq ne lt le gt ge equ neu ltu leu gtu geu num nan), .ftz for\n"
             "f32, and BoolOp forms.\n"
             "Expected values: comparisons of the exact decoded values (Python\n"
             "fractions; -0 equals +0): ordered operators are false and the\n"
             "unordered ones (..u) true when either operand is NaN; num is\n"
             "true when neither is NaN, nan when either is. .ftz flushes\n"
             "subnormal f32 operands to zero of the same sign. m_*: bit k is\n"
             "the k-th of eq ne lt le gt ge equ neu ltu leu gtu geu num nan.\n"
             "BoolOp outputs: bit 0 p, bit 1 q. The f64 pairs\n"
             "are the f32 ones with tiny values scaled into the f64 subnormal\n"
             "range. Generated by generate.py.")
    c.input("fa", "f32", [hexv(x, 32) for x in fa])
    c.input("fb", "f32", [hexv(x, 32) for x in fb])
    c.input("da", "f64", [hexv(x, 64) for x in da])
    c.input("db", "f64", [hexv(x, 64) for x in db])
    c.input("cin", "u32", [str(int(x)) for x in cflag], regty="b32",
            ldty="u32")
    common_regs(c)
    c.line("setp.ne.u32 %c, %cin, 0;")
    for name, t, ra, rb, extra, fmt, A, B in [
            ("m_f32", "f32", "%fa", "%fb", "", F32, fa, fb),
            ("m_f32_ftz", "f32", "%fa", "%fb", ".ftz", F32, fa, fb),
            ("m_f64", "f64", "%da", "%db", "", F64, da, db)]:
        c.reg(name, "b32")
        mask_lines(c, name, FLOAT_OPS, t, ra, rb, extra)
        exp = [hexv(sum(1 << k for k, op in enumerate(FLOAT_OPS)
                        if fcmp_bits(op, x, y, fmt, bool(extra))), 32)
               for x, y in zip(A, B)]
        c.output(name, "b32", "b32", "u32", exp, declare=False)
    forms = [("ltu", "and", "f32", "", False), ("num", "or", "f64", "", True),
             ("neu", "xor", "f32", ".ftz", False), ("ge", "and", "f64", "", True),
             ("lt", "", "f32", "", False), ("nan", "or", "f32", ".ftz", True)]
    for op, bo, t, extra, neg in forms:
        out = "o_%s_%s_%s%s%s" % (op, bo or "none", t, extra.replace(".", "_"),
                                  "_notc" if neg else "")
        c.reg(out, "b32")
        ra, rb = ("%fa", "%fb") if t == "f32" else ("%da", "%db")
        c.line("setp.%s%s%s.%s %%p|%%q, %s, %s%s;" % (
            op, "." + bo if bo else "", extra, t, ra, rb,
            (", %s%%c" % ("!" if neg else "")) if bo else ""))
        c.line("selp.b32 %%%s, 1, 0, %%p;" % out)
        c.line("selp.b32 %t, 2, 0, %q;")
        c.line("or.b32 %%%s, %%%s, %%t;" % (out, out))
        fmt, A, B = (F32, fa, fb) if t == "f32" else (F64, da, db)
        exp = []
        for x, y, cf in zip(A, B, cflag):
            tv = fcmp_bits(op, x, y, fmt, bool(extra))
            cv = (not cf) if neg else cf
            comb = {"and": lambda u: u and cv, "or": lambda u: u or cv,
                    "xor": lambda u: u != cv, "": lambda u: u}[bo]
            exp.append(str(int(comb(tv)) | int(comb(not tv)) << 1))
        c.output(out, "b32", "b32", "u32", exp, declare=False)
    return c


#===------------------------------------------------------------------------===#
# setp on f16/bf16 and the packed types
#===------------------------------------------------------------------------===#

H_PAIRS = [(0x3c00, 0x4000), (0x4000, 0x3c00), (0x3c00, 0x3c00),
           (0x8000, 0x0000), (0x7e00, 0x3c00), (0x3c00, 0x7e00),
           (0x7c00, 0x7c00), (0xfc00, 0x7c00), (0x0001, 0x0000),
           (0x8001, 0x0000), (0x0001, 0x0002), (0x7bff, 0x7c00),
           (0xbc00, 0xc000), (0x7e00, 0xfe00), (0x03ff, 0x0400),
           (0x8001, 0x0001)]
B_PAIRS = [(0x3f80, 0x4000), (0x4000, 0x3f80), (0x3f80, 0x3f80),
           (0x8000, 0x0000), (0x7fc0, 0x3f80), (0x3f80, 0x7fc0),
           (0x7f80, 0x7f80), (0xff80, 0x7f80), (0x0001, 0x0000),
           (0x8001, 0x0000), (0x0001, 0x0002), (0x7f7f, 0x7f80),
           (0xbf80, 0xc000), (0x7fc0, 0xffc0), (0x007f, 0x0080),
           (0x3f81, 0x3f80)]


def setp_half():
    n = len(H_PAIRS)
    hi = [H_PAIRS[(i + 5) % n] for i in range(n)]
    bhi = [B_PAIRS[(i + 7) % n] for i in range(n)]
    ha = [h[0] << 16 | l[0] for h, l in zip(hi, H_PAIRS)]
    hb = [h[1] << 16 | l[1] for h, l in zip(hi, H_PAIRS)]
    ba = [h[0] << 16 | l[0] for h, l in zip(bhi, B_PAIRS)]
    bb = [h[1] << 16 | l[1] for h, l in zip(bhi, B_PAIRS)]
    cflag = [i % 4 < 2 for i in range(n)]
    c = Case("compare", "setp-half", "setpHalf", n,
             "setp on f16 and bf16 (one predicate) and f16x2 and bf16x2 (p|q:\n"
             "p from the lower halves, q from the upper ones), with .ftz for\n"
             "the f16 types and BoolOp forms.\n"
             "Expected values: comparisons of the exact decoded values as in\n"
             "setp-float. The scalar forms compare the lower halves of a and b.\n"
             "m_f16, m_bf16: bit k is the k-th of eq ne lt le gt ge equ neu\n"
             "ltu leu gtu geu num nan. The x2 masks: bit k is p and bit 16 + k\n"
             "is q for the k-th operator. BoolOp outputs: bit 0 p, bit 1 q.\n"
             "Generated by generate.py.")
    c.input("ha", "u32", [hexv(x, 32) for x in ha], regty="b32", ldty="u32")
    c.input("hb", "u32", [hexv(x, 32) for x in hb], regty="b32", ldty="u32")
    c.input("ba", "u32", [hexv(x, 32) for x in ba], regty="b32", ldty="u32")
    c.input("bb", "u32", [hexv(x, 32) for x in bb], regty="b32", ldty="u32")
    c.input("cin", "u32", [str(int(x)) for x in cflag], regty="b32",
            ldty="u32")
    common_regs(c)
    for r in ["hal", "hah", "hbl", "hbh", "bal", "bah", "bbl", "bbh"]:
        c.reg(r, "b16")
    c.line("setp.ne.u32 %c, %cin, 0;")
    c.line("mov.b32 {%hal, %hah}, %ha;")
    c.line("mov.b32 {%hbl, %hbh}, %hb;")
    c.line("mov.b32 {%bal, %bah}, %ba;")
    c.line("mov.b32 {%bbl, %bbh}, %bb;")
    low = lambda x: x & 0xffff
    high = lambda x: x >> 16
    for name, t, ra, rb, extra, fmt, A, B in [
            ("m_f16", "f16", "%hal", "%hbl", "", F16, ha, hb),
            ("m_f16_ftz", "f16", "%hal", "%hbl", ".ftz", F16, ha, hb),
            ("m_bf16", "bf16", "%bal", "%bbl", "", BF16, ba, bb)]:
        c.reg(name, "b32")
        mask_lines(c, name, FLOAT_OPS, t, ra, rb, extra)
        exp = [hexv(sum(1 << k for k, op in enumerate(FLOAT_OPS)
                        if fcmp_bits(op, low(x), low(y), fmt, bool(extra))), 32)
               for x, y in zip(A, B)]
        c.output(name, "b32", "b32", "u32", exp, declare=False)
    for name, t, ra, rb, extra, fmt, A, B in [
            ("m_f16x2", "f16x2", "%ha", "%hb", "", F16, ha, hb),
            ("m_f16x2_ftz", "f16x2", "%ha", "%hb", ".ftz", F16, ha, hb),
            ("m_bf16x2", "bf16x2", "%ba", "%bb", "", BF16, ba, bb)]:
        c.reg(name, "b32")
        pair_mask_lines(c, name, FLOAT_OPS, t, ra, rb, extra)
        exp = []
        for x, y in zip(A, B):
            m = 0
            for k, op in enumerate(FLOAT_OPS):
                if fcmp_bits(op, low(x), low(y), fmt, bool(extra)):
                    m |= 1 << k
                if fcmp_bits(op, high(x), high(y), fmt, bool(extra)):
                    m |= 1 << (k + 16)
            exp.append(hexv(m, 32))
        c.output(name, "b32", "b32", "u32", exp, declare=False)
    forms = [("lt", "and", "f16x2", "", False, "%ha", "%hb"),
             ("geu", "or", "bf16x2", "", True, "%ba", "%bb"),
             ("ne", "xor", "f16x2", ".ftz", False, "%ha", "%hb"),
             ("eq", "xor", "f16", "", True, "%hal", "%hbl"),
             ("gtu", "and", "bf16", "", False, "%bal", "%bbl")]
    for op, bo, t, extra, neg, ra, rb in forms:
        out = "o_%s_%s_%s%s%s" % (op, bo, t, extra.replace(".", "_"),
                                  "_notc" if neg else "")
        c.reg(out, "b32")
        pair = t.endswith("x2")
        c.line("setp.%s.%s%s.%s %%p%s, %s, %s, %s%%c;" % (
            op, bo, extra, t, "|%q" if pair else "", ra, rb,
            "!" if neg else ""))
        c.line("selp.b32 %%%s, 1, 0, %%p;" % out)
        if pair:
            c.line("selp.b32 %t, 2, 0, %q;")
            c.line("or.b32 %%%s, %%%s, %%t;" % (out, out))
        fmt, A, B = (F16, ha, hb) if t.startswith("f16") else (BF16, ba, bb)
        exp = []
        for x, y, cf in zip(A, B, cflag):
            cv = (not cf) if neg else cf
            comb = {"and": lambda u: u and cv, "or": lambda u: u or cv,
                    "xor": lambda u: u != cv}[bo]
            p = comb(fcmp_bits(op, low(x), low(y), fmt, bool(extra)))
            v = int(p)
            if pair:
                q = comb(fcmp_bits(op, high(x), high(y), fmt, bool(extra)))
                v |= int(q) << 1
            exp.append(str(v))
        c.output(out, "b32", "b32", "u32", exp, declare=False)
    return c


#===------------------------------------------------------------------------===#
# set
#===------------------------------------------------------------------------===#

def set_forms():
    ints = [(1, 2), (2, 1), (-1, 1), (5, 5), (-2**31, 2**31 - 1),
            (0x7fffffff, -1), (0, 0), (-7, -8)]
    flts = [(1.0, 2.0), ("nan", 1.0), (-0.0, 0.0), (1e-40, 0.0), (2.0, 1.0),
            ("inf", 3.0), (-1.0, "nan"), (-2**-149, 2**-149)]
    n = max(len(ints), len(flts), len(H_PAIRS))
    ints, flts = pad(ints, n), pad(flts, n)
    hp = pad(H_PAIRS, n)
    bp = pad(B_PAIRS, n)
    hhi = [hp[(i + 3) % n] for i in range(n)]
    bhi = [bp[(i + 9) % n] for i in range(n)]

    def b32(x):
        return {"nan": NAN32, "inf": 0x7f800000}.get(x) \
            if isinstance(x, str) else f32_bits(x)

    def b64(x):
        return {"nan": NAN64, "inf": 0x7ff0000000000000}.get(x) \
            if isinstance(x, str) else f64_bits(x)
    ia, ib = [x for x, _ in ints], [y for _, y in ints]
    fa, fb = [b32(x) for x, _ in flts], [b32(y) for _, y in flts]
    da, db = [b64(x) for x, _ in flts], [b64(y) for _, y in flts]
    ha = [h[0] << 16 | l[0] for h, l in zip(hhi, hp)]
    hb = [h[1] << 16 | l[1] for h, l in zip(hhi, hp)]
    ba = [h[0] << 16 | l[0] for h, l in zip(bhi, bp)]
    bb = [h[1] << 16 | l[1] for h, l in zip(bhi, bp)]
    cflag = [i % 3 == 0 for i in range(n)]
    c = Case("compare", "set", "setForms", n,
             "set.CmpOp{.BoolOp}{.ftz}.dtype.stype: the comparison of setp\n"
             "(checked exhaustively in the setp cases) written as a value:\n"
             "0xffffffff for u32/s32, 0xffff for u16/s16, 1.0 in the\n"
             "destination format for f32 (0x3f800000), f16 (0x3c00) and bf16\n"
             "(0x3f80), and 0 for false; the f16x2/bf16x2 sources give one\n"
             "result per half (0xffff per half for u32/s32, 1.0 per half for\n"
             "the packed destination types), the lower half from the lower\n"
             "halves. Expected values: Python evaluation of the ISA's\n"
             "semantics as in setp-float/setp-int. Generated by generate.py.")
    c.input("ia", "s32", [str(x) for x in ia], regty="b32", ldty="u32")
    c.input("ib", "s32", [str(x) for x in ib], regty="b32", ldty="u32")
    c.input("fa", "f32", [hexv(x, 32) for x in fa])
    c.input("fb", "f32", [hexv(x, 32) for x in fb])
    c.input("da", "f64", [hexv(x, 64) for x in da])
    c.input("db", "f64", [hexv(x, 64) for x in db])
    c.input("ha", "u32", [hexv(x, 32) for x in ha], regty="b32", ldty="u32")
    c.input("hb", "u32", [hexv(x, 32) for x in hb], regty="b32", ldty="u32")
    c.input("ba", "u32", [hexv(x, 32) for x in ba], regty="b32", ldty="u32")
    c.input("bb", "u32", [hexv(x, 32) for x in bb], regty="b32", ldty="u32")
    c.input("cin", "u32", [str(int(x)) for x in cflag], regty="b32",
            ldty="u32")
    common_regs(c)
    for r in ["hal", "hah", "hbl", "hbh", "bal", "bah", "bbl", "bbh"]:
        c.reg(r, "b16")
    c.line("setp.ne.u32 %c, %cin, 0;")
    c.line("mov.b32 {%hal, %hah}, %ha;")
    c.line("mov.b32 {%hbl, %hbh}, %hb;")
    c.line("mov.b32 {%bal, %bah}, %ba;")
    c.line("mov.b32 {%bbl, %bbh}, %bb;")

    def icmp(op, t):
        def f(x, y):
            if t == "u32":
                x, y = wrap(x, 32), wrap(y, 32)
            return int_compare(op, x, y)
        return f

    def fcmp(op, fmt, ftz=False, part=None):
        def f(x, y):
            if part == "lo":
                x, y = x & 0xffff, y & 0xffff
            elif part == "hi":
                x, y = x >> 16, y >> 16
            return fcmp_bits(op, x, y, fmt, ftz)
        return f
    one = {"f32": 0x3f800000, "f16": 0x3c00, "bf16": 0x3f80}
    # (ptx modifiers, dtype, stype, a, b, inputs, predicate, boolop, negate)
    forms = [
        ("lt", "u32", "s32", "%ia", "%ib", (ia, ib), icmp("lt", "s32"), "", 0),
        ("hi", "s32", "u32", "%ia", "%ib", (ia, ib), icmp("hi", "u32"), "", 0),
        ("eq", "f32", "s32", "%ia", "%ib", (ia, ib), icmp("eq", "s32"), "", 0),
        ("ne.and", "u32", "s32", "%ia", "%ib", (ia, ib), icmp("ne", "s32"),
         "and", 0),
        ("ge.xor", "s32", "u32", "%ia", "%ib", (ia, ib), icmp("ge", "u32"),
         "xor", 1),
        ("gtu", "u32", "f32", "%fa", "%fb", (fa, fb), fcmp("gtu", F32), "", 0),
        ("nan", "f32", "f32", "%fa", "%fb", (fa, fb), fcmp("nan", F32), "", 0),
        ("lt.ftz", "u32", "f32", "%fa", "%fb", (fa, fb),
         fcmp("lt", F32, True), "", 0),
        ("eq.ftz", "f32", "f32", "%fa", "%fb", (fa, fb),
         fcmp("eq", F32, True), "", 0),
        ("le", "s32", "f64", "%da", "%db", (da, db), fcmp("le", F64), "", 0),
        ("ltu.or", "f32", "f64", "%da", "%db", (da, db), fcmp("ltu", F64),
         "or", 1),
        ("num", "f16", "f32", "%fa", "%fb", (fa, fb), fcmp("num", F32), "", 0),
        ("lt", "bf16", "f64", "%da", "%db", (da, db), fcmp("lt", F64), "", 0),
        ("gt", "bf16", "s32", "%ia", "%ib", (ia, ib), icmp("gt", "s32"), "", 0),
        ("lt", "f16", "f16", "%hal", "%hbl", (ha, hb), fcmp("lt", F16,
                                                             part="lo"), "", 0),
        ("lt.ftz", "f16", "f16", "%hal", "%hbl", (ha, hb),
         fcmp("lt", F16, True, "lo"), "", 0),
        ("lt", "u16", "f16", "%hal", "%hbl", (ha, hb),
         fcmp("lt", F16, part="lo"), "", 0),
        ("geu", "s16", "bf16", "%bal", "%bbl", (ba, bb),
         fcmp("geu", BF16, part="lo"), "", 0),
        ("equ.and", "s32", "bf16", "%bal", "%bbl", (ba, bb),
         fcmp("equ", BF16, part="lo"), "and", 1),
    ]
    for mods, dt, st, ra, rb, (A, B), pred, bo, neg in forms:
        out = "o_%s_%s_%s" % (mods.replace(".", "_"), dt, st)
        regty = {"u16": "b16", "s16": "b16", "f16": "b16", "bf16": "b16"}.get(
            dt, "b32")
        c.line("set.%s.%s.%s %%%s, %s, %s%s;" % (
            mods, dt, st, out, ra, rb,
            (", %s%%c" % ("!" if neg else "")) if bo else ""))
        true = one.get(dt, 0xffff if dt in ("u16", "s16") else 0xffffffff)
        exp = []
        for x, y, cf in zip(A, B, cflag):
            t = pred(x, y)
            cv = (not cf) if neg else cf
            r = {"and": t and cv, "or": t or cv, "xor": t != cv, "": t}[bo]
            exp.append(hexv(true if r else 0, 16 if regty == "b16" else 32))
        c.output(out, regty, regty, "u16" if regty == "b16" else "u32", exp)
    # Packed sources: one result per half.
    for mods, dt, st, ra, rb, A, B, fmt, bo, neg in [
            ("lt", "f16x2", "f16x2", "%ha", "%hb", ha, hb, F16, "", 0),
            ("equ", "u32", "f16x2", "%ha", "%hb", ha, hb, F16, "", 0),
            ("le.ftz", "s32", "f16x2", "%ha", "%hb", ha, hb, F16, "", 0),
            ("gt", "bf16x2", "bf16x2", "%ba", "%bb", ba, bb, BF16, "", 0),
            ("lt.and", "s32", "bf16x2", "%ba", "%bb", ba, bb, BF16, "and", 0),
            ("num.xor", "f16x2", "f16x2", "%ha", "%hb", ha, hb, F16, "xor",
             1)]:
        out = "o_%s_%s_%s" % (mods.replace(".", "_"), dt, st)
        c.line("set.%s.%s.%s %%%s, %s, %s%s;" % (
            mods, dt, st, out, ra, rb,
            (", %s%%c" % ("!" if neg else "")) if bo else ""))
        true = {"f16x2": 0x3c00, "bf16x2": 0x3f80}.get(dt, 0xffff)
        op = mods.split(".")[0]
        ftz = "ftz" in mods
        exp = []
        for x, y, cf in zip(A, B, cflag):
            cv = (not cf) if neg else cf
            v = 0
            for shift in (0, 16):
                t = fcmp_bits(op, (x >> shift) & 0xffff, (y >> shift) & 0xffff,
                              fmt, ftz)
                r = {"and": t and cv, "or": t or cv, "xor": t != cv,
                     "": t}[bo]
                v |= (true if r else 0) << shift
            exp.append(hexv(v, 32))
        c.output(out, "b32", "b32", "u32", exp)
    return c


#===------------------------------------------------------------------------===#
# selp and slct
#===------------------------------------------------------------------------===#

def select_forms():
    a = [0x0123456789abcdef, 0x3ff0000000000000, 0xffffffffffffffff, 7,
         0x8000000000000000, 0x00000000bf800000, 0x1111111122222222, 0,
         0x7ff8000000000000, 42]
    b = [0xfedcba9876543210, 0x4000000000000000, 0, 9, 1, 0x000000003f800000,
         0x3333333344444444, 0xffffffffffffffff, 0xfff0000000000000, 24]
    ci = [5, 0, -1, -2**31, 2**31 - 1, 1, -7, 0, 3, -3]
    cf = [f32_bits(1.0), 0x80000000, 0x00000000, 0x80000001, 0x00000001,
          0x7fc00000, 0xff800000, 0x7f800000, f32_bits(-1.0), 0xffc00001]
    n = len(a)
    cflag = [i % 2 == 0 for i in range(n)]
    c = Case("compare", "selp-slct", "selectForms", n,
             "selp.type d, a, b, c (d = c ? a : b) for 16-, 32- and 64-bit\n"
             "integer, bit and float types, with a negated predicate too, and\n"
             "slct.dtype.s32 / slct{.ftz}.dtype.f32 d, a, b, c (d = c >= 0 ? a\n"
             ": b, the selected operand copied unchanged).\n"
             "Expected values: Python evaluation of the ISA's semantics. For\n"
             "f32 c, -0 counts as zero (a), NaN selects b, and .ftz flushes a\n"
             "subnormal c to zero of the same sign, which selects a; without\n"
             ".ftz a negative subnormal selects b. Narrow types use the low\n"
             "bits of a and b. Generated by generate.py.")
    c.input("a", "u64", [hexv(x, 64) for x in a], regty="b64", ldty="u64")
    c.input("b", "u64", [hexv(x, 64) for x in b], regty="b64", ldty="u64")
    c.input("ci", "s32", [str(x) for x in ci], regty="b32", ldty="u32")
    c.input("cf", "f32", [hexv(x, 32) for x in cf])
    c.input("cin", "u32", [str(int(x)) for x in cflag], regty="b32",
            ldty="u32")
    common_regs(c)
    for r, t in [("a32", "b32"), ("b32", "b32"), ("ah", "b32"), ("bh", "b32"),
                 ("a16", "b16"), ("b16", "b16"), ("ah16", "b16"),
                 ("bh16", "b16"), ("fa", "f32"), ("fb", "f32")]:
        c.reg(r, t)
    c.line("setp.ne.u32 %c, %cin, 0;")
    c.line("mov.b64 {%a32, %ah}, %a;")
    c.line("mov.b64 {%b32, %bh}, %b;")
    c.line("mov.b32 {%a16, %ah16}, %a32;")
    c.line("mov.b32 {%b16, %bh16}, %b32;")
    c.line("mov.b32 %fa, %a32;")
    c.line("mov.b32 %fb, %b32;")
    for t, ra, rb, bits, neg, regty in [
            ("b16", "%a16", "%b16", 16, False, "b16"),
            ("u32", "%a32", "%b32", 32, False, "b32"),
            ("s64", "%a", "%b", 64, True, "b64"),
            ("f32", "%fa", "%fb", 32, False, "f32"),
            ("f64", "%a", "%b", 64, True, "f64"),
            ("s16", "%a16", "%b16", 16, True, "b16")]:
        out = "o_selp_%s%s" % (t, "_notc" if neg else "")
        if t == "f64":
            c.reg("da", "f64")
            c.reg("db", "f64")
            c.line("mov.b64 %da, %a;")
            c.line("mov.b64 %db, %b;")
            ra, rb = "%da", "%db"
        c.line("selp.%s %%%s, %s, %s, %s%%c;" % (t, out, ra, rb,
                                                "!" if neg else ""))
        exp = []
        for x, y, cv in zip(a, b, cflag):
            sel = x if (cv != neg) else y
            exp.append(hexv(wrap(sel, bits), bits))
        stty = {"f32": "f32", "f64": "f64"}.get(t, regty)
        c.output(out, regty, stty, "u%d" % bits, exp)
    for dt, ct, extra, ra, rb, bits, regty in [
            ("u32", "s32", "", "%a32", "%b32", 32, "b32"),
            ("s64", "s32", "", "%a", "%b", 64, "b64"),
            ("b16", "s32", "", "%a16", "%b16", 16, "b16"),
            ("f32", "f32", "", "%fa", "%fb", 32, "f32"),
            ("u32", "f32", ".ftz", "%a32", "%b32", 32, "b32"),
            ("b64", "f32", "", "%a", "%b", 64, "b64"),
            ("f64", "f32", ".ftz", "%da", "%db", 64, "f64")]:
        out = "o_slct%s_%s_%s" % (extra.replace(".", "_"), dt, ct)
        c.line("slct%s.%s.%s %%%s, %s, %s, %%%s;" % (
            extra, dt, ct, out, ra, rb, "ci" if ct == "s32" else "cf"))
        exp = []
        for x, y, i, f in zip(a, b, ci, cf):
            if ct == "s32":
                take_a = i >= 0
            else:
                if extra:
                    f = flush(f, F32)
                v = decode(f, F32)
                take_a = not v.is_nan() and (not v.sign or v.mag == 0)
            exp.append(hexv(wrap(x if take_a else y, bits), bits))
        stty = {"f32": "f32", "f64": "f64"}.get(dt, regty)
        c.output(out, regty, stty, "u%d" % bits, exp)
    return c


CASES = [setp_int, setp_float, setp_half, set_forms, select_forms]

if __name__ == "__main__":
    for make in CASES:
        c = make()
        c.generator = "generate.py"
        c.write(ROOT)
