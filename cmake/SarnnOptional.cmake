# cmake/SarnnOptional.cmake: the parts of the build that need more than a compiler, CMake and xsimd.
#
#   SARNN_BUILD_TESTS       needs Catch2 2: the Catch2 suite, and with it the Python, README, install and example
#                           tests (the Python ones say for themselves when torch is missing: tests/python)
#   SARNN_BUILD_BENCHMARKS  needs Google Benchmark and Eigen 3.4
#
# Each is ON (required: configuring fails when a package is missing), OFF, or AUTO, the default when sarnn is the
# top project: built when its packages are found, else skipped with one message saying what is missing. So
# `cmake -S . -B build` succeeds with only the compiler, CMake and xsimd installed (the library and its install
# rules). The presets set ON, so that CI fails loudly instead of skipping. After this file each is a plain ON/OFF
# variable for the rest of the build (the cache keeps the user's choice).
if(SARNN_BUILD_TESTS STREQUAL "AUTO")
  find_package(Catch2 2 QUIET)
  if(Catch2_FOUND)
    set(SARNN_BUILD_TESTS ON)
  else()
    message(STATUS "sarnn: tests skipped: Catch2 2 not found (Debian: apt-get install catch2, or scripts/deps tests); "
                   "-DSARNN_BUILD_TESTS=ON requires it, OFF skips the tests without this message")
    set(SARNN_BUILD_TESTS OFF)
  endif()
endif()

if(SARNN_BUILD_BENCHMARKS STREQUAL "AUTO")
  find_package(benchmark QUIET)
  find_package(Eigen3 3.4 QUIET NO_MODULE)
  if(benchmark_FOUND AND Eigen3_FOUND)
    set(SARNN_BUILD_BENCHMARKS ON)
  else()
    set(_missing "")
    if(NOT benchmark_FOUND)
      list(APPEND _missing "Google Benchmark (libbenchmark-dev)")
    endif()
    if(NOT Eigen3_FOUND)
      list(APPEND _missing "Eigen 3.4 (libeigen3-dev)")
    endif()
    list(JOIN _missing " and " _missing)
    message(STATUS "sarnn: benchmarks skipped: ${_missing} not found (Debian: scripts/deps bench); "
                   "-DSARNN_BUILD_BENCHMARKS=ON requires them, OFF skips them without this message")
    set(SARNN_BUILD_BENCHMARKS OFF)
  endif()
endif()
