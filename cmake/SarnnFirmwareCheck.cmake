# cmake/SarnnFirmwareCheck.cmake: the ctest checks of cmake/SarnnFirmware.cmake (cmake -P).
#   -DMODE=run -DEMULATOR=<cmd|args|...> -DELF=<elf> [-DTIMEOUT=<s>]
#       runs the ELF; passes when it exits with 0 and printed "N passed, 0 failed" (N >= 1).
#   -DMODE=nm -DNM=<arm-none-eabi-nm> -DELF=<elf>
#       fails when the ELF defines a heap or exception-throwing symbol.
#   -DMODE=nofloat -DNM=<arm-none-eabi-nm> -DELF=<elf>
#       fails when the ELF holds a soft-float routine: __aeabi_f*, __aeabi_d*, __aeabi_cf*, __aeabi_cd*, the
#       conversions __aeabi_[u][il]2[fd], libgcc's __addsf3 .. __divdf3, __floatsisf .., __fixsfsi .., __extendsfdf2,
#       __truncdfsf2 (any of them means some code does float arithmetic without an FPU).
#   -DMODE=shape -DNM=<arm-none-eabi-nm> -DELF=<elf> -DHAS=<regex;...> -DLACKS=<regex;...>
#       fails unless the ELF defines a symbol matching each regular expression of HAS and none matching one of LACKS
#       (an image links the code of its own shape only).
# The lines of `nm -C <ELF>` whose symbol name matches one of the regular expressions ARGN, one a line, into
# <result> (empty when none does).
function(sarnn_nm_find result)
  execute_process(COMMAND ${NM} -C ${ELF} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "0" OR out STREQUAL "")
    message(FATAL_ERROR "${NM} -C ${ELF} failed (${rc}): ${err}")
  endif()
  string(REPLACE "\n" ";" _lines "${out}")
  set(_found "")
  foreach(_l IN LISTS _lines)
    # "<address> <type> <name>": the name alone, matched whole for the C functions
    if(_l MATCHES "^[0-9a-fA-F]* *[A-Za-z] (.*)$")
      set(_name "${CMAKE_MATCH_1}")
      foreach(_re IN LISTS ARGN)
        if(_name MATCHES "${_re}")
          list(APPEND _found "${_l}")
          break()
        endif()
      endforeach()
    endif()
  endforeach()
  string(REPLACE ";" "\n  " _found "${_found}")
  set(${result} "${_found}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "run")
  string(REPLACE "|" ";" _cmd "${EMULATOR}")
  if(NOT TIMEOUT)
    set(TIMEOUT 60)
  endif()
  execute_process(COMMAND ${_cmd} ${ELF} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT ${TIMEOUT})
  message("${out}")
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "${ELF}: exit status ${rc}")
  endif()
  if(NOT out MATCHES "(^|\n)[1-9][0-9]* passed, 0 failed")
    message(FATAL_ERROR "${ELF}: no \"N passed, 0 failed\" line")
  endif()
elseif(MODE STREQUAL "nm")
  sarnn_nm_find(_found "^_?_?(malloc|free|calloc|realloc|memalign|posix_memalign|aligned_alloc|sbrk)(_r)?$"
                "^_?_?(malloc|free|calloc|realloc|sbrk)_r$" "operator new|operator delete|__cxa_throw|__cxa_allocate_exception")
  if(_found)
    message(FATAL_ERROR "${ELF} uses the heap or throws:\n  ${_found}")
  endif()
  message(STATUS "${ELF}: no malloc/free/calloc/realloc/sbrk, operator new/delete, __cxa_throw, __cxa_allocate_exception")
elseif(MODE STREQUAL "nofloat")
  sarnn_nm_find(_found "^__aeabi_c?[fd][a-z0-9]*$" "^__aeabi_u?[il]2[fd]$" "^__(add|sub|mul|div|neg)[sd]f3$"
                "^__(float|floatun)[sd]i[sd]f$" "^__fix(uns)?[sd]f[sd]i$" "^__(extendsfdf2|truncdfsf2)$"
                "^__(eq|ne|lt|le|gt|ge|unord)[sd]f2$")
  if(_found)
    message(FATAL_ERROR "${ELF} does float arithmetic in software:\n  ${_found}")
  endif()
  message(STATUS "${ELF}: no soft-float routine (__aeabi_f*, __aeabi_d*, conversions, libgcc's sf/df helpers)")
elseif(MODE STREQUAL "shape")
  foreach(_re IN LISTS HAS)
    sarnn_nm_find(_found "${_re}")
    if(NOT _found)
      message(FATAL_ERROR "${ELF}: no symbol matches ${_re}")
    endif()
  endforeach()
  sarnn_nm_find(_found ${LACKS})
  if(_found)
    message(FATAL_ERROR "${ELF} links the code of another shape:\n  ${_found}")
  endif()
  message(STATUS "${ELF}: its own shape's code (${HAS}), none of another's")
else()
  message(FATAL_ERROR "SarnnFirmwareCheck.cmake: MODE must be run, nm, nofloat or shape")
endif()
