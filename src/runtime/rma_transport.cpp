// SPDX-License-Identifier: BSD-3-Clause
// Inter-node notified write over MPI-3 one-sided communication: put the data, flush so it is
// complete at the target, then put the notification and flush again. A target that sees the
// notification therefore sees the data. Two round trips per write.
//
// The target still has to call into MPI while it waits: UCX over TCP (and over shared memory for
// memory it cannot map) carries puts as messages that the target's progress engine applies. A
// target spinning on its own memory without calling MPI would wait forever.
// docs/runtime.md, "Notifications and notified writes".
#include <memory>

#include "mpi_check.hpp"
#include "segment_state.hpp"
#include "transport.hpp"

namespace ghostwire::detail {
namespace {

class RmaTransport final : public InterNodeTransport {
 public:
  explicit RmaTransport(WorldState& world) : comm_(world.comm) {}

  void write_notify(const void* source, int target, SegmentState& d, std::size_t offset, std::size_t bytes,
                    NotificationId id, NotificationValue value) override {
    const auto* bytes_in = static_cast<const std::byte*>(source);
    for_each_mpi_chunk(bytes, [&](std::size_t done, int piece) {
      check_mpi(MPI_Put(bytes_in + done, piece, MPI_BYTE, target, static_cast<MPI_Aint>(d.data_offset + offset + done),
                        piece, MPI_BYTE, d.world_window),
                "MPI_Put");
    });
    if (bytes) check_mpi(MPI_Win_flush(target, d.world_window), "MPI_Win_flush");
    check_mpi(MPI_Put(&value, 1, MPI_UINT32_T, target, static_cast<MPI_Aint>(id * sizeof(std::uint32_t)), 1,
                      MPI_UINT32_T, d.world_window),
              "MPI_Put");
    check_mpi(MPI_Win_flush(target, d.world_window), "MPI_Win_flush");
  }
  // Any MPI call that probes drives the progress engine, which applies incoming puts.
  void progress() override {
    int flag = 0;
    check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE), "MPI_Iprobe");
  }
  bool needs_progress() const override { return true; }
  // Every write is complete at its target when write_notify returns.
  void quiesce() override {}

 private:
  MPI_Comm comm_;
};

}  // namespace

std::unique_ptr<InterNodeTransport> make_rma_transport(WorldState& world) {
  return std::make_unique<RmaTransport>(world);
}

}  // namespace ghostwire::detail
