# Runs the C++ compiler in syntax-only mode on one source and checks the outcome (cmake -P).
#   CXX       the compiler
#   SRC       the source file
#   INCLUDES  include directories, separated by '|'
#   EXPECT    MODE fail: a text the compiler output must contain (the static_assert message)
#   MODE      fail: must not compile, and the output must contain EXPECT; ok: must compile
foreach(_v CXX SRC MODE)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check.cmake: ${_v} is not set")
  endif()
endforeach()
string(REPLACE "|" ";" _dirs "${INCLUDES}")
set(_flags)
foreach(_d IN LISTS _dirs)
  list(APPEND _flags "-I${_d}")
endforeach()
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only ${_flags} ${SRC}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
set(_all "${_out}${_err}")
if(MODE STREQUAL "ok")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${SRC} must compile (the control case) but did not:\n${_all}")
  endif()
  message(STATUS "${SRC}: compiles, as it must")
elseif(MODE STREQUAL "fail")
  if(_rc EQUAL 0)
    message(FATAL_ERROR "${SRC} compiled, but this misuse must be a compile-time error")
  endif()
  string(FIND "${_all}" "${EXPECT}" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "${SRC} failed to compile, as it must, but its diagnostics do not contain the expected "
                        "static_assert text \"${EXPECT}\":\n${_all}")
  endif()
  message(STATUS "${SRC}: refused with \"${EXPECT}\", as it must")
else()
  message(FATAL_ERROR "check.cmake: MODE must be ok or fail, not '${MODE}'")
endif()
