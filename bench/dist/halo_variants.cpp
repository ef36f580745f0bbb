// SPDX-License-Identifier: BSD-3-Clause
// The halo-exchange variants: one periodic n x n Grid<double, 2> with a halo of 1, its ghost faces
// filled by ghostwire's update_halo, a hand-written Plan, MPI_Neighbor_alltoallw and Isend/Irecv.
#include <algorithm>
#include <array>

#include "ghostwire/plan.hpp"
#include "variants.hpp"

namespace distbench {
namespace {

namespace gw = ghostwire;
using Grid = gw::Grid<double, 2>;

gw::Halo<2> jacobi_halo() { return gw::Halo<2>(1, gw::Stencil::faces, gw::Boundary::periodic); }

// The grid's storage as a plain padded array for the MPI datatypes: cell (-1, -1) is its start,
// rows are stride(0) long (a Grid pads rows so that column 0 starts a cache line), column 0 is 1.
double* cell_base(Grid& g) { return g.data() - g.stride(0) - 1; }
// Where the segment's data starts (the plan's region), before any padding.
double* segment_base(Grid& g) { return reinterpret_cast<double*>(g.segment().data()); }

// Owned cells hold their global index, ghost cells -1; after an exchange every face ghost must hold
// its periodic neighbour's index and the corners must still be -1.
class HaloBase : public Variant {
 public:
  HaloBase(gw::World& world, Index n, SharedState& shared) : n_(n), shared_(grid_of(world, n, shared)), grid_(*shared_) {}

  bool verify() override {
    Grid& g = grid_;
    const Index e0 = g.local_extent(0), e1 = g.local_extent(1);
    for (Index i = -1; i <= e0; ++i)
      for (Index j = -1; j <= e1; ++j) {
        bool owned = i >= 0 && i < e0 && j >= 0 && j < e1;
        auto p = g.to_global({i, j});
        g(i, j) = owned ? static_cast<double>(p[0] * n_ + p[1]) : -1.0;
      }
    run(1);
    int good = 1;
    for (Index i = -1; i <= e0; ++i)
      for (Index j = -1; j <= e1; ++j) {
        bool corner = (i < 0 || i >= e0) && (j < 0 || j >= e1);
        auto p = g.to_global({i, j});
        Index r = (p[0] + n_) % n_, c = (p[1] + n_) % n_;
        double want = corner ? -1.0 : static_cast<double>(r * n_ + c);
        if (g(i, j) != want) good = 0;
      }
    MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_MIN, g.world().comm());
    return good != 0;
  }

 protected:
  static std::shared_ptr<Grid> grid_of(gw::World& world, Index n, SharedState& shared) {
    if (!shared.halo_grid) shared.halo_grid = std::make_shared<Grid>(world, gw::Point<2>{n, n}, jacobi_halo());
    return shared.halo_grid;
  }
  Index n_;
  std::shared_ptr<Grid> shared_;
  Grid& grid_;
};

class HaloGw final : public HaloBase {
 public:
  using HaloBase::HaloBase;
  void run(int count) override {
    for (int k = 0; k < count; ++k) grid_.update_halo();
  }
};

// What a user writes without the Grid layer: four directions, one channel each.
class HaloPlan final : public HaloBase {
 public:
  HaloPlan(gw::World& world, Index n, SharedState& shared) : HaloBase(world, n, shared), plan_(make_plan(world)) {}
  void run(int count) override {
    for (int k = 0; k < count; ++k) plan_.exchange();
  }

 private:
  gw::Plan make_plan(gw::World& world) {
    const auto& team = grid_.pattern().team();
    auto me = team.coords(world.rank());
    auto neighbour = [&](int d, int step) {
      auto c = me;
      c[static_cast<std::size_t>(d)] = (c[static_cast<std::size_t>(d)] + step + team.extent(d)) % team.extent(d);
      return team.rank(c);
    };
    // Directions: towards -row, +row, -column, +column; channel = direction of travel.
    const int rank_of[4] = {neighbour(0, -1), neighbour(0, 1), neighbour(1, -1), neighbour(1, 1)};
    std::vector<int> ranks(rank_of, rank_of + 4);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    gw::Plan plan(world, ranks, 4);
    gw::Region region = plan.add_memory(grid_.segment(), sizeof(double));
    const Index e0 = grid_.local_extent(0), e1 = grid_.local_extent(1), s = grid_.stride(0);
    const std::size_t origin = static_cast<std::size_t>(grid_.data() - segment_base(grid_));  // local (0, 0)
    auto at = [&](Index i, Index j) { return origin + static_cast<std::size_t>(i * s + j); };
    auto row = [&](Index i) { return gw::Layout::box(at(i, 0), {static_cast<std::size_t>(e1)}, {1}); };
    auto column = [&](Index j) {
      return gw::Layout::box(at(0, j), {std::size_t{1}, static_cast<std::size_t>(e0)}, {1, s});
    };
    const gw::Layout sends[4] = {row(0), row(e0 - 1), column(0), column(e1 - 1)};
    const gw::Layout ghosts[4] = {row(-1), row(e0), column(-1), column(e1)};
    static constexpr std::size_t opposite[4] = {1, 0, 3, 2};
    for (std::size_t k = 0; k < 4; ++k) {
      plan.add_send(k, rank_of[k], region, sends[k]);
      plan.add_receive(opposite[k], rank_of[k], region, ghosts[k]);  // travels away from that side
    }
    plan.commit();
    return plan;
  }
  gw::Plan plan_;
};

class HaloAlltoallw final : public HaloBase {
 public:
  HaloAlltoallw(gw::World& world, Index n, SharedState& shared)
      : HaloBase(world, n, shared), faces_(MPI_COMM_WORLD, grid_.pattern(), grid_.stride(0), 1) {
    std::fill(counts_.begin(), counts_.end(), 1);
    std::fill(displacements_.begin(), displacements_.end(), 0);
    for (int k = 0; k < 4; ++k) {
      send_types_[static_cast<std::size_t>(k)] = faces_.send[k];
      receive_types_[static_cast<std::size_t>(k)] = faces_.receive[k];
    }
  }
  // The Cartesian neighbour order is -row, +row, -column, +column, as MpiFaces'.
  void run(int count) override {
    double* base = cell_base(grid_);
    for (int k = 0; k < count; ++k)
      MPI_Neighbor_alltoallw(base, counts_.data(), displacements_.data(), send_types_.data(), base, counts_.data(),
                             displacements_.data(), receive_types_.data(), faces_.cart);
  }

 private:
  MpiFaces faces_;
  std::array<int, 4> counts_;
  std::array<MPI_Aint, 4> displacements_;
  std::array<MPI_Datatype, 4> send_types_, receive_types_;
};

class HaloIsend final : public HaloBase {
 public:
  HaloIsend(gw::World& world, Index n, SharedState& shared)
      : HaloBase(world, n, shared), faces_(MPI_COMM_WORLD, grid_.pattern(), grid_.stride(0), 1) {}
  void run(int count) override {
    double* base = cell_base(grid_);
    for (int k = 0; k < count; ++k) {
      faces_.start(base, requests_);
      MPI_Waitall(8, requests_, MPI_STATUSES_IGNORE);
    }
  }

 private:
  MpiFaces faces_;
  MPI_Request requests_[8];
};

template <class V>
std::unique_ptr<Variant> make(gw::World& world, Index n, SharedState& shared) {
  return std::make_unique<V>(world, n, shared);
}

}  // namespace

std::vector<VariantInfo> halo_variants() {
  return {{"halo-gw", "halo", "Grid::update_halo()", make<HaloGw>},
          {"halo-plan", "halo", "the same exchange with a hand-written Plan (a channel per direction)", make<HaloPlan>},
          {"halo-alltoallw", "halo", "MPI_Neighbor_alltoallw, periodic Cartesian communicator, subarray types",
           make<HaloAlltoallw>},
          {"halo-isend", "halo", "MPI_Irecv/MPI_Isend with row and column datatypes, MPI_Waitall", make<HaloIsend>}};
}

}  // namespace distbench
