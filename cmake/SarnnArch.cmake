# The kernel sets: the one list of them, and which ones lib/ holds for the target.
#
# Each sarnn_kernel_set() line below is a set: its id (sarnn::Arch::<id>), its C++ type (sarnn::kernel::<Type>),
# its name (sarnn::arch_name), its source file lib/kernels/<FILE>.cpp (which defines the set and nothing
# else), the targets that build it, its compile flags, its vector width in bytes, and (DOUBLE) which set's
# arithmetic it uses for double when its arch has no double lanes. Plainest first: where the CPU runs several,
# the later is preferred. Adding a set is its file plus one line here; the enum, the names, the declarations,
# the run-time table and the preference order are generated from this list (include/sarnn/config.hpp.in).
#
# Outputs:
#   SARNN_SETS                the ids of the sets lib/ holds, plainest first (scalar always)
#   SARNN_SET_<ID>_FILE       lib/kernels/<file>.cpp of that set; SARNN_SET_<ID>_FLAGS its compile flags
#   SARNN_VECTOR_BYTES        padding/alignment of model storage (the widest set's vector; 0 scalar only)
#   SARNN_NEEDS_XSIMD         ON when a set lib/ holds is written on xsimd (every SIMD set but those marked OWN)
#   SARNN_RUNTIME_DISPATCH    ON when the set is chosen at run time (x86-64)
#   SARNN_DEFAULT_SET         the C++ type models use by default: Dispatch (run-time choice) or one set
#   SARNN_ARCHES_X, SARNN_SETS_X   the X-macro bodies for config.hpp
include(CheckCXXSourceCompiles)

function(_sarnn_target_has macro out)
  check_cxx_source_compiles("#ifndef ${macro}\n#error no\n#endif\nint main() { return 0; }" ${out})
endfunction()

# The target, as the TARGETS of the list name it.
# any: every target; portable: every target unless SARNN_KERNELS=scalar (plain C++ sets besides the scalar one);
# hard_float: those of them with float arithmetic in hardware (all but ARM built for soft float: the M0/M0+)
set(_sarnn_targets any)
if(NOT SARNN_KERNELS STREQUAL "scalar")
  list(APPEND _sarnn_targets portable)
  _sarnn_target_has(__arm__ SARNN_TARGET_ARM32)
  _sarnn_target_has(__ARM_FP SARNN_TARGET_ARM_FP)
  if(NOT SARNN_TARGET_ARM32 OR SARNN_TARGET_ARM_FP)
    list(APPEND _sarnn_targets hard_float)
  endif()
  _sarnn_target_has(__x86_64__ SARNN_TARGET_X86_64)
  _sarnn_target_has(__i386__ SARNN_TARGET_I386)
  _sarnn_target_has(__aarch64__ SARNN_TARGET_AARCH64)
  _sarnn_target_has(__ARM_NEON SARNN_TARGET_NEON)
  _sarnn_target_has(__SSE2__ SARNN_TARGET_SSE2)
  # Helium with float lanes (MVE-F: __ARM_FEATURE_MVE bit 1): Cortex-M55, M85
  check_cxx_source_compiles("#if !defined(__ARM_FEATURE_MVE) || !(__ARM_FEATURE_MVE & 2)\n#error no\n#endif\nint main() { return 0; }"
                            SARNN_TARGET_MVE_FLOAT)
  if(SARNN_TARGET_X86_64)
    list(APPEND _sarnn_targets x86_64)
  elseif(SARNN_TARGET_I386)
    if(NOT SARNN_TARGET_SSE2)
      message(FATAL_ERROR "sarnn: i686 needs -msse2 -mfpmath=sse (see toolchains/i686-linux-gnu.cmake), "
                          "or -DSARNN_KERNELS=scalar")
    endif()
    list(APPEND _sarnn_targets i386)
  elseif(SARNN_TARGET_AARCH64)
    list(APPEND _sarnn_targets aarch64)
  elseif(SARNN_TARGET_NEON)
    list(APPEND _sarnn_targets arm_neon)
  elseif(SARNN_TARGET_MVE_FLOAT)
    list(APPEND _sarnn_targets mve)
  endif()
endif()

set(SARNN_SETS "")
set(SARNN_VECTOR_BYTES 0)
set(SARNN_NEEDS_XSIMD OFF)
set(SARNN_ARCHES_X "")
set(SARNN_SETS_X "")

# sarnn_kernel_set(<id> TYPE <Type> FILE <file> TARGETS <target>... [NAME <name>] [FLAGS <flag>...] [VECTOR <bytes>]
#                  [DOUBLE <id>] [OWN])      OWN: a SIMD set on its own intrinsics, not on xsimd
macro(sarnn_kernel_set id)
  cmake_parse_arguments(_ks "OWN" "TYPE;FILE;NAME;VECTOR;DOUBLE" "TARGETS;FLAGS" ${ARGN})
  if(NOT _ks_NAME)
    set(_ks_NAME ${id})
  endif()
  if(NOT _ks_DOUBLE)
    set(_ks_DOUBLE ${id})
  endif()
  if(NOT _ks_VECTOR)
    set(_ks_VECTOR 0)
  endif()
  string(APPEND SARNN_ARCHES_X " X(${id}, \"${_ks_NAME}\")")
  set(_ks_here OFF)
  foreach(_t IN LISTS _ks_TARGETS)
    if(_t IN_LIST _sarnn_targets)
      set(_ks_here ON)
    endif()
  endforeach()
  if(_ks_here)
    list(APPEND SARNN_SETS ${id})
    set(SARNN_SET_${id}_FILE ${_ks_FILE})
    set(SARNN_SET_${id}_FLAGS ${_ks_FLAGS})
    set(SARNN_SET_${id}_VECTOR ${_ks_VECTOR})
    set(SARNN_DEFAULT_SET ${_ks_TYPE})
    string(APPEND SARNN_SETS_X " X(${id}, ${_ks_TYPE}, ${_ks_DOUBLE})")
    if(_ks_VECTOR GREATER 0 AND NOT _ks_OWN)
      set(SARNN_NEEDS_XSIMD ON)
    endif()
    if(_ks_VECTOR GREATER SARNN_VECTOR_BYTES)
      set(SARNN_VECTOR_BYTES ${_ks_VECTOR})
    endif()
  endif()
endmacro()

# GCC 12 warns about its own avx512fintrin.h (false -Wmaybe-uninitialized); the code is ours, not the warning's.
set(_sarnn_avx512_quiet "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(_sarnn_avx512_quiet -Wno-maybe-uninitialized -Wno-uninitialized)
endif()

# ---- the list --------------------------------------------------------------------------------------------
sarnn_kernel_set(scalar TYPE Scalar FILE scalar TARGETS any)
# plain C++ tuned for in-order cores without SIMD (include/sarnn/kernels/cortex_m/set.hpp), built everywhere so that
# every host tests them (on x86 and ARM Linux the SIMD sets below are preferred); double runs the scalar set's code.
# cortex_m0: sums of products in integers, the default without an FPU (M0, M0+); cortex_m: the FPU's (M4F, M7)
sarnn_kernel_set(cortex_m0 TYPE CortexM0 FILE cortex_m0 TARGETS portable NAME "cortex-m0" DOUBLE scalar)
sarnn_kernel_set(cortex_m TYPE CortexM FILE cortex_m TARGETS hard_float NAME "cortex-m" DOUBLE scalar)
sarnn_kernel_set(sse2 TYPE Sse2 FILE x86_sse2 TARGETS x86_64 i386 FLAGS -msse2 VECTOR 16)
sarnn_kernel_set(avx2_fma TYPE Avx2Fma FILE x86_avx2_fma TARGETS x86_64 NAME "avx2+fma" FLAGS -mavx2 -mfma VECTOR 32)
# xsimd 8.1's avx512f haddp uses AVX-512DQ instructions
sarnn_kernel_set(avx512 TYPE Avx512 FILE x86_avx512 TARGETS x86_64
                 FLAGS -mavx512f -mavx512dq -mfma ${_sarnn_avx512_quiet} VECTOR 64)
# ARMv7 NEON has no double lanes: double runs the scalar set's code
sarnn_kernel_set(neon TYPE Neon FILE arm_neon TARGETS arm_neon VECTOR 16 DOUBLE scalar)
sarnn_kernel_set(neon64 TYPE Neon64 FILE arm_neon64 TARGETS aarch64 VECTOR 16)
# Helium (MVE float: Cortex-M55, M85), after cortex_m so that it is the default there; no double lanes; on
# <arm_mve.h> (xsimd 8.1 has no MVE)
sarnn_kernel_set(mve TYPE Mve FILE arm_mve TARGETS mve VECTOR 16 DOUBLE scalar OWN)
# ---- end of the list -------------------------------------------------------------------------------------

set(SARNN_RUNTIME_DISPATCH OFF)
if("x86_64" IN_LIST _sarnn_targets)
  # one binary for every x86-64: the best set the CPU runs, chosen on first use
  set(SARNN_RUNTIME_DISPATCH ON)
  set(SARNN_DEFAULT_SET Dispatch)
endif()

# sarnn_switches_sets(<target>): the target's models default to sarnn::kernel::Dispatch on every target, so that
# set_arch() runs them on each set in turn (the tests, benchmarks, fuzz targets and tools that compare the sets
# side by side). Firmware and user code keep the build's default (SARNN_DEFAULT_SET).
function(sarnn_switches_sets target)
  target_compile_definitions(${target} PRIVATE SARNN_DEFAULT_SET=sarnn::kernel::Dispatch)
endfunction()
