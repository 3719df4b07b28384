// CPU mode with the toolkit's nvcc: its command line is rebuilt from what
// cuhip parsed, and linking takes cuhip's runtime.
// REQUIRES: nvcc
// RUN: %cuhip nvcc --cuhip-backend=cpu --cuhip-device-compiler=nvcc --dryrun \
// RUN:   -gencode arch=compute_80,code=sm_80 -O2 -I/inc -DFOO=1 -std=c++17 \
// RUN:   --extended-lambda -Xcompiler -Wall -c %s -o /out/k.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMPILE
// COMPILE: {{^}}#$ {{[^ ]*}}/bin/nvcc -c -gencode arch=compute_80,code=sm_80 {{"?}}-I/inc{{"?}} -DFOO=1 -std=c++17 -O2 --extended-lambda -Xcompiler -Wall -o /out/k.o {{[^ ]*}}cpu-dryrun-nvcc.cu{{$}}

// RUN: %cuhip nvcc --cuhip-backend=cpu --cuhip-device-compiler=nvcc --dryrun \
// RUN:   -rdc=true -lcudart_static -lcuda -o /out/prog %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LINK
// LINK:      {{^}}cuhip nvcc: note: -cudart static: cuhip has no static CUDA runtime; the program links cuhip's shared libcudart.so.13{{$}}
// As nvcc links: compile with -dc, device link, then the host compiler
// links against the facade's runtime names (cuhip's libraries).
// LINK-NEXT: {{^}}#$ {{[^ ]*}}/bin/nvcc -dc -o {{[^ ]+}}/0_cpu-dryrun-nvcc.o {{[^ ]*}}cpu-dryrun-nvcc.cu{{$}}
// LINK-NEXT: {{^}}#$ {{[^ ]*}}/bin/nvcc -dlink -rdc=true -lcuda -o {{[^ ]+}}/device_link.o {{[^ ]+}}/0_cpu-dryrun-nvcc.o{{$}}
// LINK-NEXT: {{^}}#$ g++ -Wl,--start-group {{[^ ]+}}/device_link.o {{[^ ]+}}/0_cpu-dryrun-nvcc.o "-L{{[^ ]+}}/lib/cuhip/cuda-cpu/lib64" -lcudadevrt -lcudart_static -lcuda -lrt -lpthread -ldl -Wl,--end-group -Wl,-rpath,{{[^ ]+}}/lib -o /out/prog{{$}}

// Math modes given after --use_fast_math reach the toolkit's nvcc after it.
// RUN: %cuhip nvcc --cuhip-backend=cpu --cuhip-device-compiler=nvcc --dryrun \
// RUN:   --use_fast_math --ftz=false -c %s -o /out/k.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MATH
// MATH: {{^}}#$ {{[^ ]*}}/bin/nvcc -c --use_fast_math --ftz=false -o /out/k.o {{[^ ]*}}cpu-dryrun-nvcc.cu{{$}}

// A toolkit nvcc that starts cuhip nvcc again is refused, not recursed into.
// RUN: env CUHIP_NVCC_TOOLKIT_CHILD=1 not %cuhip nvcc --cuhip-backend=cpu \
// RUN:   -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: {{^}}cuhip nvcc: error: this cuhip nvcc was started by the CUDA toolkit's nvcc that cuhip runs in CPU mode, so '{{.+}}/bin/nvcc' leads back to cuhip; point CUDA_PATH at the real CUDA toolkit (CUHIP_NVCC_TOOLKIT_CHILD is set){{$}}

__global__ void kernel(int *p) { p[0] = 1; }
