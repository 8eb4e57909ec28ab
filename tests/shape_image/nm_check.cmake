# tests/shape_image/nm_check.cmake: the two parts the nm checks of the shape images share (included by
# tests/shape_image/check.cmake and tests/q15_shape_image/check.cmake, both run with cmake -P).

# sarnn_nm_lines(TAG EXE NM OUT): OUT = the lines of `NM -C EXE`, a list; fails the script when nm fails
function(sarnn_nm_lines tag exe nm out)
  execute_process(COMMAND ${nm} -C ${exe} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR syms STREQUAL "")
    message(FATAL_ERROR "${tag}: ${nm} -C ${exe} failed (${rc})")
  endif()
  string(REPLACE "\n" ";" lines "${syms}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

# sarnn_shape_verdict(TAG FOUND EXPECTED FAILED SUMMARY): the shaped forms found (a list, any order, duplicates
# allowed) must be exactly those expected; fails the script on a difference or when FAILED is set (a run-time form
# seen), else prints "TAG: <found>; SUMMARY"
function(sarnn_shape_verdict tag found expected failed summary)
  list(REMOVE_DUPLICATES found)
  list(SORT found)
  list(SORT expected)
  if(NOT found STREQUAL expected)
    message(SEND_ERROR "${tag}: the shaped forms in the image are [${found}], expected [${expected}]")
    set(failed 1)
  endif()
  if(failed)
    message(FATAL_ERROR "${tag}: failed")
  endif()
  message(STATUS "${tag}: ${found}; ${summary}")
endfunction()
