// client/shell/main.cpp
//
// Entry point of the `hearth` shell: parse options, run the Shell.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "client/shell/shell.h"
#include "client/shell/shell_options.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  auto options = hearth::client::ParseShellOptions(
      args, [](const char* name) -> const char* { return std::getenv(name); }, &error);
  if (!options) {
    std::cerr << "hearth: error: " << error << "\n"
              << "hearth: hint: Try \"hearth --help\" for more information.\n";
    return hearth::client::kExitError;
  }
  hearth::client::Shell shell(std::move(*options));
  return shell.Run();
}
