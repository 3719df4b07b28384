//===- AddKernelPtx.h - A small kernel the runtime tests launch -----------===//
//
// add(p, n, v): p[i] += v for every i < n, one thread per element. The
// graph and concurrency tests launch it through the runtime core.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace cuhip::rt::test {

inline const char *const AddPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry add(.param .u64 p, .param .u32 n, .param .u32 v)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r6, [v];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra $L_end;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r4, [%rd3];
  add.s32 %r4, %r4, %r6;
  st.global.u32 [%rd3], %r4;
$L_end:
  ret;
}
)";

} // namespace cuhip::rt::test
