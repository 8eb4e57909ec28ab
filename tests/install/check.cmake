# cmake -DMODE=install|subdir -DSRC=<sarnn source> -DBIN=<sarnn build> -DWORK=<scratch> -P check.cmake
# install: installs BIN into WORK/prefix, builds the consumer against it with find_package(sarnn), runs it.
# subdir:  builds the consumer with add_subdirectory(SRC), runs it.
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()
if(MODE STREQUAL "install")
  run(${CMAKE_COMMAND} --install ${BIN} --prefix ${WORK}/prefix)
  run(${CMAKE_COMMAND} -S ${SRC}/tests/install/consumer -B ${WORK}/build -G Ninja -DCMAKE_PREFIX_PATH=${WORK}/prefix)
else()
  run(${CMAKE_COMMAND} -S ${SRC}/tests/install/consumer -B ${WORK}/build -G Ninja -DSARNN_SOURCE_DIR=${SRC})
endif()
run(${CMAKE_COMMAND} --build ${WORK}/build)
run(${WORK}/build/consumer)
