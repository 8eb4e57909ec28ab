# Toolchain file: bare-metal Cortex-M4F (ARMv7E-M, single-precision FPU fpv4-sp-d16, hard-float ABI),
# arm-none-eabi-g++ with picolibc. sarnn's kernels: the cortex-m set (float in FPU registers; double, on the
# scalar set's code, is emulated in software). Programs run under `qemu-system-arm -M mps2-an386` (an Arm MPS2 board with a
# Cortex-M4F: 4 MiB at 0x0, 4 MiB at 0x20000000).
#   cmake -S . -B build/cortex-m4 -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/cortex-m4.cmake
# Memory map, start-up and I/O for a real part: see cortex-m.cmake next to this file.
set(_sarnn_tc_cpu_flags "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
set(_sarnn_tc_qemu_machine mps2-an386)
set(_sarnn_tc_flash_size 0x400000)
set(_sarnn_tc_ram_size 0x400000)
include(${CMAKE_CURRENT_LIST_DIR}/cortex-m.cmake)
