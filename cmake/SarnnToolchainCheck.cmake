# cmake/SarnnToolchainCheck.cmake (cmake -P): a user's project built with one of toolchains/*.cmake.
#   -DBIN=<sarnn build dir> -DWORK=<scratch> -DTOOLCHAIN=<toolchain file> -DCONSUMER=<project dir>
#   -DEMULATOR=<cmd|args|...>
# Installs the cross-built sarnn into WORK/prefix, configures the consumer project with the same toolchain file
# and nothing else but -Dsarnn_DIR (find_package(sarnn) in the toolchain's find-root mode ONLY), builds it and
# runs it under the emulator.
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BIN} --prefix ${WORK}/prefix)
file(GLOB_RECURSE _cfg ${WORK}/prefix/*/sarnnConfig.cmake)
list(GET _cfg 0 _cfg)
get_filename_component(_cfgdir ${_cfg} DIRECTORY)
run(${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/build -G Ninja -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN}
    -DCMAKE_BUILD_TYPE=Release -Dsarnn_DIR=${_cfgdir})
run(${CMAKE_COMMAND} --build ${WORK}/build)
string(REPLACE "|" ";" _emulator "${EMULATOR}")
file(GLOB _exe ${WORK}/build/consumer ${WORK}/build/consumer.elf)
run(${_emulator} ${_exe})
