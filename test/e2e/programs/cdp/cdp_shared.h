// Dynamic parallelism test program: what its two files share.
#pragma once

// Defined in cdp_child.cu, launched from cdp_main.cu's kernels: the device
// link must connect a launch to a kernel of another file.
__global__ void fill_child(int *out, int n, int value);
// Adds 1 to out[i] for i < n, reading in[i] first when in is non-null.
__global__ void add_child(int *out, const int *in, int n);
