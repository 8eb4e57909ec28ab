# tests/shape_image/check.cmake: cmake -DNM=<nm> -DEXE=<image> -DSET=<Neon64|Neon|CortexM|Mve>
#                                 [-DNS=<neon|cortex_m|mve_shaped>] -P check.cmake
# NS: the namespace of the set's shaped forms, sarnn::kernel::<NS>::Shaped (neon unless given). The image links the shaped forms of its models' shapes only (Lstm<float, 3, 8>: gemv<32, 3, 3>, gemv_add<32, 8, 8>,
# lstm_cell<8>; Gru<float, 5, 7>: gemv<21, 5, 5>, gemv<21, 7, 7>, gru_cell<7>; SelfAttentionRnn<float, 3, 5, 6,
# DotAlign, Window>: affine_tanh<5, 3, 5> and attend_dot<5, 8, 7> on NEON, attend_dot<5, 5, 7> on the M4F and M7
# (cortex_m)), and none of the set's run-time gemv, gemv_add, lstm_cell, gru_cell (nor, on NEON and cortex_m,
# attend_dot).
# mve_shaped (Helium): the shaped forms are inlined into the models and call the parts of kernels/mve/ compiled for the
# shape (rows_product, tanh_inplace, dot_scores, weighted_sum, lstm_cell, gru_cell; the context's exact path,
# attend_dot_exact, is one plain function for every shape), which nm shows instead; none of the set's run-time gemv,
# gemv_add, affine_tanh, lstm_cell, gru_cell, attend_dot, softmax, weighted_sum may be linked.
if(NOT NS)
  set(NS neon)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/nm_check.cmake)
sarnn_nm_lines(shape_image ${EXE} ${NM} lines)
set(found "")
set(failed 0)
set(runtime "gemv|gemv_add|lstm_cell|gru_cell")
if(NS STREQUAL "neon" OR NS STREQUAL "cortex_m")
  set(runtime "${runtime}|attend_dot")
elseif(NS STREQUAL "mve_shaped")
  set(runtime "gemv|gemv_add|affine_tanh|lstm_cell|gru_cell|attend_dot|softmax|weighted_sum")
endif()
if(NS STREQUAL "mve_shaped")
  set(shaped "sarnn::kernel::mve_shaped::")
else()
  set(shaped "sarnn::kernel::${NS}::Shaped::")
endif()
foreach(line IN LISTS lines)
  if(line MATCHES "sarnn::kernel::${SET}::(${runtime})\\(")
    message(SEND_ERROR "shape_image: the run-time ${CMAKE_MATCH_1} of kernel::${SET} is linked: ${line}")
    set(failed 1)
  endif()
  if(line MATCHES "${shaped}([a-z_]+<[^>]*>)")
    # template arguments without their type suffixes (32ul on AArch64, 32u on ARMv7) and enumerations' casts
    string(REPLACE "(sarnn::kernel::mve_shaped::RowsEnd)" "" name "${CMAKE_MATCH_1}")
    string(REGEX REPLACE "([0-9]+)u?l?" "\\1" name "${name}")
    list(APPEND found "${name}")
  endif()
endforeach()
set(expected "gemv<32, 3, 3>" "gemv_add<32, 8, 8>" "lstm_cell<8>" "gemv<21, 5, 5>" "gemv<21, 7, 7>" "gru_cell<7>")
if(NS STREQUAL "neon")
  list(APPEND expected "affine_tanh<5, 3, 5>" "attend_dot<5, 8, 7>")
elseif(NS STREQUAL "cortex_m")
  list(APPEND expected "affine_tanh<5, 3, 5>" "attend_dot<5, 5, 7>")
elseif(NS STREQUAL "mve_shaped")
  # rows_product<Rows, N1, N2, Ld, End (0: y = A·v, 1: + b)>: the two gemv of the Gru, the Lstm's gemv and gemv_add, the
  # attention model's affine_tanh; then its tanh and context (weighted_sum<..., true>: the softmax's 1/Σ applied as it
  # loads the weights); the cells lstm_cell<8> and gru_cell<7> and their σ and tanh passes (the Lstm's i, f, o 3·8,
  # its g and its c 8; the Gru's r and z 2·8 and its n 8: lanes rounded up to 4)
  set(expected "rows_product<21, 5, 0, 5, 0>" "rows_product<21, 7, 0, 7, 0>" "rows_product<32, 3, 0, 3, 0>"
               "rows_product<32, 8, 0, 8, 1>" "rows_product<5, 3, 5, 8, 1>" "tanh_inplace<5>" "dot_scores<5, 8, 7>"
               "weighted_sum<5, 8, 7, true>" "lstm_cell<8>" "gru_cell<7>" "sigmoid_inplace<24>"
               "sigmoid_inplace<16>" "tanh_inplace<8>")
endif()
sarnn_shape_verdict(shape_image "${found}" "${expected}" ${failed} "no run-time ${runtime} of kernel::${SET}")
