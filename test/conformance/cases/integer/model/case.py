"""Writes one conformance case: a kernel where each thread loads its inputs
from per-input buffers, runs a body of PTX on named registers and stores
each result register into a per-result buffer, plus the .data file with
the inputs and the expected results."""
import os

# The cases directory: this file lives in cases/integer/model/.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SIZES = {"u8": 1, "s8": 1, "b8": 1, "u16": 2, "s16": 2, "b16": 2,
         "u32": 4, "s32": 4, "b32": 4, "u64": 8, "s64": 8, "b64": 8}


RESERVED = {"tid", "base", "addr", "off2", "off4", "off8"}
TYPES = set(SIZES) | {"f16", "bf16", "f32", "f64"}


def bits(t):
    return SIZES[t] * 8


def wrap(v, t):
    """v as the data file writes an element of type t (two's complement)."""
    w = bits(t)
    v &= (1 << w) - 1
    if t[0] == "s" and v >> (w - 1):
        v -= 1 << w
    return v


def fmt(v, t):
    v = wrap(v, t)
    if t[0] == "s":
        return str(v)
    return hex(v) if v > 9 else str(v)


class Case:
    def __init__(self, family, name, kernel, header, n):
        self.family, self.name, self.kernel = family, name, kernel
        self.header = header.strip("\n")  # comment block for both files
        self.n = n
        self.inputs = []   # (name, type, values)
        self.outputs = []  # (name, type, reg, expected, comment, flags)
        self.regs = []     # declaration lines
        self.body = []

    def input(self, name, t, values):
        # The runner reads `param NAME` as a scalar when NAME is a type.
        assert name not in TYPES, name
        assert name not in RESERVED, name
        assert len(values) == self.n, name
        self.inputs.append((name, t, values))

    def output(self, name, t, reg, expected, comment="", flags=""):
        assert name not in TYPES, name
        assert len(expected) == self.n, name
        self.outputs.append((name, t, reg, expected, comment, flags))

    def write(self):
        d = os.path.join(ROOT, self.family)
        os.makedirs(d, exist_ok=True)
        params = [f".param .u64 p_{n}" for n, _, _ in self.inputs]
        params += [f".param .u64 p_{n}" for n, *_ in self.outputs]
        ptx = []
        for line in self.header.splitlines():
            ptx.append("// " + line if line else "//")
        ptx += [".version 8.5", ".target sm_90", ".address_size 64", ""]
        ptx.append(f".visible .entry {self.kernel}(")
        ptx.append(",\n".join("    " + p for p in params) + ")")
        ptx.append("{")
        ptx.append("  .reg .b32 %tix;")
        ptx.append("  .reg .b64 %base, %addr, %off2, %off4, %off8;")
        for r in self.regs:
            ptx.append("  " + r)
        ptx.append("  mov.u32 %tix, %tid.x;")
        ptx.append("  mul.wide.u32 %off2, %tix, 2;")
        ptx.append("  mul.wide.u32 %off4, %tix, 4;")
        ptx.append("  mul.wide.u32 %off8, %tix, 8;")
        for n, t, _ in self.inputs:
            sz = SIZES[t]
            ptx.append(f"  ld.param.u64 %base, [p_{n}];")
            ptx.append(f"  add.s64 %addr, %base, %off{sz};")
            ptx.append(f"  ld.global.u{bits(t)} %{n}, [%addr];")
        for line in self.body:
            ptx.append(("  " + line) if line and not line.endswith(":")
                       else line)
        for n, t, reg, *_ in self.outputs:
            sz = SIZES[t]
            ptx.append(f"  ld.param.u64 %base, [p_{n}];")
            ptx.append(f"  add.s64 %addr, %base, %off{sz};")
            ptx.append(f"  st.global.u{bits(t)} [%addr], {reg};")
        ptx.append("  ret;")
        ptx.append("}")
        with open(os.path.join(d, self.name + ".ptx"), "w") as f:
            f.write("\n".join(ptx) + "\n")

        data = []
        for line in self.header.splitlines():
            data.append("# " + line if line else "#")
        data += [f"kernel {self.kernel}", "grid 1", f"block {self.n}"]
        for n, t, vals in self.inputs:
            data.append(f"buffer {n} {t} = " +
                        " ".join(fmt(v, t) for v in vals))
        for n, t, *_ in self.outputs:
            data.append(f"buffer {n} {t} [{self.n}]")
        for n, *_ in self.inputs:
            data.append(f"param {n}")
        for n, *_ in self.outputs:
            data.append(f"param {n}")
        for n, t, _, exp, comment, flags in self.outputs:
            if comment:
                for line in comment.splitlines():
                    data.append("# " + line)
            data.append(f"expect {n} {t}{' ' + flags if flags else ''} = " +
                        " ".join(fmt(v, t) for v in exp))
        with open(os.path.join(d, self.name + ".data"), "w") as f:
            f.write("\n".join(data) + "\n")
