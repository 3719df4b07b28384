"""Shared pieces of the convert/ and compare/ case generators.

An exact model of binary floating-point formats on Python's Fraction (decode
an encoding to its exact value, round an exact value to a format in a given
direction) and a small builder that writes a conformance case: a kernel in
which thread i loads element i of every input buffer, runs a list of PTX
instructions, and stores one element of every output buffer, plus the .data
file with the inputs and the expected outputs.

The rounding model works on values, not on bit patterns: it finds the
binade of the exact value, scales it to an integer multiple of the
destination's last place, rounds that integer as the direction says, checks
the result against the largest finite value and only then encodes it. It is
written independently of the lowering in ptx_frontend/lib/lower/
LowerConvert.cpp, which rounds on bit patterns.
"""

from fractions import Fraction as Q
import math
import os
import struct


class Fmt:
    """A binary format: sign, `e` exponent bits, `m` fraction bits.

    `has_inf=False` is fp8 e4m3: the all-ones exponent holds finite values
    and only S.1111.111 is NaN, so the largest value is 1.75 * 2^8 = 448.
    """

    def __init__(self, name, e, m, has_inf=True):
        self.name, self.e, self.m, self.has_inf = name, e, m, has_inf
        self.bias = (1 << (e - 1)) - 1
        self.emin = 1 - self.bias
        self.width = 1 + e + m
        if has_inf:
            emax = (1 << e) - 2 - self.bias
            self.maxval = (2 - Q(1, 1 << m)) * Q(2) ** emax
        else:
            emax = (1 << e) - 1 - self.bias
            self.maxval = (2 - Q(2, 1 << m)) * Q(2) ** emax


F64 = Fmt("f64", 11, 52)
F32 = Fmt("f32", 8, 23)
F16 = Fmt("f16", 5, 10)
BF16 = Fmt("bf16", 8, 7)
TF32 = Fmt("tf32", 8, 10)
E4M3 = Fmt("e4m3", 4, 3, has_inf=False)
E5M2 = Fmt("e5m2", 5, 2)

NAN = "nan"
INF = "inf"


class V:
    """A value: sign and magnitude (a Fraction, or INF), or NaN."""

    def __init__(self, sign, mag):
        self.sign, self.mag = sign, mag

    @staticmethod
    def nan():
        return V(0, NAN)

    def is_nan(self):
        return self.mag == NAN

    def is_inf(self):
        return self.mag == INF

    def exact(self):
        """The signed Fraction (finite values only)."""
        return -self.mag if self.sign else self.mag


def val(x):
    """A V from an int, Fraction, float or 'nan'/'inf'/'-inf'."""
    if x == "nan":
        return V.nan()
    if x == "inf":
        return V(0, INF)
    if x == "-inf":
        return V(1, INF)
    if isinstance(x, float):
        if math.isnan(x):
            return V.nan()
        if math.isinf(x):
            return V(1 if x < 0 else 0, INF)
        return V(1 if math.copysign(1, x) < 0 else 0, abs(Q(x)))
    x = Q(x)
    return V(1 if x < 0 else 0, abs(x))


def decode(bits, f):
    sign = (bits >> (f.e + f.m)) & 1
    ef = (bits >> f.m) & ((1 << f.e) - 1)
    fr = bits & ((1 << f.m) - 1)
    if f.has_inf and ef == (1 << f.e) - 1:
        return V.nan() if fr else V(sign, INF)
    if not f.has_inf and ef == (1 << f.e) - 1 and fr == (1 << f.m) - 1:
        return V.nan()
    if ef == 0:
        mag = Q(fr, 1 << f.m) * Q(2) ** f.emin
    else:
        mag = (1 + Q(fr, 1 << f.m)) * Q(2) ** (ef - f.bias)
    return V(sign, mag)


def floor_log2(a):
    """floor(log2(a)) for a positive Fraction."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Q(2) ** e > a:
        e -= 1
    while Q(2) ** (e + 1) <= a:
        e += 1
    return e


def encode_exact(sign, mag, f):
    """The encoding of a value that f represents exactly (or INF)."""
    s = sign << (f.e + f.m)
    if mag == INF:
        assert f.has_inf
        return s | (((1 << f.e) - 1) << f.m)
    if mag == 0:
        return s
    if mag < Q(2) ** f.emin:
        fr = mag / Q(2) ** (f.emin - f.m)
        assert fr.denominator == 1
        return s | int(fr)
    e = floor_log2(mag)
    fr = (mag / Q(2) ** e - 1) * (1 << f.m)
    assert fr.denominator == 1 and e + f.bias < (1 << f.e)
    return s | ((e + f.bias) << f.m) | int(fr)


def round_mag(mag, f, mode, sign):
    """mag rounded to f's precision (unbounded exponent) in direction mode."""
    e = max(floor_log2(mag), f.emin)
    unit = Q(2) ** (e - f.m)
    s = mag / unit
    n = math.floor(s)
    r = s - n
    if mode == "rn":
        up = r > Q(1, 2) or (r == Q(1, 2) and n % 2 == 1)
    elif mode == "rna":
        up = r >= Q(1, 2)
    elif mode == "rz":
        up = False
    elif mode == "rp":
        up = r > 0 and not sign
    elif mode == "rm":
        up = r > 0 and sign
    else:
        raise ValueError(mode)
    return (n + up) * unit


class ReluOfNegativeZero(ValueError):
    pass


def relu_safe(v, f, mode):
    """Whether .relu of v in format f is defined by the ISA (see round_to)."""
    try:
        round_to(v, f, mode, relu=True)
        return True
    except ReluOfNegativeZero:
        return False


def round_to(v, f, mode, satfinite=False, relu=False):
    """v rounded to format f: its encoding, or NAN for NaN results.

    IEEE 754 overflow for the direction; .satfinite gives the largest
    finite value for anything beyond it (infinities included); .relu gives
    +0 for negative results.
    """
    if v.is_nan():
        return NAN
    if relu and v.sign:
        # The ISA says .relu clamps negative results to 0; whether a result
        # that is a negative zero counts is not said, so cases avoid it.
        if not v.is_inf() and (v.mag == 0 or
                               round_mag(v.mag, f, mode, 1) == 0):
            raise ReluOfNegativeZero()
        return 0
    if v.is_inf():
        if satfinite or not f.has_inf:
            return encode_exact(v.sign, f.maxval, f)
        return encode_exact(v.sign, INF, f)
    if v.mag == 0:
        return encode_exact(v.sign, 0, f)
    r = round_mag(v.mag, f, mode, v.sign)
    if r > f.maxval:
        if satfinite or not f.has_inf:
            r = f.maxval
        elif mode in ("rn", "rna"):
            r = INF
        elif mode == "rz":
            r = f.maxval
        elif mode == "rp":
            r = f.maxval if v.sign else INF
        else:
            r = INF if v.sign else f.maxval
    return encode_exact(v.sign, r, f)


def f32_bits(x):
    """The f32 encoding of a Python float (rounded to nearest) or Fraction."""
    if isinstance(x, Q):
        return round_to(val(x), F32, "rn")
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    if isinstance(x, Q):
        return round_to(val(x), F64, "rn")
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def round_int(v, mode):
    """An exact value rounded to an integer (.rni/.rzi/.rmi/.rpi)."""
    x = v.exact()
    if mode == "rzi":
        return math.trunc(x)
    if mode == "rmi":
        return math.floor(x)
    if mode == "rpi":
        return math.ceil(x)
    n = math.floor(x)
    r = x - n
    return n + (r > Q(1, 2) or (r == Q(1, 2) and n % 2 == 1))


INT_RANGES = {
    "u8": (0, 255), "u16": (0, 65535), "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1), "s8": (-128, 127), "s16": (-32768, 32767),
    "s32": (-2**31, 2**31 - 1), "s64": (-2**63, 2**63 - 1),
}


def int_bits(t):
    return int(t[1:])


def wrap(x, bits):
    return x & ((1 << bits) - 1)


def hexv(bits, width):
    return "0x%0*x" % ((width + 3) // 4, bits)


#===------------------------------------------------------------------------===#
# Case builder
#===------------------------------------------------------------------------===#

DATA_TYPE_BYTES = {"u8": 1, "s8": 1, "b8": 1, "u16": 2, "s16": 2, "b16": 2,
                   "f16": 2, "bf16": 2, "u32": 4, "s32": 4, "b32": 4,
                   "f32": 4, "u64": 8, "s64": 8, "b64": 8, "f64": 8}


STORE_BYTES = {"b8": 1, "u8": 1, "b16": 2, "u16": 2, "b32": 4, "u32": 4,
               "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}


class Case:
    """One kernel: thread i works on element i of each input buffer.

    `input(name, type, values)` declares a buffer and loads the thread's
    element into register %<name>; `body` holds PTX lines; `output(name,
    regtype, storetype, per_thread, datatype, expected)` stores register
    %<name> (per_thread elements of datatype per thread) and records the
    expected buffer contents.
    """

    def __init__(self, family, name, kernel, threads, header,
                 version="9.0", target="sm_90"):
        self.family, self.name, self.kernel = family, name, kernel
        self.generator = "generate.py"
        self.threads, self.header = threads, header
        self.version, self.target = version, target
        self.inputs, self.outputs = [], []
        self.regs = []
        self.body = []
        self.prelude = []  # module-level declarations

    def reg(self, name, ty):
        self.regs.append((name, ty))

    def input(self, name, ty, values, regty=None, ldty=None):
        assert len(values) == self.threads, (name, len(values))
        regty = regty or {"f32": "f32", "f64": "f64"}.get(
            ty, "b%d" % max(16, 8 * DATA_TYPE_BYTES[ty]))
        ldty = ldty or {"f32": "f32", "f64": "f64", "f16": "b16",
                        "bf16": "b16"}.get(ty, ty)
        self.inputs.append((name, ty, values, regty, ldty))
        self.reg(name, regty)

    def line(self, text):
        self.body.append(text)

    def output(self, name, regty, stty, datatype, expected, comment="",
               declare=True, count=None):
        """expected: a list of strings (per_thread * threads of them, or
        `count` when only the first elements are checked)."""
        if declare:
            self.reg(name, regty)
        self.outputs.append((name, regty, stty, datatype, expected, comment,
                             count))

    def _ptx(self):
        out = []
        out.append("// Generated by %s/%s; the .data file beside it says "
                   "what is checked." % (self.family, self.generator))
        out.append(".version %s" % self.version)
        out.append(".target %s" % self.target)
        out.append(".address_size 64")
        out.append("")
        if self.prelude:
            out.extend(self.prelude)
            out.append("")
        params = ["p_" + n for n, *_ in self.inputs] + \
                 ["p_" + o[0] for o in self.outputs]
        out.append(".visible .entry %s(" % self.kernel)
        out.append(",\n".join("    .param .u64 %s" % p for p in params) + ")")
        out.append("{")
        out.append("  .reg .b32 %tix;")
        out.append("  .reg .b64 %base, %off, %addr;")
        for n, t in self.regs:
            out.append("  .reg .%s %%%s;" % (t, n))
        out.append("  mov.u32 %tix, %tid.x;")
        for n, ty, _, regty, ldty in self.inputs:
            size = DATA_TYPE_BYTES[ty]
            out.append("  ld.param.u64 %%base, [p_%s];" % n)
            out.append("  mul.wide.u32 %%off, %%tix, %d;" % size)
            out.append("  add.s64 %addr, %base, %off;")
            out.append("  ld.global.%s %%%s, [%%addr];" % (ldty, n))
        out.append("")
        for l in self.body:
            out.append(("  " + l) if l and not l.startswith("//") else l)
        out.append("")
        for n, regty, stty, datatype, exp, _, _ in self.outputs:
            size = STORE_BYTES[stty]
            out.append("  ld.param.u64 %%base, [p_%s];" % n)
            out.append("  mul.wide.u32 %%off, %%tix, %d;" % size)
            out.append("  add.s64 %addr, %base, %off;")
            out.append("  st.global.%s [%%addr], %%%s;" % (stty, n))
        out.append("  ret;")
        out.append("}")
        return "\n".join(out) + "\n"

    def _data(self):
        out = ["# " + l if l else "#" for l in self.header.split("\n")]
        out.append("kernel %s" % self.kernel)
        out.append("grid 1")
        out.append("block %d" % self.threads)
        for n, ty, values, *_ in self.inputs:
            out.append(wrap_line("buffer %s %s =" % (n, ty), values))
        for n, regty, stty, datatype, exp, _, _ in self.outputs:
            total = self.threads * STORE_BYTES[stty] // DATA_TYPE_BYTES[datatype]
            out.append("buffer %s %s [%d]" % (n, datatype, total))
        for n, *_ in self.inputs:
            out.append("param %s" % n)
        for o in self.outputs:
            out.append("param %s" % o[0])
        for n, regty, stty, datatype, exp, comment, count in self.outputs:
            if comment:
                out.extend("# " + l for l in comment.split("\n"))
            vals = exp if count is None else exp[:count]
            out.append(wrap_line("expect %s %s =" % (n, datatype), vals))
        return "\n".join(out) + "\n"

    def write(self, root):
        d = os.path.join(root, self.family)
        with open(os.path.join(d, self.name + ".ptx"), "w") as f:
            f.write(self._ptx())
        with open(os.path.join(d, self.name + ".data"), "w") as f:
            f.write(self._data())


def wrap_line(head, values):
    """`head v v v ...`: the data format has no continuation lines."""
    return head + " " + " ".join(str(v) for v in values)
