# Toolchain file: bare-metal Cortex-M55 (ARMv8.1-M Mainline with Helium: MVE integer and float, a single- and
# double-precision FPU, hard-float ABI), arm-none-eabi-g++ with picolibc. sarnn's kernels: the mve set
# (lib/kernels/arm_mve.cpp: four floats per vector, predicated tails) and the q15 loops of q15/mve/ (eight
# int16 per vector). Programs run under `qemu-system-arm -M mps3-an547` (an Arm MPS3 board with the SSE-300
# subsystem and a Cortex-M55: 512 KiB ITCM at 0x0 for the code, 4 MiB SRAM at 0x21000000 for the data).
#   cmake -S . -B build/cortex-m55 -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/cortex-m55.cmake
# Memory map, start-up and I/O for a real part: see cortex-m.cmake next to this file. For an M55 without MVE
# float (MVE-I only) add +nomve.fp to -mcpu (then the cortex-m set runs float, the MVE loops q15); without Helium,
# +nomve (the cortex-m set and q15's plain C++ loops).
set(_sarnn_tc_cpu_flags "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard")
set(_sarnn_tc_qemu_machine mps3-an547)
set(_sarnn_tc_flash_size 0x80000)
set(_sarnn_tc_ram_origin 0x21000000)
set(_sarnn_tc_ram_size 0x400000)
# bench/mcu: the code must stay in the 512 KiB ITCM (the other boards' benchmark links for 4 MiB)
set(CORTEX_M_BENCH_FLASH_SIZE 0x80000)
include(${CMAKE_CURRENT_LIST_DIR}/cortex-m.cmake)
