# sarnn_warnings(<target>): warnings are errors in sarnn's own targets (gcc and clang).
function(sarnn_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror -Wshadow -Wconversion
      -Wno-sign-conversion -Wdouble-promotion -Wcast-align)
  endif()
endfunction()
