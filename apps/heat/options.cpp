// SPDX-License-Identifier: BSD-3-Clause
// gw-heat's option parser (options.hpp): one table of the options; every mistake a UsageError
// naming the option, the value and what was expected (see docs/heat.md, "Running it"). --help is
// usage_text.cpp, so this file links without any solver (fuzz/).
#include "options.hpp"

#include <charconv>
#include <climits>
#include <cstdlib>
#include <optional>

#include "usage_error.hpp"

namespace heat {
namespace {

enum class Key {
  size, rows, cols, timesteps, seconds, repeat, block, bx, by, variant, conf, output, placement, threads,
  thread_level, checksum, help
};

struct OptionSpec {
  char short_name;  // 0: long form only
  std::string_view long_name;
  bool takes_value;
  Key key;
  std::string_view value_meaning;  // completes "expects ..." in error messages
};

// --sources-file is the original benchmark's name for --conf, kept so its scripts still work.
constexpr OptionSpec option_specs[] = {
    {'s', "size", true, Key::size, "the number of interior rows and columns"},
    {'r', "rows", true, Key::rows, "the number of interior rows"},
    {'c', "cols", true, Key::cols, "the number of interior columns"},
    {'t', "timesteps", true, Key::timesteps, "the number of timesteps"},
    {0, "seconds", true, Key::seconds, "the length of a run in seconds"},
    {0, "repeat", true, Key::repeat, "the number of runs of each configuration"},
    {'b', "block", true, Key::block, "the tile size"},
    {0, "bx", true, Key::bx, "the number of rows of a tile"},
    {0, "by", true, Key::by, "the number of columns of a tile"},
    {0, "variant", true, Key::variant, "a variant name, a comma-separated list or 'all'"},
    {'f', "conf", true, Key::conf, "a config file name"},
    {0, "sources-file", true, Key::conf, "a config file name"},
    {'o', "output", true, Key::output, "an image file name"},
    {0, "placement", true, Key::placement, "rank_order, hierarchical or automatic"},
    {0, "threads", true, Key::threads, "the number of OpenMP threads per rank"},
    {0, "thread-level", true, Key::thread_level, "single, funneled, serialized, multiple or automatic"},
    {0, "checksum", false, Key::checksum, ""},
    {'h', "help", false, Key::help, ""},
};

// Interior sizes stay below INT_MAX - 2 so that R + 2 and C + 2 (with the boundary) fit an int.
constexpr long long largest_size = INT_MAX - 2;

const OptionSpec* find_long(std::string_view name) {
  for (const auto& spec : option_specs) {
    if (spec.long_name == name) return &spec;
  }
  return nullptr;
}

const OptionSpec* find_short(char name) {
  for (const auto& spec : option_specs) {
    if (spec.short_name != 0 && spec.short_name == name) return &spec;
  }
  return nullptr;
}

int positive_int(std::string_view shown_name, const OptionSpec& spec, std::string_view text,
                 long long largest) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < 1 || value > largest) {
    throw UsageError(std::string(shown_name) + " expects a whole number from 1 to " +
                     std::to_string(largest) + " (" + std::string(spec.value_meaning) + "), got '" +
                     std::string(text) + "'");
  }
  return static_cast<int>(value);
}

// "8,16,32": each a positive int (named by the option in errors).
std::vector<int> positive_int_list(std::string_view shown_name, const OptionSpec& spec, std::string_view text,
                                   long long largest) {
  std::vector<int> values;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    values.push_back(positive_int(shown_name, spec, text.substr(start, comma - start), largest));
    if (comma == std::string_view::npos) return values;
    start = comma + 1;
  }
}

double positive_seconds(std::string_view shown_name, const OptionSpec& spec, std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !(value > 0) || value > 1e6) {
    throw UsageError(std::string(shown_name) + " expects a positive number up to 1e6 (" +
                     std::string(spec.value_meaning) + "), got '" + copy + "'");
  }
  return value;
}

// More threads than this per rank is surely a typo (and would exhaust the machine).
constexpr long long largest_threads = 4096;

Options::ThreadLevel thread_level(std::string_view shown_name, const OptionSpec& spec, std::string_view text) {
  using Level = Options::ThreadLevel;
  if (text == "automatic") return Level::automatic;
  if (text == "single") return Level::single;
  if (text == "funneled") return Level::funneled;
  if (text == "serialized") return Level::serialized;
  if (text == "multiple") return Level::multiple;
  throw UsageError(std::string(shown_name) + " expects " + std::string(spec.value_meaning) + ", got '" +
                   std::string(text) + "'");
}

// OMP_NUM_THREADS, the default of --threads: its first number ("4" or "4,2" for nested levels).
int threads_from_environment() {
  const char* text = std::getenv("OMP_NUM_THREADS");
  if (text == nullptr || *text == '\0') return 1;
  std::string_view value(text);
  value = value.substr(0, value.find(','));
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  long long threads = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), threads);
  if (value.empty() || error != std::errc{} || end != value.data() + value.size() || threads < 1 ||
      threads > largest_threads) {
    throw UsageError("OMP_NUM_THREADS='" + std::string(text) + "' (the default of --threads) must be a whole number " +
                     "from 1 to " + std::to_string(largest_threads) + "; give --threads N instead");
  }
  return static_cast<int>(threads);
}

// What -b, --bx and --by said, combined once all options are read (so their order does not matter).
struct TileOptions {
  std::vector<int> blocks = {16};
  int bx = 0;  // 0: as -b
  int by = 0;
};

void apply(Options& options, TileOptions& tiles, const OptionSpec& spec, std::string_view shown_name,
           std::string_view value) {
  switch (spec.key) {
    case Key::size:
      options.rows = options.cols = positive_int(shown_name, spec, value, largest_size);
      break;
    case Key::rows: options.rows = positive_int(shown_name, spec, value, largest_size); break;
    case Key::cols: options.cols = positive_int(shown_name, spec, value, largest_size); break;
    case Key::timesteps: options.timesteps = positive_int(shown_name, spec, value, INT_MAX); break;
    case Key::seconds: options.seconds = positive_seconds(shown_name, spec, value); break;
    case Key::repeat: options.repeat = positive_int(shown_name, spec, value, 1000000); break;
    case Key::block: tiles.blocks = positive_int_list(shown_name, spec, value, largest_size); break;
    case Key::bx: tiles.bx = positive_int(shown_name, spec, value, largest_size); break;
    case Key::by: tiles.by = positive_int(shown_name, spec, value, largest_size); break;
    case Key::variant: {
      options.variants.clear();
      std::size_t start = 0;
      for (;;) {
        const std::size_t comma = value.find(',', start);
        const std::string_view name = value.substr(start, comma - start);
        if (name.empty()) throw UsageError(std::string(shown_name) + " has an empty variant name in '" + std::string(value) + "'");
        options.variants.emplace_back(name);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
      break;
    }
    case Key::conf: options.conf_file = value; break;
    case Key::output: options.image_file = value; break;
    case Key::placement:
      if (value != "rank_order" && value != "hierarchical" && value != "automatic")
        throw UsageError(std::string(shown_name) + " expects " + std::string(spec.value_meaning) + ", got '" +
                         std::string(value) + "'");
      options.placement = value;
      break;
    case Key::threads:
      options.threads = positive_int(shown_name, spec, value, largest_threads);
      options.threads_given = true;
      break;
    case Key::thread_level: options.thread_level = thread_level(shown_name, spec, value); break;
    case Key::checksum: options.checksum = true; break;
    case Key::help: options.help = true; break;
  }
  if ((spec.key == Key::conf || spec.key == Key::output) && value.empty()) {
    throw UsageError(std::string(shown_name) + " expects " + std::string(spec.value_meaning) +
                     ", got an empty one");
  }
}

}  // namespace

Options parse_options(std::span<char* const> arguments) {
  Options options;
  TileOptions tiles;
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    const OptionSpec* spec = nullptr;
    std::string shown_name;
    std::optional<std::string_view> attached_value;  // --name=value or -xVALUE

    if (argument.starts_with("--") && argument.size() > 2) {
      std::string_view name = argument.substr(2);
      if (const auto equals = name.find('='); equals != std::string_view::npos) {
        attached_value = name.substr(equals + 1);
        name = name.substr(0, equals);
      }
      spec = find_long(name);
      shown_name = "--" + std::string(name);
    } else if (argument.starts_with("-") && argument.size() > 1) {
      spec = find_short(argument[1]);
      shown_name = std::string(argument.substr(0, 2));
      if (argument.size() > 2) attached_value = argument.substr(2);
    } else {
      throw UsageError("unexpected argument '" + std::string(argument) +
                       "' (all arguments are options; see --help)");
    }
    if (spec == nullptr) {
      throw UsageError("unknown option '" + std::string(argument) + "' (see --help)");
    }

    std::string_view value;
    if (spec->takes_value) {
      if (attached_value) {
        value = *attached_value;
      } else if (i + 1 < arguments.size()) {
        value = arguments[++i];
      } else {
        throw UsageError(shown_name + " needs a value: " + std::string(spec->value_meaning));
      }
    } else if (attached_value) {
      throw UsageError(shown_name + " takes no value, got '" + std::string(argument) + "'");
    }
    apply(options, tiles, *spec, shown_name, value);
    if (options.help) return options;
  }

  if (options.rows == 0 || options.cols == 0) {
    throw UsageError("the grid size is missing: give -s N, or -r R and -c C (see --help)");
  }
  if (options.timesteps == 0 && options.seconds == 0) {
    throw UsageError("the number of timesteps is missing: give -t T, or --seconds S to choose it (see --help)");
  }
  if (options.timesteps != 0 && options.seconds != 0) {
    throw UsageError("give either -t (the timesteps) or --seconds (choose the timesteps), not both");
  }
  if (!options.threads_given) options.threads = threads_from_environment();
  options.tiles.clear();
  for (const int block : tiles.blocks) {
    options.tiles.push_back({tiles.bx != 0 ? tiles.bx : block, tiles.by != 0 ? tiles.by : block});
  }
  return options;
}

}  // namespace heat
