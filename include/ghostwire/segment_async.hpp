// SPDX-License-Identifier: BSD-3-Clause
// AsyncTransfer: one-sided reads and writes of any rank's part of a Segment that complete later.
//
// A transfer is a list of runs (byte ranges of the remote part and of local memory). Runs on a node
// peer are copied at once through shared memory; runs on other nodes become one MPI_Rget/MPI_Rput
// per call (with derived datatypes for several runs), completed by test()/wait(). A put is
// complete when its data is visible at the target, not merely when the local buffer is free.
//
// Remote targets must make MPI progress for the transfer to finish (over TCP, a put or get is
// served by the target's progress engine): a target waiting in any ghostwire call or MPI call
// does; one computing without calling MPI delays the transfer until it does.
// docs/dist.md, "Arrays, copy and copy_async".
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "ghostwire/segment.hpp"

namespace ghostwire {

struct TransferRun {
  std::size_t remote_offset;  // bytes into the target's part of the segment
  std::size_t local_offset;   // bytes into the local buffer
  std::size_t bytes;
};

namespace detail {
struct AsyncTransferState;
struct WorldState;
}

class AsyncTransfer {
 public:
  explicit AsyncTransfer(World& world);
  ~AsyncTransfer();  // waits for what is still under way
  AsyncTransfer(AsyncTransfer&&) noexcept;
  AsyncTransfer& operator=(AsyncTransfer&&) noexcept;

  // Reads runs of `rank`'s part of `segment` into `local` (+ each run's local_offset).
  void get(const Segment& segment, int rank, std::span<const TransferRun> runs, void* local);
  // Writes runs of `local` into `rank`'s part of `segment`.
  void put(Segment& segment, int rank, std::span<const TransferRun> runs, const void* local);

  bool test();  // true once everything started so far is complete
  void wait();
  std::size_t pending() const noexcept;  // remote operations not yet known to be complete

 private:
  detail::AsyncTransferState& state();  // made at the first operation on another node

  detail::WorldState* world_;
  std::unique_ptr<detail::AsyncTransferState> state_;  // null while everything went through shared memory
};

}  // namespace ghostwire
