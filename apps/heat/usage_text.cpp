// SPDX-License-Identifier: BSD-3-Clause
// gw-heat --help: apart from the parser (options.cpp) because it lists the solvers from their
// registry, which the parser does not need (so the parser's fuzzer links without any solver).
// See docs/heat.md, "Running it".
#include <algorithm>

#include "options.hpp"
#include "solver.hpp"

namespace heat {

std::string usage_text(std::string_view program) {
  std::string text = "Usage: " + std::string(program) +
                     " (-s N | -r R -c C) (-t T | --seconds S) [options]\n"
                     "\n"
                     "The INTERTWinE Heat benchmark: T in-place Gauss-Seidel sweeps over an R x C grid\n"
                     "whose boundary is heated by sources. Rows are split into equal bands, one per\n"
                     "MPI rank; bands are split into BX x BY tiles.\n"
                     "\n"
                     "  -s, --size N        an N x N interior (same as -r N -c N)\n"
                     "  -r, --rows R        interior rows; R must be divisible by ranks x BX\n"
                     "  -c, --cols C        interior columns; C must be divisible by BY\n"
                     "  -t, --timesteps T   number of sweeps\n"
                     "  -b, --block B       B x B tiles (default 16); a list (-b 8,16,64) runs each\n"
                     "      --bx BX         rows of a tile (of every tile size)\n"
                     "      --by BY         columns of a tile (of every tile size)\n"
                     "      --seconds S     instead of -t: choose the timesteps of each configuration\n"
                     "                      so that a run takes about S seconds (calibration runs first)\n"
                     "      --repeat N      run each configuration N times; prints every run and the\n"
                     "                      median, and a summary table\n"
                     "      --variant NAME  the solver (default mpi-nbuffer), a comma-separated list,\n"
                     "                      or 'all' (every variant for this rank count), of:\n";
  for (const Variant& variant : variants()) {
    std::string name(variant.name);
    name.resize(std::max<std::size_t>(name.size(), 23), ' ');
    text += "        " + name + " " + variant.description + "\n";
  }
  text +=
      "  -f, --conf FILE     heat sources: first line the number of sources, then one line per\n"
      "                      source: row col range temperature (row, col in [0,1], range > 0);\n"
      "                      '#' starts a comment. Default: the original heat.conf, two sources\n"
      "                      '0.0 0.0 1.0 2.5' and '1.0 0.5 1.0 2.5'\n"
      "  -o, --output FILE   write the final field as a PPM image (the original's format)\n"
      "      --threads N     OpenMP threads per rank of the threaded variants (the others\n"
      "                      run one) [OMP_NUM_THREADS, else 1]\n"
      "      --thread-level L  the MPI thread support to ask for: single, funneled,\n"
      "                      serialized, multiple, automatic (multiple when a threaded\n"
      "                      variant is chosen, else funneled) [automatic]\n"
      "      --placement P   which rank computes which band: rank_order, hierarchical\n"
      "                      (topology-aware), automatic (hierarchical when GHOSTWIRE_TOPOLOGY\n"
      "                      is set or there are several nodes) [rank_order]\n"
      "      --checksum      print 'checksum NAME VALUE' lines for the final field (one\n"
      "                      configuration and one run only, as -o)\n"
      "  -h, --help          show this help\n"
      "\n"
      "Prints one human line and one JSON line per run with the time and Mupdates/s\n"
      "(R x C x T / time); with several runs also their medians and a summary table.\n";
  return text;
}

}  // namespace heat
