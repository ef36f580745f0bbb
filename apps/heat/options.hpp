// SPDX-License-Identifier: BSD-3-Clause
// The command line of gw-heat.
// See docs/heat.md, "Running it".
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace heat {

struct TileSize {
  int bx;  // tile rows
  int by;  // tile columns
};

struct Options {
  int rows = 0;  // interior rows R (0: not given)
  int cols = 0;  // interior columns C (0: not given)
  int timesteps = 0;    // 0: not given
  double seconds = 0;   // > 0: choose the timesteps of each configuration so a run takes this long
  int repeat = 1;       // runs of each configuration
  // -b B[,B...] with --bx/--by replacing every tile's rows/columns; 16 is the original's default.
  std::vector<TileSize> tiles = {{16, 16}};
  // --variant NAME[,NAME...]; "all" stays as written (main expands it for the rank count).
  std::vector<std::string> variants = {"mpi-nbuffer"};
  std::string conf_file;   // empty: the built-in sources of the original heat.conf
  std::string image_file;  // empty: no image
  // Which rank computes which band: rank_order, hierarchical (ghostwire's topology-aware
  // placement of the chain of bands, docs/topology.md) or automatic; the field does not depend on it.
  std::string placement = "rank_order";
  // --threads N: OpenMP threads per rank of the threaded variants (the others run one). Without
  // it, OMP_NUM_THREADS (its first number), else 1.
  int threads = 1;
  bool threads_given = false;  // on the command line
  // --thread-level: the MPI thread support gw-heat asks for. Automatic (MPI_THREAD_MULTIPLE when a
  // threaded variant is chosen, else MPI_THREAD_FUNNELED) or one of ThreadLevel's.
  enum class ThreadLevel { automatic, single, funneled, serialized, multiple };
  ThreadLevel thread_level = ThreadLevel::automatic;
  bool checksum = false;
  bool help = false;
};

// Throws UsageError naming the option, the value and what was expected. With --help, returns at
// once with `help` set and the rest unchecked.
Options parse_options(std::span<char* const> arguments);

std::string usage_text(std::string_view program);

}  // namespace heat
