// sarnn/version.hpp: the release these headers belong to. The one place the version is written: CMakeLists.txt
// reads the three numbers for project(VERSION) (hence sarnnConfigVersion.cmake and sarnn.pc), and
// python/sarnn/version.py must say the same (checked by the test sarnn_pip_install).
#ifndef SARNN_VERSION_HPP
#define SARNN_VERSION_HPP

#define SARNN_VERSION_MAJOR 0
#define SARNN_VERSION_MINOR 1
#define SARNN_VERSION_PATCH 0

#define SARNN_VERSION_STR_(x) #x
#define SARNN_VERSION_XSTR_(x) SARNN_VERSION_STR_(x)
/// "MAJOR.MINOR.PATCH", made from the three numbers above (so it cannot disagree with them).
#define SARNN_VERSION_STRING                 \
    SARNN_VERSION_XSTR_(SARNN_VERSION_MAJOR) \
    "." SARNN_VERSION_XSTR_(SARNN_VERSION_MINOR) "." SARNN_VERSION_XSTR_(SARNN_VERSION_PATCH)
/// One number that grows with every release, for #if: MAJOR * 10000 + MINOR * 100 + PATCH.
#define SARNN_VERSION (SARNN_VERSION_MAJOR * 10000 + SARNN_VERSION_MINOR * 100 + SARNN_VERSION_PATCH)

#endif
