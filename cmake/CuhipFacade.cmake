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
    # There is no static cuhip runtime: the static name links the shared one.
    file(WRITE ${root}/lib64/libcudart_static.a
      "/* cuhip: the CUDA runtime is cuhip's shared libcudart */\nINPUT(-lcudart)\n")
  else()
    if(CUHIP_AMDHIP64_LIBRARY)
      set(hip "INPUT(${CUHIP_AMDHIP64_LIBRARY})")
    else()
      set(hip "INPUT(-lamdhip64)")
    endif()
    foreach(lib libcudart.so libcudart_static.a libcuda.so)
      file(WRITE ${root}/lib64/${lib}
        "/* cuhip AMD mode: CUDA's runtime is HIP's */\n${hip}\n")
    endforeach()
  endif()
endfunction()

cuhip_write_facade(amd)
cuhip_write_facade(cpu)
