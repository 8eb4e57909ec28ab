# cmake/SarnnEspIdf.cmake: sarnn as an ESP-IDF component (idf_component.yml at the root; CMakeLists.txt includes
# this file when ESP-IDF reads it, ESP_PLATFORM set, and reads nothing else). The packages' sources and config.hpp:
# the ESP32 and ESP32-S3 (Xtensa with an FPU) get the cortex_m set, the ESP32-C3 and C6 (RISC-V without F) cortex_m0,
# as packaging/include/sarnn/config.hpp decides. tests/package reads it with a stub of idf_component_register.
include(${CMAKE_CURRENT_LIST_DIR}/SarnnPackageSources.cmake)
get_filename_component(_sarnn_dir ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
sarnn_package_sources(_sarnn_sources ${_sarnn_dir})
idf_component_register(SRCS ${_sarnn_sources}
                       INCLUDE_DIRS ${_sarnn_dir}/include ${_sarnn_dir}/packaging/include)
# SARNN_CHECK_INPUT=0 and SARNN_Q15_COMPACT=1 come from the project (docs/build.md, "ESP-IDF"): every file must agree.
if(NOT CMAKE_BUILD_EARLY_EXPANSION)
  target_compile_options(${COMPONENT_LIB} PRIVATE -fno-exceptions -fno-rtti)
endif()
