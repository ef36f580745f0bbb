// SPDX-License-Identifier: BSD-3-Clause
// Settings::from_environment: every GHOSTWIRE_* variable is parsed here and nowhere else
// (docs/runtime.md, "Settings and environment"); a malformed value is an error naming the variable,
// its value and what was expected.
#include "ghostwire/settings.hpp"

#include <cstdlib>
#include <string>

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
  if (const char* text = variable("GHOSTWIRE_TRANSPORT")) {
    std::string name = text;
    if (name == "rma")
      settings.transport = Transport::rma;
    else if (name == "p2p")
      settings.transport = Transport::p2p;
    else
      raise(Errc::invalid_argument, "GHOSTWIRE_TRANSPORT='" + name + "': expected rma or p2p");
  }
  if (const char* text = variable("GHOSTWIRE_TIMEOUT")) {
    char* end = nullptr;
    double seconds = std::strtod(text, &end);
    if (*end != '\0' || !(seconds > 0))
      raise(Errc::invalid_argument,
            std::string("GHOSTWIRE_TIMEOUT='") + text + "': expected a positive number of seconds");
    settings.timeout_seconds = seconds;
  }
  if (const char* text = variable("GHOSTWIRE_ON_TIMEOUT")) {
    std::string name = text;
    if (name == "abort")
      settings.on_timeout = TimeoutAction::abort_job;
    else if (name == "throw")
      settings.on_timeout = TimeoutAction::throw_error;
    else
      raise(Errc::invalid_argument, "GHOSTWIRE_ON_TIMEOUT='" + name + "': expected abort or throw");
  }
  if (const char* text = variable("GHOSTWIRE_INTRA_PATH")) {
    std::string name = text;
    if (name == "auto")
      settings.intra_path = IntraPath::automatic;
    else if (name == "in-place")
      settings.intra_path = IntraPath::in_place;
    else if (name == "staged")
      settings.intra_path = IntraPath::staged;
    else if (name == "pushed")
      settings.intra_path = IntraPath::pushed;
    else
      raise(Errc::invalid_argument, "GHOSTWIRE_INTRA_PATH='" + name + "': expected auto, in-place, staged or pushed");
  }
  if (const char* text = variable("GHOSTWIRE_TAG_LIMIT"))
    settings.message_tag_limit = parse_integer("GHOSTWIRE_TAG_LIMIT", text, 0);
  if (const char* text = variable("GHOSTWIRE_SPIN")) settings.spin_polls = parse_integer("GHOSTWIRE_SPIN", text, 0);
  if (const char* text = variable("GHOSTWIRE_THREAD_LEVEL")) {
    const std::string name = text;
    if (name == "single")
      settings.thread_level = ThreadLevel::single;
    else if (name == "funneled")
      settings.thread_level = ThreadLevel::funneled;
    else if (name == "serialized")
      settings.thread_level = ThreadLevel::serialized;
    else if (name == "multiple")
      settings.thread_level = ThreadLevel::multiple;
    else
      raise(Errc::invalid_argument,
            "GHOSTWIRE_THREAD_LEVEL='" + name + "': expected single, funneled, serialized or multiple");
  }
  if (const char* text = variable("GHOSTWIRE_PARTITIONS")) {
    const std::string name = text;
    if (name == "auto")
      settings.partition_messages = PartitionMessages::automatic;
    else if (name == "separate")
      settings.partition_messages = PartitionMessages::separate;
    else if (name == "combined")
      settings.partition_messages = PartitionMessages::combined;
    else
      raise(Errc::invalid_argument, "GHOSTWIRE_PARTITIONS='" + name + "': expected auto, separate or combined");
  }
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
