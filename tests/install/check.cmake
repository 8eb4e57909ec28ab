# cmake -DMODE=install|subdir|pkgconfig -DSRC=<sarnn source> -DBIN=<sarnn build> -DWORK=<scratch> -P check.cmake
# install:   installs BIN into WORK/prefix, builds the consumer against it with find_package(sarnn), runs it.
# subdir:    builds the consumer with add_subdirectory(SRC), runs it.
# pkgconfig: installs BIN into WORK/prefix and builds the consumer's main.cpp without CMake, as a Makefile does:
#            `CXX -std=c++17 main.cpp $(pkg-config --cflags --libs sarnn)` (-DCXX=, -DPKG_CONFIG=), runs it.
# libonly:   configures SRC as a user who wants only the library does (`cmake -S . -B build`), with the packages
#            of the tests and benchmarks hidden (CMAKE_DISABLE_FIND_PACKAGE_<Pkg>): configuring succeeds and says
#            once each that the tests and the benchmarks are skipped; then each set ON explicitly must fail,
#            naming its missing package. Configure only: the install rules are exercised by MODE=install.
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()
if(MODE STREQUAL "pkgconfig")
  run(${CMAKE_COMMAND} --install ${BIN} --prefix ${WORK}/prefix)
  file(GLOB_RECURSE _pc ${WORK}/prefix/*/sarnn.pc)
  if(NOT _pc)
    message(FATAL_ERROR "the install has no sarnn.pc")
  endif()
  get_filename_component(_pcdir ${_pc} DIRECTORY)
  file(MAKE_DIRECTORY ${WORK}/build)
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${_pcdir} PKG_CONFIG=${PKG_CONFIG} CXX=${CXX} sh -c
      "\"$CXX\" -std=c++17 ${SRC}/tests/install/consumer/main.cpp $(\"$PKG_CONFIG\" --cflags --libs sarnn) -o ${WORK}/build/consumer")
  run(${WORK}/build/consumer)
  return()
endif()
if(MODE STREQUAL "libonly")
  set(_hide -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
            -DCMAKE_DISABLE_FIND_PACKAGE_Eigen3=ON -DCMAKE_CXX_COMPILER=${CXX})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${WORK}/build -G Ninja ${_hide}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message(STATUS "configure without Catch2, Google Benchmark, Eigen: exit ${_rc}\n${_out}${_err}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "configuring the library alone failed")
  endif()
  foreach(_part tests benchmarks)
    string(REGEX MATCHALL "sarnn: ${_part} skipped: " _said "${_out}${_err}")
    list(LENGTH _said _n)
    if(NOT _n EQUAL 1)
      message(FATAL_ERROR "expected one message 'sarnn: ${_part} skipped: ...', found ${_n}")
    endif()
  endforeach()
  # explicitly ON: configuring fails and names the package (the same build folder: no second compiler check)
  foreach(_case "SARNN_BUILD_TESTS=ON;Catch2" "SARNN_BUILD_BENCHMARKS=ON;benchmark")
    list(GET _case 0 _option)
    list(GET _case 1 _package)
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${WORK}/build -G Ninja ${_hide} -D${_option}
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(_rc EQUAL 0 OR NOT "${_out}${_err}" MATCHES "${_package}")
      message(FATAL_ERROR "-D${_option} without ${_package}: expected a failed configure naming it, got exit ${_rc}\n"
                          "${_out}${_err}")
    endif()
    message(STATUS "-D${_option} without ${_package}: configure failed, as it must")
    # back to the defaults for the next case
    run(${CMAKE_COMMAND} -S ${SRC} -B ${WORK}/build -G Ninja ${_hide} -DSARNN_BUILD_TESTS=AUTO -DSARNN_BUILD_BENCHMARKS=AUTO)
  endforeach()
  return()
endif()
if(MODE STREQUAL "install")
  run(${CMAKE_COMMAND} --install ${BIN} --prefix ${WORK}/prefix)
  run(${CMAKE_COMMAND} -S ${SRC}/tests/install/consumer -B ${WORK}/build -G Ninja -DCMAKE_PREFIX_PATH=${WORK}/prefix)
else()
  run(${CMAKE_COMMAND} -S ${SRC}/tests/install/consumer -B ${WORK}/build -G Ninja -DSARNN_SOURCE_DIR=${SRC})
endif()
run(${CMAKE_COMMAND} --build ${WORK}/build)
run(${WORK}/build/consumer)
