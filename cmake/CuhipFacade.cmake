# The CUDA-toolkit-shaped directories `cuhip nvcc` reports as its toolkit
# root (`nvcc -v` prints `#$ TOP=...`), one per mode:
#   lib/cuhip/cuda-amd   AMD mode: the CUDA runtime libraries are HIP's
#   lib/cuhip/cuda-cpu   CPU mode: they are cuhip's own
# CMake's compiler identification and FindCUDAToolkit take the include and
# library directories from there, so an unmodified project's CUDA::cudart,
# -lcudart_static and -lcudadevrt link what the mode needs. Each holds
#   bin/nvcc            a script running `cuhip nvcc --cuhip-backend=MODE`
#   include             the CUDA toolkit's headers (a link)
#   nvvm/libdevice      present because CMake checks the layout
#   lib64/              libcudart.so, libcudart_static.a, libcuda.so,
#                       libcudadevrt.a (linker scripts, links, empty archive)
# The links are relative, so the tree works in the build directory and
# after `cmake --install`.

find_library(CUHIP_AMDHIP64_LIBRARY amdhip64
  HINTS /opt/rocm/lib ENV ROCM_PATH PATH_SUFFIXES lib)

function(cuhip_write_facade mode)
  set(root ${CMAKE_BINARY_DIR}/lib/cuhip/cuda-${mode})
  file(MAKE_DIRECTORY ${root}/bin ${root}/lib64 ${root}/nvvm/libdevice)
  file(WRITE ${root}/cuhip-facade.txt
    "cuhip nvcc's toolkit directory for ${mode} mode; see docs/nvcc.md.\n"
    "The CUDA toolkit whose headers it uses: ${CUHIP_CUDA_PATH}\n")
  file(WRITE ${root}/bin/nvcc.tmp
    "#!/bin/sh\n"
    "# nvcc for CMake and Makefiles: cuhip nvcc in ${mode} mode (docs/nvcc.md).\n"
    "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
    "exec \"$here/../../../../bin/cuhip\" nvcc --cuhip-backend=${mode} \"$@\"\n")
  file(COPY_FILE ${root}/bin/nvcc.tmp ${root}/bin/nvcc ONLY_IF_DIFFERENT)
  file(REMOVE ${root}/bin/nvcc.tmp)
  file(CHMOD ${root}/bin/nvcc PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
    GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  if(EXISTS ${CUHIP_CUDA_PATH}/include/cuda_runtime.h)
    file(CREATE_LINK ${CUHIP_CUDA_PATH}/include ${root}/include SYMBOLIC)
  endif()
  # An archive with no members: -lcudadevrt resolves and adds nothing.
  file(WRITE ${root}/lib64/libcudadevrt.a "!<arch>\n")
  if(mode STREQUAL "cpu")
    file(CREATE_LINK ../../../libcudart.so.13 ${root}/lib64/libcudart.so SYMBOLIC)
    file(CREATE_LINK ../../../libcudart.so.13 ${root}/lib64/libcudart.so.13 SYMBOLIC)
    file(CREATE_LINK ../../../libcudart.so.12 ${root}/lib64/libcudart.so.12 SYMBOLIC)
    file(CREATE_LINK ../../../libcuda.so.1 ${root}/lib64/libcuda.so SYMBOLIC)
    file(CREATE_LINK ../../../libcuda.so.1 ${root}/lib64/libcuda.so.1 SYMBOLIC)
    # cuhip's cuBLAS and cuBLASLt (present once they are built).
    file(CREATE_LINK ../../../libcublas.so.13 ${root}/lib64/libcublas.so SYMBOLIC)
    file(CREATE_LINK ../../../libcublasLt.so.13 ${root}/lib64/libcublasLt.so SYMBOLIC)
    file(CREATE_LINK ../../../libcufft.so.12 ${root}/lib64/libcufft.so SYMBOLIC)
    # There is no static cuhip runtime: the static name links the shared one.
    file(WRITE ${root}/lib64/libcudart_static.a
      "/* cuhip: the CUDA runtime is cuhip's shared libcudart */\nINPUT(-lcudart)\n")
  else()
    # Translated code needs only HIP. Host C++ files that call the CUDA
    # runtime themselves (compiled by the C++ compiler, not cuhip nvcc) get
    # cuhip's libraries, which run on cuhip's HIP backend over the same
    # libamdhip64; AS_NEEDED keeps them out of programs that do not.
    if(CUHIP_AMDHIP64_LIBRARY)
      set(hip "${CUHIP_AMDHIP64_LIBRARY}")
    else()
      set(hip "-lamdhip64")
    endif()
    # Absolute paths: the install step rewrites them for the prefix.
    set(libdir "${CMAKE_BINARY_DIR}/lib")
    foreach(pair "libcudart.so:libcudart.so.13" "libcudart_static.a:libcudart.so.13"
                 "libcuda.so:libcuda.so.1")
      string(REPLACE ":" ";" pair "${pair}")
      list(GET pair 0 name)
      list(GET pair 1 cuhip_lib)
      file(WRITE ${root}/lib64/${name}
        "/* cuhip AMD mode: CUDA's runtime is HIP's (docs/nvcc.md) */\n"
        "INPUT(AS_NEEDED(${libdir}/${cuhip_lib}) ${hip})\n")
    endforeach()
    # The math libraries translate to their HIP counterparts.
    file(WRITE ${root}/lib64/libcublas.so
      "/* cuhip AMD mode: cuBLAS calls are translated to hipBLAS */\nINPUT(-lhipblas)\n")
    file(WRITE ${root}/lib64/libcublasLt.so
      "/* cuhip AMD mode: cuBLASLt calls are translated to hipBLASLt */\nINPUT(-lhipblaslt)\n")
    file(WRITE ${root}/lib64/libcufft.so
      "/* cuhip AMD mode: cuFFT calls are translated to hipFFT */\nINPUT(-lhipfft)\n")
  endif()
endfunction()

cuhip_write_facade(amd)
cuhip_write_facade(cpu)
