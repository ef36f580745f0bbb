// SPDX-License-Identifier: BSD-3-Clause
// The input deck: the reference's clover.in format, parsed as its parse.f90 and read_input.f90 do,
// with one difference: what the reference silently ignores (an unknown keyword, a missing value, a
// state without a geometry, a nonsense size) is an error here that names the line and the keyword.
//
//   *clover
//    state 1 density=0.2 energy=1.0
//    state 2 density=1.0 energy 2.5 geometry=rectangle xmin=0.0 xmax=5.0 ymin=0.0 ymax=2.0
//    x_cells=960  y_cells 960          ! comments start with ! or ;
//    end_step=87
//   *endclover
//
// Grammar (as the reference): only the lines of the *clover ... *endclover block count; case does
// not matter; '=' and ',' separate like blanks, so `key=value` and `key value` are the same; a value
// may stand on the next line, and a word "\" continues a line. A state's parameters follow `state N`
// on its own line. Keywords and their defaults are the reference's (read_input.f90).
//
// See docs/cloverleaf.md, "Decks".
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cloverleaf {

enum class Geometry { none, rectangle, circle, point };

struct State {
  int number = 0;  // 1-based, as in the deck
  int line = 0;    // where `state N` stands
  double density = 0, energy = 0, xvel = 0, yvel = 0;
  Geometry geometry = Geometry::none;
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0, radius = 0;
};

struct Deck {
  std::string path;              // for messages
  std::vector<std::string> text; // the file's lines, echoed into clover.out

  double xmin = 0.0, ymin = 0.0, xmax = 100.0, ymax = 100.0;
  int x_cells = 10, y_cells = 10;
  double end_time = 10.0;
  int end_step = 640000;  // the reference's g_ibig
  int visit_frequency = 0, summary_frequency = 10;
  int tiles_per_chunk = 1;
  double dtinit = 0.1, dtmax = 1.0, dtrise = 1.5;
  // Not deck keywords in the reference either: fixed safety factors and the smallest timestep.
  double dtmin = 0.0000001, dtc_safe = 0.7, dtu_safe = 0.5, dtv_safe = 0.5, dtdiv_safe = 0.7;
  int test_problem = 0;
  bool profiler_on = false;
  std::string_view kernels = "fortran";  // use_fortran_kernels / use_c_kernels / use_oa_kernels: noted only
  std::vector<State> states;        // states[i].number == i + 1

  // Line of the last assignment of each keyword that was given (for messages about values that
  // are only found wrong later, such as more ranks than cells).
  std::map<std::string, int> lines;
  int line_of(const std::string& keyword) const {
    auto it = lines.find(keyword);
    return it == lines.end() ? 0 : it->second;
  }
  // "clover.in line 7" or "clover.in" (keyword not given: its default).
  std::string where(const std::string& keyword) const;
};

// Parses a deck's text; `ranks` is for tiles_per_problem (divided among the ranks as the reference
// does). Throws UsageError "<path> line N: <keyword>: <what is wrong>" on anything malformed.
Deck parse_deck(std::string_view text, const std::string& path, int ranks);

// The keywords parse_deck understands, for messages and --help.
std::string_view deck_keywords();
std::string_view state_keywords();

}  // namespace cloverleaf
