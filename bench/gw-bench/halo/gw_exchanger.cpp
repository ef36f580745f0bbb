// SPDX-License-Identifier: BSD-3-Clause
// gw: a ghostwire Plan over the case's array, which lives in a Segment so node peers can read it in
// place or write into its ghost cells (one copy, no packing, or one copy into the ghosts); built
// once, then plan.exchange() per exchange. Grids describe each message as a box; the unstructured
// case builds its plan with make_unstructured_plan from the ghost map alone, as a user of an
// unstructured mesh would (its ghosts, after the owned points, are in the Segment too). Reverse
// (--reverse): the same plan with enable_reverse(), then plan.reverse_exchange(sum of float64).
// gw-private: the same plan on a copy of the array in private memory (a std::vector, as a code
// ported from MPI has it), which node peers cannot map: what the plan makes of that (staged, or
// read by the kernel with cross-memory attach where messages are large).
#include <mpi.h>

#include <vector>

#include "exchanger.hpp"
#include "ghostwire/plan.hpp"
#include "ghostwire/world.hpp"

namespace gwbench::halo {
namespace {

// The plan on the Segment's array, or on `private_field` when given (the unstructured case then
// with its send and receive lists, as make_unstructured_plan would have worked them out).
ghostwire::Plan build_plan(ghostwire::Segment& segment, const HaloCase& c, Direction direction,
                           std::optional<ghostwire::Aggregation> aggregation, std::vector<double>* private_field) {
  ghostwire::World& world = segment.world();
  auto* base = reinterpret_cast<double*>(segment.data());
  const bool reverse = direction == Direction::reverse;
  if (c.unstructured && private_field == nullptr) {
    ghostwire::Plan plan = ghostwire::make_unstructured_plan(world, segment, 0, c.owned_elements,
                                                             base + c.owned_elements, c.ghost_map, sizeof(double));
    if (reverse) plan.enable_reverse();  // committed already: collective, builds it at once
    return plan;
  }
  // The messages between one pair are told apart by channel: the position of their tag among the
  // pair's tags in that direction, which both sides list in the same order.
  auto channels_of = [](const auto& messages) {
    std::vector<std::size_t> channel(messages.size(), 0);
    for (std::size_t i = 1; i < messages.size(); ++i)
      if (messages[i].neighbour == messages[i - 1].neighbour) channel[i] = channel[i - 1] + 1;
    return channel;
  };
  std::vector<std::size_t> send_channel = channels_of(c.sends), receive_channel = channels_of(c.receives);
  unsigned long channels = 1;
  for (std::size_t ch : send_channel) channels = std::max<unsigned long>(channels, ch + 1);
  for (std::size_t ch : receive_channel) channels = std::max<unsigned long>(channels, ch + 1);
  MPI_Allreduce(MPI_IN_PLACE, &channels, 1, MPI_UNSIGNED_LONG, MPI_MAX, world.comm());

  std::vector<int> neighbours = c.neighbours();
  ghostwire::Plan plan(world, neighbours, channels);
  ghostwire::Region field =
      private_field ? plan.add_memory(private_field->data(), c.elements * sizeof(double), sizeof(double))
                    : plan.add_memory(segment, sizeof(double), 0, c.elements * sizeof(double));
  for (std::size_t i = 0; i < c.sends.size(); ++i)
    plan.add_send(send_channel[i], c.sends[i].neighbour, field, c.sends[i].layout);
  for (std::size_t i = 0; i < c.receives.size(); ++i)
    plan.add_receive(receive_channel[i], c.receives[i].neighbour, field, c.receives[i].layout);
  if (reverse) plan.enable_reverse();
  if (aggregation) plan.aggregate(*aggregation);
  plan.commit();
  return plan;
}

std::string transport_of(const ghostwire::World& world, const std::vector<int>& neighbours) {
  bool intra = false, inter = false;
  for (int n : neighbours) (world.shares_memory_with(n) ? intra : inter) = true;
  std::string inter_name = ghostwire::transport_name(world.settings().transport);
  if (intra && inter) return "shm+" + inter_name;
  return inter ? inter_name : "shm";
}

class GwExchanger final : public Exchanger {
 public:
  GwExchanger(const ExchangerSetup& setup, std::optional<ghostwire::Aggregation> aggregation, bool in_private)
      : segment_(setup.shared_field),
        private_(in_private ? setup.halo_case.elements : 0),
        plan_(build_plan(setup.shared_field, setup.halo_case, setup.direction, aggregation,
                         in_private ? &private_ : nullptr)),
        transport_(transport_of(segment_.world(), setup.halo_case.neighbours())) {}

  double* field() override { return private_.empty() ? reinterpret_cast<double*>(segment_.data()) : private_.data(); }
  void exchange() override { plan_.exchange(); }
  void reverse_sum() override { plan_.reverse_exchange({ghostwire::ReduceOp::sum, ghostwire::ScalarType::float64}); }
  std::string transport() const override { return transport_; }
  long internode_messages() const override { return static_cast<long>(plan_.traffic().inter_node_messages); }

 private:
  ghostwire::Segment& segment_;
  std::vector<double> private_;  // gw-private's array
  ghostwire::Plan plan_;
  std::string transport_;
};

}  // namespace

std::unique_ptr<Exchanger> make_gw_exchanger(const ExchangerSetup& setup,
                                             std::optional<ghostwire::Aggregation> aggregation, bool in_private) {
  return std::make_unique<GwExchanger>(setup, aggregation, in_private);
}

}  // namespace gwbench::halo
