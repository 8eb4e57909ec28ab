# sarnn_warnings(<target>): sarnn's warnings on its own targets (gcc and clang); errors with SARNN_WERROR (ON in the
# presets and CI, OFF by default: see CMakeLists.txt).
function(sarnn_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    set(_werror "")
    if(SARNN_WERROR)
      set(_werror -Werror)
    endif()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic ${_werror} -Wshadow -Wconversion
      -Wno-sign-conversion -Wdouble-promotion -Wcast-align)
  endif()
endfunction()
