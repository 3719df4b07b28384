// CPU mode with Clang as the device compiler: PTX per virtual architecture,
// a fatbin cuhip writes around them, and the host compile that embeds it.
// RUN: %cuhip nvcc --cuhip-backend=cpu --cuhip-device-compiler=clang --dryrun \
// RUN:   -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=compute_80 \
// RUN:   -O2 -I/inc -DFOO=1 -c %s -o /out/k.o 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE:      {{^}}#$ {{[^ ]*}}clang++{{[^ ]*}} -x cuda --cuda-path={{[^ ]+}} -Wno-unknown-cuda-version {{"?}}-I/inc{{"?}} -isystem {{[^ ]+}}/include/cccl -DFOO=1 -std=c++17 -O2 --cuda-device-only --cuda-gpu-arch=sm_75 -S -o [[PTX75:[^ ]+\.sm_75\.ptx]] {{[^ ]*}}cpu-dryrun-clang.cu{{$}}
// COMPILE-NEXT: {{^}}#$ {{[^ ]*}}clang++{{.*}} --cuda-device-only --cuda-gpu-arch=sm_80 -S -o [[PTX80:[^ ]+\.sm_80\.ptx]] {{[^ ]*}}cpu-dryrun-clang.cu{{$}}
// COMPILE-NEXT: {{^}}#$ cuhip-fatbin --create=[[FATBIN:[^ ]+\.fatbin]] --image=sm=75,file=[[PTX75]] --image=sm=80,file=[[PTX80]]{{$}}
// COMPILE-NEXT: {{^}}#$ {{[^ ]*}}clang++{{.*}} -std=c++17 -O2 --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang [[FATBIN]] -c -o /out/k.o {{[^ ]*}}cpu-dryrun-clang.cu{{$}}

// Linking: cuhip's shared runtime, with an rpath to it, whatever -cudart
// says; the CUDA runtime's library names are cuhip's.
// RUN: %cuhip nvcc --cuhip-backend=cpu --cuhip-device-compiler=clang --dryrun \
// RUN:   -lcudart_static -lcuda -o /out/prog %s 2>&1 | FileCheck %s --check-prefix=LINK
// LINK:      {{^}}cuhip nvcc: note: -cudart static: cuhip has no static CUDA runtime; the program links cuhip's shared libcudart.so.13{{$}}
// LINK-NEXT: {{^}}#$ {{[^ ]*}}clang++{{[^ ]*}} -o /out/prog [[OBJ:[^ ]+\.o]] {{"?}}-L{{[^ ]+}} -lcuda {{(-lcudart|-l:libcudart.so.13)}} {{"?}}-Wl,-rpath,{{[^ ]+}}{{$}}

// Relocatable device code needs nvcc's device linker.
// RUN: not %cuhip nvcc --cuhip-backend=cpu --cuhip-device-compiler=clang \
// RUN:   -rdc=true -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=RDC
// RDC: {{^}}cuhip nvcc: error: relocatable device code (-rdc=true, -dc, -dlink) needs the CUDA toolkit's nvcc to link device code, and the clang device compiler cannot provide it; install the CUDA toolkit (nvcc at '{{.+}}/bin/nvcc') and use --cuhip-device-compiler=nvcc{{$}}

__global__ void kernel(int *p) { p[0] = 1; }
