// The command line of gw-heat.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace heat {

struct Options {
  int rows = 0;  // interior rows R (0: not given)
  int cols = 0;  // interior columns C (0: not given)
  int timesteps = 0;
  int bx = 16;  // tile rows; 16 is the original benchmark's default block size
  int by = 16;  // tile columns
  std::string variant = "mpi-nbuffer";
  std::string conf_file;   // empty: the built-in sources of the original heat.conf
  std::string image_file;  // empty: no image
  bool checksum = false;
  bool help = false;
};

// Throws UsageError naming the option, the value and what was expected. With --help, returns at
// once with `help` set and the rest unchecked.
Options parse_options(std::span<char* const> arguments);

std::string usage_text(std::string_view program);

}  // namespace heat
