// SPDX-License-Identifier: BSD-3-Clause
// A Messenger is one way of moving a message from rank 0 to rank 1 (and back): the thing a
// benchmark measures. Each implementation (gw, mpi-sendrecv, mpi-put-flag, raw) is one small class
// behind this interface, so latency and bandwidth run the very same loop over all of them.
//
// Both ranks of the pair call the operations in lockstep with the same stamps; every received
// message is checked (message_stamp.hpp) before the operation returns.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "message_stamp.hpp"

namespace gwbench {

class RunContext;

// Where message j of a window lands in the receiver's area: consecutive slots while they fit, so a
// window streams through fresh memory as a real exchange would, reused round-robin beyond the area.
struct SlotLayout {
  static constexpr std::size_t alignment = 64;  // a cache line: slots never share one
  // The receive area of a streaming window stays below this: 64 slots of 4 MiB would need 256 MiB
  // per implementation and rank, and beyond the last-level cache fresh memory is all that matters.
  static constexpr std::size_t window_area_limit = std::size_t{64} << 20;

  std::size_t max_bytes = 0;   // largest message
  std::size_t area_bytes = 0;  // receive area of each rank of the pair
  int window = 1;              // messages per window; also the number of data notifications/flags

  static std::size_t stride(std::size_t bytes) { return (bytes + alignment - 1) / alignment * alignment; }
  static SlotLayout for_ping_pong(std::size_t max_bytes) { return {max_bytes, stride(max_bytes), 1}; }
  static SlotLayout for_windows(std::size_t max_bytes, int window) {
    std::size_t wanted = stride(max_bytes) * static_cast<std::size_t>(window);
    return {max_bytes, std::max(stride(max_bytes), std::min(wanted, window_area_limit)), window};
  }
  int slots(std::size_t bytes) const {
    return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(window), area_bytes / stride(bytes)));
  }
  std::size_t offset(std::size_t bytes, int message) const {
    return static_cast<std::size_t>(message % slots(bytes)) * stride(bytes);
  }
  // Bytes of a rank's buffer: the receive area, then the source the rank sends from.
  std::size_t source_offset() const { return area_bytes; }
  std::size_t buffer_bytes() const { return area_bytes + stride(max_bytes); }
};

class Messenger {
 public:
  Messenger(std::string name, std::string transport, const SlotLayout& layout, Verify verify)
      : name_(std::move(name)), transport_(std::move(transport)), layout_(layout), verify_(verify) {}
  virtual ~Messenger() = default;
  Messenger(const Messenger&) = delete;
  Messenger& operator=(const Messenger&) = delete;

  const std::string& name() const noexcept { return name_; }
  // How the bytes travel, for the report: ghostwire's path or transport ("shm", "rma", "p2p"), or
  // empty for the plain-MPI and raw implementations.
  const std::string& transport() const noexcept { return transport_; }
  // The next stamp; both ranks of the pair count in lockstep. Never 0.
  Stamp next_stamp() noexcept {
    if (++stamp_ == 0) ++stamp_;
    return stamp_;
  }

  // Ping-pong: one message to the peer's first slot. Returns when the source may be reused.
  virtual void send(std::size_t bytes, Stamp stamp) = 0;
  // Waits for the message stamped `stamp` in my first slot and checks it.
  virtual void receive(std::size_t bytes, Stamp stamp) = 0;

  // Streaming: `count` (<= window) messages back to back into the peer's slots, all stamped
  // `stamp`. Returns when the sources may be reused (not necessarily when they arrived).
  virtual void send_window(std::size_t bytes, int count, Stamp stamp) = 0;
  // Waits for all `count` messages of a window and checks every slot they used.
  virtual void receive_window(std::size_t bytes, int count, Stamp stamp) = 0;
  // The receiver's "window consumed" and the sender's wait for it.
  virtual void send_ack(Stamp stamp) = 0;
  virtual void wait_ack(Stamp stamp) = 0;

 protected:
  // Checks every slot a window of `count` messages wrote to.
  void check_window(const std::byte* area, std::size_t bytes, int count, Stamp stamp) const {
    for (int j = 0; j < std::min(count, layout_.slots(bytes)); ++j)
      check_message(area + layout_.offset(bytes, j), bytes, stamp, verify_, name_);
  }

  std::string name_, transport_;
  SlotLayout layout_;
  Verify verify_;

 private:
  Stamp stamp_ = 0;
};

// The implementations, in the order of the report's columns.
const std::vector<std::string>& implementation_names();
std::string_view implementation_summary(std::string_view name);
// Why `name` cannot run on this job's path, or "" when it can.
std::string unavailable_reason(std::string_view name, const RunContext& context);
// Everything that applies to this path: gw on one node; gw-p2p and gw-rma across nodes; the MPI
// baselines; raw when ranks 0 and 1 share a host.
std::vector<std::string> default_implementations(const RunContext& context);
// Collective over MPI_COMM_WORLD (every rank creates the same implementations in the same order).
std::unique_ptr<Messenger> make_messenger(std::string_view name, RunContext& context, const SlotLayout& layout,
                                          Verify verify);

// One factory per implementation file.
std::unique_ptr<Messenger> make_gw_messenger(RunContext& context, const std::string& name, const SlotLayout& layout,
                                             Verify verify);
std::unique_ptr<Messenger> make_mpi_sendrecv_messenger(RunContext& context, const SlotLayout& layout, Verify verify);
std::unique_ptr<Messenger> make_mpi_put_flag_messenger(RunContext& context, const SlotLayout& layout, Verify verify);
std::unique_ptr<Messenger> make_raw_messenger(RunContext& context, const SlotLayout& layout, Verify verify);

}  // namespace gwbench
