// tests/main.cpp: Catch2 v2's main() for the sarnn test executables (Debian's Catch2WithMain is x86-only, and
// the cross builds reuse this suite).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
