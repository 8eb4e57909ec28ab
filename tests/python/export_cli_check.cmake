# ctest sarnn_python_export_cli(_q15): `python3 -m sarnn.export` end to end, on a model gen_roundtrip.py saved
# with sarnn.save() (MODEL). The command line must exit 0, print "wrote <name>.hpp: <type>" first (then, with
# --quantize, one line "q15: x_scale ..."), say nothing on stderr, and write exactly the bytes of EXPECTED: the
# header gen_roundtrip.py exported from the same file through sarnn.export_header(), which sarnn_python_roundtrip
# compiled and checked on every kernel set. The name is EXPECTED's stem; OPTIONS (a list) go after --golden-steps.
#   cmake -DPYTHON=<python3> -DMODEL=<trained.pt> -DEXPECTED=<rt_trained_f.hpp> [-DOPTIONS=--quantize;int8;...]
#         -DWORK=<dir> -P export_cli_check.cmake
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
# The same options as gen_roundtrip.py's export; the name and the output come from --name.
get_filename_component(_name ${EXPECTED} NAME_WE)
set(_cmd ${PYTHON} -m sarnn.export ${MODEL} --name ${_name} --golden-steps 40 ${OPTIONS})
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
set(_first "wrote ${_name}.hpp: ${_type}\n")
string(LENGTH "${_first}" _n)
string(SUBSTRING "${_out}" 0 ${_n} _head)
string(SUBSTRING "${_out}" ${_n} -1 _rest)
set(_rest_ok FALSE)
if(OPTIONS MATCHES "--quantize")
  if(_rest MATCHES "^q15: x_scale 2\\^-?[0-9]+; [^\n]*\n$")
    set(_rest_ok TRUE)
  endif()
elseif(_rest STREQUAL "")
  set(_rest_ok TRUE)
endif()
if(NOT _head STREQUAL _first OR NOT _rest_ok)
  message(FATAL_ERROR "unexpected stdout of sarnn.export (expected: ${_first}, then with --quantize one line "
                      "'q15: x_scale 2^e; ...')")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/${_name}.hpp ${EXPECTED} RESULT_VARIABLE _same)
if(NOT _same EQUAL 0)
  message(FATAL_ERROR "${WORK}/${_name}.hpp differs from ${EXPECTED} (compare them with diff)")
endif()
message(STATUS "ok: the command line wrote the header sarnn_python_roundtrip checked, byte for byte")
