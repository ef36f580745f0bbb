// SPDX-License-Identifier: BSD-3-Clause
// ghostwire's partitions: a Plan whose message to the peer is cut into partitions; each thread waits
// until the peer has taken its partitions' last message, fills them, marks them ready (pready), and
// receives its partitions from the peer (parrived). No thread waits for another: there is no start,
// no wait for the whole message, no barrier.
#include <string>

#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"
#include "partitioned_exchange.hpp"

namespace gwpart {
namespace {

class GwExchange final : public PartitionedExchange {
 public:
  GwExchange(const Setup& setup, ghostwire::World& world, std::size_t bytes, std::size_t partitions)
      : PartitionedExchange(setup, bytes, partitions),
        send_(world, bytes),
        receive_(world, bytes),
        plan_(world, {setup.peer}, 1) {
    const ghostwire::Region out = plan_.add_memory(send_, sizeof(double));
    const ghostwire::Region in = plan_.add_memory(receive_, sizeof(double));
    const std::size_t count = bytes / sizeof(double);
    plan_.add_send(0, setup.peer, out, ghostwire::Layout::contiguous(0, count));
    plan_.add_receive(0, setup.peer, in, ghostwire::Layout::contiguous(0, count));
    plan_.partition_send(0, setup.peer, partitions).partition_receive(0, setup.peer, partitions);
    plan_.commit();
  }

 private:
  void loop(int thread, int threads, long first, long count) override {
    auto* send = reinterpret_cast<double*>(send_.data());
    const auto* received = reinterpret_cast<const double*>(receive_.data());
    const int peer = setup_.peer;
    for (long it = first; it < first + count; ++it) {
      for (std::size_t k = static_cast<std::size_t>(thread); k < partitions_; k += static_cast<std::size_t>(threads)) {
        plan_.wait_send(0, peer, k);
        fill(send, k, it);
        plan_.pready(0, peer, k);
      }
      for (std::size_t k = static_cast<std::size_t>(thread); k < partitions_; k += static_cast<std::size_t>(threads)) {
        Backoff backoff;
        while (!plan_.parrived(0, peer, k)) backoff.pause();
        check(received, k, it);
      }
    }
  }

  ghostwire::Segment send_, receive_;
  ghostwire::Plan plan_;
};

}  // namespace

// `mode`: gw (the World's automatic choice), gw-separate or gw-combined.
std::unique_ptr<PartitionedExchange> make_gw_exchange(const std::string& mode, const Setup& setup, std::size_t bytes,
                                                      std::size_t partitions) {
  ghostwire::World& world = mode == "gw-separate" ? *setup.separate : mode == "gw-combined" ? *setup.combined : *setup.world;
  return std::make_unique<GwExchange>(setup, world, bytes, partitions);
}

}  // namespace gwpart
