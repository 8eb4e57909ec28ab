# Toolchain file: bare-metal Cortex-M7 with a double-precision FPU (ARMv7E-M, fpv5-d16, hard-float ABI),
# arm-none-eabi-g++ with picolibc. sarnn's kernels: the cortex-m set (float in hardware; double, on the scalar set's code, in hardware too). Programs
# run under `qemu-system-arm -M mps2-an500` (an Arm MPS2 board with a Cortex-M7: 4 MiB at 0x0 and at
# 0x20000000). For an M7 with the single-precision FPU only, use -mfpu=fpv5-sp-d16.
#   cmake -S . -B build/cortex-m7 -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/cortex-m7.cmake
# Memory map, start-up and I/O for a real part: see cortex-m.cmake next to this file.
set(_sarnn_tc_cpu_flags "-mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16")
set(_sarnn_tc_qemu_machine mps2-an500)
set(_sarnn_tc_flash_size 0x400000)
set(_sarnn_tc_ram_size 0x400000)
include(${CMAKE_CURRENT_LIST_DIR}/cortex-m.cmake)
