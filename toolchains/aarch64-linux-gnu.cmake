# Toolchain file: 64-bit ARM Linux (AArch64, Cortex-A53/A72/..., Raspberry Pi 3/4/5 with a 64-bit OS).
# sarnn's kernels: NEON64 (Advanced SIMD is part of AArch64, no flag needed). Needs g++-aarch64-linux-gnu;
# target programs run under qemu-aarch64.
#   cmake -S . -B build/aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/aarch64-linux-gnu.cmake
# Variables a user may set: see linux-cross.cmake next to this file.
set(_sarnn_tc_triple aarch64-linux-gnu)
set(_sarnn_tc_processor aarch64)
set(_sarnn_tc_qemu qemu-aarch64)
set(_sarnn_tc_flags "")
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
