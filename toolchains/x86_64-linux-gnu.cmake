# Toolchain file: 64-bit x86 Linux, for users on ARM (or other) hosts building for x86-64.
# sarnn's kernels: SSE2, AVX2+FMA and AVX-512, chosen at run time from CPUID. Needs g++-x86-64-linux-gnu
# (Debian/Ubuntu; on an x86-64 host the native x86_64-linux-gnu-g++ serves); runs under qemu-x86_64.
#   cmake -S . -B build/x86_64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/x86_64-linux-gnu.cmake
# Variables a user may set: see linux-cross.cmake next to this file.
set(_sarnn_tc_triple x86_64-linux-gnu)
set(_sarnn_tc_processor x86_64)
set(_sarnn_tc_qemu qemu-x86_64)
set(_sarnn_tc_flags "")
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
