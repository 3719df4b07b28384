"""Reference semantics of the PTX video instructions, transcribed from the
pseudo-code of the PTX ISA's "Video Instructions" sections onto Python's
unbounded integers. Written independently of the C++ lowering.

Where the pseudo-code is loose, the reading taken here:
- The scalar forms compute the primary operation exactly (the ISA calls
  the intermediate a signed 34-bit value; Python integers hold it exactly),
  and optSecondaryOp compares or adds those exact values.
- The SIMD merge `d |= mask[i] ? t[i] : Vc[i]` places lane i's low bits at
  lane i's position, as the prose says ("the selected byte results are
  copied into destination d; for all other positions, the corresponding
  byte from source operand c"). vset2/vset4's prose names b as the source
  of the other positions, its pseudo-code c; the pseudo-code is followed.
"""

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
M128 = (1 << 128) - 1


def sext(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def signed(t):
    return t == "s32"


# --- scalar video instructions ------------------------------------------------

def part(sel):
    """(bits, shift) of a scalar selector: .b0-.b3, .h0/.h1 or none."""
    if sel is None:
        return 32, 0
    if sel[0] == "b":
        return 8, 8 * int(sel[1])
    return 16, 16 * int(sel[1])


def part_select_sign_extend(x, typ, sel):
    bits, shift = part(sel)
    v = (x >> shift) & ((1 << bits) - 1)
    return sext(v, bits) if signed(typ) else v


def clamp(v, hi, lo):
    return max(lo, min(hi, v))


def opt_saturate(tmp, sat, sign, dsel):
    if not sat:
        return tmp
    bits = part(dsel)[0]
    if sign:
        return clamp(tmp, (1 << (bits - 1)) - 1, -(1 << (bits - 1)))
    return clamp(tmp, (1 << bits) - 1, 0)


def opt_secondary_op(op2, tmp, c):
    if op2 == "add":
        return tmp + c
    if op2 == "min":
        return min(tmp, c)
    if op2 == "max":
        return max(tmp, c)
    return tmp


def opt_merge(dsel, tmp, c):
    table = {"h0": (0xffff, 0, 0xffff0000), "h1": (0xffff, 16, 0x0000ffff),
             "b0": (0xff, 0, 0xffffff00), "b1": (0xff, 8, 0xffff00ff),
             "b2": (0xff, 16, 0xff00ffff), "b3": (0xff, 24, 0x00ffffff)}
    if dsel is None:
        return tmp
    keep, shift, cmask = table[dsel]
    return ((tmp & keep) << shift) | (cmask & c)


COMPARE = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y,
           "lt": lambda x, y: x < y, "le": lambda x, y: x <= y,
           "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y}


def scalar(vop, dtype, atype, btype, a, b, c=0, asel=None, bsel=None,
           dsel=None, sat=False, op2=None, mode=None, cmp=None):
    """vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vset (dtype u32)."""
    ta = part_select_sign_extend(a, atype, asel)
    tb = part_select_sign_extend(b, btype, bsel)
    if vop in ("vshl", "vshr"):
        assert btype == "u32"
        if mode == "clamp" and tb > 32:
            tb = 32
        if mode == "wrap":
            tb = tb & 0x1f
    tmp = {"vadd": lambda: ta + tb, "vsub": lambda: ta - tb,
           "vabsdiff": lambda: abs(ta - tb), "vmin": lambda: min(ta, tb),
           "vmax": lambda: max(ta, tb), "vshl": lambda: ta << tb,
           "vshr": lambda: ta >> tb,
           "vset": lambda: 1 if COMPARE[cmp](ta, tb) else 0}[vop]()
    if vop != "vset":
        tmp = opt_saturate(tmp, sat, signed(dtype), dsel)
    # The third operand has the sign of dtype (vset: unsigned).
    tc = sext(c, 32) if signed(dtype) else c & M32
    if dsel is not None:
        d = opt_merge(dsel, tmp, c & M32)
    else:
        d = opt_secondary_op(op2, tmp, tc)
    return d & M32


def vmad(atype, btype, a, b, c, asel=None, bsel=None, nega=False,
         negb=False, negc=False, po=False, scale=None, sat=False):
    ta = part_select_sign_extend(a, atype, asel)
    tb = part_select_sign_extend(b, btype, bsel)
    signed_final = (signed(atype) or signed(btype) or (nega != negb)
                    or negc)
    tmp = (ta * tb) & M128
    lsb = 0
    if po:
        lsb = 1
    elif nega != negb:
        tmp = ~tmp & M128
        lsb = 1
    elif negc:
        c = ~c & M32
        lsb = 1
    c128 = (sext(c, 32) if signed_final else c & M32) & M128
    tmp = (tmp + c128 + lsb) & M128
    if signed_final:
        tmp = sext(tmp, 128)  # the shift is arithmetic for a signed result
    result = (tmp >> scale) & M64 if scale else tmp & M64
    if sat:
        if signed_final:
            result = clamp(sext(result, 64), (1 << 31) - 1, -(1 << 31))
        else:
            result = clamp(result, M32, 0)
    return result & M32


# --- SIMD video instructions --------------------------------------------------

def lane_units(sel, lanes):
    """Units of {b, a} feeding each lane: '.h10' -> lane 1 from unit 1,
    lane 0 from unit 0 (the digits run from the highest lane down)."""
    digits = sel[1:]
    assert len(digits) == lanes
    return [int(digits[lanes - 1 - i]) for i in range(lanes)]


def extract_and_sign_ext(a, b, sel, typ, lanes):
    bits = 32 // lanes
    pair = (a & M32) | ((b & M32) << 32)
    units = lane_units(sel, lanes)
    out = []
    for u in units:
        v = (pair >> (u * bits)) & ((1 << bits) - 1)
        out.append(sext(v, bits) if signed(typ) else v)
    return out


def mask_bits(mask, lanes):
    if mask is None:
        return [1] * lanes
    on = {int(ch) for ch in mask[1:]}
    return [1 if i in on else 0 for i in range(lanes)]


def simd(vop, lanes, dtype, atype, btype, a, b, c, asel=None, bsel=None,
         mask=None, sat=False, add=False, cmp=None):
    """vadd2 ... vmax2, vset2 (lanes=2) and vadd4 ... vset4 (lanes=4)."""
    bits = 32 // lanes
    kind = "h" if lanes == 2 else "b"
    asel = asel or kind + "".join(str(i) for i in reversed(range(lanes)))
    bsel = bsel or kind + "".join(str(i + lanes)
                                  for i in reversed(range(lanes)))
    va = extract_and_sign_ext(a, b, asel, atype, lanes)
    vb = extract_and_sign_ext(a, b, bsel, btype, lanes)
    vc = [(c >> (i * bits)) & ((1 << bits) - 1) for i in range(lanes)]
    t = []
    for i in range(lanes):
        x, y = va[i], vb[i]
        if vop == "vadd":
            r = x + y
        elif vop == "vsub":
            r = x - y
        elif vop == "vavrg":
            r = (x + y + 1) >> 1 if x + y >= 0 else (x + y) >> 1
        elif vop == "vabsdiff":
            r = abs(x - y)
        elif vop == "vmin":
            r = min(x, y)
        elif vop == "vmax":
            r = max(x, y)
        else:
            r = 1 if COMPARE[cmp](x, y) else 0
        if sat:
            if signed(dtype):
                r = clamp(r, (1 << (bits - 1)) - 1, -(1 << (bits - 1)))
            else:
                r = clamp(r, (1 << bits) - 1, 0)
        t.append(r)
    m = mask_bits(mask, lanes)
    if add:
        d = c
        for i in range(lanes):
            d += t[i] if m[i] else 0
    else:
        d = 0
        for i in range(lanes):
            v = t[i] if m[i] else vc[i]
            d |= (v & ((1 << bits) - 1)) << (i * bits)
    return d & M32
