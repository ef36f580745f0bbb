// SPDX-License-Identifier: BSD-3-Clause
// gw-minighost's option parser and --help (options.hpp): the reference's options, defaults and
// checks; every mistake a UsageError naming the option (see docs/minighost.md, "Options").
#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

#include "usage_error.hpp"

namespace minighost {
namespace {

int parse_int(std::string_view option, std::string_view text) {
  int value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (!text.empty() && text.front() == '+') ++first;  // from_chars rejects a leading '+'
  auto [end, error] = std::from_chars(first, last, value);
  if (error == std::errc::result_out_of_range) {
    throw UsageError(std::string(option) + " '" + std::string(text) + "': out of range; expected an integer between " +
                     std::to_string(std::numeric_limits<int>::min()) + " and " +
                     std::to_string(std::numeric_limits<int>::max()));
  }
  if (text.empty() || error != std::errc() || end != last) {
    throw UsageError(std::string(option) + " '" + std::string(text) +
                     "': not an integer; expected a whole number such as 16");
  }
  return value;
}

void require(bool ok, std::string_view option, int value, std::string_view expected) {
  if (!ok) throw UsageError(std::string(option) + " " + std::to_string(value) + ": expected " + std::string(expected));
}

Stencil checked_stencil(int code) {
  switch (code) {
    case 21: return Stencil::five_point_2d;
    case 22: return Stencil::nine_point_2d;
    case 23: return Stencil::seven_point_3d;
    case 24: return Stencil::twenty_seven_point_3d;
    case 20:
      // The reference's parser accepts 20 (no computation) but both of its MPI drivers then abort
      // with "Unknown stencil for boundary exchange", so there is nothing to reproduce.
      throw UsageError(
          "--stencil 20: 'no computation' is not supported (the reference accepts it but its MPI drivers abort "
          "on it); expected 21 (2D5PT), 22 (2D9PT), 23 (3D7PT) or 24 (3D27PT)");
    default:
      throw UsageError("--stencil " + std::to_string(code) +
                       ": unknown stencil; expected 21 (2D5PT), 22 (2D9PT), 23 (3D7PT) or 24 (3D27PT)");
  }
}

// "gw,mpi,commfree": names in order, none empty or twice (make_variant checks that they exist).
std::vector<std::string> parse_variant_list(std::string_view option, std::string_view text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string name(text.substr(start, comma - start));
    if (name.empty())
      throw UsageError(std::string(option) + " '" + std::string(text) +
                       "': an empty variant name; expected names separated by commas, such as gw,mpi,commfree");
    for (const std::string& earlier : names)
      if (earlier == name)
        throw UsageError(std::string(option) + " '" + std::string(text) + "': variant '" + name + "' is listed twice");
    names.push_back(name);
    if (comma == text.size()) return names;
    start = comma + 1;
  }
}

CommMethod checked_comm_method(int code) {
  if (code == 10) return CommMethod::bspma;
  if (code == 11) return CommMethod::svaf;
  throw UsageError("--comm_method " + std::to_string(code) +
                   ": unknown communication method; expected 10 (BSPMA: all variables per neighbour in one "
                   "message) or 11 (SVAF: one variable at a time)");
}

Scaling checked_scaling(int code) {
  if (code == 1) return Scaling::strong;
  if (code == 2) return Scaling::weak;
  throw UsageError("--scaling " + std::to_string(code) +
                   ": unknown scaling; expected 1 (strong: --nx/--ny/--nz are the global grid) or 2 (weak: they "
                   "are each rank's block)");
}

// The checks of the reference's check_input, in its order, with messages that say what is expected.
void check(const Options& o, int ranks) {
  require(o.nx > 0, "--nx", o.nx, "a grid size > 0");
  require(o.ny > 0, "--ny", o.ny, "a grid size > 0");
  require(o.nz > 0, "--nz", o.nz, "a grid size > 0");
  require(o.num_vars > 0, "--num_vars", o.num_vars, "at least 1 variable");
  require(o.num_tsteps > 0, "--num_tsteps", o.num_tsteps, "at least 1 time step");
  require(o.num_spikes > 0, "--num_spikes", o.num_spikes, "at least 1 spike");
  require(o.error_tol >= 0, "--error_tol", o.error_tol, "an exponent >= 0 (the tolerance is 10^-error_tol)");
  require(o.report_diffusion >= 0, "--report_diffusion", o.report_diffusion,
          "a number of steps >= 0 (0: the last step of each spike)");
  require(o.percent_sum >= 0 && o.percent_sum <= 100, "--percent_sum", o.percent_sum, "0 through 100");
  require(o.report_perf >= 0 && o.report_perf <= 2, "--report_perf", o.report_perf, "0, 1 or 2");
  const long long steps = static_cast<long long>(o.num_spikes) * o.num_tsteps;
  require(o.rounds >= 1 && o.rounds <= steps, "--rounds", o.rounds,
          "1 to the number of time steps (num_spikes x num_tsteps = " + std::to_string(steps) + ")");
  require(o.debug_grid == 0 || o.debug_grid == 1, "--debug_grid", o.debug_grid, "0 or 1");
  require(o.boundary_condition == 31, "--bc", o.boundary_condition,
          "31 (Dirichlet, the only boundary condition of miniGhost)");
  require(o.checkpoint_method == 1 || o.checkpoint_method == 2, "--checkpoint_method", o.checkpoint_method,
          "1 (MPI-IO) or 2 (H5Part)");
  require(o.checkpoint_interval >= 0, "--checkpoint_interval", o.checkpoint_interval, "a number of steps >= 0");
  require(o.npx > 0, "--npx", o.npx, "at least 1 process in x");
  require(o.npy > 0, "--npy", o.npy, "at least 1 process in y");
  require(o.npz > 0, "--npz", o.npz, "at least 1 process in z");
  const long long grid_ranks = static_cast<long long>(o.npx) * o.npy * o.npz;
  if (grid_ranks != ranks) {
    std::ostringstream message;
    message << "--npx " << o.npx << " --npy " << o.npy << " --npz " << o.npz << ": the process grid has " << grid_ranks
            << " ranks but the job has " << ranks << "; expected npx*npy*npz = " << ranks
            << " (npx defaults to the number of ranks, npy and npz to 1)";
    throw UsageError(message.str());
  }
}

}  // namespace

Options parse_options(std::span<char* const> arguments, int ranks) {
  Options o;
  o.npx = ranks;  // the reference's default process grid: ranks x 1 x 1
  using Setter = std::function<void(std::string_view option, std::string_view value)>;
  auto integer = [](int& target) -> Setter {
    return [&target](std::string_view option, std::string_view value) { target = parse_int(option, value); };
  };
  auto text = [](std::string& target) -> Setter {
    return [&target](std::string_view option, std::string_view value) {
      if (value.empty()) throw UsageError(std::string(option) + ": expected a non-empty path");
      if (value.size() > 1023) throw UsageError(std::string(option) + ": the path is longer than 1023 characters");
      target = value;
    };
  };
  const std::map<std::string_view, Setter> setters = {
      {"--scaling", [&](auto option, auto value) { o.scaling = checked_scaling(parse_int(option, value)); }},
      {"--nx", integer(o.nx)},
      {"--ny", integer(o.ny)},
      {"--nz", integer(o.nz)},
      {"--ndim", [&](auto option, auto value) { o.nx = o.ny = o.nz = parse_int(option, value); }},
      {"--num_vars", integer(o.num_vars)},
      {"--percent_sum", integer(o.percent_sum)},
      {"--num_spikes", integer(o.num_spikes)},
      {"--num_tsteps", integer(o.num_tsteps)},
      {"--stencil", [&](auto option, auto value) { o.stencil = checked_stencil(parse_int(option, value)); }},
      {"--comm_method",
       [&](auto option, auto value) { o.comm_method = checked_comm_method(parse_int(option, value)); }},
      {"--bc", integer(o.boundary_condition)},
      {"--error_tol", integer(o.error_tol)},
      {"--report_diffusion", integer(o.report_diffusion)},
      {"--npx", integer(o.npx)},
      {"--npy", integer(o.npy)},
      {"--npz", integer(o.npz)},
      {"--npdim", [&](auto option, auto value) { o.npx = o.npy = o.npz = parse_int(option, value); }},
      {"--placement",
       [&](auto option, auto value) {
         if (value != "rank_order" && value != "hierarchical" && value != "automatic")
           throw UsageError(std::string(option) + " '" + std::string(value) +
                            "': unknown placement; expected rank_order, hierarchical or automatic");
         o.placement = std::string(value);
       }},
      {"--report_perf", integer(o.report_perf)},
      {"--debug_grid", integer(o.debug_grid)},
      {"--checkpoint_method", integer(o.checkpoint_method)},
      {"--checkpoint_interval", integer(o.checkpoint_interval)},
      {"--checkpoint_file", text(o.checkpoint_file)},
      {"--restart_cp_num", integer(o.restart_cp_num)},
      {"--restart_file", text(o.restart_file)},
      {"--variant", [&](auto option, auto value) { o.variants = parse_variant_list(option, value); }},
      {"--rounds", integer(o.rounds)},
      {"--output", text(o.output_file)},
  };

  for (std::size_t i = 1; i < arguments.size(); ++i) {
    std::string_view argument = arguments[i];
    if (argument == "--help" || argument == "-h") {
      o.help = true;
      return o;
    }
    // Both "--nx 16" (the reference's form) and "--nx=16".
    std::string_view name = argument;
    std::string_view value;
    bool has_value = false;
    if (auto equals = argument.find('='); argument.starts_with("--") && equals != std::string_view::npos) {
      name = argument.substr(0, equals);
      value = argument.substr(equals + 1);
      has_value = true;
    }
    auto setter = setters.find(name);
    if (setter == setters.end()) {
      throw UsageError("unknown option '" + std::string(argument) + "' (gw-minighost --help lists the options)");
    }
    if (!has_value) {
      if (i + 1 >= arguments.size()) throw UsageError(std::string(name) + ": missing value");
      value = arguments[++i];
    }
    setter->second(name, value);
  }
  o.variant = o.variants.front();
  check(o, ranks);
  return o;
}

std::string usage_text(std::string_view program) {
  std::ostringstream text;
  text << "usage: " << program << " [options]\n"
       << "\n"
       << "miniGhost (Mantevo 1.0.1): a 3-D finite-difference stencil with halo exchange, verified by\n"
       << "conservation of the heat injected by spikes. Options and defaults are the reference's.\n"
       << "\n"
       << "  --scaling S            1 strong (--nx/--ny/--nz are global), 2 weak (per rank) [2]\n"
       << "  --nx N --ny N --nz N   grid size, > 0 [100 100 100]\n"
       << "  --ndim N               --nx N --ny N --nz N\n"
       << "  --num_vars N           number of variables, > 0 [5]\n"
       << "  --num_spikes N         heat spikes, each followed by --num_tsteps steps, > 0 [1]\n"
       << "  --num_tsteps N         time steps per spike, > 0 [100]\n"
       << "  --stencil S            21 2D5PT, 22 2D9PT, 23 3D7PT, 24 3D27PT [21]\n"
       << "  --comm_method M        10 BSPMA (all variables per neighbour in one message),\n"
       << "                         11 SVAF (one variable at a time) [10]\n"
       << "  --bc B                 boundary condition, 31 Dirichlet (the only one) [31]\n"
       << "  --error_tol E          conservation tolerance 10^-E, >= 0 [8]\n"
       << "  --report_diffusion S   print the conservation line every S steps, 0: last step [20]\n"
       << "  --percent_sum P        0: check conservation at report steps only; 1..100: every step,\n"
       << "                         every variable, as the reference does [100]\n"
       << "  --npx N --npy N --npz N   process grid, npx*npy*npz = ranks [ranks 1 1]\n"
       << "  --npdim N              --npx N --npy N --npz N\n"
       << "  --placement P          which rank computes which block: rank_order, hierarchical\n"
       << "                         (topology-aware), automatic (hierarchical when GHOSTWIRE_TOPOLOGY\n"
       << "                         is set or there are several nodes) [rank_order]\n"
       << "  --report_perf R        0, 1 (timing breakdown), 2 (also per rank) [0]\n"
       << "  --debug_grid D         1: the grid starts at 0 and only spikes heat it; 0: every cell\n"
       << "                         starts at the reference's value (48 in blocks of 48+ cells) [0]\n"
       << "  --checkpoint_method M --checkpoint_interval N --checkpoint_file F\n"
       << "  --restart_cp_num N --restart_file F\n"
       << "                         accepted and ignored, like the reference's default build\n"
       << "  --variant V            mpi (plain MPI baseline), commfree (no halo exchange: compute\n"
       << "                         time only), gw (ghostwire grids, when built) [mpi]\n"
       << "  --variant V,W,...      several variants side by side in this one job: they take turns\n"
       << "                         in --rounds rounds of the time steps (each round times every\n"
       << "                         variant between barriers, in rotated order), so a slow spell\n"
       << "                         of the machine hits all alike; each prints its own report\n"
       << "  --rounds R             rounds of the side-by-side mode, 1..steps [1]\n"
       << "  --output FILE          also write the report lines and the JSON line to FILE (side by\n"
       << "                         side: FILE with .VARIANT before its extension, one per variant)\n"
       << "  --help                 this text\n"
       << "\n"
       << "At every report step rank 0 prints, per variable,\n"
       << "  diffusion step S var V source_total X gsum X flux_out X interior_sum X\n"
       << "and at the end a table and one JSON line. The exit status is 1 if conservation fails,\n"
       << "2 for a usage error. See docs/minighost.md.\n";
  return text.str();
}

}  // namespace minighost
