# ctest sarnn_python_export_cli: `python3 -m sarnn.export` end to end, on the model gen_roundtrip.py trained and
# saved with sarnn.save() (MODEL). The command line must exit 0, print "wrote rt_trained_f.hpp: <type>", say
# nothing on stderr, and write exactly the bytes of EXPECTED: the header gen_roundtrip.py exported from the same
# file through sarnn.export_header(), which sarnn_python_roundtrip compiled and checked on every kernel set.
#   cmake -DPYTHON=<python3> -DMODEL=<trained.pt> -DEXPECTED=<rt_trained_f.hpp> -DWORK=<dir> -P export_cli_check.cmake
# (PYTHONPATH=<sarnn>/python in the environment.)
foreach(_var PYTHON MODEL EXPECTED WORK)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "export_cli_check.cmake: -D${_var}=... is missing")
  endif()
endforeach()
foreach(_file ${MODEL} ${EXPECTED})
  if(NOT EXISTS ${_file})
    message(FATAL_ERROR "${_file} is missing: build the target sarnn_python_roundtrip first")
  endif()
endforeach()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# The same options as gen_roundtrip.py's export of rt_trained_f; the name and the output come from --name.
set(_cmd ${PYTHON} -m sarnn.export ${MODEL} --name rt_trained_f --golden-steps 40)
execute_process(COMMAND ${_cmd} WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
string(REPLACE ";" " " _shown "${_cmd}")
message(STATUS "${_shown}\n  exit status: ${_rc}\n  stdout: ${_out}  stderr: ${_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "sarnn.export exited with ${_rc}, expected 0")
endif()
if(NOT _err STREQUAL "")
  message(FATAL_ERROR "sarnn.export wrote to stderr")
endif()
# The model type: the second line of EXPECTED, "// sarnn::SelfAttentionRnn<float, ...>".
file(STRINGS ${EXPECTED} _lines LIMIT_COUNT 2)
list(GET _lines 1 _type)
string(REGEX REPLACE "^// " "" _type "${_type}")
if(NOT _out STREQUAL "wrote rt_trained_f.hpp: ${_type}\n")
  message(FATAL_ERROR "unexpected stdout of sarnn.export")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/rt_trained_f.hpp ${EXPECTED} RESULT_VARIABLE _same)
if(NOT _same EQUAL 0)
  message(FATAL_ERROR "${WORK}/rt_trained_f.hpp differs from ${EXPECTED} (compare them with diff)")
endif()
message(STATUS "ok: the command line wrote the header sarnn_python_roundtrip checked, byte for byte")
