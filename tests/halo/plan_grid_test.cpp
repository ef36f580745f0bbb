// SPDX-License-Identifier: BSD-3-Clause
// Halo exchange of 2-D and 3-D block decompositions through a Plan: after every exchange each
// ghost cell must hold the global index of the cell it mirrors (plus a round offset, so stale
// values show), cells no message covers must keep their sentinel, and owned cells must not change.
#include <memory>
#include <sstream>

#include "cartesian.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;
using gwtest::Decomposition;
using Kind = Decomposition::Kind;

namespace {

constexpr double sentinel = -7.5;

struct GridCase {
  int dimensions;
  std::array<int, 3> global;
  int halo;
  bool periodic, corners;
  Kind send_kind, receive_kind;
  bool private_send_memory;  // staged path intra-node
  int variables;             // several variables per message
  std::string name() const {
    const char* kinds[] = {"box", "indices", "ranges"};
    std::ostringstream text;
    text << dimensions << "d_" << global[0] << "x" << global[1];
    if (dimensions == 3) text << "x" << global[2];
    text << "_h" << halo << (periodic ? "_periodic" : "_open") << (corners ? "_corners" : "_faces") << "_"
         << kinds[int(send_kind)] << "_to_" << kinds[int(receive_kind)] << (private_send_memory ? "_private" : "")
         << "_vars" << variables;
    return text.str();
  }
};

class PlanGrid : public testing::TestWithParam<GridCase> {};

TEST_P(PlanGrid, EveryGhostCellHoldsItsOwnersValue) {
  const GridCase& c = GetParam();
  World& world = gwtest::world();
  Decomposition d;
  d.dimensions = c.dimensions;
  d.global = c.global;
  d.halo = c.halo;
  d.periodic = c.periodic;
  d.corners = c.corners;
  d.decompose(world.rank(), world.size());
  int thin = 0;
  for (int a = 0; a < c.dimensions; ++a) thin |= d.extent[a] < c.halo;
  MPI_Allreduce(MPI_IN_PLACE, &thin, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);  // skip together or not at all
  if (thin) GTEST_SKIP() << "blocks thinner than the halo at " << world.size() << " ranks";

  const std::size_t cells = d.cells();
  std::vector<std::unique_ptr<Segment>> segments;
  std::vector<std::vector<double>> private_arrays;
  std::vector<double*> arrays;
  for (int v = 0; v < c.variables; ++v) {
    if (c.private_send_memory) {
      private_arrays.emplace_back(cells);
      arrays.push_back(private_arrays.back().data());
    } else {
      segments.push_back(std::make_unique<Segment>(world, cells * sizeof(double)));
      arrays.push_back(reinterpret_cast<double*>(segments.back()->data()));
    }
  }

  std::vector<int> neighbours = d.neighbour_ranks();
  Plan plan(world, neighbours, Decomposition::channel_count);
  std::vector<Region> regions;
  for (int v = 0; v < c.variables; ++v)
    regions.push_back(c.private_send_memory ? plan.add_memory(arrays[v], cells * sizeof(double), sizeof(double))
                                            : plan.add_memory(*segments[v], sizeof(double)));
  for (const auto& dir : d.directions()) {
    int to = d.neighbour(dir);
    if (to >= 0)
      for (int v = 0; v < c.variables; ++v)
        plan.add_send(Decomposition::channel_of(dir), to, regions[v], d.layout(d.send_box(dir), c.send_kind));
    int from = d.neighbour(dir);  // ghosts on side `dir` come from the neighbour there, travelling along -dir
    std::array<int, 3> travel{-dir[0], -dir[1], -dir[2]};
    if (from >= 0)
      for (int v = 0; v < c.variables; ++v)
        plan.add_receive(Decomposition::channel_of(travel), from, regions[v], d.layout(d.ghost_box(dir), c.receive_kind));
  }
  plan.commit();

  auto variable_value = [](double value, int v) { return value < 0 ? value : value * (v + 1) + v; };
  for (int round = 0; round < 4; ++round) {
    for (int v = 0; v < c.variables; ++v) {
      double* a = arrays[v];
      for (int z = -d.ghost(2); z < d.extent[2] + d.ghost(2); ++z)
        for (int y = -d.ghost(1); y < d.extent[1] + d.ghost(1); ++y)
          for (int x = -d.ghost(0); x < d.extent[0] + d.ghost(0); ++x) {
            bool owned = d.side(x, y, z) == std::array<int, 3>{0, 0, 0};
            a[d.index(x, y, z)] = owned ? variable_value(d.value({d.offset[0] + x, d.offset[1] + y, d.offset[2] + z}, round), v)
                                        : sentinel;
          }
    }
    if (round % 2 == 0) {
      plan.exchange();
    } else {
      plan.start();
      plan.finish();
    }
    for (int v = 0; v < c.variables; ++v) {
      const double* a = arrays[v];
      for (int z = -d.ghost(2); z < d.extent[2] + d.ghost(2); ++z)
        for (int y = -d.ghost(1); y < d.extent[1] + d.ghost(1); ++y)
          for (int x = -d.ghost(0); x < d.extent[0] + d.ghost(0); ++x) {
            double want = d.expected(x, y, z, round, sentinel);
            want = want == sentinel ? sentinel : variable_value(want, v);
            ASSERT_EQ(a[d.index(x, y, z)], want)
                << "round " << round << " variable " << v << " cell (" << x << ", " << y << ", " << z << ") of rank "
                << world.rank() << " at coords (" << d.coords[0] << ", " << d.coords[1] << ", " << d.coords[2] << ")";
          }
    }
  }
  world.barrier();
}

std::vector<GridCase> grid_cases() {
  std::vector<GridCase> cases;
  // Every layout kind on each side, 2-D and 3-D, uneven global sizes.
  for (Kind s : {Kind::box, Kind::indices, Kind::ranges})
    for (Kind r : {Kind::box, Kind::indices, Kind::ranges}) {
      cases.push_back({2, {13, 11, 1}, 1, true, true, s, r, false, 1});
      cases.push_back({3, {7, 6, 5}, 1, true, true, s, r, false, 1});
    }
  for (bool periodic : {true, false})
    for (bool corners : {true, false})
      for (int halo : {1, 2}) {
        cases.push_back({2, {17, 12, 1}, halo, periodic, corners, Kind::box, Kind::box, false, 1});
        cases.push_back({3, {9, 8, 7}, halo, periodic, corners, Kind::box, Kind::box, false, 1});
      }
  // Private sender memory (staged intra-node), and several variables in one message.
  cases.push_back({2, {16, 10, 1}, 2, true, true, Kind::box, Kind::box, true, 1});
  cases.push_back({3, {8, 8, 6}, 1, false, true, Kind::ranges, Kind::box, true, 2});
  cases.push_back({2, {16, 10, 1}, 1, true, true, Kind::box, Kind::indices, false, 3});
  cases.push_back({3, {8, 7, 6}, 1, true, false, Kind::box, Kind::box, false, 3});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, PlanGrid, testing::ValuesIn(grid_cases()),
                         [](const testing::TestParamInfo<GridCase>& param) { return param.param.name(); });

}  // namespace
