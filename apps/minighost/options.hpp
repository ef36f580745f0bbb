// SPDX-License-Identifier: BSD-3-Clause
// The command line of gw-minighost: the reference miniGhost's options with its defaults
// (Mantevo miniGhost 1.0.1, default-settings.h), plus --variant and --output.
// See docs/minighost.md, "Options".
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "problem_kinds.hpp"

namespace minighost {

struct Options {
  Scaling scaling = Scaling::weak;
  int nx = 100;  // per rank (weak scaling) or global (strong scaling)
  int ny = 100;
  int nz = 100;
  int num_vars = 5;
  int percent_sum = 100;  // variables summed (and checked) every step; see docs/minighost.md
  int num_spikes = 1;
  int num_tsteps = 100;  // time steps per spike
  Stencil stencil = Stencil::five_point_2d;
  CommMethod comm_method = CommMethod::bspma;
  int boundary_condition = 31;  // 31: Dirichlet, the only one the reference has
  int error_tol = 8;            // tolerance 10^-error_tol
  int report_diffusion = 20;    // 0: report at the last step of each spike only
  int npx = 0;                  // 0: the number of ranks (the reference's default grid is ranks x 1 x 1)
  int npy = 1;
  int npz = 1;
  // Which rank computes which block: rank_order (the reference's), hierarchical (ghostwire's
  // topology-aware placement, docs/topology.md) or automatic (hierarchical when a topology is
  // known). Every variant uses it; results do not depend on it.
  std::string placement = "rank_order";
  int report_perf = 0;  // 0, 1, 2: how much timing detail the final report has
  int debug_grid = 0;   // 1: grid starts at 0, only spikes are inserted
  // Checkpointing needs a compile-time option in the reference and its default build ignores
  // these; they are accepted and checked the same way, and ignored.
  int checkpoint_method = 1;
  int checkpoint_interval = 0;
  std::string checkpoint_file;
  int restart_cp_num = -2;
  std::string restart_file;

  std::string variant = "mpi";  // the first of variants
  // Several (--variant gw,mpi,commfree): the side-by-side mode, every variant in this one job,
  // taking turns in `rounds` rounds of the time steps (main.cpp).
  std::vector<std::string> variants = {"mpi"};
  int rounds = 1;
  std::string output_file;  // empty: no copy of the report lines and the JSON line
  bool help = false;
};

// Parses and checks the command line for a job of `ranks` processes. Throws UsageError naming the
// option, the value and what was expected. With --help, returns at once with `help` set.
Options parse_options(std::span<char* const> arguments, int ranks);

std::string usage_text(std::string_view program);

}  // namespace minighost
