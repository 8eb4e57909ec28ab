# cmake/SarnnXsimd.cmake: finds xsimd for the SIMD kernel sets, in the versions sarnn is written for.
#
# include/sarnn/kernels/simd/xsimd_fixes.hpp, madd.hpp and float_math.hpp work around bugs and slow spots of xsimd 8.1
# (Debian 12's libxsimd-dev, 8.1.0): haddp's lane order on AVX-512, double exp's undefined int64 conversion, float exp's
# early overflow, NaN through tanh. Another series may have fixed those, changed the API the kernels use, or brought bugs
# of its own, none of which the tests have seen: outside [8.1, 9) configuring stops with a message, unless
# SARNN_XSIMD_UNTESTED=ON makes it a warning. xsimd is needed at build time only (a header library, used inside
# lib/kernels/*.cpp through include/sarnn/kernels/simd/): users of an installed sarnn never need it.
set(SARNN_XSIMD_MIN 8.1)
set(SARNN_XSIMD_BELOW 9)
option(SARNN_XSIMD_UNTESTED "Build the SIMD sets on an xsimd outside the versions sarnn is tested with (a warning, not an error)" OFF)

find_package(xsimd QUIET)
if(NOT xsimd_FOUND)
  message(FATAL_ERROR "sarnn: xsimd not found. The SIMD kernel sets of this target are written on xsimd "
    "${SARNN_XSIMD_MIN}.x (Debian 12: apt-get install libxsimd-dev; elsewhere set xsimd_DIR or CMAKE_PREFIX_PATH to an "
    "install of it), or configure with -DSARNN_KERNELS=scalar for the plain C++ sets alone (no xsimd).")
endif()
if(xsimd_VERSION VERSION_LESS SARNN_XSIMD_MIN OR NOT xsimd_VERSION VERSION_LESS SARNN_XSIMD_BELOW)
  string(CONCAT _msg "sarnn: xsimd ${xsimd_VERSION} found (${xsimd_DIR}); sarnn's SIMD kernels are written and tested for "
    "xsimd ${SARNN_XSIMD_MIN} <= version < ${SARNN_XSIMD_BELOW} (include/sarnn/kernels/simd/xsimd_fixes.hpp works "
    "around that series' bugs). Point xsimd_DIR at an xsimd 8.1 install, or configure with -DSARNN_KERNELS=scalar for "
    "the plain C++ sets alone")
  if(SARNN_XSIMD_UNTESTED)
    message(WARNING "${_msg}. Going on (SARNN_XSIMD_UNTESTED=ON): run the test suite on this build.")
  else()
    message(FATAL_ERROR "${_msg}, or with -DSARNN_XSIMD_UNTESTED=ON to try this version anyway.")
  endif()
endif()
# Debian's xsimd 8.1 config links a non-existent "xtl" library; xsimd needs nothing to link.
set_target_properties(xsimd PROPERTIES INTERFACE_LINK_LIBRARIES "")
