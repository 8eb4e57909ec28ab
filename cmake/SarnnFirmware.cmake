# cmake/SarnnFirmware.cmake: helpers for bare-metal programs that link sarnn (examples/firmware, tests/firmware,
# tools/footprint).
#
#   sarnn_firmware_executable(<target> <sources>...)
#       An ELF (<target>.elf) linked with sarnn, compiled the way firmware is: no exceptions, no RTTI, no
#       thread-safe statics (no __cxa_guard_*), warnings as errors, and -fstack-usage/-fcallgraph-info=su
#       (.su/.ci files next to the objects: they change nothing in the code).
#   sarnn_add_firmware_test(<name> <target> [TIMEOUT <s>])
#       A ctest test that runs the ELF under CMAKE_CROSSCOMPILING_EMULATOR (qemu-system-arm, semihosting)
#       and passes when it exits with 0 and printed "N passed, 0 failed" with N >= 1.
#   sarnn_add_no_heap_check(<name> <target>)
#       A ctest test that fails when `nm -C` of the ELF shows a heap or exception symbol: malloc, free,
#       calloc, realloc, memalign, sbrk (and their _r forms), operator new/delete, __cxa_throw,
#       __cxa_allocate_exception.
#   sarnn_add_no_float_check(<name> <target>)
#       A ctest test that fails when `nm -C` of the ELF shows a soft-float routine (__aeabi_f*, __aeabi_d*, the int
#       to float conversions, __addsf3 and its kin): for programs that must do no float arithmetic (the q15 path).
#   sarnn_add_shape_check(<name> <target> HAS <regex>... LACKS <regex>...)
#       A ctest test that fails unless `nm -C` of the ELF shows a symbol matching each HAS expression and none
#       matching a LACKS one: an image links the code of its own shape only (issue 32).
set(_sarnn_firmware_check ${CMAKE_CURRENT_LIST_DIR}/SarnnFirmwareCheck.cmake)

# sarnn_bench_qemu(<var>): the qemu-system-arm command (a list, up to its -kernel) that counts instructions as
# bench/mcu does: the toolchain file's benchmark board (CORTEX_M_BENCH_MACHINE, else the firmware's) at -icount
# shift CORTEX_M_BENCH_ICOUNT_SHIFT (else 6: 64 ns an instruction, 1.6 SysTick ticks each, exact counts for spans
# up to 10 million instructions). bench/mcu and tools/plan (scripts/plan) run their images with it.
function(sarnn_bench_qemu var)
  set(_shift ${CORTEX_M_BENCH_ICOUNT_SHIFT})
  if(NOT _shift)
    set(_shift 6)
  endif()
  set(_machine ${CORTEX_M_BENCH_MACHINE})
  if(NOT _machine)
    set(_machine ${_sarnn_tc_qemu_machine})
  endif()
  set(${var} qemu-system-arm -M ${_machine} -icount shift=${_shift} -nographic -monitor none
      -semihosting-config enable=on,target=native -kernel PARENT_SCOPE)
endfunction()

function(sarnn_firmware_executable target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE sarnn::sarnn)
  target_compile_options(${target} PRIVATE -fno-exceptions -fno-rtti -fno-threadsafe-statics -fstack-usage
                                           -fcallgraph-info=su)
  sarnn_warnings(${target})
  set_target_properties(${target} PROPERTIES SUFFIX .elf)
endfunction()

function(sarnn_add_firmware_test name target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  # ctest splits arguments at ';': hand the emulator command over with '|' between its words.
  string(REPLACE ";" "|" _emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DMODE=run "-DEMULATOR=${_emulator}" -DELF=$<TARGET_FILE:${target}>
                                -DTIMEOUT=${ARG_TIMEOUT} -P ${_sarnn_firmware_check})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
endfunction()

function(sarnn_add_no_heap_check name target)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DMODE=nm -DNM=${CMAKE_NM} -DELF=$<TARGET_FILE:${target}>
                                -P ${_sarnn_firmware_check})
endfunction()

function(sarnn_add_shape_check name target)
  cmake_parse_arguments(ARG "" "" "HAS;LACKS" ${ARGN})
  # each list in one argument, its ';' escaped (ctest would split it)
  string(REPLACE ";" "\\;" _has "${ARG_HAS}")
  string(REPLACE ";" "\\;" _lacks "${ARG_LACKS}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DMODE=shape -DNM=${CMAKE_NM} -DELF=$<TARGET_FILE:${target}>
                                "-DHAS=${_has}" "-DLACKS=${_lacks}" -P ${_sarnn_firmware_check})
endfunction()

function(sarnn_add_no_float_check name target)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DMODE=nofloat -DNM=${CMAKE_NM} -DELF=$<TARGET_FILE:${target}>
                                -P ${_sarnn_firmware_check})
endfunction()
