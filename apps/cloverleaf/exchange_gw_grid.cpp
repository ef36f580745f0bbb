// SPDX-License-Identifier: BSD-3-Clause
// gw-grid: the exchange a ghostwire user writes first. Every field of an update_halo call in one
// HaloUpdate (one message per neighbour, diagonal neighbours included, no two-hop ordering), each
// field filling the reference's depth at its mesh position:
//   cell    `depth` layers on every side
//   vertex  `depth` below and left, depth + 1 above and right (the first high layer is the chunk's
//           own edge node, which the neighbour's first node duplicates bit for bit)
//   faces   depth + 1 on the high side of the staggered dimension only
// plus the one part a Grid cannot fill (exchange.hpp): the edge row of vertex and y-face fields at
// the mesh's top edge in the ghost columns, and the edge column of vertex and x-face fields at the
// right edge in the ghost rows. Those strips travel in a small plan of their own, run while the
// HaloUpdate is under way (its cells are neither sent nor received by the update).
//
// See docs/cloverleaf.md, "Exchange variants".
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <ghostwire/dist.hpp>
#include <ghostwire/plan.hpp>

#include "exchange.hpp"
#include "face_boxes.hpp"

namespace cloverleaf {
namespace {

ghostwire::HaloDepth depth_of(FieldKind kind, Index d) {
  switch (kind) {
    case FieldKind::cell: return ghostwire::HaloDepth(d);
    case FieldKind::vertex: return ghostwire::HaloDepth::low_high({d, d}, {d + 1, d + 1});
    case FieldKind::x_face: return ghostwire::HaloDepth::low_high({d, d}, {d, d + 1});
    case FieldKind::y_face: return ghostwire::HaloDepth::low_high({d, d}, {d + 1, d});
  }
  return ghostwire::HaloDepth(d);
}

// The strip of a face box that lies on the edge row (top edge) or edge column (right edge).
FaceBox edge_row(FaceBox box, Index row) {
  box.row = row, box.rows = 1;
  return box;
}
FaceBox edge_column(FaceBox box, Index col) {
  box.col = col, box.cols = 1;
  return box;
}

class GridExchange final : public Exchange {
 public:
  explicit GridExchange(const ExchangeSetup& setup) : world_(setup.world), c_(setup.chunk) {}

  void update_halo(FieldMask fields, int depth) override {
    Step& step = step_for(fields, depth);
    ghostwire::HaloHandle pending = step.update.start();
    if (step.strips) step.strips->exchange();
    pending.wait();
  }

  void barrier() override { world_.barrier(); }
  void allgather(std::span<const double> mine, std::span<double> all) override {
    allgather_by_allreduce(world_, mine, all);
  }

 private:
  struct Step {
    ghostwire::HaloUpdate update;
    std::optional<ghostwire::Plan> strips;
  };

  Step& step_for(FieldMask fields, int depth) {
    auto& slot = steps_[{fields.bits(), depth}];
    if (!slot) {
      std::vector<ghostwire::HaloPart> parts;
      fields.for_each([&](Field f) { parts.push_back({&c_.field(f), depth_of(kind_of(f), depth)}); });
      slot = std::make_unique<Step>(Step{ghostwire::HaloUpdate(parts), edge_strips(fields, depth)});
      if (std::getenv("GW_CLOVER_DESCRIBE") && world_.rank() == 0)
        std::printf("gw-grid depth %d:\n%s\n", depth, slot->update.describe().c_str());
    }
    return *slot;
  }

  // Chunks on the mesh's top edge swap the edge row with their left and right neighbours (also on
  // the top edge); chunks on the right edge swap the edge column with the chunks below and above.
  // Collective: every rank builds the plan, most with no neighbour at all.
  std::optional<ghostwire::Plan> edge_strips(FieldMask fields, int depth) {
    bool any_row_field = false, any_column_field = false;
    fields.for_each([&](Field f) {
      any_row_field |= y_extra(kind_of(f)) == 1;
      any_column_field |= x_extra(kind_of(f)) == 1;
    });
    if (!any_row_field && !any_column_field) return std::nullopt;  // the same on every rank
    const Decomposition& d = c_.d;
    std::vector<Face> faces;
    if (any_row_field && d.external(top))
      for (Face f : {left, right})
        if (!d.external(f)) faces.push_back(f);
    if (any_column_field && d.external(right))
      for (Face f : {bottom, top})
        if (!d.external(f)) faces.push_back(f);
    std::vector<int> neighbours;
    for (Face f : faces) neighbours.push_back(d.neighbour[f]);

    ghostwire::Plan plan(world_, neighbours);
    fields.for_each([&](Field f) {
      const FieldKind kind = kind_of(f);
      Grid& g = c_.field(f);
      std::optional<ghostwire::Region> memory;
      for (Face face : faces) {
        const bool sideways = face == left || face == right;
        if (sideways ? y_extra(kind) == 0 : x_extra(kind) == 0) continue;
        if (!memory) memory = plan.add_memory(g.segment(), sizeof(double));
        FaceBox send = send_box(c_, kind, depth, face), receive = receive_box(c_, kind, depth, face);
        send = sideways ? edge_row(send, c_.ny) : edge_column(send, c_.nx);
        receive = sideways ? edge_row(receive, c_.ny) : edge_column(receive, c_.nx);
        plan.add_send(0, d.neighbour[face], *memory, segment_layout(g, send));
        plan.add_receive(0, d.neighbour[face], *memory, segment_layout(g, receive));
      }
    });
    plan.commit();
    return plan;
  }

  ghostwire::World& world_;
  Chunk& c_;
  // Destroyed in key order, the same on every rank (updates and plans are destroyed collectively).
  std::map<std::pair<std::uint32_t, int>, std::unique_ptr<Step>> steps_;
};

std::unique_ptr<Exchange> make(const ExchangeSetup& setup) { return std::make_unique<GridExchange>(setup); }

const ExchangeRegistration registration{"gw-grid",
                                        "Grid::update_halo's HaloUpdate: every field of a call in one message per "
                                        "neighbour, diagonals included (no two-hop), plus the mesh-edge strips",
                                        make};

}  // namespace
}  // namespace cloverleaf
