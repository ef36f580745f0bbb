// SPDX-License-Identifier: BSD-3-Clause
// What a path does when it has nothing of its own to do at a step of a slot's life. Each path type
// (one file each under halo/paths/) derives from these and hides what it does differently; calls go
// through halo/path_dispatch.hpp to the concrete type, never through a virtual call.
#pragma once

#include <cstddef>
#include <string>

#include "halo/paths/node_peer.hpp"

namespace ghostwire::detail {

struct PlanState;
struct SendSlot;
struct ReceiveSlot;

// Who posts a message: send() promises test_send an acknowledgement from the receiver; start()
// and exchange() wait for what they need at their own end.
enum class Post { by_send, by_exchange };

struct SendPathDefaults {
  static constexpr bool between_nodes = false;
  static constexpr bool served_by_world_progress = false;  // waits must call the world's progress
  static constexpr bool receiver_reads_my_data = false;   // finish() waits for the receiver to read it
  // Why send() refuses to send again before test_send() is true.
  std::string not_acknowledged_hint(const SendSlot&) const {
    return "has not been acknowledged by the receiver yet; call wait_send before sending again";
  }
  void release(PlanState&, SendSlot&) {}
};

struct ReceivePathDefaults {
  static constexpr bool between_nodes = false;
  static constexpr bool served_by_world_progress = false;
  // The caller asks for the next message: the ghost cells are the plan's until it is received.
  void hand_over(PlanState&, ReceiveSlot&) {}
  const std::byte* view() const { return nullptr; }
  // Done reading a message held in place (only paths with a view hold messages).
  void release_held(PlanState&, ReceiveSlot&) {}
  // Plan::acknowledge (acknowledge_by_reply): acknowledge every consumed message now.
  void acknowledge(const PlanState&, const ReceiveSlot&) const {}
  void release(PlanState&, ReceiveSlot&) {}
};

}  // namespace ghostwire::detail
