# tests/package/zephyr_stub.cmake: reads zephyr/CMakeLists.txt as Zephyr's build would, with stubs of the Zephyr
# functions it may call, so that a typo in it fails here (an unknown command is an error) and what it asks for is
# checked: one library, sources that exist and are no SIMD set's, include folders that hold sarnn/sarnn.hpp and
# sarnn/config.hpp, the definitions the Kconfig options say, and every CONFIG_ it reads declared in zephyr/Kconfig.
#   cmake -DSARNN=<checkout> [-DBROKEN_COPY=<file>] -P zephyr_stub.cmake
# With BROKEN_COPY, reads instead a copy of zephyr/CMakeLists.txt written there with a typo in a function's name
# (zephyr_library_sources -> zephyr_library_source): that run must fail (ctest WILL_FAIL), which shows a typo fails.
# Reads the file three times: CONFIG_SARNN off (it must do nothing), on with the defaults, on with the options flipped.
cmake_minimum_required(VERSION 3.16)
set(LISTS ${SARNN}/zephyr/CMakeLists.txt)
if(BROKEN_COPY)
  file(READ ${LISTS} _text)
  string(REPLACE "zephyr_library_sources(" "zephyr_library_source(" _broken "${_text}")
  # Nothing replaced: the copy would not be broken, this run passes and the WILL_FAIL test fails, as it should.
  file(WRITE ${BROKEN_COPY} "${_broken}")
  set(LISTS ${BROKEN_COPY})
endif()
include(${CMAKE_CURRENT_LIST_DIR}/stub_checks.cmake)

# ---- the stubs: each records its arguments in a global property ---------------------------------------------------
foreach(_f IN ITEMS zephyr_library_sources zephyr_include_directories zephyr_library_include_directories
                    zephyr_library_compile_options zephyr_compile_definitions zephyr_library_compile_definitions)
  cmake_language(EVAL CODE "function(${_f})\n set_property(GLOBAL APPEND PROPERTY STUB_${_f} \${ARGN})\nendfunction()")
endforeach()
function(zephyr_library)
  set_property(GLOBAL APPEND PROPERTY STUB_libraries "zephyr_library")
endfunction()
function(zephyr_library_named name)
  set_property(GLOBAL APPEND PROPERTY STUB_libraries ${name})
endfunction()

function(stub_reset)
  foreach(_p IN ITEMS libraries zephyr_library_sources zephyr_include_directories zephyr_library_include_directories
                      zephyr_library_compile_options zephyr_compile_definitions zephyr_library_compile_definitions)
    set_property(GLOBAL PROPERTY STUB_${_p} "")
  endforeach()
endfunction()

# ---- every CONFIG_ the file reads is one zephyr/Kconfig declares -----------------------------------------------------
file(STRINGS ${SARNN}/zephyr/Kconfig _kconfig REGEX "^(menu)?config ")
file(READ ${LISTS} _lists)
string(REGEX MATCHALL "CONFIG_[A-Za-z0-9_]+" _used "${_lists}")
list(REMOVE_DUPLICATES _used)
foreach(_c IN LISTS _used)
  string(REPLACE "CONFIG_" "" _name ${_c})
  if(NOT "config ${_name}" IN_LIST _kconfig)
    message(FATAL_ERROR "${LISTS} reads ${_c}, which zephyr/Kconfig does not declare")
  endif()
endforeach()

# Zephyr gives a module's CMakeLists.txt its folder: the module's root
set(ZEPHYR_CURRENT_MODULE_DIR ${SARNN})

# ---- CONFIG_SARNN off: nothing ---------------------------------------------------------------------------------------
stub_reset()
include(${LISTS})
get_property(_libs GLOBAL PROPERTY STUB_libraries)
get_property(_srcs GLOBAL PROPERTY STUB_zephyr_library_sources)
if(_libs OR _srcs)
  message(FATAL_ERROR "${LISTS} builds something without CONFIG_SARNN")
endif()

# ---- on, with Kconfig's defaults (input checks on), then with the options flipped -------------------------------------
foreach(_case IN ITEMS defaults flipped)
  stub_reset()
  set(CONFIG_SARNN y)
  if(_case STREQUAL "defaults")
    set(CONFIG_SARNN_CHECK_INPUT y)
    unset(CONFIG_SARNN_Q15_COMPACT)
    set(_want_global "SARNN_CHECK_INPUT=1")
    set(_want_library "")
  else()
    unset(CONFIG_SARNN_CHECK_INPUT)
    set(CONFIG_SARNN_Q15_COMPACT y)
    set(_want_global "SARNN_CHECK_INPUT=0")
    set(_want_library "SARNN_Q15_COMPACT=1")
  endif()
  include(${LISTS})
  get_property(_libs GLOBAL PROPERTY STUB_libraries)
  list(LENGTH _libs _n)
  if(NOT _n EQUAL 1)
    message(FATAL_ERROR "${LISTS}: ${_n} zephyr_library calls, expected one")
  endif()
  get_property(_srcs GLOBAL PROPERTY STUB_zephyr_library_sources)
  stub_check_sources("${_srcs}")
  get_property(_inc GLOBAL PROPERTY STUB_zephyr_include_directories)
  stub_check_public_includes("${_inc}")
  get_property(_priv GLOBAL PROPERTY STUB_zephyr_library_include_directories)
  stub_check_private_includes("${_priv}")
  get_property(_defs GLOBAL PROPERTY STUB_zephyr_compile_definitions)
  get_property(_ldefs GLOBAL PROPERTY STUB_zephyr_library_compile_definitions)
  if(NOT "${_defs}" STREQUAL "${_want_global}" OR NOT "${_ldefs}" STREQUAL "${_want_library}")
    message(FATAL_ERROR "${LISTS} (${_case}): definitions '${_defs}' (global) and '${_ldefs}' (library), expected "
                        "'${_want_global}' and '${_want_library}'")
  endif()
  list(LENGTH _srcs _n)
  message(STATUS "zephyr/CMakeLists.txt (${_case}): one library, ${_n} sources, definitions ${_defs} ${_ldefs}")
endforeach()
message(STATUS "ok: ${LISTS} read with the stubs of Zephyr's functions")
