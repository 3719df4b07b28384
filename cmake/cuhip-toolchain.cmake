# cuhip's CMake toolchain file: builds an unmodified CUDA project
# (`project(x LANGUAGES CXX CUDA)`) with `cuhip nvcc`.
#
#   cmake -S app -B build -DCMAKE_TOOLCHAIN_FILE=<cuhip>/lib/cmake/cuhip/cuhip-toolchain.cmake
#         [-DCUHIP_BACKEND=amd|cpu] [-DCMAKE_CUDA_ARCHITECTURES=90;89]
#         [-DCUHIP_AMDGPU_ARCH=gfx90a;gfx1100]
#
# CUHIP_BACKEND=amd (the default) builds for AMD GPUs: CUDA sources are
# translated to HIP and compiled by Clang, and the CUDA runtime libraries the
# project links (CUDA::cudart, -lcudart_static) are HIP's. CUHIP_BACKEND=cpu
# builds PTX fatbins linked against cuhip's libcudart; run the result with
# `cuhip run -- ./app`. CMAKE_CUDA_ARCHITECTURES is mapped onto AMD targets
# by the table in docs/nvcc.md; CUHIP_AMDGPU_ARCH names them directly.
#
# The file works where it is installed (<prefix>/lib/cmake/cuhip), from a
# build tree's lib/cmake/cuhip, and from the source tree's cmake/ (then the
# build tree is ../build, or CUHIP_ROOT).

# Toolchain files run again for every try_compile: keep this idempotent and
# pass the settings on to those runs.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
  CUHIP_ROOT CUHIP_BACKEND CUHIP_AMDGPU_ARCH)

if(NOT CUHIP_ROOT AND DEFINED ENV{CUHIP_ROOT})
  set(CUHIP_ROOT "$ENV{CUHIP_ROOT}")
endif()
if(NOT CUHIP_ROOT)
  foreach(candidate "${CMAKE_CURRENT_LIST_DIR}/../../.." "${CMAKE_CURRENT_LIST_DIR}/../build")
    get_filename_component(candidate "${candidate}" ABSOLUTE)
    if(EXISTS "${candidate}/bin/cuhip" AND EXISTS "${candidate}/lib/cuhip")
      set(CUHIP_ROOT "${candidate}")
      break()
    endif()
  endforeach()
endif()
if(NOT CUHIP_ROOT OR NOT EXISTS "${CUHIP_ROOT}/bin/cuhip")
  message(FATAL_ERROR
    "cuhip-toolchain.cmake: cannot find cuhip (looked for bin/cuhip three "
    "directories above ${CMAKE_CURRENT_LIST_DIR} and in ../build). Build or "
    "install cuhip, or pass -DCUHIP_ROOT=<its build or install directory>.")
endif()
set(CUHIP_ROOT "${CUHIP_ROOT}" CACHE PATH "cuhip's build or install directory")

if(NOT CUHIP_BACKEND)
  if(DEFINED ENV{CUHIP_NVCC_BACKEND})
    set(CUHIP_BACKEND "$ENV{CUHIP_NVCC_BACKEND}")
  else()
    set(CUHIP_BACKEND amd)
  endif()
endif()
if(NOT CUHIP_BACKEND MATCHES "^(amd|cpu)$")
  message(FATAL_ERROR "CUHIP_BACKEND is '${CUHIP_BACKEND}'; use amd or cpu")
endif()
set(CUHIP_BACKEND "${CUHIP_BACKEND}" CACHE STRING
  "cuhip nvcc mode: amd (HIP for AMD GPUs) or cpu (cuhip's runtime)")

set(_cuhip_facade "${CUHIP_ROOT}/lib/cuhip/cuda-${CUHIP_BACKEND}")
if(NOT EXISTS "${_cuhip_facade}/bin/nvcc")
  message(FATAL_ERROR "cuhip-toolchain.cmake: ${_cuhip_facade}/bin/nvcc is "
    "missing; rebuild cuhip (it is generated when cuhip is configured)")
endif()

# The CUDA compiler is cuhip nvcc for the mode; CMake identifies it as nvcc
# (its --version and -v output) and takes the toolkit root, include and
# library directories from it. FindCUDAToolkit then finds the mode's
# libraries there.
set(CMAKE_CUDA_COMPILER "${_cuhip_facade}/bin/nvcc")
set(CUDAToolkit_ROOT "${_cuhip_facade}")
if(CUHIP_AMDGPU_ARCH)
  set(CUHIP_AMDGPU_ARCH "${CUHIP_AMDGPU_ARCH}" CACHE STRING
    "AMD targets; overrides CMAKE_CUDA_ARCHITECTURES")
  string(REPLACE ";" "," _cuhip_archs "${CUHIP_AMDGPU_ARCH}")
  string(APPEND CMAKE_CUDA_FLAGS_INIT " --amdgpu-arch=${_cuhip_archs}")
endif()
# AMD mode compiles host code with Clang, whatever -ccbin says; CPU mode
# passes CMAKE_CUDA_HOST_COMPILER to the toolkit's nvcc as usual.

# Programs find cuhip's libraries (CPU mode's libcudart, and in AMD mode the
# one host C++ files calling the CUDA runtime use) without LD_LIBRARY_PATH.
list(APPEND CMAKE_BUILD_RPATH "${CUHIP_ROOT}/lib")
