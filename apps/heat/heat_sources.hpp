// SPDX-License-Identifier: BSD-3-Clause
// Heat sources: the config file of the original benchmark and the built-in default.
// See docs/heat.md, "The config file".
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>
#include <vector>

namespace heat {

// Position (row, col) and range as fractions of the domain, and a temperature. Single precision
// because the original benchmark stores them so: widening the same floats to double in the same
// expressions gives the original's bits for any config file, not only for the default one.
struct HeatSource {
  float row = 0;
  float col = 0;
  float range = 0;
  float temperature = 0;
};

// The original heat.conf: 2 sources, "0.0 0.0 1.0 2.5" and "1.0 0.5 1.0 2.5".
std::vector<HeatSource> default_heat_sources();

// The config format: the first line holds the number of sources, then one line per source with
// exactly four numbers, "row col range temperature". '#' starts a comment (the original heat.conf
// has them); blank lines are skipped. Throws UsageError naming `origin`, the line and the problem.
std::vector<HeatSource> parse_heat_sources(std::string_view text, const std::string& origin);

// Collective: rank 0 reads `path` (empty: the default sources) and every rank parses the same
// text, so a bad file is the same UsageError on every rank.
std::vector<HeatSource> load_heat_sources(const std::string& path, MPI_Comm comm);

}  // namespace heat
