// SPDX-License-Identifier: BSD-3-Clause
// Reverse halo updates of Grid<T, N>: every ghost cell an update fills is combined back into the
// cell it mirrors. Each ghost cell holds a value unique to its rank and position, so the expected
// owned values (computed here from every rank's block) show a lost, doubled or misplaced one.
#include <mpi.h>

#include <cstdint>
#include <sstream>
#include <vector>

#include "ghostwire/dist.hpp"
#include "mpi_test_main.hpp"
#include "padded_block.hpp"

using namespace ghostwire;

namespace {

struct ReverseCase {
  int dimensions;
  std::array<Index, 3> extents, width;
  std::array<bool, 3> periodic;
  Stencil stencil;
  std::string name() const {
    std::ostringstream text;
    text << dimensions << "d";
    for (int d = 0; d < dimensions; ++d) text << (d ? "x" : "_") << extents[d] << "w" << width[d] << (periodic[d] ? "p" : "o");
    text << (stencil == Stencil::faces ? "_faces" : "_full");
    return text.str();
  }
};

template <int N>
Halo<N> halo_for(const ReverseCase& c) {
  Halo<N> h;
  for (int d = 0; d < N; ++d) {
    h.width[d] = c.width[d];
    h.periodic[d] = c.periodic[d];
  }
  h.stencil = c.stencil;
  return h;
}

using gwtest::for_each_padded;

std::int64_t ghost_value(int rank, std::int64_t padded, int round) { return 1 + 1000003LL * rank + 101 * padded + 7 * round; }
template <int N>
std::int64_t owned_value(const Point<N>& global) {
  std::int64_t v = 0;
  for (int d = 0; d < N; ++d) v = v * 1000 + global[d];
  return 5 * v;
}

// The global cell a ghost at `local` of a block at `offset` mirrors, or false where no update
// writes it (an open boundary; an edge or corner with Stencil::faces).
template <int N>
bool mirrored(const ReverseCase& c, const Point<N>& extents, const Point<N>& offset, const Point<N>& extent,
              const Point<N>& local, Point<N>& global) {
  int sides = 0;
  for (int d = 0; d < N; ++d) sides += local[d] < 0 || local[d] >= extent[d];
  if (sides == 0 || (sides > 1 && c.stencil == Stencil::faces)) return false;
  for (int d = 0; d < N; ++d) {
    global[d] = offset[d] + local[d];
    if (global[d] < 0 || global[d] >= extents[d]) {
      if (!c.periodic[d]) return false;
      global[d] = ((global[d] % extents[d]) + extents[d]) % extents[d];
    }
  }
  return true;
}

template <int N>
void check_reverse(const ReverseCase& c, ReduceOp op, bool split) {
  World& w = gwtest::world();
  Point<N> extents{};
  for (int d = 0; d < N; ++d) extents[d] = c.extents[d];
  Grid<std::int64_t, N> grid(w, make_pattern<N>(extents, w.size()), halo_for<N>(c));
  Point<N> width{};
  for (int d = 0; d < N; ++d) width[d] = c.width[d];
  // Every rank's block (offset, extent), for the expected values.
  std::vector<Index> boxes(static_cast<std::size_t>(2 * N * w.size()));
  std::vector<Index> mine;
  for (int d = 0; d < N; ++d) mine.push_back(grid.offset()[d]);
  for (int d = 0; d < N; ++d) mine.push_back(grid.local_extent(d));
  MPI_Allgather(mine.data(), 2 * N, MPI_INT64_T, boxes.data(), 2 * N, MPI_INT64_T, w.comm());
  for (int round = 0; round < 3; ++round) {
    for_each_padded<N>(grid.local_extents(), width, [&](const Point<N>& p, std::int64_t linear) {
      bool inside = true;
      for (int d = 0; d < N; ++d) inside &= p[d] >= 0 && p[d] < grid.local_extent(d);
      grid[p] = inside ? owned_value<N>(grid.to_global(p)) : ghost_value(w.rank(), linear, round);
    });
    if (split) {
      HaloUpdate update({&grid});
      auto pending = update.reverse_start(op);
      pending.wait();
    } else {
      grid.reverse_halo(op);
    }
    // Expected: my value, then every ghost image by rank and position (sum, min and max commute here).
    std::vector<std::int64_t> expected;
    std::vector<Point<N>> cells;
    for_each_padded<N>(grid.local_extents(), Point<N>{}, [&](const Point<N>& p, std::int64_t) {
      cells.push_back(p);
      expected.push_back(owned_value<N>(grid.to_global(p)));
    });
    for (int q = 0; q < w.size(); ++q) {
      Point<N> offset{}, extent{};
      for (int d = 0; d < N; ++d) {
        offset[d] = boxes[static_cast<std::size_t>(2 * N * q + d)];
        extent[d] = boxes[static_cast<std::size_t>(2 * N * q + N + d)];
      }
      for_each_padded<N>(extent, width, [&](const Point<N>& p, std::int64_t linear) {
        Point<N> g{};
        if (!mirrored<N>(c, extents, offset, extent, p, g)) return;
        const Point<N> local = grid.to_local(g);
        std::size_t at = 0;
        for (int d = 0; d < N; ++d) {
          if (local[d] < 0 || local[d] >= grid.local_extent(d)) return;  // not mine
          at = at * static_cast<std::size_t>(grid.local_extent(d)) + static_cast<std::size_t>(local[d]);
        }
        const std::int64_t v = ghost_value(q, linear, round);
        std::int64_t& e = expected[at];
        e = op == ReduceOp::sum ? e + v : op == ReduceOp::min ? std::min(e, v) : std::max(e, v);
      });
    }
    for (std::size_t i = 0; i < cells.size(); ++i)
      ASSERT_EQ(grid[cells[i]], expected[i]) << c.name() << " round " << round << " rank " << w.rank() << " cell "
                                             << i << " op " << reduce_name(op);
    w.barrier();
  }
}

class GridReverse : public ::testing::TestWithParam<ReverseCase> {};

TEST_P(GridReverse, EveryGhostImageReachesItsOwnerOnce) {
  const ReverseCase& c = GetParam();
  for (ReduceOp op : {ReduceOp::sum, ReduceOp::max}) {
    switch (c.dimensions) {
      case 1: check_reverse<1>(c, op, op == ReduceOp::max); break;
      case 2: check_reverse<2>(c, op, op == ReduceOp::max); break;
      default: check_reverse<3>(c, op, op == ReduceOp::max); break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, GridReverse,
    ::testing::Values(ReverseCase{2, {13, 11, 1}, {1, 1, 0}, {true, true, false}, Stencil::full},
                      ReverseCase{2, {9, 7, 1}, {1, 2, 0}, {false, false, false}, Stencil::full},
                      ReverseCase{2, {9, 7, 1}, {2, 1, 0}, {true, false, false}, Stencil::faces},
                      ReverseCase{3, {7, 6, 5}, {1, 1, 1}, {true, true, true}, Stencil::faces},
                      ReverseCase{3, {6, 5, 4}, {1, 1, 1}, {true, false, true}, Stencil::full},
                      ReverseCase{1, {5, 1, 1}, {3, 0, 0}, {true, false, false}, Stencil::full}),
    [](const ::testing::TestParamInfo<ReverseCase>& case_info) { return case_info.param.name(); });

}  // namespace

TEST(GridReverseUpdate, TwoGridsOfTwoTypesEachCombinedAsItsOwn) {
  World& w = gwtest::world();
  Halo<2> halo;
  halo.width = {1, 1};
  halo.periodic = {true, true};
  halo.stencil = Stencil::full;
  Grid<double, 2> a(w, Point<2>{8, 6}, halo);
  Grid<std::int32_t, 2> b(w, Point<2>{8, 6}, halo);
  HaloUpdate update({&a, &b}, HaloMessages::per_variable);
  // Ghosts hold the mirrored cell's value: summing them back multiplies each owned cell by its
  // number of images plus one; the max of equal values leaves it as it was.
  for (Index i = 0; i < a.local_extent(0); ++i)
    for (Index j = 0; j < a.local_extent(1); ++j) {
      a(i, j) = 1.0 + static_cast<double>(a.to_global({i, j})[0] * 8 + a.to_global({i, j})[1]);
      b(i, j) = static_cast<std::int32_t>(a(i, j));
    }
  update.run();
  const Combine how[] = {{ReduceOp::sum, ScalarType::float64}, {ReduceOp::max, ScalarType::int32}};
  update.reverse_run(std::span<const Combine>(how));
  // With a 1-wide full periodic halo every cell is imaged once per neighbouring block it touches;
  // the count of images is what a forward-then-reverse sum of ones gives.
  Grid<std::int64_t, 2> ones(w, Point<2>{8, 6}, halo);
  for (Index i = 0; i < ones.local_extent(0); ++i)
    for (Index j = 0; j < ones.local_extent(1); ++j) ones(i, j) = 1;
  ones.update_halo();
  ones.reverse_halo();
  for (Index i = 0; i < a.local_extent(0); ++i)
    for (Index j = 0; j < a.local_extent(1); ++j) {
      const double value = 1.0 + static_cast<double>(a.to_global({i, j})[0] * 8 + a.to_global({i, j})[1]);
      EXPECT_EQ(a(i, j), value * static_cast<double>(ones(i, j))) << i << "," << j;
      EXPECT_EQ(b(i, j), static_cast<std::int32_t>(value)) << i << "," << j;
    }
  const Combine wrong[] = {{ReduceOp::sum, ScalarType::float64}};
  EXPECT_THROW(update.reverse_run(std::span<const Combine>(wrong)), Error) << "one Combine for two grids";
  struct Pair {
    double x, y;
  };
  Grid<Pair, 2> pairs(w, Point<2>{8, 6}, halo);
  EXPECT_THROW(pairs.reverse_halo(ReduceOp::sum), Error) << "a struct without a Combine";
  pairs.reverse_halo(Combine{ReduceOp::sum, ScalarType::float64});
  w.barrier();
}
