# cmake/SarnnPackageSources.cmake: the files of lib/ that the packages compile (zephyr/CMakeLists.txt, the ESP-IDF
# component, and through scripts/package the PlatformIO and Arduino ones), chosen by a rule, not a list, so that a
# kernel file added or renamed is taken or left the same way: every .cpp of lib/, lib/kernels/ and lib/kernels/q15/
# (the q15 kernels) except the SIMD
# sets' (names starting with one of SARNN_PACKAGE_EXCLUDE_PREFIXES), which need xsimd or flags (-mavx2, -mfpu=neon,
# Helium) that a package manager does not give per file. The packages' config.hpp (packaging/include) names the
# plain C++ sets that remain. scripts/package reads the prefixes from the line below; keep it one line.
set(SARNN_PACKAGE_EXCLUDE_PREFIXES x86_ arm_neon arm_mve)

# sarnn_package_sources(<var> <root>): the absolute paths of those files under the sarnn checkout <root>.
function(sarnn_package_sources var root)
  file(GLOB _sources ${root}/lib/*.cpp ${root}/lib/kernels/*.cpp ${root}/lib/kernels/q15/*.cpp)
  list(JOIN SARNN_PACKAGE_EXCLUDE_PREFIXES "|" _alternatives)
  list(FILTER _sources EXCLUDE REGEX "/(${_alternatives})[^/]*[.]cpp$")
  list(SORT _sources)
  set(${var} ${_sources} PARENT_SCOPE)
endfunction()
