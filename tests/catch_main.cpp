// The single Catch2 main shared by all unit-test executables.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
