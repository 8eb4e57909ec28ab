# ctest sarnn_pip_install: the exporter as a package, the way docs/pytorch.md installs it. In a fresh virtual
# environment made with --system-site-packages (so that it sees Debian's torch and numpy), offline and with Debian's
# setuptools:
#   python3 -m venv --system-site-packages venv
#   venv/bin/pip install --no-build-isolation --no-index ./python
# then checks that `import sarnn` comes from the venv with include/sarnn/version.hpp's version, that `sarnn-export`
# writes the header `python3 -m sarnn.export` writes (byte for byte EXPECTED, which sarnn_python_roundtrip compiled
# and checked) with the same stdout and nothing on stderr.
#   cmake -DPYTHON=<python3> -DSRC=<sarnn source> -DVERSION=<x.y.z> -DMODEL=<trained.pt> -DEXPECTED=<rt_trained_f.hpp>
#         -DWORK=<dir> -P pip_install_check.cmake
# ./python is copied into WORK first: pip builds a local directory in place (setuptools' build/ and egg-info), which
# must not land in the source tree.
foreach(_var PYTHON SRC VERSION MODEL EXPECTED WORK)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "pip_install_check.cmake: -D${_var}=... is missing")
  endif()
endforeach()

# run(<what> <command>...): runs in WORK without PYTHONPATH (the import must come from the venv); stops on failure.
# Leaves the output in _out and _err.
function(run what)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
                          ${ARGN}
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _e)
  string(REPLACE ";" " " _shown "${ARGN}")
  message(STATUS "${what}: ${_shown}\n  exit status: ${_rc}\n  stdout: ${_o}  stderr: ${_e}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit status ${_rc})")
  endif()
  set(_out "${_o}" PARENT_SCOPE)
  set(_err "${_e}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/out)
file(COPY ${SRC}/python DESTINATION ${WORK} PATTERN build EXCLUDE PATTERN "*.egg-info" EXCLUDE PATTERN __pycache__ EXCLUDE)

run("venv (scripts/deps python installs python3-venv)" ${PYTHON} -m venv --system-site-packages venv)
run("pip install" venv/bin/pip install --no-build-isolation --no-index ./python)

run("import" venv/bin/python -c "import sarnn\nprint(sarnn.__version__)\nprint(sarnn.__file__)")   # no ';': CMake lists
if(NOT _out MATCHES "^([^\n]*)\n([^\n]*)\n$")
  message(FATAL_ERROR "unexpected output of the import check")
endif()
set(_version ${CMAKE_MATCH_1})
set(_file ${CMAKE_MATCH_2})
if(NOT _version STREQUAL VERSION)
  message(FATAL_ERROR "sarnn.__version__ is ${_version}, include/sarnn/version.hpp says ${VERSION}: make "
                      "python/sarnn/version.py say the same")
endif()
string(FIND "${_file}" "${WORK}/venv/" _at)
if(NOT _at EQUAL 0)
  message(FATAL_ERROR "sarnn was imported from ${_file}, not from the venv")
endif()

# The options of export_cli_check.cmake (gen_roundtrip.py's export of rt_trained_f).
run("sarnn-export" ${WORK}/venv/bin/sarnn-export ${MODEL} --name rt_trained_f --out out/rt_trained_f.hpp --golden-steps 40)
file(STRINGS ${EXPECTED} _lines LIMIT_COUNT 2)
list(GET _lines 1 _type)
string(REGEX REPLACE "^// " "" _type "${_type}")
if(NOT _out STREQUAL "wrote out/rt_trained_f.hpp: ${_type}\n" OR NOT _err STREQUAL "")
  message(FATAL_ERROR "unexpected output of sarnn-export (expected 'wrote out/rt_trained_f.hpp: ${_type}', no stderr)")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/out/rt_trained_f.hpp ${EXPECTED} RESULT_VARIABLE _same)
if(NOT _same EQUAL 0)
  message(FATAL_ERROR "${WORK}/out/rt_trained_f.hpp differs from ${EXPECTED} (compare them with diff)")
endif()

message(STATUS "ok: pip install ./python gives sarnn ${_version} and sarnn-export, which wrote the checked header")
