# tests/package/stub_checks.cmake: what zephyr_stub.cmake and idf_stub.cmake check of the library a package's CMake
# asks for (the paths its stubbed functions received).

# The sources: at least one, each an existing .cpp of lib/, none of a SIMD set (x86_*, arm_neon*, arm_mve*), and
# every .cpp the CMake build of any target compiles besides those (lib/dispatch.cpp, lib/fixed.cpp,
# lib/kernels/q15/*.cpp and the plain C++ sets' files, as cmake/SarnnArch.cmake names them).
function(stub_check_sources sources)
  if(NOT sources)
    message(FATAL_ERROR "no sources")
  endif()
  set(_names "")
  foreach(_s IN LISTS sources)
    if(NOT IS_ABSOLUTE ${_s} OR NOT EXISTS ${_s} OR NOT _s MATCHES "/lib/(kernels/(q15/)?)?[^/]+[.]cpp$")
      message(FATAL_ERROR "source ${_s}: not an existing .cpp of lib/ (by its absolute path)")
    endif()
    if(_s MATCHES "/(x86_|arm_neon|arm_mve)[^/]*$")
      message(FATAL_ERROR "source ${_s}: a SIMD set's file, which the packages leave out")
    endif()
    get_filename_component(_n ${_s} NAME_WE)
    list(APPEND _names ${_n})
  endforeach()
  file(STRINGS ${SARNN}/cmake/SarnnArch.cmake _sets REGEX "^sarnn_kernel_set\\(.* TARGETS (any|portable|hard_float)")
  set(_want dispatch fixed affine attention cells)
  foreach(_l IN LISTS _sets)
    string(REGEX REPLACE ".* FILE ([a-z0-9_]+) .*" "\\1" _f "${_l}")
    list(APPEND _want ${_f})
  endforeach()
  foreach(_w IN LISTS _want)
    if(NOT _w IN_LIST _names)
      message(FATAL_ERROR "sources: no ${_w}.cpp (${sources})")
    endif()
  endforeach()
endfunction()

# The user's include path: sarnn/sarnn.hpp and the packages' sarnn/config.hpp found there, and the kernel headers
# that lib/'s sources include (include/sarnn/kernels/).
function(stub_check_public_includes dirs)
  foreach(_h IN ITEMS sarnn/sarnn.hpp sarnn/config.hpp sarnn/kernels/generic/define_set.hpp sarnn/kernels/q15/seam.hpp)
    set(_found OFF)
    foreach(_d IN LISTS dirs)
      if(EXISTS ${_d}/${_h})
        set(_found ON)
      endif()
    endforeach()
    if(NOT _found)
      message(FATAL_ERROR "include folders '${dirs}': no ${_h}")
    endif()
  endforeach()
endfunction()

# The library's own: none (lib/ holds only translation units; the headers they include are all under include/).
function(stub_check_private_includes dirs)
  if(dirs)
    message(FATAL_ERROR "library include folders '${dirs}': expected none (lib/'s sources include only include/)")
  endif()
endfunction()
