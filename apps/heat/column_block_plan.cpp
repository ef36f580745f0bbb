// SPDX-License-Identifier: BSD-3-Clause
// Builds the column blocks' ghostwire Plan over the band's boundary rows and halos
// (column_block_plan.hpp), and says which neighbour is on which path (describe) (see docs/heat.md,
// "The ghostwire variants").
#include "column_block_plan.hpp"

#include <ghostwire/layout.hpp>

#include <span>
#include <vector>

namespace heat {
namespace {

std::vector<int> neighbour_ranks(const Decomposition& d) {
  std::vector<int> ranks;
  if (d.has_upper()) ranks.push_back(d.upper());
  if (d.has_lower()) ranks.push_back(d.lower());
  return ranks;
}

}  // namespace

ColumnBlockPlan::ColumnBlockPlan(ghostwire::World& world, ghostwire::Segment& band_memory, const Band& band,
                                 const Decomposition& d, Protocol protocol)
    : plan_(world, neighbour_ranks(d), static_cast<std::size_t>(d.tile_cols)),
      protocol_(protocol),
      rank_(d.rank),
      upper_(d.has_upper() ? d.upper() : -1),
      lower_(d.has_lower() ? d.lower() : -1) {
  if (protocol == Protocol::in_place) plan_.acknowledge_by_reply();
  const ghostwire::Region memory = plan_.add_memory(band_memory, sizeof(double));
  const std::size_t block = static_cast<std::size_t>(d.by);
  // Band row r, column block j: the BY contiguous doubles from column 1 + j * BY (band.hpp).
  auto part_of_row = [&](int band_row, int j) {
    return ghostwire::Layout::contiguous(band.index_of(band_row, d.tile_first_col(j)), block);
  };
  for (int j = 0; j < d.tile_cols; ++j) {
    const auto channel = static_cast<std::size_t>(j);
    if (d.has_upper()) {
      plan_.add_send(channel, upper_, memory, part_of_row(1, j));
      plan_.add_receive(channel, upper_, memory, part_of_row(0, j));
    }
    if (d.has_lower()) {
      plan_.add_send(channel, lower_, memory, part_of_row(d.band_rows, j));
      plan_.add_receive(channel, lower_, memory, part_of_row(d.band_rows + 1, j));
    }
  }
  plan_.commit();

  block_ = d.by;
  auto peer_row = [&](int rank, int band_row) -> const double* {
    std::byte* part = band_memory.peer_data(rank);
    if (part == nullptr) return nullptr;
    const std::span<double> storage(reinterpret_cast<double*>(part), band_memory.size_of(rank) / sizeof(double));
    return Band(storage, d.band_rows, d.cols).row(band_row);
  };
  if (d.has_upper()) upper_source_ = peer_row(upper_, d.band_rows);
  if (d.has_lower()) lower_source_ = peer_row(lower_, 1);

  if (protocol != Protocol::in_place) return;
  // Node peers have a view (the part of their row under the block); null: copied into my halo.
  auto views_from = [&](int rank, std::vector<const double*>& views) {
    if (rank < 0) return;
    for (int j = 0; j < d.tile_cols; ++j)
      views.push_back(reinterpret_cast<const double*>(plan_.view(static_cast<std::size_t>(j), rank)));
  };
  views_from(upper_, upper_view_);
  views_from(lower_, lower_view_);
}

std::string ColumnBlockPlan::describe() const {
  const ghostwire::World& world = plan_.world();
  auto path = [&](int rank) {
    return std::string(world.shares_memory_with(rank) ? "intra-node" : "inter-node");
  };
  std::string text = "rank " + std::to_string(rank_) + ":";
  if (has_upper()) text += " upper rank " + std::to_string(upper_) + " " + path(upper_);
  if (has_lower()) text += std::string(has_upper() ? "," : "") + " lower rank " + std::to_string(lower_) + " " + path(lower_);
  if (!has_upper() && !has_lower()) text += " no neighbours";
  return text;
}

}  // namespace heat
