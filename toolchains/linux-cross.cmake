# toolchains/linux-cross.cmake: the part shared by the Linux cross toolchain files (aarch64-linux-gnu.cmake,
# arm-linux-gnueabihf.cmake, i686-linux-gnu.cmake, x86_64-linux-gnu.cmake). Not a toolchain file by itself:
# each of those sets the variables below and includes it.
#
#   _sarnn_tc_triple      GNU triple of the cross compiler (aarch64-linux-gnu, ...)
#   _sarnn_tc_processor   CMAKE_SYSTEM_PROCESSOR (what `uname -m` says on the target)
#   _sarnn_tc_qemu        qemu-user binary that runs target programs on this host
#   _sarnn_tc_flags       compile flags every target object needs (e.g. -mfpu=neon)
#
# Written for Debian/Ubuntu's cross packages (g++-<triple>, qemu-user): the target's libc and libstdc++ live
# under /usr/<triple>, host header-only packages (xsimd, Catch2, Eigen) under /usr. Cache variables a user
# may set (-D) before the first configure:
#   CROSS_TARGET_ROOT             target root searched by find_*() (default /usr/<triple>, or / for the host arch)
#   CMAKE_CROSSCOMPILING_EMULATOR how to run target programs (default: <qemu> -L <root>)
#   SARNN_BENCH_SYSROOT           an extra target root, e.g. Google Benchmark extracted by scripts/cross-bench-sysroot
#   xsimd_DIR, Catch2_DIR, Eigen3_DIR   host configs of header-only packages (found below when not given)

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${_sarnn_tc_processor})
set(CMAKE_C_COMPILER ${_sarnn_tc_triple}-gcc)
set(CMAKE_CXX_COMPILER ${_sarnn_tc_triple}-g++)
set(CMAKE_C_FLAGS_INIT "${_sarnn_tc_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_sarnn_tc_flags}")

# The target root: Debian's cross toolchains keep it in /usr/<triple>. When the host already is that arch
# (x86_64-linux-gnu-g++ on an x86-64 machine), the host's own / is the target root.
if(NOT DEFINED CROSS_TARGET_ROOT)
  if(EXISTS /usr/${_sarnn_tc_triple}/lib)
    set(CROSS_TARGET_ROOT /usr/${_sarnn_tc_triple} CACHE PATH "Target root searched by find_*()")
  else()
    set(CROSS_TARGET_ROOT / CACHE PATH "Target root searched by find_*()")
  endif()
endif()
set(CMAKE_FIND_ROOT_PATH ${CROSS_TARGET_ROOT})
if(SARNN_BENCH_SYSROOT AND EXISTS "${SARNN_BENCH_SYSROOT}")
  list(APPEND CMAKE_FIND_ROOT_PATH "${SARNN_BENCH_SYSROOT}")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)   # build tools run on the host
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)    # libraries and headers only from the target root(s)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest, add_custom_command(COMMAND <target>) and catch_discover_tests() run target programs through qemu-user
# (binfmt_misc is not needed). -L makes qemu load the target's dynamic loader and libraries from the root.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${_sarnn_tc_qemu} -L ${CROSS_TARGET_ROOT})
endif()

# Header-only packages installed for the host serve every target. Their configs sit outside the target root
# (and, for xsimd, in the host's multiarch dir), so find_package() in mode ONLY needs <Pkg>_DIR.
function(_sarnn_tc_host_package pkg)
  if(DEFINED ${pkg}_DIR)
    return()
  endif()
  string(TOLOWER ${pkg} _lower)
  foreach(_dir IN ITEMS /usr/lib/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu/cmake/${pkg} /usr/lib/cmake/${pkg}
                        /usr/share/${_lower}/cmake /usr/share/cmake/${pkg} /usr/local/lib/cmake/${pkg}
                        /usr/local/share/cmake/${pkg} /usr/local/share/${_lower}/cmake)
    if(EXISTS ${_dir}/${pkg}Config.cmake OR EXISTS ${_dir}/${_lower}-config.cmake)
      set(${pkg}_DIR ${_dir} CACHE PATH "Host config of the header-only package ${pkg}")
      return()
    endif()
  endforeach()
endfunction()
_sarnn_tc_host_package(xsimd)
_sarnn_tc_host_package(Catch2)
_sarnn_tc_host_package(Eigen3)
