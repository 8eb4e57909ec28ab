# toolchains/cortex-m.cmake: the part shared by the bare-metal Cortex-M toolchain files (cortex-m4.cmake,
# cortex-m7.cmake, cortex-m0plus.cmake). Not a toolchain file by itself: each of those sets the variables
# below and includes it.
#
#   _sarnn_tc_cpu_flags     -mcpu/-mfloat-abi/-mfpu of the core
#   _sarnn_tc_qemu_machine  the qemu-system-arm board that runs its programs
#   _sarnn_tc_flash_size    _sarnn_tc_ram_size: that board's memory (flash at 0x0, RAM at 0x20000000)
#   _sarnn_tc_ram_origin    optional: the board's RAM, where it is not at 0x20000000
#
# Compiler: Arm's GNU toolchain as packaged by Debian (gcc-arm-none-eabi), C library: picolibc
# (picolibc-arm-none-eabi), linked with its own picolibc.ld, which places flash and RAM from the symbols
# below. sarnn needs nothing else: no xsimd (the library builds its plain C++ sets only), no heap, no
# exceptions. The defaults produce programs for qemu-system-arm with semihosting (stdout and exit status reach
# the host); for a board, set (-D, before the first configure):
#   CORTEX_M_FLASH_ORIGIN, CORTEX_M_FLASH_SIZE, CORTEX_M_RAM_ORIGIN, CORTEX_M_RAM_SIZE   the part's memory map
#   CORTEX_M_CRT0    picolibc start-up: semihost (default: exit() ends qemu with its status), hosted, minimal
#   CORTEX_M_OSLIB   picolibc I/O back end: semihost (default), or empty to provide your own stdout hooks
#   CORTEX_M_CXX_EXCEPTIONS  OFF (default): C++ is compiled with -fno-exceptions -fno-rtti and linked with
#                    picolibc.ld, which discards the unwind tables (the usual firmware setting; sarnn needs
#                    neither). ON: exceptions and RTTI, linked with picolibcpp.specs/picolibcpp.ld, which keep
#                    them (C++ code built with exceptions does not link against picolibc.ld: __exidx_start).
# or give your own linker script (-T in CMAKE_EXE_LINKER_FLAGS), which replaces picolibc's.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# Compiler checks build a static library: linking a test program needs the memory map of a board.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CORTEX_M_FLASH_ORIGIN 0x00000000 CACHE STRING "Flash start address")
set(CORTEX_M_FLASH_SIZE ${_sarnn_tc_flash_size} CACHE STRING "Flash size in bytes")
if(NOT DEFINED _sarnn_tc_ram_origin)
  set(_sarnn_tc_ram_origin 0x20000000)
endif()
set(CORTEX_M_RAM_ORIGIN ${_sarnn_tc_ram_origin} CACHE STRING "RAM start address")
set(CORTEX_M_RAM_SIZE ${_sarnn_tc_ram_size} CACHE STRING "RAM size in bytes")
set(CORTEX_M_CRT0 semihost CACHE STRING "picolibc crt0 variant: semihost, hosted or minimal")
set(CORTEX_M_OSLIB semihost CACHE STRING "picolibc OS library (--oslib=), empty for none")
set(CORTEX_M_CXX_EXCEPTIONS OFF CACHE BOOL "C++ exceptions and RTTI (picolibcpp.ld keeps the unwind tables)")

# Every object: the core, one section per function and per object (so the linker drops what is unused), and
# picolibc's headers and libraries (a specs file must appear once on a link line: it is in the compile
# flags, which CMake also puts on the link line).
set(_sarnn_tc_common "${_sarnn_tc_cpu_flags} -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_sarnn_tc_common} --specs=picolibc.specs")
set(CMAKE_ASM_FLAGS_INIT "${_sarnn_tc_common} --specs=picolibc.specs")
if(CORTEX_M_CXX_EXCEPTIONS)
  set(CMAKE_CXX_FLAGS_INIT "${_sarnn_tc_common} --specs=picolibcpp.specs")
else()
  set(CMAKE_CXX_FLAGS_INIT "${_sarnn_tc_common} --specs=picolibc.specs -fno-exceptions -fno-rtti")
endif()
set(_sarnn_tc_link "-Wl,--gc-sections --crt0=${CORTEX_M_CRT0}")
if(CORTEX_M_OSLIB)
  string(APPEND _sarnn_tc_link " --oslib=${CORTEX_M_OSLIB}")
endif()
string(APPEND _sarnn_tc_link " -Wl,--defsym=__flash=${CORTEX_M_FLASH_ORIGIN} -Wl,--defsym=__flash_size=${CORTEX_M_FLASH_SIZE}"
                             " -Wl,--defsym=__ram=${CORTEX_M_RAM_ORIGIN} -Wl,--defsym=__ram_size=${CORTEX_M_RAM_SIZE}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_sarnn_tc_link}")

# Static code runs at a fixed address: no position-independent code (it only costs a GOT and flash).
set(CMAKE_POSITION_INDEPENDENT_CODE OFF)

set(CMAKE_FIND_ROOT_PATH /usr/lib/picolibc/arm-none-eabi /usr/lib/arm-none-eabi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs target programs on the emulated board: semihosting carries stdout and the exit status.
# -kernel must come last (ctest appends the ELF). A program that never exits hangs qemu: give such tests a TIMEOUT.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-system-arm -M ${_sarnn_tc_qemu_machine} -nographic -monitor none
      -semihosting-config enable=on,target=native -kernel)
endif()
