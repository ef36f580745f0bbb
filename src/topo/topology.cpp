// SPDX-License-Identifier: BSD-3-Clause
// Topology: ranks as paths through the machine's levels.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"

namespace ghostwire::topo {

Topology::Topology(std::vector<std::string> levels, int node_level, std::vector<std::vector<int>> paths,
                   std::vector<std::string> hosts)
    : levels_(std::move(levels)), node_level_(node_level), paths_(std::move(paths)), hosts_(std::move(hosts)) {
  if (levels_.empty()) raise(Errc::invalid_argument, "Topology: no levels");
  if (node_level_ < 0 || node_level_ >= level_count())
    raise(Errc::invalid_argument, "Topology: node_level " + std::to_string(node_level_) + " outside 0.." +
                                      std::to_string(level_count() - 1));
  if (!hosts_.empty() && hosts_.size() != paths_.size())
    raise(Errc::invalid_argument, "Topology: " + std::to_string(hosts_.size()) + " host names for " +
                                      std::to_string(paths_.size()) + " ranks");
  std::map<std::vector<int>, int> nodes;
  std::vector<int> per_node;
  node_of_.reserve(paths_.size());
  for (std::size_t r = 0; r < paths_.size(); ++r) {
    if (paths_[r].size() != levels_.size())
      raise(Errc::invalid_argument, "Topology: rank " + std::to_string(r) + " has a path of " +
                                        std::to_string(paths_[r].size()) + " levels, expected " +
                                        std::to_string(levels_.size()));
    std::vector<int> key(paths_[r].begin(), paths_[r].begin() + node_level_ + 1);
    auto [it, added] = nodes.emplace(std::move(key), static_cast<int>(per_node.size()));
    if (added) per_node.push_back(0);
    ++per_node[static_cast<std::size_t>(it->second)];
    node_of_.push_back(it->second);
  }
  node_count_ = static_cast<int>(per_node.size());
  ranks_per_node_ = per_node.empty() ? 0 : *std::max_element(per_node.begin(), per_node.end());
  uniform_nodes_ = std::all_of(per_node.begin(), per_node.end(), [&](int n) { return n == ranks_per_node_; });
}

int Topology::level_index(std::string_view name) const noexcept {
  for (std::size_t l = 0; l < levels_.size(); ++l)
    if (levels_[l] == name) return static_cast<int>(l);
  return -1;
}

const std::string& Topology::host(int rank) const {
  static const std::string none;
  return hosts_.empty() ? none : hosts_.at(static_cast<std::size_t>(rank));
}

int Topology::first_difference(int a, int b) const noexcept {
  const auto& pa = paths_[static_cast<std::size_t>(a)];
  const auto& pb = paths_[static_cast<std::size_t>(b)];
  for (std::size_t l = 0; l < pa.size(); ++l)
    if (pa[l] != pb[l]) return static_cast<int>(l);
  return level_count();
}

namespace {

// Each rank's path with the values renumbered 0.. inside their parent (in sorted order).
std::vector<std::vector<int>> dense_paths(const std::vector<std::vector<int>>& paths, int levels) {
  std::vector<std::vector<int>> dense(paths.size(), std::vector<int>(static_cast<std::size_t>(levels)));
  std::map<std::vector<int>, std::set<int>> children;  // parent prefix -> values below it
  for (const auto& p : paths)
    for (int l = 0; l < levels; ++l) children[std::vector<int>(p.begin(), p.begin() + l)].insert(p[l]);
  for (std::size_t r = 0; r < paths.size(); ++r)
    for (int l = 0; l < levels; ++l) {
      const auto& set = children[std::vector<int>(paths[r].begin(), paths[r].begin() + l)];
      dense[r][l] = static_cast<int>(std::distance(set.begin(), set.find(paths[r][l])));
    }
  return dense;
}

}  // namespace

std::vector<int> Topology::arities() const {
  std::vector<int> arity(levels_.size(), 1);
  for (const auto& p : dense_paths(paths_, level_count()))
    for (std::size_t l = 0; l < p.size(); ++l) arity[l] = std::max(arity[l], p[l] + 1);
  return arity;
}

std::vector<std::int64_t> Topology::leaf_numbers() const {
  const std::vector<int> arity = arities();
  std::vector<std::int64_t> leaves;
  leaves.reserve(paths_.size());
  for (const auto& p : dense_paths(paths_, level_count())) {
    std::int64_t leaf = 0;
    for (std::size_t l = 0; l < p.size(); ++l) leaf = leaf * arity[l] + p[l];
    leaves.push_back(leaf);
  }
  return leaves;
}

std::string Topology::describe() const {
  std::ostringstream out;
  out << ranks() << " ranks on " << node_count_ << " nodes (" << ranks_per_node_ << " ranks per node"
      << (uniform_nodes_ ? "" : " at most") << "), " << level_count() << " levels:\n";
  for (int l = 0; l < level_count(); ++l) {
    std::set<std::vector<int>> vertices;
    for (const auto& p : paths_) vertices.insert(std::vector<int>(p.begin(), p.begin() + l + 1));
    out << "  " << l << " " << levels_[static_cast<std::size_t>(l)] << ": " << vertices.size()
        << (l == node_level_ ? " (the node level)" : l < node_level_ ? " (network)" : " (inside a node)") << '\n';
  }
  return out.str();
}

}  // namespace ghostwire::topo
