#!/usr/bin/env python3
"""Runs the AMDGPU-lowered IR of one conformance case on the host CPU.

`cuhip ptx --emit llvm` gives the kernel after the AMDGPU lowering; its few
amdgcn intrinsics are renamed to functions of a small C harness and the
module is compiled for the host with clang. Every lane of the wavefront is
a thread: ds_bpermute and readlane exchange values through a barrier, mbcnt
gives the thread's lane, the kernarg pointer its warp's parameters. LDS
variables become ordinary globals of a non-PIE executable, so their
addresses fit the 32 bits of an LDS pointer. On wave64 targets the two
warps of the wavefront run the case in turn while the other warp runs on
random data (a warp reading the other half's lanes would then fail), except
in kernels with LDS variables, which both warps share: there both warps run
the case. The outputs are compared bit for bit with the case's `expect`
lines ("nan": any NaN). Only uniform control flow around the cross-lane
operations is supported (every lane must reach each one).

  emulate-wave.py CUHIP CLANG CASE.ptx CASE.data ARCH [--opt] WORKDIR
"""
import math, os, random, re, struct, subprocess, sys

cuhip, clang, ptx, data, arch = sys.argv[1:6]
opt = '--opt' in sys.argv
work = sys.argv[-1]
os.makedirs(work, exist_ok=True)
wave = 64 if arch in ('gfx90a', 'gfx942') else 32

SIZES = {'u8':1,'s8':1,'u16':2,'s16':2,'f16':2,'bf16':2,'u32':4,'s32':4,'f32':4,'b32':4,'u64':8,'s64':8,'f64':8,'b64':8,'b16':2}
def enc(t, tok):
    n = SIZES[t]
    if t in ('f16','f32','f64','bf16'):
        if tok.startswith('0x'): return int(tok, 16)
        v = float(tok)
        if t == 'f32': return struct.unpack('<I', struct.pack('<f', v))[0]
        if t == 'f64': return struct.unpack('<Q', struct.pack('<d', v))[0]
        if t == 'f16': return struct.unpack('<H', struct.pack('<e', v))[0]
        return struct.unpack('<I', struct.pack('<f', v))[0] >> 16
    v = int(tok, 0)
    return v & ((1 << (8*n)) - 1)

kernel = None; buffers = {}; order = []; params = []; expects = []
for line in open(data):
    line = line.split('#')[0].strip()
    if not line: continue
    w = line.split()
    if w[0] == 'kernel': kernel = w[1]
    elif w[0] == 'block': assert w[1:] == ['32'], w
    elif w[0] == 'buffer':
        name, t = w[1], w[2]; count = 0; init = []
        rest = w[3:]
        if rest and rest[0].startswith('['): count = int(rest[0][1:-1]); rest = rest[1:]
        if rest and rest[0] == '=': init = [enc(t, x) for x in rest[1:]]
        count = max(count, len(init))
        buffers[name] = (t, count, init); order.append(name)
    elif w[0] == 'param':
        assert w[1] in buffers, 'only buffer params: ' + line
        params.append(w[1])
    elif w[0] == 'expect':
        name, t = w[1], w[2]
        assert w[3] == '=', line
        expects.append((name, t, w[4:]))
    else: raise SystemExit('unknown directive ' + w[0])

# The lowered IR, rewritten for the host.
ir = subprocess.run([cuhip, 'ptx', ptx, '--arch', arch, '--emit', 'llvm'] + ([] if opt else ['--no-opt']),
                    check=True, capture_output=True, text=True).stdout
ir = re.sub(r'^target (datalayout|triple) = .*$', '', ir, flags=re.M)
ir = ir.replace('amdgpu_kernel ', '')
ir = re.sub(r'^attributes (#\d+) = \{.*\}$', r'attributes \1 = { nounwind }', ir, flags=re.M)
names = {'ds.bpermute': 'emu_bpermute', 'mbcnt.lo': 'emu_mbcnt_lo', 'mbcnt.hi': 'emu_mbcnt_hi',
         'workitem.id.x': 'emu_tid_x', 'kernarg.segment.ptr': 'emu_kernarg',
         'wave.barrier': 'emu_barrier', 's.barrier': 'emu_barrier', 'readlane.i32': 'emu_readlane'}
for k, v in names.items():
    ir = ir.replace('@llvm.amdgcn.' + k + '(', '@' + v + '(')
left = set(re.findall(r'@llvm\.amdgcn\.[a-z0-9_.]+', ir))
if left: raise SystemExit('not emulated: ' + ' '.join(sorted(left)))
ir = re.sub(r'^declare .*@emu_.*$', '', ir, flags=re.M)
ir += '''
declare i32 @emu_bpermute(i32, i32)
declare i32 @emu_readlane(i32, i32)
declare i32 @emu_mbcnt_lo(i32, i32)
declare i32 @emu_mbcnt_hi(i32, i32)
declare i32 @emu_tid_x()
declare ptr addrspace(4) @emu_kernarg()
declare void @emu_barrier()
'''
open(os.path.join(work, 'k.ll'), 'w').write(ir)

harness = r'''
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define WAVE %(wave)d
static pthread_barrier_t Bar;
static __thread unsigned Lane;
static uint32_t Slot[WAVE];
static void *Kernarg[2];
void *emu_kernarg(void) { return Kernarg[Lane / 32]; }
uint32_t emu_tid_x(void) { return Lane %% 32; }
uint32_t emu_mbcnt_lo(uint32_t M, uint32_t A) {
  if (M != ~0u) abort();
  return A + (Lane < 32 ? Lane : 32);
}
uint32_t emu_mbcnt_hi(uint32_t M, uint32_t A) {
  if (M != ~0u) abort();
  return A + (Lane < 32 ? 0 : Lane - 32);
}
void emu_barrier(void) { pthread_barrier_wait(&Bar); }
static uint32_t exchange(uint32_t From, uint32_t V) {
  Slot[Lane] = V;
  pthread_barrier_wait(&Bar);
  uint32_t R = Slot[From %% WAVE];
  pthread_barrier_wait(&Bar);
  return R;
}
uint32_t emu_bpermute(uint32_t Addr, uint32_t V) { return exchange(Addr >> 2, V); }
uint32_t emu_readlane(uint32_t V, uint32_t L) { return exchange(L, V); }
extern void %(kernel)s(long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long);
static void *run(void *P) {
  Lane = (unsigned)(uintptr_t)P;
  %(kernel)s(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  return 0;
}
int main(int argc, char **argv) {
  /* argv[1]: buffers per warp, then for each warp and buffer a file */
  int NB = atoi(argv[1]), NP = atoi(argv[2]);
  int Warps = WAVE / 32;
  void **Bufs = calloc(Warps * NB, sizeof(void *));
  long *Sizes = calloc(NB, sizeof(long));
  for (int W = 0; W < Warps; ++W)
    for (int B = 0; B < NB; ++B) {
      FILE *F = fopen(argv[3 + W * NB + B], "rb");
      fseek(F, 0, SEEK_END); long S = ftell(F); fseek(F, 0, SEEK_SET);
      Bufs[W * NB + B] = calloc(1, S + 64);
      if (fread(Bufs[W * NB + B], 1, S, F) != (size_t)S) abort();
      fclose(F); Sizes[B] = S;
    }
  for (int W = 0; W < Warps; ++W) {
    uint64_t *K = calloc(NP, 8);
    for (int P = 0; P < NP; ++P)
      K[P] = (uint64_t)(uintptr_t)Bufs[W * NB + atoi(argv[3 + Warps * NB + P])];
    Kernarg[W] = K;
  }
  pthread_barrier_init(&Bar, 0, WAVE);
  pthread_t T[WAVE];
  for (unsigned L = 0; L < WAVE; ++L)
    pthread_create(&T[L], 0, run, (void *)(uintptr_t)L);
  for (unsigned L = 0; L < WAVE; ++L)
    pthread_join(T[L], 0);
  for (int W = 0; W < Warps; ++W)
    for (int B = 0; B < NB; ++B) {
      char Name[4096];
      snprintf(Name, sizeof Name, "%%s.out", argv[3 + W * NB + B]);
      FILE *F = fopen(Name, "wb");
      fwrite(Bufs[W * NB + B], 1, Sizes[B], F);
      fclose(F);
    }
  return 0;
}
''' % {'wave': wave, 'kernel': kernel}
open(os.path.join(work, 'h.c'), 'w').write(harness)
exe = os.path.join(work, 'k.exe')
subprocess.run([clang, '-O1', '-no-pie', '-Wno-override-module', '-o', exe,
                os.path.join(work, 'k.ll'), os.path.join(work, 'h.c'), '-lpthread', '-lm'], check=True)

def blob(name, garbage):
    t, count, init = buffers[name]
    n = SIZES[t]
    if garbage:
        r = random.Random(name)
        return bytes(r.getrandbits(8) for _ in range(count * n))
    vals = init + [0] * (count - len(init))
    return b''.join(v.to_bytes(n, 'little') for v in vals)

def check(w):
    ok = True
    for name, t, want in expects:
        n = SIZES[t]
        got = open(os.path.join(work, f'w{w}.{name}.out'), 'rb').read()
        for i, tok in enumerate(want):
            g = int.from_bytes(got[i*n:(i+1)*n], 'little')
            if tok == 'nan':
                if t == 'f32': good = (g >> 23) & 0xff == 0xff and g & 0x7fffff
                elif t == 'f16': good = (g >> 10) & 0x1f == 0x1f and g & 0x3ff
                elif t == 'f64': good = (g >> 52) & 0x7ff == 0x7ff and g & ((1 << 52) - 1)
                else: good = False
            else:
                good = g == enc(t, tok)
            if not good:
                print(f'MISMATCH {kernel} {arch} warp {w}: {name}[{i}] = {g:#x}, expected {tok}')
                ok = False
    return ok

# Wave64: each warp in turn gets the case's data while the other warp runs
# on random data, so a warp that read the other half's lanes would fail.
ok = True
uses_lds = 'addrspace(3) global' in ir
for real in range(wave // 32):
    files = []
    for w in range(wave // 32):
        for name in order:
            p = os.path.join(work, f'w{w}.{name}')
            garbage = w != real and not uses_lds
            open(p, 'wb').write(blob(name, garbage))
            files.append(p)
    idx = [str(order.index(p)) for p in params]
    subprocess.run([exe, str(len(order)), str(len(params))] + files + idx, check=True, timeout=120)
    ok = check(real) and ok
print(f'{kernel} {arch}{" O3" if opt else ""}: {"ok" if ok else "FAILED"}{" (LDS: both warps run the case)" if uses_lds and wave == 64 else ""}')
sys.exit(0 if ok else 1)
