// SPDX-License-Identifier: BSD-3-Clause
// The inter-node half of a notified write. Intra-node writes never get here: they are a memcpy into
// the peer's part and a release store of the notification. Invariant, for every transport: a target
// that sees the notification sees the data, and writes from one rank to one target arrive in order.
// docs/runtime.md, "Notifications and notified writes".
#pragma once

#include <cstddef>

#include "ghostwire/segment.hpp"

namespace ghostwire::detail {

struct WorldState;
struct SegmentState;

class InterNodeTransport {
 public:
  virtual ~InterNodeTransport() = default;
  // Delivers `bytes` from `source` to `target`'s part of `destination` at `offset`, then sets the
  // notification. Returns when `source` may be reused.
  virtual void write_notify(const void* source, int target, SegmentState& destination, std::size_t offset,
                            std::size_t bytes, NotificationId id, NotificationValue value) = 0;
  // Serves incoming writes (two-sided transport); nothing for one-sided.
  virtual void progress() = 0;
  virtual bool needs_progress() const = 0;
  // Collective: returns once every write any rank started has been delivered.
  virtual void quiesce() = 0;
};

std::unique_ptr<InterNodeTransport> make_rma_transport(WorldState& world);
std::unique_ptr<InterNodeTransport> make_p2p_transport(WorldState& world);

}  // namespace ghostwire::detail
