#!/usr/bin/env python3
"""Writes the .data files of the matrix conformance cases.

Every expected value is computed here from whole matrices, independently of
cuhip: mma fragments are placed with the PTX ISA's formulas of the sections
"Matrix Fragments for mma.m16n8k8 / m16n8k16 / m16n8k32 / m8n8k16 / m8n8k4"
(groupID = laneid >> 2, threadID_in_group = laneid % 4), ldmatrix/stmatrix
with the ISA's thread-to-row mapping, and wmma goes through memory only (its
fragment layout is opaque), so only the matrix product and the load/store
layouts and strides matter.

Products are computed exactly (Python integers and floats whose products and
partial sums are exact), so the result does not depend on the order in which
an implementation accumulates: inputs are small multiples of 1/2 or 1/4, or
integers. Rounding to .f16 (round to nearest, ties to even, overflow to
infinity) happens once, on the exact result, as the ISA's .f16 destination
requires; it is implemented here with fractions. Integer results wrap modulo
2^32, or are clamped to the s32 range with .satfinite.

Run: python3 gen_expected.py   (rewrites the .data files next to it)
"""
import math
import os
import struct
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
INT32_MAX, INT32_MIN = 2**31 - 1, -2**31


# --- number formats -------------------------------------------------------

def round_f16(x):
    """x (exact) rounded to binary16, nearest-even; returns a Python float."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    a = Fraction(abs(x))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = Fraction(2) ** (max(e, -14) - 10)
    v = round(a / q) * q  # round() on a Fraction: ties to even
    if v >= 65536:
        return math.copysign(math.inf, x)
    return math.copysign(float(v), x)


def is_f16(x):
    return math.isnan(x) or round_f16(x) == x


def is_bf16(x):
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    return b & 0xffff == 0


def is_tf32(x):
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    return b & 0x1fff == 0


def fmt(x):
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    return repr(float(x))


def values(xs):
    return ' '.join(fmt(x) for x in xs)


def wrap32(v):
    return (v + 2**31) % 2**32 - 2**31


def matmul(A, B, C, kind, satfinite=False):
    """D = A * B + C exactly; kind: 'float' (f32/f64 result) or 'int'."""
    M, K, N = len(A), len(B), len(B[0])
    D = [[None] * N for _ in range(M)]
    for i in range(M):
        for j in range(N):
            if kind == 'int':
                s = C[i][j] + sum(A[i][k] * B[k][j] for k in range(K))
                D[i][j] = max(INT32_MIN, min(INT32_MAX, s)) if satfinite \
                    else wrap32(s)
            else:
                # Inputs are chosen so that this double sum is exact.
                s = C[i][j]
                for k in range(K):
                    s += A[i][k] * B[k][j]
                D[i][j] = s
    return D


# --- mma fragment layouts (PTX ISA) ----------------------------------------

def mma_a(shape, t, lane, i):
    g, tg = lane >> 2, lane % 4
    if shape == 'm16n8k16' and t in ('f16', 'bf16'):
        row = g if (0 <= i < 2 or 4 <= i < 6) else g + 8
        col = tg * 2 + (i & 1) + (8 if i >= 4 else 0)
    elif shape == 'm16n8k8' and t in ('f16', 'bf16'):
        row = g if i < 2 else g + 8
        col = tg * 2 + (i & 1)
    elif shape == 'm16n8k8' and t == 'tf32':
        row = g if i in (0, 2) else g + 8
        col = tg if i in (0, 1) else tg + 4
    elif shape == 'm16n8k32':
        row = g if (0 <= i < 4 or 8 <= i < 12) else g + 8
        col = tg * 4 + (i & 3) + (16 if i >= 8 else 0)
    elif shape == 'm16n8k16':  # .s8/.u8
        row = g if i < 4 else g + 8
        col = tg * 4 + (i & 3)
    elif shape == 'm8n8k16':
        row, col = g, tg * 4 + i
    elif shape == 'm8n8k4':  # .f64
        row, col = g, tg
    return row, col


def mma_b(shape, t, lane, i):
    g, tg = lane >> 2, lane % 4
    if shape == 'm16n8k16' and t in ('f16', 'bf16'):
        row = tg * 2 + (i & 1) + (8 if i >= 2 else 0)
    elif shape == 'm16n8k8' and t in ('f16', 'bf16'):
        row = tg * 2 + i
    elif shape == 'm16n8k8' and t == 'tf32':
        row = tg if i == 0 else tg + 4
    elif shape == 'm16n8k32':
        row = tg * 4 + (i & 3) + (16 if i >= 4 else 0)
    elif shape in ('m16n8k16', 'm8n8k16'):  # .s8/.u8
        row = tg * 4 + i
    elif shape == 'm8n8k4':
        row = tg
    return row, g


def mma_c(shape, lane, i):
    g, tg = lane >> 2, lane % 4
    if shape.startswith('m16n8'):
        return (g if i < 2 else g + 8), tg * 2 + (i & 1)
    return g, tg * 2 + i  # m8n8k16, m8n8k4


def dims(shape):
    m, rest = shape[1:].split('n')
    n, k = rest.split('k')
    return int(m), int(n), int(k)


def frag(shape, t, X, which):
    """Per-lane fragments of matrix X, lane after lane."""
    m, n, k = dims(shape)
    rows, cols = {'a': (m, k), 'b': (k, n), 'c': (m, n)}[which]
    per_lane = rows * cols // 32
    out, seen = [], set()
    for lane in range(32):
        for i in range(per_lane):
            if which == 'a':
                r, c = mma_a(shape, t, lane, i)
            elif which == 'b':
                r, c = mma_b(shape, t, lane, i)
            else:
                r, c = mma_c(shape, lane, i)
            out.append(X[r][c])
            seen.add((r, c))
    assert len(seen) == rows * cols  # every element exactly once
    return out


def write(name, text):
    with open(os.path.join(HERE, name), 'w') as f:
        f.write(text)


def header(lines):
    return ''.join('# ' + l + '\n' if l else '#\n' for l in lines)


# --- mma .f16 ----------------------------------------------------------------

def mma_f16():
    A = [[((3 * i + 5 * k) % 9 - 4) * 0.5 for k in range(16)] for i in range(16)]
    A[3][5] = math.inf
    B = [[float((7 * k + 2 * j) % 7 - 3) for j in range(8)] for k in range(16)]
    C = [[float((i + 3 * j) % 5 - 2) for j in range(8)] for i in range(16)]
    C[10][3] = math.nan
    # f16 destinations: a tie at 2049 (to 2048), a tie at 2051 (to 2052),
    # and 65520 (the midpoint to 2^16: overflows to infinity).
    P = matmul(A, B, [[0.0] * 8 for _ in range(16)], 'float')
    C[0][0] = 2049 - P[0][0]
    C[0][1] = 2051 - P[0][1]
    C[15][7] = 65520 - P[15][7]
    Ch = [[round_f16(x) for x in r] for r in C]  # the .f16 accumulator input
    A8 = [[((5 * i + 3 * k) % 7 - 3) * 0.25 for k in range(8)] for i in range(16)]
    B8 = [[float((3 * k + j) % 5 - 2) for j in range(8)] for k in range(8)]
    for M in (A, B, Ch, A8, B8):
        assert all(is_f16(x) for r in M for x in r)

    d1 = matmul(A, B, C, 'float')                      # f32.f16.f16.f32
    d2 = [[round_f16(x) for x in r] for r in matmul(A, B, Ch, 'float')]
    d5 = matmul(A8, B8, C, 'float')                    # m16n8k8 f32
    d6 = [[round_f16(x) for x in r] for r in matmul(A8, B8, Ch, 'float')]
    assert d2[0][0] == 2048  # the tie at 2049, to even
    s = 'm16n8k16'
    text = header([
        'mma.sync.aligned .f16 multiplicands: m16n8k16 and m16n8k8, each with',
        'f32.f32 and f16.f16 (the mixed pairs are m8n8k4\'s only). Inputs are whole matrices (A 16x16 multiples of',
        '0.5 with one +inf, B small integers, C small integers with one NaN',
        'and entries making D = 2049, 2051 and 65520 exactly), handed to each',
        'lane as the PTX ISA\'s fragment layouts prescribe; the expected D',
        'fragments are D = A*B + C computed exactly and placed the same way,',
        'rounded once to .f16 (nearest even, 65520 overflows to inf) where D is',
        '.f16. Generated by gen_expected.py.',
    ])
    text += 'kernel mmaF16\nblock 32\n'
    text += 'buffer a f16 = ' + values(frag(s, 'f16', A, 'a')) + '\n'
    text += 'buffer b f16 = ' + values(frag(s, 'f16', B, 'b')) + '\n'
    text += 'buffer c f32 = ' + values(frag(s, 'f32', C, 'c')) + '\n'
    text += 'buffer ch f16 = ' + values(frag(s, 'f16', Ch, 'c')) + '\n'
    text += 'buffer a8 f16 = ' + values(frag('m16n8k8', 'f16', A8, 'a')) + '\n'
    text += 'buffer b8 f16 = ' + values(frag('m16n8k8', 'f16', B8, 'b')) + '\n'
    for n, t in (('d1', 'f32'), ('d2', 'f16'), ('d5', 'f32'), ('d6', 'f16')):
        text += 'buffer %s %s [128]\n' % (n, t)
    for n in ('a', 'b', 'c', 'ch', 'a8', 'b8', 'd1', 'd2', 'd5', 'd6'):
        text += 'param ' + n + '\n'
    for n, t, D in (('d1', 'f32', d1), ('d2', 'f16', d2), ('d5', 'f32', d5),
                    ('d6', 'f16', d6)):
        text += 'expect %s %s = %s\n' % (n, t, values(frag(s, t, D, 'c')))
    write('mma-f16.data', text)


# --- mma .bf16 / .tf32 -------------------------------------------------------

def mma_bf16_tf32():
    A = [[((7 * i + 3 * k) % 11 - 5) * 0.5 for k in range(16)] for i in range(16)]
    A[6][2] = 2.0 ** 127   # its products with |b| >= 2 overflow f32
    B = [[float((k + 5 * j) % 7 - 3) for j in range(8)] for k in range(16)]
    C = [[float((2 * i + j) % 9 - 4) for j in range(8)] for i in range(16)]
    A8 = [[((i + 2 * k) % 9 - 4) * 0.25 for k in range(8)] for i in range(16)]
    B8 = [[float((5 * k + 3 * j) % 7 - 3) for j in range(8)] for k in range(8)]
    T = [[((3 * i + k) % 13 - 6) * 0.125 for k in range(8)] for i in range(16)]
    TB = [[float((k * j) % 5 - 2) for j in range(8)] for k in range(8)]
    for M in (A, B, A8, B8):
        assert all(is_bf16(x) for r in M for x in r)
    for M in (T, TB):
        assert all(is_tf32(x) for r in M for x in r)
    d1 = matmul(A, B, C, 'float')
    # Row 6: 2^127 * b plus small terms. |b| >= 2 leaves the f32 range
    # (+-inf); b = +-1 rounds to +-2^127 (the small terms are far below half
    # an ulp there), whatever the order of the additions.
    for j in range(8):
        v = d1[6][j]
        if abs(v) >= 2**128 * (1 - 2**-25):
            d1[6][j] = math.copysign(math.inf, v)
        else:
            assert abs(v) < 3.4e38
            d1[6][j] = float(struct.unpack('<f', struct.pack('<f', v))[0])
    d2 = matmul(A8, B8, C, 'float')
    d3 = matmul(T, TB, C, 'float')
    text = header([
        'mma.sync.aligned .bf16 (m16n8k16, m16n8k8) and .tf32 (m16n8k8) with',
        '.f32 accumulators. Whole matrices of small multiples of 1/2, 1/4 and',
        '1/8 (exact in .bf16/.tf32, so every product and partial sum is exact',
        'in f32), and one A entry of 2^127, whose products with |b| >= 2',
        'overflow to +-inf and with |b| = 1 round to +-2^127.',
        'Fragments are placed with the PTX ISA\'s formulas; D = A*B + C exactly,',
        'rounded once to f32. Generated by gen_expected.py.',
    ])
    text += 'kernel mmaBf16Tf32\nblock 32\n'
    text += 'buffer a bf16 = ' + values(frag('m16n8k16', 'bf16', A, 'a')) + '\n'
    text += 'buffer b bf16 = ' + values(frag('m16n8k16', 'bf16', B, 'b')) + '\n'
    text += 'buffer c f32 = ' + values(frag('m16n8k16', 'f32', C, 'c')) + '\n'
    text += 'buffer a8 bf16 = ' + values(frag('m16n8k8', 'bf16', A8, 'a')) + '\n'
    text += 'buffer b8 bf16 = ' + values(frag('m16n8k8', 'bf16', B8, 'b')) + '\n'
    text += 'buffer ta f32 = ' + values(frag('m16n8k8', 'tf32', T, 'a')) + '\n'
    text += 'buffer tb f32 = ' + values(frag('m16n8k8', 'tf32', TB, 'b')) + '\n'
    for n in ('d1', 'd2', 'd3'):
        text += 'buffer %s f32 [128]\n' % n
    for n in ('a', 'b', 'c', 'a8', 'b8', 'ta', 'tb', 'd1', 'd2', 'd3'):
        text += 'param ' + n + '\n'
    text += 'expect d1 f32 = ' + values(frag('m16n8k16', 'f32', d1, 'c')) + '\n'
    text += 'expect d2 f32 = ' + values(frag('m16n8k8', 'f32', d2, 'c')) + '\n'
    text += 'expect d3 f32 = ' + values(frag('m16n8k8', 'f32', d3, 'c')) + '\n'
    write('mma-bf16-tf32.data', text)


# --- mma .s8/.u8 -------------------------------------------------------------

def overflowing(A, B, C, cells):
    """Sets C at cells so that A*B + C leaves the s32 range by 7."""
    P = matmul(A, B, [[0] * len(B[0]) for _ in A], 'int')
    for (i, j) in cells:
        s = P[i][j]
        assert s != 0
        C[i][j] = INT32_MAX - s + 7 if s > 0 else INT32_MIN - s - 7
        assert INT32_MIN <= C[i][j] <= INT32_MAX


def mma_int8():
    s8 = lambda m, n, f: [[(f(i, j) % 256) - 128 for j in range(n)] for i in range(m)]
    u8 = lambda m, n, f: [[f(i, j) % 256 for j in range(n)] for i in range(m)]
    As = s8(16, 32, lambda i, k: 37 * i + 11 * k + 5)
    Au = u8(16, 32, lambda i, k: 29 * i + 13 * k + 200)
    Bs = s8(32, 8, lambda k, j: 53 * k + 19 * j + 1)
    Bu = u8(32, 8, lambda k, j: 41 * k + 23 * j + 7)
    C = [[(i * 1000 - j * 777) * 31 for j in range(8)] for i in range(16)]
    cells = [(0, 0), (5, 3), (15, 7)]
    forms = [('ss', As, Bs, False), ('uu', Au, Bu, True),
             ('su', As, Bu, True), ('us', Au, Bs, False)]
    text = header([
        'mma.sync.aligned integer forms: m16n8k32 with .s8/.u8 in every',
        'combination (.satfinite on u8.u8 and s8.u8), m16n8k16 .s8.s8',
        '.satfinite, m8n8k16 .u8.s8. Operands cover the whole 8-bit ranges;',
        'some C entries make A*B + C leave the s32 range by 7, which wraps',
        'modulo 2^32 without .satfinite and clamps to INT32_MAX/INT32_MIN with',
        'it. Exact integer products placed with the PTX ISA\'s fragment',
        'formulas. Generated by gen_expected.py.',
    ])
    text += 'kernel mmaInt8\nblock 32\n'
    params, expects = [], []
    for name, A, B, sat in forms:
        Cx = [r[:] for r in C]
        overflowing(A, B, Cx, cells)
        ta = 's8' if A is As else 'u8'
        tb = 's8' if B is Bs else 'u8'
        text += 'buffer a_%s %s = %s\n' % (name, ta, values(frag('m16n8k32', ta, A, 'a')))
        text += 'buffer b_%s %s = %s\n' % (name, tb, values(frag('m16n8k32', tb, B, 'b')))
        text += 'buffer c_%s s32 = %s\n' % (name, values(frag('m16n8k32', 's32', Cx, 'c')))
        text += 'buffer d_%s s32 [128]\n' % name
        params += ['a_' + name, 'b_' + name, 'c_' + name, 'd_' + name]
        D = matmul(A, B, Cx, 'int', sat)
        expects.append('expect d_%s s32 = %s\n' % (name, values(frag('m16n8k32', 's32', D, 'c'))))
    # m16n8k16 .s8.s8.satfinite: the first 16 columns/rows.
    A16 = [r[:16] for r in As]
    B16 = Bs[:16]
    C16 = [r[:] for r in C]
    overflowing(A16, B16, C16, cells)
    text += 'buffer a16 s8 = ' + values(frag('m16n8k16', 's8', A16, 'a')) + '\n'
    text += 'buffer b16 s8 = ' + values(frag('m16n8k16', 's8', B16, 'b')) + '\n'
    text += 'buffer c16 s32 = ' + values(frag('m16n8k16', 's32', C16, 'c')) + '\n'
    text += 'buffer d16 s32 [128]\n'
    params += ['a16', 'b16', 'c16', 'd16']
    D = matmul(A16, B16, C16, 'int', True)
    expects.append('expect d16 s32 = ' + values(frag('m16n8k16', 's32', D, 'c')) + '\n')
    # m8n8k16 .u8.s8: A 8x16, B 16x8.
    A88 = [r[:16] for r in Au[:8]]
    B88 = Bs[:16]
    C88 = [r[:] for r in C[:8]]
    overflowing(A88, B88, C88, [(1, 1)])
    text += 'buffer a88 u8 = ' + values(frag('m8n8k16', 'u8', A88, 'a')) + '\n'
    text += 'buffer b88 s8 = ' + values(frag('m8n8k16', 's8', B88, 'b')) + '\n'
    text += 'buffer c88 s32 = ' + values(frag('m8n8k16', 's32', C88, 'c')) + '\n'
    text += 'buffer d88 s32 [64]\n'
    params += ['a88', 'b88', 'c88', 'd88']
    D = matmul(A88, B88, C88, 'int', False)
    expects.append('expect d88 s32 = ' + values(frag('m8n8k16', 's32', D, 'c')) + '\n')
    text += ''.join('param %s\n' % p for p in params) + ''.join(expects)
    write('mma-int8.data', text)


# --- mma .f64 ----------------------------------------------------------------

def mma_f64():
    A = [[((3 * i + k) % 7 - 3) * 0.5 for k in range(4)] for i in range(8)]
    B = [[((i + 5 * j) % 9 - 4) * 0.25 for j in range(8)] for i in range(4)]
    C = [[float((i * j) % 11 - 5) for j in range(8)] for i in range(8)]
    A[2][1] = math.inf
    B[1][6] = 0.0          # inf * 0: NaN in D[2][6]
    C[4][4] = 2.0 ** 40    # 2^40 + multiples of 1/8: exact in f64
    D = matmul(A, B, C, 'float')
    assert math.isnan(D[2][6])
    text = header([
        'mma.sync.aligned.m8n8k4.row.col.f64: A 8x4, B 4x8, C 8x8 of small',
        'multiples of 1/2 and 1/4 (exact sums), one +inf in A (with a zero in',
        'B, so one D entry is NaN). Fragments placed with the PTX ISA\'s',
        'formulas. Generated by gen_expected.py.',
    ])
    text += 'kernel mmaF64\nblock 32\n'
    text += 'buffer a f64 = ' + values(frag('m8n8k4', 'f64', A, 'a')) + '\n'
    text += 'buffer b f64 = ' + values(frag('m8n8k4', 'f64', B, 'b')) + '\n'
    text += 'buffer c f64 = ' + values(frag('m8n8k4', 'f64', C, 'c')) + '\n'
    text += 'buffer d f64 [64]\n'
    text += 'param a\nparam b\nparam c\nparam d\n'
    text += 'expect d f64 = ' + values(frag('m8n8k4', 'f64', D, 'c')) + '\n'
    write('mma-f64.data', text)


# --- ldmatrix / stmatrix -----------------------------------------------------

def ldst_matrix():
    mem = [(0x1000 * (r % 16) + 0x111 * c + 3 * r) & 0xffff
           for r in range(32) for c in range(8)]
    perm = lambda l: (13 * l + 7) % 32   # the row each lane points at
    perm2 = lambda l: (7 * l + 3) % 32
    row = lambda r: mem[8 * r: 8 * r + 8]

    def ld(count, trans, lane):
        out = []
        for j in range(count):
            rows = [row(perm(8 * j + r)) for r in range(8)]
            el = (lambda r, c: rows[c][r]) if trans else (lambda r, c: rows[r][c])
            lo = el(lane // 4, 2 * (lane % 4))
            hi = el(lane // 4, 2 * (lane % 4) + 1)
            out.append(lo | hi << 16)
        return out

    o = []
    for lane in range(32):
        w = ld(1, False, lane) + ld(2, False, lane) + ld(4, False, lane) + \
            ld(4, True, lane) + ld(2, True, lane) + ld(1, True, lane)
        o += w + [0, 0]
    vals = [(0x10001 * (4 * l + j) + 0x8000) & 0xffffffff
            for l in range(32) for j in range(4)]

    def st(count, trans, first):
        img = [0] * 256
        for j in range(count):
            for lane in range(32):
                w = vals[4 * lane + first + j]
                for h in range(2):
                    r, c = lane // 4, 2 * (lane % 4) + h
                    mr, mc = (c, r) if trans else (r, c)
                    img[8 * perm2(8 * j + mr) + mc] = (w >> (16 * h)) & 0xffff
        return img

    s = st(4, False, 0) + st(2, True, 0) + st(1, False, 2)
    text = header([
        'ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.b16 from shared memory',
        '(.shared, .shared::cta and a generic address) and stmatrix (x4, x2',
        '.trans, x1). Each lane points at row (13 l + 7) mod 32 (stmatrix:',
        '(7 l + 3) mod 32) of a 32 x 8 table, so a wrong thread-to-row mapping',
        'shows. Expected per the PTX ISA: lane 8j + r gives row r of matrix j',
        '(its column r with .trans); lane t holds elements (t/4, 2(t%4)) and',
        '(t/4, 2(t%4)+1) of matrix j in register j, low half first.',
        'out: per lane x1, x2 (2), x4 (4), x4.trans (4), x2.trans (2),',
        'x1.trans, 2 unused words; st: the table after each stmatrix.',
        'Generated by gen_expected.py.',
    ])
    text += 'kernel ldstMatrix\nblock 32\n'
    text += 'buffer mem u16 = ' + ' '.join('0x%04x' % v for v in mem) + '\n'
    text += 'buffer vals u32 = ' + ' '.join('0x%08x' % v for v in vals) + '\n'
    text += 'buffer out u32 [512]\nbuffer st u16 [768]\n'
    text += 'param mem\nparam vals\nparam out\nparam st\n'
    text += 'expect out u32 = ' + ' '.join('0x%08x' % v for v in o) + '\n'
    text += 'expect st u16 = ' + ' '.join('0x%04x' % v for v in s) + '\n'
    write('ldmatrix-stmatrix.data', text)


# --- wmma --------------------------------------------------------------------

def store(X, rows, cols, col_major, stride, size, fill=0.0):
    """Memory image (size elements) of matrix X stored with a layout."""
    out = [fill] * size
    for r in range(rows):
        for c in range(cols):
            out[c * stride + r if col_major else r * stride + c] = X[r][c]
    return out


def transpose(X):
    return [list(r) for r in zip(*X)]


def wmma_f16():
    A = [[((2 * i + 3 * k) % 9 - 4) * 0.5 for k in range(16)] for i in range(16)]
    B = [[float((5 * k + j) % 7 - 3) for j in range(16)] for k in range(16)]
    C = [[float((i + 2 * j) % 11 - 5) for j in range(16)] for i in range(16)]
    Ch = [[round_f16(x) for x in r] for r in C]
    D1 = matmul(A, B, C, 'float')
    D2 = [[round_f16(x) for x in r] for r in matmul(A, B, Ch, 'float')]
    A2 = [[((i + k) % 5 - 2) * 0.5 for k in range(16)] for i in range(32)]
    B2 = [[float((3 * k + j) % 5 - 2) for j in range(8)] for k in range(16)]
    C2 = [[float((i * j) % 7 - 3) for j in range(8)] for i in range(32)]
    D4 = matmul(A2, B2, C2, 'float')
    A3 = [[((3 * i + k) % 7 - 3) * 0.25 for k in range(16)] for i in range(8)]
    B3 = [[float((k + 3 * j) % 9 - 4) for j in range(32)] for k in range(16)]
    C3 = [[float((5 * i + j) % 13 - 6) for j in range(32)] for i in range(8)]
    D5 = [[round_f16(x) for x in r] for r in matmul(A3, B3, C3, 'float')]
    text = header([
        'wmma round trips through memory with .f16 multiplicands: m16n16k16',
        '(A row-major with stride 24, B column-major, C row-major; D stored',
        'row-major with stride 20), the same with an .f16 accumulator loaded',
        'column-major from shared memory and D stored column-major; a C loaded',
        'column-major with an explicit stride and stored row-major (the',
        'transpose); m32n8k16 (A, B row-major, D column-major) and m8n32k16',
        'with an .f16 D from an .f32 C (A, B column-major). Expected: the memory',
        'images of D = A*B + C (exact; .f16 rounded once, nearest even).',
        'Generated by gen_expected.py.',
    ])
    text += 'kernel wmmaF16\nblock 32\n'
    bufs = [
        ('a', 'f16', store(A, 16, 16, False, 24, 16 * 24)),
        ('b', 'f16', store(B, 16, 16, True, 16, 256)),
        ('c', 'f32', store(C, 16, 16, False, 16, 256)),
        ('ch', 'f16', store(Ch, 16, 16, True, 16, 256)),
        ('a2', 'f16', store(A2, 32, 16, False, 16, 512)),
        ('b2', 'f16', store(B2, 16, 8, False, 8, 128)),
        ('c2', 'f32', store(C2, 32, 8, False, 8, 256)),
        ('a3', 'f16', store(A3, 8, 16, True, 8, 128)),
        ('b3', 'f16', store(B3, 16, 32, True, 16, 512)),
        ('c3', 'f32', store(C3, 8, 32, False, 32, 256)),
    ]
    for n, t, v in bufs:
        text += 'buffer %s %s = %s\n' % (n, t, values(v))
    outs = [
        ('d1', 'f32', store(D1, 16, 16, False, 20, 16 * 20)),
        ('d2', 'f16', store(D2, 16, 16, True, 16, 256)),
        ('d3', 'f32', store(transpose(C), 16, 16, False, 16, 256)),
        ('d4', 'f32', store(D4, 32, 8, True, 32, 256)),
        ('d5', 'f16', store(D5, 8, 32, False, 32, 256)),
    ]
    for n, t, v in outs:
        text += 'buffer %s %s [%d]\n' % (n, t, len(v))
    text += ''.join('param %s\n' % n for n, _, _ in bufs + outs)
    for n, t, v in outs:
        text += 'expect %s %s = %s\n' % (n, t, values(v))
    write('wmma-f16.data', text)


def wmma_other():
    A = [[((3 * i + 7 * k) % 9 - 4) * 0.5 for k in range(16)] for i in range(16)]
    B = [[float((k + 2 * j) % 7 - 3) for j in range(16)] for k in range(16)]
    C = [[float((3 * i + j) % 7 - 3) for j in range(16)] for i in range(16)]
    E1 = matmul(A, B, C, 'float')
    TA = [[((i + 3 * k) % 11 - 5) * 0.125 for k in range(8)] for i in range(16)]
    TB = [[float((2 * k + j) % 5 - 2) for j in range(16)] for k in range(8)]
    E2 = matmul(TA, TB, C, 'float')
    SA = [[((37 * i + 11 * k + 3) % 256) - 128 for k in range(16)] for i in range(16)]
    SB = [[((53 * k + 19 * j + 9) % 256) - 128 for j in range(16)] for k in range(16)]
    SC = [[(i - j) * 100003 for j in range(16)] for i in range(16)]
    overflowing(SA, SB, SC, [(0, 0), (7, 9), (15, 15)])
    E3 = matmul(SA, SB, SC, 'int', True)
    UA = [[(29 * i + 13 * k + 100) % 256 for k in range(16)] for i in range(16)]
    UB = [[(41 * k + 23 * j + 7) % 256 for j in range(16)] for k in range(16)]
    UC = [[(i + j) * 77777 for j in range(16)] for i in range(16)]
    overflowing(UA, UB, UC, [(3, 4), (12, 1)])
    E4 = matmul(UA, UB, UC, 'int', False)
    E7 = matmul(SA, SA, [[0] * 16 for _ in range(16)], 'int', False)
    FA = [[((i + 3 * k) % 7 - 3) * 0.5 for k in range(4)] for i in range(8)]
    FB = [[((2 * k + j) % 9 - 4) * 0.25 for j in range(8)] for k in range(4)]
    FC = [[float((i + j) % 5 - 2) for j in range(8)] for i in range(8)]
    E5 = matmul(FA, FB, FC, 'float')
    assert all(is_bf16(x) for M in (A, B) for r in M for x in r)
    assert all(is_tf32(x) for M in (TA, TB) for r in M for x in r)
    text = header([
        'wmma round trips through memory for the other element types:',
        '.bf16 m16n16k16 (A column-major, B row-major with stride 24, both from',
        'shared memory), .tf32 m16n16k8 (A row-major, B column-major, C',
        'column-major), .s8 m16n16k16 .satfinite and .u8 without it (C entries',
        'that leave the s32 range by 7: clamped, resp. wrapped), .s8 A times',
        'itself as B (both row-major, C = 0 from a zeroed buffer; the ISA has',
        'no mixed .s8/.u8 wmma), .f64 m8n8k4',
        '(and its .rn form). Expected: memory images of D = A*B + C computed',
        'exactly. Generated by gen_expected.py.',
    ])
    text += 'kernel wmmaOther\nblock 32\n'
    bufs = [
        ('a', 'bf16', store(A, 16, 16, True, 16, 256)),
        ('b', 'bf16', store(B, 16, 16, False, 24, 16 * 24)),
        ('c', 'f32', store(C, 16, 16, False, 16, 256)),
        ('ta', 'f32', store(TA, 16, 8, False, 8, 128)),
        ('tb', 'f32', store(TB, 8, 16, True, 8, 128)),
        ('tc', 'f32', store(C, 16, 16, True, 16, 256)),
        ('sa', 's8', store(SA, 16, 16, False, 16, 256, 0)),
        ('sb', 's8', store(SB, 16, 16, True, 16, 256, 0)),
        ('sc', 's32', store(SC, 16, 16, False, 16, 256, 0)),
        ('ua', 'u8', store(UA, 16, 16, False, 16, 256, 0)),
        ('ub', 'u8', store(UB, 16, 16, False, 16, 256, 0)),
        ('uc', 's32', store(UC, 16, 16, True, 16, 256, 0)),
        ('fa', 'f64', store(FA, 8, 4, False, 4, 32)),
        ('fb', 'f64', store(FB, 4, 8, True, 4, 32)),
        ('fc', 'f64', store(FC, 8, 8, False, 8, 64)),
    ]
    for n, t, v in bufs:
        text += 'buffer %s %s = %s\n' % (n, t, values(v))
    outs = [
        ('e1', 'f32', store(E1, 16, 16, False, 16, 256)),
        ('e2', 'f32', store(E2, 16, 16, False, 16, 256)),
        ('e3', 's32', store(E3, 16, 16, False, 16, 256, 0)),
        ('e4', 's32', store(E4, 16, 16, True, 16, 256, 0)),
        ('e5', 'f64', store(E5, 8, 8, False, 8, 64)),
        ('e6', 'f64', store(E5, 8, 8, True, 8, 64)),
        ('e7', 's32', store(E7, 16, 16, False, 16, 256, 0)),
    ]
    for n, t, v in outs:
        text += 'buffer %s %s [%d]\n' % (n, t, len(v))
    text += ''.join('param %s\n' % n for n, _, _ in bufs + outs)
    for n, t, v in outs:
        text += 'expect %s %s = %s\n' % (n, t, values(v))
    write('wmma-other.data', text)

def mma_shared_gather():
    # A 16x16 and B 16x8 of small integers, so every product and partial
    # sum is exact; D = A*B with no C. The kernel reads A row-major and B
    # as its transpose (8x16 row-major), and writes D row-major (16x8).
    A = [[float((i + 2 * k) % 7 - 3) for k in range(16)] for i in range(16)]
    B = [[float((3 * k + j) % 5 - 2) for j in range(8)] for k in range(16)]
    D = [[sum(A[i][k] * B[k][j] for k in range(16)) for j in range(8)]
         for i in range(16)]
    text = header([
        'One warp: A and B staged in shared memory, ldmatrix, mma.sync',
        'm16n8k16 f16 -> f32, the D fragment stored to shared memory by its',
        'lane and read back row-major by other lanes with no barrier, as a',
        'converged warp does (see the .ptx). A[i][k] = (i + 2k) % 7 - 3,',
        'B[k][j] = (3k + j) % 5 - 2; D = A*B is exact in f32.',
    ])
    text += 'kernel mmaSharedGather\nblock 32\n'
    text += 'buffer a f16 = %s\n' % values([A[i][k] for i in range(16) for k in range(16)])
    text += 'buffer bt f16 = %s\n' % values([B[k][j] for j in range(8) for k in range(16)])
    text += 'buffer d f32 [128]\n'
    text += 'param a\nparam bt\nparam d\n'
    text += 'expect d f32 = %s\n' % values([D[i][j] for i in range(16) for j in range(8)])
    write('mma-shared-gather.data', text)


if __name__ == '__main__':
    mma_f16()
    mma_bf16_tf32()
    mma_int8()
    mma_f64()
    ldst_matrix()
    wmma_f16()
    wmma_other()
    mma_shared_gather()
