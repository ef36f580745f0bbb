// SPDX-License-Identifier: BSD-3-Clause
// Settings::from_environment: every GHOSTWIRE_* variable is parsed here and nowhere else
// (docs/runtime.md, "Settings and environment"); a malformed value is an error naming the variable,
// its value and what was expected.
#include "ghostwire/settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ghostwire/error.hpp"

namespace ghostwire {
namespace {

const char* variable(const char* name) {
  const char* value = std::getenv(name);
  return (value && *value) ? value : nullptr;
}

long parse_integer(const char* name, const char* text, long minimum) {
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < minimum)
    raise(Errc::invalid_argument, std::string(name) + "='" + text + "': expected an integer >= " +
                                      std::to_string(minimum));
  return value;
}

// OpenMP's own variable may list threads per nesting level ("4,2"): the outermost counts. A value
// that is not a positive number is OpenMP's to reject, not ghostwire's: 1 then.
int threads_of_openmp(const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return (end != text && value > 0 && value < (1L << 20)) ? static_cast<int>(value) : 1;
}

template <class Value>
struct Choice {
  const char* name;
  Value value;
};

// The value `text` names among `choices`, or an error naming the variable, its value and every
// choice ("expected a, b or c").
template <class Value, std::size_t count>
Value parse_choice(const char* name, const char* text, const Choice<Value> (&choices)[count]) {
  std::string expected;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::string_view(text) == choices[i].name) return choices[i].value;
    expected += (i == 0 ? "" : i + 1 == count ? " or " : ", ") + std::string(choices[i].name);
  }
  raise(Errc::invalid_argument, std::string(name) + "='" + text + "': expected " + expected);
}

// The built-in paths by their enum, any other name as a path a program registers (a plan's commit
// refuses a name no path has).
void parse_intra_path(const char* text, Settings& settings) {
  const std::string_view name(text);
  const bool word = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
  if (!word)
    raise(Errc::invalid_argument, std::string("GHOSTWIRE_INTRA_PATH='") + text +
                                      "': expected auto, in-place, staged, pushed or the name of a registered path");
  const std::pair<const char*, IntraPath> builtin[] = {
      {"auto", IntraPath::automatic}, {"in-place", IntraPath::in_place}, {"staged", IntraPath::staged},
      {"pushed", IntraPath::pushed}};
  settings.intra_path = IntraPath::named;
  settings.intra_path_name = text;
  for (const auto& [known, value] : builtin)
    if (name == known) {
      settings.intra_path = value;
      settings.intra_path_name.clear();
    }
}

}  // namespace

const char* transport_name(Transport transport) noexcept {
  return transport == Transport::rma ? "rma" : "p2p";
}

const char* aggregation_name(Aggregation aggregation) noexcept {
  switch (aggregation) {
    case Aggregation::automatic: return "auto";
    case Aggregation::node: return "node";
    case Aggregation::off: return "off";
  }
  return "?";
}

std::optional<Aggregation> aggregation_from_name(std::string_view name) noexcept {
  for (Aggregation mode : {Aggregation::automatic, Aggregation::node, Aggregation::off})
    if (name == aggregation_name(mode)) return mode;
  return std::nullopt;
}

const char* thread_level_name(ThreadLevel level) noexcept {
  switch (level) {
    case ThreadLevel::single: return "MPI_THREAD_SINGLE";
    case ThreadLevel::funneled: return "MPI_THREAD_FUNNELED";
    case ThreadLevel::serialized: return "MPI_THREAD_SERIALIZED";
    case ThreadLevel::multiple: return "MPI_THREAD_MULTIPLE";
  }
  return "?";
}

Settings Settings::from_environment() {
  Settings settings;
  if (const char* text = variable("GHOSTWIRE_RANKS_PER_NODE"))
    settings.ranks_per_node = static_cast<int>(parse_integer("GHOSTWIRE_RANKS_PER_NODE", text, 0));
  if (const char* text = variable("GHOSTWIRE_TRANSPORT"))
    settings.transport =
        parse_choice<Transport>("GHOSTWIRE_TRANSPORT", text, {{"rma", Transport::rma}, {"p2p", Transport::p2p}});
  if (const char* text = variable("GHOSTWIRE_TIMEOUT")) {
    char* end = nullptr;
    double seconds = std::strtod(text, &end);
    if (*end != '\0' || !(seconds > 0))
      raise(Errc::invalid_argument,
            std::string("GHOSTWIRE_TIMEOUT='") + text + "': expected a positive number of seconds");
    settings.timeout_seconds = seconds;
  }
  if (const char* text = variable("GHOSTWIRE_ON_TIMEOUT"))
    settings.on_timeout = parse_choice<TimeoutAction>(
        "GHOSTWIRE_ON_TIMEOUT", text, {{"abort", TimeoutAction::abort_job}, {"throw", TimeoutAction::throw_error}});
  if (const char* text = variable("GHOSTWIRE_INTRA_PATH")) parse_intra_path(text, settings);
  if (const char* text = variable("GHOSTWIRE_TAG_LIMIT"))
    settings.message_tag_limit = parse_integer("GHOSTWIRE_TAG_LIMIT", text, 0);
  if (const char* text = variable("GHOSTWIRE_SPIN")) settings.spin_polls = parse_integer("GHOSTWIRE_SPIN", text, 0);
  if (const char* text = variable("GHOSTWIRE_THREAD_LEVEL"))
    settings.thread_level = parse_choice<ThreadLevel>("GHOSTWIRE_THREAD_LEVEL", text,
                                                      {{"single", ThreadLevel::single},
                                                       {"funneled", ThreadLevel::funneled},
                                                       {"serialized", ThreadLevel::serialized},
                                                       {"multiple", ThreadLevel::multiple}});
  if (const char* text = variable("GHOSTWIRE_PARTITIONS"))
    settings.partition_messages = parse_choice<PartitionMessages>("GHOSTWIRE_PARTITIONS", text,
                                                                  {{"auto", PartitionMessages::automatic},
                                                                   {"separate", PartitionMessages::separate},
                                                                   {"combined", PartitionMessages::combined}});
  if (const char* text = variable("GHOSTWIRE_AGGREGATE")) {
    const std::optional<Aggregation> mode = aggregation_from_name(text);
    if (!mode) raise(Errc::invalid_argument, std::string("GHOSTWIRE_AGGREGATE='") + text + "': expected auto, node or off");
    settings.aggregation = *mode;
  }
  if (const char* text = variable("GHOSTWIRE_THREADS"))
    settings.threads_per_rank = static_cast<int>(parse_integer("GHOSTWIRE_THREADS", text, 1));
  else if (const char* omp = variable("OMP_NUM_THREADS"))
    settings.threads_per_rank = threads_of_openmp(omp);
  // Any non-empty value is a path; whether it opens and parses is checked where it is read
  // (TopologyFile::read), with the file's own line numbers.
  if (const char* text = variable("GHOSTWIRE_TOPOLOGY")) settings.topology_file = text;
  return settings;
}

}  // namespace ghostwire
