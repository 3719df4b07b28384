# cuhip_dropin_library(TARGET NAME VERSION MAP SOURCES...)
#
# A shared library that stands in for NVIDIA's lib<NAME>.so.<VERSION>:
# target TARGET, file and soname lib<NAME>.so.<VERSION>, hidden symbols
# except those the version script exports, and no undefined symbols. MAP is
# the version script's template; configure_file replaces @ver@ with VERSION,
# so every export carries the version node that programs linked against the
# toolkit's library of that version import.
function(cuhip_dropin_library tgt name ver map)
  add_library(${tgt} SHARED ${ARGN})
  set(script ${CMAKE_CURRENT_BINARY_DIR}/lib${name}.so.${ver}.map)
  configure_file(${map} ${script} @ONLY)
  set_target_properties(${tgt} PROPERTIES
    OUTPUT_NAME ${name}
    SUFFIX ".so.${ver}"
    NO_SONAME OFF
    CXX_VISIBILITY_PRESET hidden
    LINK_DEPENDS ${script})
  target_link_options(${tgt} PRIVATE
    -Wl,-soname,lib${name}.so.${ver}
    -Wl,--version-script=${script}
    -Wl,--no-undefined)
endfunction()
