# Toolchain file: 32-bit x86 Linux with SSE2 (Pentium 4 and later).
# sarnn's kernels: SSE2, fixed at compile time. -msse2 -mfpmath=sse are required: Debian's default is
# -march=i686 (no SSE, xsimd would find no arch) and x87 arithmetic for scalar code, whose 80-bit
# intermediates round differently from every other target. Needs g++-i686-linux-gnu; runs under qemu-i386.
#   cmake -S . -B build/i686 -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/i686-linux-gnu.cmake
# Variables a user may set: see linux-cross.cmake next to this file.
set(_sarnn_tc_triple i686-linux-gnu)
set(_sarnn_tc_processor i686)
set(_sarnn_tc_qemu qemu-i386)
set(_sarnn_tc_flags "-msse2 -mfpmath=sse")
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
