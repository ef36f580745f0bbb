// SPDX-License-Identifier: BSD-3-Clause
// gw: miniGhost on ghostwire's distributed data structures. Every variable is a Grid<double, 3>
// over the process grid with a 1-deep ghost layer (open boundaries, so ghost cells on the physical
// boundary stay 0), and one HaloUpdate of all variables, built once:
//
// - BSPMA: HaloMessages::per_neighbour, one message per neighbour carrying every variable;
// - SVAF: HaloMessages::per_variable, each variable its own messages, exchanged alone.
//
// Diagonal stencils (2D9PT, 3D27PT) update faces, edges and corners in one round: each neighbour,
// diagonal ones included, gets one message. Between node peers the receiver copies straight from
// the sender's grid into its ghost cells (one copy, no packing); between nodes a packed notified write.
//
// See docs/minighost.md, "Code: what is shared, what a variant supplies".
#include <memory>
#include <vector>

#include "ghostwire/collective.hpp"
#include "ghostwire/dist.hpp"
#include "variant.hpp"

namespace minighost {
namespace {

namespace gw = ghostwire;

// The Grid's dimensions are (z, y, x), x contiguous: row-major over the team (npz, npy, npx) puts
// rank r at x = r mod npx, as miniGhost does, and BLOCKED gives every rank its equal block.
gw::Pattern<3> pattern_of(const Decomposition& d) {
  const auto& g = d.global_size();
  const auto& p = d.process_grid();
  // The placement's positions are numbered the same way, so the team takes its permutation as is.
  const gw::TeamSpec<3> team = d.rank_of().empty() ? gw::TeamSpec<3>({p[z], p[y], p[x]})
                                                   : gw::TeamSpec<3>({p[z], p[y], p[x]}, d.rank_of());
  return gw::Pattern<3>({g[z], g[y], g[x]}, {gw::BLOCKED, gw::BLOCKED, gw::BLOCKED}, team);
}

class GwVariant final : public Variant {
 public:
  explicit GwVariant(const VariantSetup& setup) : world_(setup.comm) {
    const gw::Halo<3> halo(1, setup.halo_shape == HaloShape::faces ? gw::Stencil::faces : gw::Stencil::full,
                           gw::Boundary::open);
    const gw::Pattern<3> pattern = pattern_of(*setup.decomposition);
    grids_.reserve(static_cast<std::size_t>(setup.num_vars));
    std::vector<gw::GridBase*> all;
    for (int v = 0; v < setup.num_vars; ++v) {
      grids_.emplace_back(world_, pattern, halo);
      all.push_back(&grids_.back());
    }
    update_ = std::make_unique<gw::HaloUpdate>(all, setup.comm_method == CommMethod::bspma
                                                        ? gw::HaloMessages::per_neighbour
                                                        : gw::HaloMessages::per_variable);
  }

  FieldView variable(int variable) override {
    gw::Grid<double, 3>& g = grids_[static_cast<std::size_t>(variable)];
    FieldView f;
    f.data = &g(-1, -1, -1);  // miniGhost's cell (0, 0, 0) is the lowest ghost corner
    f.nx = static_cast<int>(g.local_extent(2));
    f.ny = static_cast<int>(g.local_extent(1));
    f.nz = static_cast<int>(g.local_extent(0));
    f.stride_y = g.stride(1);
    f.stride_z = g.stride(0);
    return f;
  }

  void exchange_all_variables() override { update_->run(); }
  // Node peers add up in shared memory (ghostwire::allreduce_start publishes this rank's sums and
  // returns; the wait combines them), not through MPI's collectives.
  void start_global_sum(std::span<double> values, MPI_Comm) override {
    pending_sum_ = gw::allreduce_start(world_, values, gw::ReduceOp::sum);
  }
  void finish_global_sum() override { pending_sum_.wait(); }
  void exchange_variable(int variable) override { update_->run(static_cast<std::size_t>(variable)); }

 private:
  gw::World world_;  // a duplicate of the job's communicator; goes last
  std::vector<gw::Grid<double, 3>> grids_;
  std::unique_ptr<gw::HaloUpdate> update_;
  gw::PendingReduction pending_sum_;
};

std::unique_ptr<Variant> make(const VariantSetup& setup) { return std::make_unique<GwVariant>(setup); }

const VariantRegistration registration{"gw", "ghostwire Grid<double,3> with update_halo", make};

}  // namespace
}  // namespace minighost
