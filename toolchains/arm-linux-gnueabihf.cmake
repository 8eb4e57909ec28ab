# Toolchain file: 32-bit ARM Linux, hard float (ARMv7-A Cortex-A7/A9/A15..., Raspberry Pi 2+ with a 32-bit OS).
# sarnn's kernels: NEON (float; double uses the scalar set, ARMv7 NEON has no double lanes).
# -mfpu=neon is required: Debian's armhf default FPU is vfpv3-d16, which has no NEON (xsimd would find no
# arch). Needs g++-arm-linux-gnueabihf; target programs run under qemu-arm.
#   cmake -S . -B build/armhf -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/arm-linux-gnueabihf.cmake
# Variables a user may set: see linux-cross.cmake next to this file.
set(_sarnn_tc_triple arm-linux-gnueabihf)
set(_sarnn_tc_processor armv7l)
set(_sarnn_tc_qemu qemu-arm)
set(_sarnn_tc_flags "-mfpu=neon")
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
