// SPDX-License-Identifier: BSD-3-Clause
// The partition report: for each part count P, METIS's P parts of the mesh and what they cost, the
// owned and halo ("add") points per part and their ratio (min / median / max over the parts), as a
// human table and one JSON line per P for bench/cfdproxy/plot_partitions.py. The halo grows with
// the parts' surfaces while the owned points shrink with their volumes, so add/own measures how much
// of each exchange is overhead as the mesh is cut finer.
//
// See docs/cfdproxy.md, "The partition report and its plot".
#pragma once

#include <ostream>
#include <vector>

#include "mesh.hpp"

namespace cfdproxy {

// `part_counts`: the P values, each >= 1, in the order to report them. `json` may be null.
// Throws MeshError for a part count METIS cannot make.
void print_partition_report(const Mesh& mesh, const std::vector<int>& part_counts, std::ostream& table,
                            std::ostream* json);

}  // namespace cfdproxy
