# cmake/SarnnCross.cmake: what the top-level CMakeLists.txt switches for cross targets (toolchains/*.cmake).
#   - Bare metal (CMAKE_SYSTEM_NAME Generic, e.g. toolchains/cortex-m4.cmake): the Catch2 suite and the
#     benchmarks need an operating system, so they are off; SARNN_BUILD_FIRMWARE (default ON there when
#     sarnn is the top project) builds the firmware: examples/firmware (a small firmware), tests/firmware
#     (the on-target suite, run under qemu-system-arm, and the no-heap checks) and tools/footprint (the report).
#   - A user's project built with the same toolchain file (test sarnn_toolchain_consumer): installs this
#     build, consumes it with find_package(sarnn) (tests/install/consumer) and runs it under the emulator.
#   - SARNN_BENCH_SYSROOT (the cross presets set it) names the Google Benchmark sysroot that
#     scripts/cross-bench-sysroot makes; when it is missing the benchmarks are off, with a hint.
set(_sarnn_bare_metal OFF)
if(CMAKE_SYSTEM_NAME STREQUAL "Generic")
  set(_sarnn_bare_metal ON)
endif()
set(_sarnn_firmware_default OFF)
if(_sarnn_top AND _sarnn_bare_metal)
  set(_sarnn_firmware_default ON)
endif()
option(SARNN_BUILD_FIRMWARE "Build examples/firmware, tests/firmware and tools/footprint, run under qemu-system-arm (bare-metal Cortex-M)"
       ${_sarnn_firmware_default})

if(_sarnn_bare_metal)
  foreach(_opt SARNN_BUILD_TESTS SARNN_BUILD_BENCHMARKS)
    if(${_opt})
      message(STATUS "sarnn: bare-metal target: ${_opt} off (Catch2 and Google Benchmark need an OS)")
      set(${_opt} OFF)
    endif()
  endforeach()
endif()

if(SARNN_BUILD_BENCHMARKS AND SARNN_BENCH_GOOGLE AND CMAKE_CROSSCOMPILING AND SARNN_BENCH_SYSROOT
   AND NOT EXISTS "${SARNN_BENCH_SYSROOT}")
  message(WARNING "sarnn: ${SARNN_BENCH_SYSROOT} does not exist: benchmarks off. "
                  "scripts/cross-bench-sysroot makes it (Debian's Google Benchmark for the target).")
  message(STATUS "SARNN-SKIP: benchmarks (no sysroot ${SARNN_BENCH_SYSROOT}: scripts/cross-bench-sysroot)")
  set(SARNN_BUILD_BENCHMARKS OFF)
endif()

if(CMAKE_CROSSCOMPILING AND _sarnn_top AND SARNN_INSTALL AND CMAKE_TOOLCHAIN_FILE
   AND EXISTS ${PROJECT_SOURCE_DIR}/tests/install/consumer/CMakeLists.txt)
  enable_testing()
  string(REPLACE ";" "|" _sarnn_emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
  add_test(NAME sarnn_toolchain_consumer COMMAND ${CMAKE_COMMAND} -DBIN=${PROJECT_BINARY_DIR}
    -DWORK=${PROJECT_BINARY_DIR}/toolchain-consumer -DTOOLCHAIN=${CMAKE_TOOLCHAIN_FILE}
    -DCONSUMER=${PROJECT_SOURCE_DIR}/tests/install/consumer "-DEMULATOR=${_sarnn_emulator}"
    -P ${CMAKE_CURRENT_LIST_DIR}/SarnnToolchainCheck.cmake)
  set_tests_properties(sarnn_toolchain_consumer PROPERTIES TIMEOUT 300)
endif()
