"""Reference semantics of the PTX integer and bit instructions, transcribed
from the PTX ISA's pseudo-code onto Python's unbounded integers. Written
independently of the C++ lowering: bit loops where the ISA uses loops."""

def M(w):
    return (1 << w) - 1


def U(x, w):
    return x & M(w)


def S(x, w):
    x = U(x, w)
    return x - (1 << w) if x >> (w - 1) else x


def val(x, w, signed):
    return S(x, w) if signed else U(x, w)


def bit(x, i):
    return (x >> i) & 1


def sat32(v):
    return max(-(1 << 31), min((1 << 31) - 1, v))


# --- carry chain -----------------------------------------------------------

class CC:
    """The CC.CF flag and the extended-precision instructions."""

    def __init__(self):
        self.cf = 0

    def add(self, a, b, w, cc=False, carry_in=False):
        full = U(a, w) + U(b, w) + (self.cf if carry_in else 0)
        if cc:
            self.cf = 1 if full >> w else 0
        return U(full, w)

    def sub(self, a, b, w, cc=False, borrow_in=False):
        # NVIDIA hardware subtracts by adding the complement: a + ~b + 1 for
        # sub, a + ~b + CC.CF for subc. CC.CF is then the carry out of that
        # sum, the complement of the borrow (the ISA text speaks of a borrow;
        # the flag a following addc reads is its complement).
        full = U(a, w) + U(~b, w) + (self.cf if borrow_in else 1)
        if cc:
            self.cf = 1 if full >> w else 0
        return U(full, w)

    def mad(self, a, b, c, w, hi, signed, cc=False, carry_in=False):
        t = val(a, w, signed) * val(b, w, signed)
        part = U(t >> w, w) if hi else U(t, w)
        return self.add(part, c, w, cc, carry_in)


# --- multiply ----------------------------------------------------------------

def mul(a, b, w, signed, mode):
    t = val(a, w, signed) * val(b, w, signed)
    if mode == "wide":
        return U(t, 2 * w)
    if mode == "hi":
        return U(t >> w, w)
    return U(t, w)


def mad(a, b, c, w, signed, mode, sat=False):
    t = val(a, w, signed) * val(b, w, signed)
    if mode == "wide":
        return U(t + val(c, 2 * w, signed), 2 * w)
    part = (t >> w) if mode == "hi" else t
    if sat:  # mad.hi.sat.s32
        return U(sat32(S(part, w) + S(c, w)), w)
    return U(U(part, w) + c, w)


def ext24(x, signed):
    return val(x, 24, signed)  # the 24-bit value in bits 23..0


def mul24(a, b, signed, hi):
    t = ext24(a, signed) * ext24(b, signed)  # exact, fits in 48 bits
    return U(t >> 16, 32) if hi else U(t, 32)


def mad24(a, b, c, signed, hi, sat=False):
    p = mul24(a, b, signed, hi)
    if sat:
        return U(sat32(S(p, 32) + S(c, 32)), 32)
    return U(p + c, 32)


def sad(a, b, c, w, signed):
    a, b = val(a, w, signed), val(b, w, signed)
    return U(c + ((b - a) if a < b else (a - b)), w)


# --- bit manipulation ------------------------------------------------------

def popc(a, w):
    return bin(U(a, w)).count("1")


def clz(a, w):
    a = U(a, w)
    n = 0
    for i in range(w - 1, -1, -1):
        if bit(a, i):
            break
        n += 1
    return n


def brev(a, w):
    a = U(a, w)
    return sum(bit(a, i) << (w - 1 - i) for i in range(w))


def bfind(a, w, signed, shiftamt):
    msb = w - 1
    a = U(a, w)
    if signed and bit(a, msb):
        a = U(~a, w)
    d = 0xffffffff
    for i in range(msb, -1, -1):
        if bit(a, i):
            d = i
            break
    if shiftamt and d != 0xffffffff:
        d = msb - d
    return d


def fns(mask, base, offset):
    offset = S(offset, 32)
    d = 0xffffffff
    if offset == 0:
        if bit(mask, base):
            d = base
    else:
        pos = base
        count = abs(offset) - 1
        inc = 1 if offset > 0 else -1
        while 0 <= pos < 32:
            if bit(mask, pos):
                if count == 0:
                    d = pos
                    break
                count -= 1
            pos += inc
    return d


def bfe(a, b, c, w, signed):
    msb = w - 1
    pos = b & 0xff
    length = c & 0xff
    a = U(a, w)
    if not signed or length == 0:
        sbit = 0
    else:
        sbit = bit(a, min(pos + length - 1, msb))
    d = 0
    for i in range(msb + 1):
        if i < length and pos + i <= msb:
            d |= bit(a, pos + i) << i
        else:
            d |= sbit << i
    return d


def bfi(a, b, c, d, w):
    msb = w - 1
    pos = c & 0xff
    length = d & 0xff
    f = U(b, w)
    i = 0
    while i < length and pos + i <= msb:
        f = (f & ~(1 << (pos + i))) | (bit(a, i) << (pos + i))
        i += 1
    return U(f, w)


def szext(a, b, clamp, signed):
    a = U(a, 32)
    b1 = b & 0x1f
    too_large = b >= 32 and clamp
    mask = 0 if too_large else U(~0 << b1, 32)
    sign_pos = (b1 - 1) & 0x1f
    if b1 == 0 or too_large or not signed:
        sign_bit = 0
    else:
        sign_bit = bit(a, sign_pos)
    return U((a & ~mask) | (mask if sign_bit else 0), 32)


def bmsk(a, b, clamp):
    a1 = a & 0x1f
    mask0 = U(~0 << a1, 32)
    b1 = b & 0x1f
    s = a1 + b1
    mask1 = U(~0 << s, 32)
    sum_ovf = s >= 32
    pos_ovf = width_ovf = False
    if clamp:
        if a >= 32:
            pos_ovf = True
            mask0 = 0
        if b >= 32:
            width_ovf = True
    if sum_ovf or pos_ovf or width_ovf:
        mask1 = 0
    elif b1 == 0:
        mask1 = M(32)
    return mask0 & U(~mask1, 32)


# The ISA's prmt mode table: for c[1:0] = 0..3, the source byte of
# d.b3, d.b2, d.b1, d.b0.
PRMT_TABLE = {
    "f4e": [(3, 2, 1, 0), (4, 3, 2, 1), (5, 4, 3, 2), (6, 5, 4, 3)],
    "b4e": [(5, 6, 7, 0), (6, 7, 0, 1), (7, 0, 1, 2), (0, 1, 2, 3)],
    "rc8": [(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)],
    "ecl": [(3, 2, 1, 0), (3, 2, 1, 1), (3, 2, 2, 2), (3, 3, 3, 3)],
    "ecr": [(0, 0, 0, 0), (1, 1, 1, 0), (2, 2, 1, 0), (3, 2, 1, 0)],
    "rc16": [(1, 0, 1, 0), (3, 2, 3, 2), (1, 0, 1, 0), (3, 2, 3, 2)],
}


def prmt(a, b, c, mode=None):
    tmp64 = (U(b, 32) << 32) | U(a, 32)
    src = [(tmp64 >> (8 * i)) & 0xff for i in range(8)]
    d = 0
    for i in range(4):
        if mode is None:
            sel = (c >> (4 * i)) & 0xf
            byte = src[sel & 7]
            if sel & 8:
                byte = 0xff if byte & 0x80 else 0
        else:
            byte = src[PRMT_TABLE[mode][c & 3][3 - i]]
        d |= byte << (8 * i)
    return d


def shf(a, b, c, left, clamp):
    n = min(c, 32) if clamp else c & 0x1f
    cat = (U(b, 32) << 32) | U(a, 32)  # [b, a]
    if left:
        return U((cat << n) >> 32, 32)
    return U(cat >> n, 32)


def lop3(a, b, c, lut):
    d = 0
    for i in range(32):
        idx = (bit(a, i) << 2) | (bit(b, i) << 1) | bit(c, i)
        d |= bit(lut, idx) << i
    return d


def dp4a(a, b, c, asigned, bsigned):
    d = S(c, 32) if (asigned or bsigned) else U(c, 32)
    for i in range(4):
        d += val(a >> (8 * i), 8, asigned) * val(b >> (8 * i), 8, bsigned)
    return U(d, 32)


def dp2a(a, b, c, asigned, bsigned, hi):
    d = S(c, 32) if (asigned or bsigned) else U(c, 32)
    sel = 2 if hi else 0
    for i in range(2):
        d += (val(a >> (16 * i), 16, asigned) *
              val(b >> (8 * (sel + i)), 8, bsigned))
    return U(d, 32)


def shl(a, n, w):
    return 0 if n >= w else U(a << n, w)


def shr(a, n, w, signed):
    n = min(n, w)  # amounts past the width clamp to the width
    return U(val(a, w, signed) >> n, w)
