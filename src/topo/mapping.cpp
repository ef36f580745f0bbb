// SPDX-License-Identifier: BSD-3-Clause
// Mappings of a Cartesian process grid onto ranks: rank order, MPI_Dims_create blocking, the DASH
// study's reordering, and ghostwire's hierarchical blocking. Scotch's is in scotch_mapping.cpp.
#include <algorithm>
#include <chrono>
#include <numeric>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "runtime/factorisation.hpp"
#include "topo/curve.hpp"

namespace ghostwire::topo {
namespace {

void check_sizes(const CartGrid& grid, const Topology& topology, const char* what) {
  if (grid.size() != topology.ranks())
    raise(Errc::invalid_argument, std::string(what) + ": the grid has " + std::to_string(grid.size()) +
                                      " positions but the machine " + std::to_string(topology.ranks()) + " ranks");
}

// Ranks sorted by their path (the machine's order: group, ..., node, package, core), stable.
std::vector<int> ranks_by_placement(const Topology& topology) {
  std::vector<int> order(static_cast<std::size_t>(topology.ranks()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return topology.path(a) < topology.path(b); });
  return order;
}

// Nodes (as lists of ranks) in the order of `ranks`.
std::vector<std::vector<int>> nodes_in_order(const Topology& topology, const std::vector<int>& ranks) {
  std::vector<std::vector<int>> nodes;
  std::vector<int> slot(static_cast<std::size_t>(topology.node_count()), -1);
  for (int r : ranks) {
    int& s = slot[static_cast<std::size_t>(topology.node_of(r))];
    if (s < 0) {
      s = static_cast<int>(nodes.size());
      nodes.emplace_back();
    }
    nodes[static_cast<std::size_t>(s)].push_back(r);
  }
  return nodes;
}

// Bytes crossing node-block boundaries when the grid is tiled by blocks of `block`.
std::int64_t block_cut_bytes(const CartGrid& grid, const std::vector<int>& block) {
  std::int64_t total = 0;
  const std::int64_t cells = grid.size();
  for (std::size_t d = 0; d < block.size(); ++d) {
    const int blocks = grid.extents[d] / block[d];
    const int planes = blocks == 1 ? 0 : grid.periodic[d] ? blocks : blocks - 1;
    total += 2 * grid.face_bytes[d] * (cells / grid.extents[d]) * planes;
  }
  return total;
}

// Every block shape with `k` cells that tiles the grid.
std::vector<std::vector<int>> tiling_blocks(const CartGrid& grid, int k) {
  std::vector<std::vector<int>> shapes;
  std::vector<int> b(grid.extents.size(), 1);
  auto recurse = [&](auto& self, std::size_t d, int left) -> void {
    if (d + 1 == b.size()) {
      if (grid.extents[d] % left == 0) {
        b[d] = left;
        shapes.push_back(b);
      }
      return;
    }
    for (int f = 1; f <= left; ++f)
      if (left % f == 0 && grid.extents[d] % f == 0) {
        b[d] = f;
        self(self, d + 1, left / f);
      }
  };
  recurse(recurse, 0, k);
  return shapes;
}

// Assigns `nodes` (each a list of ranks) to the blocks of `block`: block i in `block_order` (an
// order of the block grid) gets node i, and a node's ranks fill its block in `cell_order`.
Assignment fill_blocks(const CartGrid& grid, const std::vector<int>& block, const std::vector<int>& block_order,
                       const std::vector<int>& cell_order, const std::vector<std::vector<int>>& nodes) {
  const std::size_t n = block.size();
  std::vector<int> blocks(n);
  for (std::size_t d = 0; d < n; ++d) blocks[d] = grid.extents[d] / block[d];
  Assignment rank_of(static_cast<std::size_t>(grid.size()), -1);
  std::vector<int> bc(n), cc(n), g(n);
  for (std::size_t i = 0; i < block_order.size(); ++i) {
    int b = block_order[i];
    for (std::size_t d = n; d-- > 0;) {
      bc[d] = b % blocks[d];
      b /= blocks[d];
    }
    const auto& ranks = nodes[i];
    for (std::size_t j = 0; j < cell_order.size(); ++j) {
      int c = cell_order[j];
      for (std::size_t d = n; d-- > 0;) {
        cc[d] = c % block[d];
        c /= block[d];
      }
      for (std::size_t d = 0; d < n; ++d) g[d] = bc[d] * block[d] + cc[d];
      rank_of[static_cast<std::size_t>(grid.position(g))] = ranks[j];
    }
  }
  return rank_of;
}

std::vector<int> row_major(int count) {
  std::vector<int> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

// Consecutive ranks of `ranks` along the curve through the whole grid.
Assignment along_curve(const CartGrid& grid, const std::vector<int>& ranks) {
  Assignment rank_of(static_cast<std::size_t>(grid.size()));
  const std::vector<int> curve = detail::curve_order(grid.extents);
  for (std::size_t i = 0; i < curve.size(); ++i) rank_of[static_cast<std::size_t>(curve[i])] = ranks[i];
  return rank_of;
}

}  // namespace

const char* method_name(Method method) noexcept {
  switch (method) {
    case Method::rank_order: return "rank_order";
    case Method::dims_blocking: return "dims_blocking";
    case Method::study: return "study";
    case Method::scotch: return "scotch";
    case Method::hierarchical: return "hierarchical";
  }
  return "?";
}

const std::vector<Method>& all_methods() {
  static const std::vector<Method> methods = {Method::rank_order, Method::dims_blocking, Method::study, Method::scotch,
                                              Method::hierarchical};
  return methods;
}

Method method_from_name(std::string_view name) {
  for (Method m : all_methods())
    if (name == method_name(m)) return m;
  raise(Errc::invalid_argument, "mapping '" + std::string(name) +
                                    "': expected rank_order, dims_blocking, study, scotch or hierarchical");
}

Assignment map(Method method, const CartGrid& grid, const Topology& topology) {
  switch (method) {
    case Method::rank_order: return map_rank_order(grid, topology);
    case Method::dims_blocking: return map_dims_blocking(grid, topology);
    case Method::study: return map_study(grid, topology);
    case Method::scotch: return map_scotch(grid, topology);
    case Method::hierarchical: return map_hierarchical(grid, topology);
  }
  raise(Errc::invalid_argument, "map: unknown method");
}

bool is_permutation(const Assignment& assignment, int n) {
  if (static_cast<int>(assignment.size()) != n) return false;
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (int r : assignment) {
    if (r < 0 || r >= n || seen[static_cast<std::size_t>(r)]) return false;
    seen[static_cast<std::size_t>(r)] = 1;
  }
  return true;
}

Assignment map_rank_order(const CartGrid& grid, const Topology& topology) {
  check_sizes(grid, topology, "rank_order");
  return row_major(grid.size());
}

Assignment map_dims_blocking(const CartGrid& grid, const Topology& topology) {
  check_sizes(grid, topology, "dims_blocking");
  // Node blocks shaped like MPI_Dims_create(ranks per node) (any order of its factors that
  // tiles), nodes in rank order, blocks and cells row-major; rank order when nothing tiles.
  const int k = topology.ranks_per_node();
  if (!topology.uniform_nodes()) return row_major(grid.size());
  std::vector<int> block(grid.extents.size());
  ghostwire::detail::balanced_factors(k, grid.dimensions(), block.data(), "map_dims_blocking");
  std::sort(block.begin(), block.end());
  do {
    bool tiles = true;
    for (std::size_t d = 0; d < block.size(); ++d) tiles = tiles && grid.extents[d] % block[d] == 0;
    if (!tiles) continue;
    int blocks = grid.size() / k;
    std::vector<int> by_rank = row_major(grid.size());
    return fill_blocks(grid, block, row_major(blocks), row_major(k), nodes_in_order(topology, by_rank));
  } while (std::next_permutation(block.begin(), block.end()));
  return row_major(grid.size());
}

Assignment map_study(const CartGrid& grid, const Topology& topology) {
  check_sizes(grid, topology, "study");
  // The DASH study's reordering as its description gives it: units sorted hierarchically by their
  // placement (group, cabinet, chassis, blade, node, then core), laid along a Hilbert-like curve
  // through the whole process grid, so each node gets a stretch of the curve (not a shaped block).
  return along_curve(grid, ranks_by_placement(topology));
}

Assignment map_hierarchical(const CartGrid& grid, const Topology& topology) {
  check_sizes(grid, topology, "hierarchical");
  const std::vector<int> ranks = ranks_by_placement(topology);
  const int k = topology.ranks_per_node();
  std::vector<std::vector<int>> shapes;
  if (topology.uniform_nodes()) shapes = tiling_blocks(grid, k);
  if (shapes.empty()) return along_curve(grid, ranks);  // uneven nodes, or no block tiles the grid
  // Node blocks with the fewest bytes crossing their boundary (as cubic as the node's rank count
  // and the grid allow). Blocks go along the curve through the block grid, nodes in placement
  // order: consecutive nodes (same blade, chassis, group) get neighbouring blocks. Inside a block
  // the node's ranks (by package, then core) follow the curve through the block, so a package
  // gets a compact half. Among equally cut shapes, and the curve against row-major order of the
  // blocks (better when a switch's nodes fill whole rows), the model decides.
  std::int64_t least = -1;
  for (const auto& b : shapes) {
    const std::int64_t cut = block_cut_bytes(grid, b);
    if (least < 0 || cut < least) least = cut;
  }
  const std::vector<std::vector<int>> nodes = nodes_in_order(topology, ranks);
  const std::vector<LevelCost> costs = default_costs(topology);
  Assignment best;
  double best_time = 0;
  for (const auto& block : shapes) {
    if (block_cut_bytes(grid, block) != least) continue;
    std::vector<int> blocks(block.size());
    int count = 1;
    for (std::size_t d = 0; d < block.size(); ++d) count *= (blocks[d] = grid.extents[d] / block[d]);
    for (const std::vector<int>& order : {detail::curve_order(blocks), row_major(count)}) {
      Assignment a = fill_blocks(grid, block, order, detail::curve_order(block), nodes);
      const double t = evaluate(grid, topology, a, costs).model_time_s;
      if (best.empty() || t < best_time) {
        best = std::move(a);
        best_time = t;
      }
    }
  }
  return best;
}

}  // namespace ghostwire::topo
