"""Exact reference arithmetic for the floating-point conformance cases.

Values are Python Fractions; a result is rounded to a binary format in one of
the four IEEE directions by round_to_format(), written here from the
definition (no host floating point is involved). The generate.py script
beside this file uses it to compute every expected value of the float/ and
half/ cases.
"""
from fractions import Fraction
import math

RN, RZ, RM, RP = "rn", "rz", "rm", "rp"


class Format:
    def __init__(self, name, width, precision, emin, emax):
        self.name = name
        self.width = width
        self.precision = precision  # significand bits, hidden bit included
        self.emin = emin
        self.emax = emax

    @property
    def sign_bit(self):
        return 1 << (self.width - 1)

    @property
    def inf_bits(self):
        return (self.emax - self.emin + 2) << (self.precision - 1)

    @property
    def max_finite(self):
        return (2 - Fraction(1, 2 ** (self.precision - 1))) * Fraction(2) ** self.emax

    @property
    def hexdigits(self):
        return self.width // 4


F16 = Format("f16", 16, 11, -14, 15)
BF16 = Format("bf16", 16, 8, -126, 127)
F32 = Format("f32", 32, 24, -126, 127)
F64 = Format("f64", 64, 53, -1022, 1023)


class Special:
    """A non-finite value or a signed zero."""

    def __init__(self, kind, negative=False):
        self.kind = kind  # "inf", "nan", "zero"
        self.negative = negative

    def __repr__(self):
        return ("-" if self.negative else "+") + self.kind


NAN = Special("nan")
PINF, NINF = Special("inf"), Special("inf", True)
PZERO, NZERO = Special("zero"), Special("zero", True)


def decode(bits, fmt):
    """The value of an encoding: a Fraction (nonzero finite) or a Special."""
    neg = bool(bits & fmt.sign_bit)
    mag = bits & (fmt.sign_bit - 1)
    p = fmt.precision
    exp_field = mag >> (p - 1)
    frac = mag & ((1 << (p - 1)) - 1)
    if mag == fmt.inf_bits:
        return Special("inf", neg)
    if mag > fmt.inf_bits:
        return NAN
    if mag == 0:
        return Special("zero", neg)
    if exp_field == 0:
        v = Fraction(frac) * Fraction(2) ** (fmt.emin - p + 1)
    else:
        v = Fraction(frac + (1 << (p - 1))) * Fraction(2) ** (exp_field - 1 + fmt.emin - p + 1)
    return -v if neg else v


def floor_log2(a):
    """floor(log2(a)) for a positive Fraction."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def encode_exact(v, fmt):
    """Bits of a value that is representable in fmt (Fraction or Special)."""
    if isinstance(v, Special):
        if v.kind == "nan":
            return fmt.sign_bit - 1
        s = fmt.sign_bit if v.negative else 0
        return s | (fmt.inf_bits if v.kind == "inf" else 0)
    s = fmt.sign_bit if v < 0 else 0
    a = abs(v)
    p = fmt.precision
    if a < Fraction(2) ** fmt.emin:
        q = a / Fraction(2) ** (fmt.emin - p + 1)
        assert q.denominator == 1
        return s | q.numerator
    e = floor_log2(a)
    q = a / Fraction(2) ** (e - p + 1)
    assert q.denominator == 1 and e <= fmt.emax
    return s | ((e - fmt.emin + 1) << (p - 1)) | (q.numerator - (1 << (p - 1)))


def round_to_format(x, fmt, mode, zero_negative=False):
    """Bits of the exact value x (Fraction or Special) rounded to fmt.

    An exact zero result has no sign of its own; zero_negative gives it.
    """
    if isinstance(x, Special):
        return encode_exact(x, fmt)
    if x == 0:
        return encode_exact(Special("zero", zero_negative), fmt)
    neg = x < 0
    a = abs(x)
    p = fmt.precision
    e = max(floor_log2(a), fmt.emin)
    quantum = Fraction(2) ** (e - p + 1)
    m = a / quantum
    fl = m.numerator // m.denominator
    rem = m - fl
    if mode == RN:
        up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1)
    elif mode == RZ:
        up = False
    elif mode == RM:
        up = neg and rem > 0
    else:
        up = (not neg) and rem > 0
    r = (fl + (1 if up else 0)) * quantum
    if r > fmt.max_finite:
        toward_zero = mode == RZ or (mode == RM and not neg) or (mode == RP and neg)
        r = fmt.max_finite if toward_zero else None
        if r is None:
            return encode_exact(Special("inf", neg), fmt)
    if r == 0:
        return encode_exact(Special("zero", neg), fmt)
    return encode_exact(-r if neg else r, fmt)


def flush(bits, fmt):
    """.ftz: a subnormal encoding becomes a zero of the same sign."""
    mag = bits & (fmt.sign_bit - 1)
    if mag != 0 and mag < (1 << (fmt.precision - 1)):
        return bits & fmt.sign_bit
    return bits


def is_nan(bits, fmt):
    return (bits & (fmt.sign_bit - 1)) > fmt.inf_bits


# --- exact operations on decoded values -----------------------------------

def _sign(v):
    if isinstance(v, Special):
        return v.negative
    return v < 0


def add(a, b, mode):
    """Exact a + b and the sign an exact zero takes (IEEE 754 6.3)."""
    if isinstance(a, Special) and a.kind == "nan" or isinstance(b, Special) and b.kind == "nan":
        return NAN, False
    ai = isinstance(a, Special) and a.kind == "inf"
    bi = isinstance(b, Special) and b.kind == "inf"
    if ai and bi:
        return (a, False) if a.negative == b.negative else (NAN, False)
    if ai:
        return a, False
    if bi:
        return b, False
    av = Fraction(0) if isinstance(a, Special) else a
    bv = Fraction(0) if isinstance(b, Special) else b
    s = av + bv
    if s != 0:
        return s, False
    if _sign(a) == _sign(b) and isinstance(a, Special) and isinstance(b, Special):
        return Fraction(0), _sign(a)
    return Fraction(0), mode == RM


def neg(v):
    if isinstance(v, Special):
        return v if v.kind == "nan" else Special(v.kind, not v.negative)
    return -v


def mul(a, b):
    if isinstance(a, Special) and a.kind == "nan" or isinstance(b, Special) and b.kind == "nan":
        return NAN, False
    negative = _sign(a) != _sign(b)
    a_inf = isinstance(a, Special) and a.kind == "inf"
    b_inf = isinstance(b, Special) and b.kind == "inf"
    a_zero = isinstance(a, Special) and a.kind == "zero"
    b_zero = isinstance(b, Special) and b.kind == "zero"
    if (a_inf and b_zero) or (a_zero and b_inf):
        return NAN, False
    if a_inf or b_inf:
        return Special("inf", negative), False
    if a_zero or b_zero:
        return Fraction(0), negative
    return a * b, False


def fma(a, b, c, mode):
    p, pneg = mul(a, b)
    if isinstance(p, Special):
        if p.kind == "nan":
            return NAN, False
        return add(p, c, mode)
    if p == 0:
        return add(Special("zero", pneg), c, mode)
    return add(p, c, mode)


def div(a, b):
    if isinstance(a, Special) and a.kind == "nan" or isinstance(b, Special) and b.kind == "nan":
        return NAN, False
    negative = _sign(a) != _sign(b)
    a_inf = isinstance(a, Special) and a.kind == "inf"
    b_inf = isinstance(b, Special) and b.kind == "inf"
    a_zero = isinstance(a, Special) and a.kind == "zero"
    b_zero = isinstance(b, Special) and b.kind == "zero"
    if (a_inf and b_inf) or (a_zero and b_zero):
        return NAN, False
    if a_inf or b_zero:
        return Special("inf", negative), False
    if a_zero or b_inf:
        return Fraction(0), negative
    return a / b, False


def sqrt_round(a, fmt, mode):
    """Correctly rounded square root of a decoded value, as bits of fmt."""
    if isinstance(a, Special):
        if a.kind == "nan" or (a.kind == "inf" and a.negative):
            return encode_exact(NAN, fmt)
        return encode_exact(a, fmt)
    if a < 0:
        return encode_exact(NAN, fmt)
    # Bracket sqrt(a) between two rationals finer than any rounding boundary
    # of fmt: r = isqrt(a * 4^k) / 2^k with k large, then decide exactness.
    k = 2 * (fmt.precision + 2) + max(0, -floor_log2(a))
    scaled = a * Fraction(4) ** k
    n = scaled.numerator // scaled.denominator
    s = math.isqrt(n)
    lo = Fraction(s, 2 ** k)
    exact = lo * lo == a
    if exact:
        return round_to_format(lo, fmt, mode)
    # sqrt(a) lies strictly inside (lo, lo + 2^-k); any point inside rounds
    # the same way when 2^-k is far below the format's quantum.
    return round_to_format(lo + Fraction(1, 2 ** (k + 1)), fmt, mode)


def bits_of_float(x, fmt):
    """Bits of a Python float (double) converted exactly or rounded RN."""
    if math.isnan(x):
        return encode_exact(NAN, fmt)
    if math.isinf(x):
        return encode_exact(Special("inf", x < 0), fmt)
    if x == 0:
        return encode_exact(Special("zero", math.copysign(1, x) < 0), fmt)
    return round_to_format(Fraction(x), fmt, RN)
