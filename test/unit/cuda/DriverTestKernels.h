//===- DriverTestKernels.h - PTX and checks the driver tests share -------===//
//
// The kernels several driver API test files load (each file's own kernels
// stay in it) and the check they wrap driver calls in.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda.h>
#include <gtest/gtest.h>

#define CHECK_CU(X) ASSERT_EQ((X), CUDA_SUCCESS) << #X

namespace cuhip::test {

// scale(data, factor, n): data[i] *= factor for i < n.
inline const char *const ScalePtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry scale(
  .param .u64 p_data,
  .param .f32 p_factor,
  .param .u32 p_n
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_data];
  ld.param.f32 %f1, [p_factor];
  ld.param.u32 %r1, [p_n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  mul.f32 %f2, %f2, %f1;
  st.global.f32 [%rd4], %f2;
DONE:
  ret;
}
)";

// add_one(data): data[0] += 1.
inline const char *const AddPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry add_one(.param .u64 p_data)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p_data];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [%rd2];
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

} // namespace cuhip::test
