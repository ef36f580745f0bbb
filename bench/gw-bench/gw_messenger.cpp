// SPDX-License-Identifier: BSD-3-Clause
// gw: ghostwire's notified write, the way a GASPI program uses it. Each rank's part of one Segment
// holds its receive area and the source it sends from; notification j announces message j of a
// window (0 for ping-pong) and notification `window` the receiver's acknowledgement.
#include "ghostwire/segment.hpp"
#include "messenger.hpp"
#include "run_context.hpp"

namespace gwbench {
namespace {

using ghostwire::NotificationId;

class GwMessenger final : public Messenger {
 public:
  GwMessenger(ghostwire::World& world, int peer, bool in_pair, std::string name, std::string transport,
              const SlotLayout& layout, Verify verify)
      : Messenger(std::move(name), std::move(transport), layout, verify),
        segment_(world, in_pair ? layout.buffer_bytes() : 0, static_cast<std::size_t>(layout.window) + 1),
        peer_(peer),
        ack_id_(static_cast<NotificationId>(layout.window)) {}

  void send(std::size_t bytes, Stamp stamp) override {
    stamp_message(segment_.data() + layout_.source_offset(), bytes, stamp, verify_);
    ghostwire::write_notify(segment_, layout_.source_offset(), peer_, segment_, 0, bytes, 0, stamp);
  }

  void receive(std::size_t bytes, Stamp stamp) override {
    check_stamp(ghostwire::notify_wait(segment_, 0), stamp, name_, "notification", 0);
    check_message(segment_.data(), bytes, stamp, verify_, name_);
  }

  void send_window(std::size_t bytes, int count, Stamp stamp) override {
    stamp_message(segment_.data() + layout_.source_offset(), bytes, stamp, verify_);
    for (int j = 0; j < count; ++j)
      ghostwire::write_notify(segment_, layout_.source_offset(), peer_, segment_, layout_.offset(bytes, j), bytes,
                              static_cast<NotificationId>(j), stamp);
  }

  void receive_window(std::size_t bytes, int count, Stamp stamp) override {
    for (int j = 0; j < count; ++j)
      check_stamp(ghostwire::notify_wait(segment_, static_cast<NotificationId>(j)), stamp, name_, "notification", j);
    check_window(segment_.data(), bytes, count, stamp);
  }

  void send_ack(Stamp stamp) override { ghostwire::notify(peer_, segment_, ack_id_, stamp); }
  void wait_ack(Stamp stamp) override {
    check_stamp(ghostwire::notify_wait(segment_, ack_id_), stamp, name_, "the acknowledgement");
  }

 private:
  ghostwire::Segment segment_;
  int peer_;
  NotificationId ack_id_;
};

}  // namespace

std::unique_ptr<Messenger> make_gw_messenger(RunContext& context, const std::string& name, const SlotLayout& layout,
                                             Verify verify) {
  ghostwire::World* world = &context.world();
  if (name == "gw-p2p") world = &context.world(ghostwire::Transport::p2p);
  if (name == "gw-rma") world = &context.world(ghostwire::Transport::rma);
  // On one node the bytes never reach an inter-node transport: they move through shared memory.
  std::string transport = context.pair_on_one_ghostwire_node() ? "shm" : transport_name(world->settings().transport);
  return std::make_unique<GwMessenger>(*world, context.peer(), context.in_pair(), name, transport, layout, verify);
}

}  // namespace gwbench
