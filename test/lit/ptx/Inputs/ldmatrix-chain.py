#!/usr/bin/env python3
"""Prints a kernel of N ldmatrix.x1 instructions in a row, each reading the
shared row the previous one's result points at (matrix-path-limit.test)."""
import sys

n = int(sys.argv[1])
print('.version 8.0\n.target sm_80\n.address_size 64\n')
print('.visible .entry chain(.param .u64 out)\n{')
print('  .shared .align 16 .b8 tile[128];')
print('  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;')
print('  mov.u32 %r0, %tid.x;\n  and.b32 %r0, %r0, 7;\n  shl.b32 %r0, %r0, 4;')
print('  mov.u32 %r1, tile;\n  add.u32 %r1, %r1, %r0;')
for _ in range(n):
    print('  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [%r1];')
    print('  and.b32 %r2, %r2, 112;\n  mov.u32 %r1, tile;\n  add.u32 %r1, %r1, %r2;')
print('  ld.param.u64 %rd0, [out];\n  mul.wide.u32 %rd1, %r0, 4;')
print('  add.s64 %rd0, %rd0, %rd1;\n  st.global.u32 [%rd0], %r1;\n  ret;\n}')
