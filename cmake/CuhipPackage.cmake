# The CMake package (find_package(cuhip)) and toolchain file, in the build
# tree's lib/cmake/cuhip as they are after installation, and the install
# rules for everything cuhip puts in bin/, lib/ and include/.
include(CMakePackageConfigHelpers)
set(cuhip_cmake_dir ${CMAKE_BINARY_DIR}/lib/cmake/cuhip)
configure_file(${PROJECT_SOURCE_DIR}/cmake/cuhipConfig.cmake.in
  ${cuhip_cmake_dir}/cuhipConfig.cmake @ONLY)
write_basic_package_version_file(${cuhip_cmake_dir}/cuhipConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
configure_file(${PROJECT_SOURCE_DIR}/cmake/cuhip-toolchain.cmake
  ${cuhip_cmake_dir}/cuhip-toolchain.cmake COPYONLY)

# Installed binaries find cuhip's libraries next to themselves.
set_target_properties(cuhip PROPERTIES INSTALL_RPATH "$ORIGIN/../lib"
  INSTALL_RPATH_USE_LINK_PATH ON)
foreach(lib cuhip_core cudart12 cudart13 cuda_driver cuhip_audit)
  set_target_properties(${lib} PROPERTIES INSTALL_RPATH "$ORIGIN"
    INSTALL_RPATH_USE_LINK_PATH ON)
endforeach()
install(TARGETS cuhip RUNTIME DESTINATION bin)
install(TARGETS cuhip_core cudart12 cudart13 cuda_driver cuhip_audit
  LIBRARY DESTINATION lib)
# The cuBLAS and cuBLASLt drop-ins.
set_target_properties(cublas12 cublas13 cublasLt12 cublasLt13 PROPERTIES
  INSTALL_RPATH "$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS cublas12 cublas13 cublasLt12 cublasLt13 LIBRARY DESTINATION lib)
# The cuFFT drop-ins.
set_target_properties(cufft11 cufft12 PROPERTIES
  INSTALL_RPATH "$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS cufft11 cufft12 LIBRARY DESTINATION lib)
# The nvJitLink drop-in.
set_target_properties(nvJitLink13 PROPERTIES
  INSTALL_RPATH "$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS nvJitLink13 LIBRARY DESTINATION lib)
# The NVRTC bridges.
set_target_properties(nvrtc12 nvrtc13 PROPERTIES
  INSTALL_RPATH "$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS nvrtc12 nvrtc13 LIBRARY DESTINATION lib)
install(DIRECTORY ${CMAKE_BINARY_DIR}/lib/cuhip DESTINATION lib
  USE_SOURCE_PERMISSIONS)
install(DIRECTORY ${cuhip_cmake_dir} DESTINATION lib/cmake)
install(DIRECTORY ${CMAKE_BINARY_DIR}/include/cuhip DESTINATION include
  OPTIONAL)
# The AMD toolkit directory's linker scripts name cuhip's libraries by
# absolute path; point the installed copies at the installed libraries.
install(CODE "
  file(GLOB scripts \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/cuhip/cuda-amd/lib64/*\")
  foreach(f \${scripts})
    file(READ \${f} text)
    string(REPLACE \"${CMAKE_BINARY_DIR}/lib/\" \"\${CMAKE_INSTALL_PREFIX}/lib/\" text \"\${text}\")
    file(WRITE \${f} \"\${text}\")
  endforeach()
")
