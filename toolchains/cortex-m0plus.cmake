# Toolchain file: bare-metal Cortex-M0+ (ARMv6-M, no FPU: soft float), arm-none-eabi-g++ with picolibc.
# sarnn's kernels: the cortex-m0 set (sums of products, exp and tanh in integers; the rest in software float).
# QEMU has no M0+ board; its `-M microbit` (BBC micro:bit, nRF51822: a Cortex-M0, the same ARMv6-M
# instruction set; 256 KiB flash at 0x0, 16 KiB RAM at 0x20000000) runs the programs, so anything beyond
# ARMv6-M would fault there. The defaults below are that board's memory.
#   cmake -S . -B build/cortex-m0plus -G Ninja -DCMAKE_TOOLCHAIN_FILE=<sarnn>/toolchains/cortex-m0plus.cmake
# Memory map, start-up and I/O for a real part: see cortex-m.cmake next to this file.
set(_sarnn_tc_cpu_flags "-mcpu=cortex-m0plus -mthumb -mfloat-abi=soft")
set(_sarnn_tc_qemu_machine microbit)
# bench/mcu counts instructions with SysTick, which the micro:bit lacks: on the MPS2 AN385 (its M3 runs ARMv6-M code)
set(CORTEX_M_BENCH_MACHINE mps2-an385)
set(CORTEX_M_BENCH_ICOUNT_SHIFT 5)  # its longest steps take 11 million instructions: see bench/mcu/CMakeLists.txt
set(_sarnn_tc_flash_size 0x40000)
set(_sarnn_tc_ram_size 0x4000)
include(${CMAKE_CURRENT_LIST_DIR}/cortex-m.cmake)
