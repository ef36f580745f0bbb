// SPDX-License-Identifier: BSD-3-Clause
// Synthetic machines and allocations for evaluating mappings without the machine.
#include <algorithm>
#include <cstdlib>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"

namespace ghostwire::topo {
namespace {

// splitmix64: the same sequence on every platform (std::uniform_int_distribution is not).
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int uniform(int low, int high) { return low + static_cast<int>(next() % static_cast<std::uint64_t>(high - low + 1)); }
};

void check_counts(const char* what, int nodes, int cores) {
  if (nodes < 1 || cores < 1)
    raise(Errc::invalid_argument, std::string(what) + ": nodes " + std::to_string(nodes) + " and cores " +
                                      std::to_string(cores) + " must be >= 1");
}

// Two packages per node when the cores split evenly.
void add_cores(std::vector<std::vector<int>>& paths, const std::vector<int>& node_path, int cores) {
  const int per_package = cores % 2 == 0 ? cores / 2 : cores;
  for (int c = 0; c < cores; ++c) {
    std::vector<int> path = node_path;
    path.push_back(c / per_package);
    path.push_back(c);
    paths.push_back(std::move(path));
  }
}

int parse_int(const std::string& text, const std::string& spec) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 100000000)
    raise(Errc::invalid_argument, "machine '" + spec + "': '" + text + "' is not a positive integer");
  return static_cast<int>(v);
}

}  // namespace

Topology cray_sparse(int nodes, int cores, std::uint64_t seed) {
  check_counts("cray_sparse", nodes, cores);
  constexpr int per_blade = 4, per_chassis = 16 * per_blade, per_cabinet = 3 * per_chassis, per_group = 2 * per_cabinet;
  // About one node in 16 of the machine is ours (the study: 384 of Hazel Hen's 7,712), in runs of
  // 1 to 8 consecutive node ids separated by gaps averaging 15 times the mean run.
  Random random{seed};
  std::vector<int> ids;
  int next = random.uniform(0, 64);
  while (static_cast<int>(ids.size()) < nodes) {
    const int run = std::min(random.uniform(1, 8), nodes - static_cast<int>(ids.size()));
    for (int i = 0; i < run; ++i) ids.push_back(next++);
    next += random.uniform(1, 134);
  }
  std::vector<std::vector<int>> paths;
  paths.reserve(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(cores));
  for (int id : ids)
    add_cores(paths,
              {id / per_group, id / per_cabinet % 2, id / per_chassis % 3, id / per_blade % 16, id % per_blade},
              cores);
  return Topology({"group", "cabinet", "chassis", "blade", "node", "package", "core"}, 4, std::move(paths));
}

Topology fat_tree(int nodes, int cores, int nodes_per_switch) {
  check_counts("fat_tree", nodes, cores);
  if (nodes_per_switch < 1) raise(Errc::invalid_argument, "fat_tree: nodes_per_switch must be >= 1");
  std::vector<std::vector<int>> paths;
  for (int n = 0; n < nodes; ++n) add_cores(paths, {n / nodes_per_switch, n}, cores);
  return Topology({"switch", "node", "package", "core"}, 1, std::move(paths));
}

Topology make_machine(const std::string& spec) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  auto sizes = [&](const std::string& text) {
    const std::size_t x = text.find('x');
    if (x == std::string::npos) raise(Errc::invalid_argument, "machine '" + spec + "': expected NODESxCORES, got '" + text + "'");
    return std::pair<int, int>{parse_int(text.substr(0, x), spec), parse_int(text.substr(x + 1), spec)};
  };
  const std::string& kind = parts[0];
  if (kind == "cray-sparse" && (parts.size() == 2 || parts.size() == 3)) {
    auto [n, c] = sizes(parts[1]);
    return cray_sparse(n, c, parts.size() == 3 ? static_cast<std::uint64_t>(parse_int(parts[2], spec)) : 1);
  }
  if (kind == "fat-tree" && (parts.size() == 2 || parts.size() == 3)) {
    auto [n, c] = sizes(parts[1]);
    return fat_tree(n, c, parts.size() == 3 ? parse_int(parts[2], spec) : 8);
  }
  if (kind == "hosts" && parts.size() == 2) {
    auto [n, c] = sizes(parts[1]);
    std::vector<std::vector<int>> paths;
    for (int i = 0; i < n; ++i) add_cores(paths, {i}, c);
    return Topology({"node", "package", "core"}, 0, std::move(paths));
  }
  if (kind == "file" && parts.size() >= 3) {
    // The path may itself hold colons: everything between the first and the last.
    const std::string path = spec.substr(5, spec.rfind(':') - 5);
    const int c = parse_int(parts.back(), spec);
    const TopologyFile file = TopologyFile::read(path);
    std::vector<std::pair<std::vector<int>, std::string>> hosts;
    for (const auto& [host, placement] : file.hosts()) hosts.emplace_back(placement, host);
    std::sort(hosts.begin(), hosts.end());  // the launcher's order: by placement
    std::vector<std::vector<int>> paths;
    std::vector<std::string> names;
    for (const auto& [placement, host] : hosts) {
      add_cores(paths, placement, c);
      names.insert(names.end(), static_cast<std::size_t>(c), host);
    }
    std::vector<std::string> levels = file.levels();
    const int node_level = static_cast<int>(levels.size()) - 1;
    levels.insert(levels.end(), {"package", "core"});
    return Topology(std::move(levels), node_level, std::move(paths), std::move(names));
  }
  raise(Errc::invalid_argument, "machine '" + spec +
                                    "': expected cray-sparse:NODESxCORES[:SEED], fat-tree:NODESxCORES[:PER_SWITCH], "
                                    "hosts:NODESxCORES or file:PATH:CORES");
}

}  // namespace ghostwire::topo
