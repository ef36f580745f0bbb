// SPDX-License-Identifier: BSD-3-Clause
// gw-buffers and gw-sections: the reference's two-hop exchange (left and right, then bottom and top
// with the ghost columns just received, so corners need no diagonal message) on ghostwire Plans,
// one pair of plans per (fields, depth) of an update_halo call, built at its first call and run
// every time after. The rectangles are the reference's (face_boxes.hpp); the two variants differ
// only in how the fields of a call are grouped into messages, the question of the study:
//
//  - gw-buffers: one message per neighbour with every field of the call (one slot, one piece per
//    field): the study's communication buffers with several fields.
//  - gw-sections: one message per field and neighbour (one channel per field), each moved straight
//    from its field as a strided section: the study's array sections, no aggregation.
//
// The copies are ghostwire's choice per slot (docs/plans.md): between node peers a row section is
// read in place by the receiver, a column section is packed by the sender into shared staging
// first (a column touches one cache line per element); between nodes each message is packed into
// a buffer and sent as one MPI message. describe() of the plans shows it (GW_CLOVER_DESCRIBE=1).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include <ghostwire/plan.hpp>

#include "exchange.hpp"
#include "face_boxes.hpp"

namespace cloverleaf {
namespace {

enum class Grouping { per_neighbour, per_field };

class TwoHopExchange final : public Exchange {
 public:
  TwoHopExchange(const ExchangeSetup& setup, Grouping grouping)
      : world_(setup.world), c_(setup.chunk), grouping_(grouping) {}

  void update_halo(FieldMask fields, int depth) override {
    Hops& hops = hops_for(fields, depth);
    hops.sideways.exchange();
    hops.vertical.exchange();
  }

  void barrier() override { world_.barrier(); }
  void allgather(std::span<const double> mine, std::span<double> all) override {
    allgather_by_allreduce(world_, mine, all);
  }

 private:
  struct Hops {
    ghostwire::Plan sideways, vertical;
  };

  Hops& hops_for(FieldMask fields, int depth) {
    auto& slot = hops_[{fields.bits(), depth}];
    if (!slot) {
      slot = std::make_unique<Hops>(Hops{build(fields, depth, left, right), build(fields, depth, bottom, top)});
      if (std::getenv("GW_CLOVER_DESCRIBE") && world_.rank() == 0)
        std::printf("%s depth %d, left/right:\n%s\nbottom/top:\n%s\n",
                    grouping_ == Grouping::per_field ? "gw-sections" : "gw-buffers", depth,
                    slot->sideways.describe().c_str(), slot->vertical.describe().c_str());
    }
    return *slot;
  }

  // The plan of one hop: the faces `low` and `high` that are shared with another chunk.
  ghostwire::Plan build(FieldMask fields, int depth, Face low, Face high) {
    const Decomposition& d = c_.d;
    std::vector<int> neighbours;
    for (Face f : {low, high})
      if (!d.external(f)) neighbours.push_back(d.neighbour[f]);
    const std::size_t channels = grouping_ == Grouping::per_field ? static_cast<std::size_t>(fields.count()) : 1;
    ghostwire::Plan plan(world_, neighbours, channels);
    std::size_t channel = 0;
    fields.for_each([&](Field f) {
      Grid& g = c_.field(f);
      const ghostwire::Region memory = plan.add_memory(g.segment(), sizeof(double));
      for (Face face : {low, high}) {
        if (d.external(face)) continue;
        plan.add_send(channel, d.neighbour[face], memory, segment_layout(g, send_box(c_, kind_of(f), depth, face)));
        plan.add_receive(channel, d.neighbour[face], memory,
                         segment_layout(g, receive_box(c_, kind_of(f), depth, face)));
      }
      if (grouping_ == Grouping::per_field) ++channel;
    });
    plan.commit();
    return plan;
  }

  ghostwire::World& world_;
  Chunk& c_;
  Grouping grouping_;
  // Destroyed in key order, the same on every rank (plans are destroyed collectively).
  std::map<std::pair<std::uint32_t, int>, std::unique_ptr<Hops>> hops_;
};

std::unique_ptr<Exchange> make_buffers(const ExchangeSetup& setup) {
  return std::make_unique<TwoHopExchange>(setup, Grouping::per_neighbour);
}
std::unique_ptr<Exchange> make_sections(const ExchangeSetup& setup) {
  return std::make_unique<TwoHopExchange>(setup, Grouping::per_field);
}

const ExchangeRegistration buffers{"gw-buffers",
                                   "ghostwire plans, every field of a call in one message per neighbour; "
                                   "left/right then bottom/top (corners in two hops)",
                                   make_buffers};
const ExchangeRegistration sections{"gw-sections",
                                    "ghostwire plans, one message per field and neighbour straight from the "
                                    "field; left/right then bottom/top (corners in two hops)",
                                    make_sections};

}  // namespace
}  // namespace cloverleaf
