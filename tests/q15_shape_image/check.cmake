# tests/q15_shape_image/check.cmake: cmake -DNM=<nm> -DEXE=<image> [-DATTEND=shaped] -P check.cmake
# The image (q15_shape_image.cpp, built for the M4F, M7 and M55: the DSP and Helium loops, whose q15 models take
# the shaped forms) links the q15 set's shaped forms of its models' shapes only (Lstm<q15, 3, 8>: affine_at<32, 3, 8>,
# lstm_cell_at<8>; Gru<q15, 5, 7>: gru_gates_at<21, 5, 7>, gru_cell_at<7>; SelfAttentionRnn<q15, 3, 5, 6, DotAlign>:
# affine_tanh_at<5, 3, 5>), all of kernel::Q15Set<TargetLoops> (kernel::Q15), and none of that set's run-time
# affine_tanh, affine, gru_gates, lstm_cell, gru_cell. ATTEND=shaped (the Helium loops: scores by size) adds the
# attention's form by size, attend_dot_shaped<5, St>, and none of the run-time attention (attend_dot, attend_dot_at,
# attend_query, attend_scored: the forms that choose among every size's scores at run time).
cmake_policy(SET CMP0054 NEW)  # (a quoted "shaped" is a string, never the loop's variable of that name)
include(${CMAKE_CURRENT_LIST_DIR}/../shape_image/nm_check.cmake)
sarnn_nm_lines(q15_shape_image ${EXE} ${NM} lines)
set(set "sarnn::kernel::Q15Set<sarnn::kernel::TargetLoops>::")
set(runtime "affine_tanh|affine|gru_gates|lstm_cell|gru_cell")
if(ATTEND STREQUAL "shaped")
  string(APPEND runtime "|attend_dot|attend_dot_at|attend_query|attend_scored")
endif()
set(found "")
set(failed 0)
foreach(line IN LISTS lines)
  string(FIND "${line}" "${set}" at)
  if(at EQUAL -1)
    continue()
  endif()
  string(SUBSTRING "${line}" ${at} -1 name)
  string(LENGTH "${set}" len)
  string(SUBSTRING "${name}" ${len} -1 name)
  if(name MATCHES "^(${runtime})[(<]")
    message(SEND_ERROR "q15_shape_image: the run-time ${CMAKE_MATCH_1} of kernel::Q15 is linked: ${line}")
    set(failed 1)
  elseif(name MATCHES "^(attend_dot_shaped<[0-9]+)u?, ")
    list(APPEND found "${CMAKE_MATCH_1}>")
  elseif(name MATCHES "^([a-z_]+_at<[0-9ul, ]+>)")
    # template arguments without their type suffixes (8u on ARMv6-M and ARMv7-M)
    string(REGEX REPLACE "([0-9]+)u?l?" "\\1" shaped "${CMAKE_MATCH_1}")
    list(APPEND found "${shaped}")
  endif()
endforeach()
set(expected "affine_at<32, 3, 8>" "lstm_cell_at<8>" "gru_gates_at<21, 5, 7>" "gru_cell_at<7>" "affine_tanh_at<5, 3, 5>")
if(ATTEND STREQUAL "shaped")
  list(APPEND expected "attend_dot_shaped<5>")
endif()
sarnn_shape_verdict(q15_shape_image "${found}" "${expected}" ${failed} "no run-time ${runtime} of kernel::Q15")
