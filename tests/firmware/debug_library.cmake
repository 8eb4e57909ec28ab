# tests/firmware/debug_library.cmake: configures SRC as a firmware user who wants only the library does, with the
# toolchain file TOOLCHAIN and CMAKE_BUILD_TYPE=Debug, in WORK, and builds the target sarnn; fails when either fails.
file(REMOVE_RECURSE ${WORK})
foreach(_step configure build)
  if(_step STREQUAL "configure")
    set(_cmd ${CMAKE_COMMAND} -S ${SRC} -B ${WORK} -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN}
             -DSARNN_BUILD_TESTS=OFF -DSARNN_BUILD_BENCHMARKS=OFF -DSARNN_BUILD_FIRMWARE=OFF)
  else()
    set(_cmd ${CMAKE_COMMAND} --build ${WORK} --target sarnn)
  endif()
  execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "Debug library: ${_step} failed (${_rc})\n${_out}")
  endif()
endforeach()
message(STATUS "the library builds at -O0 with ${TOOLCHAIN}")
