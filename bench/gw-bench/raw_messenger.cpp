// SPDX-License-Identifier: BSD-3-Clause
// raw: the physical floor of moving a message between two processes on one machine, with no
// library in the way: memcpy into the peer's part of an MPI_Win_allocate_shared window, then a
// release-store of a flag that the peer polls with acquire loads. MPI only allocates the memory;
// no MPI call is made while measuring. Possible only when ranks 0 and 1 share a host (intra and
// emulated paths).
//
// Each rank's part: [flags: window + 1 words, page padded | receive area | source].
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "flag_wait.hpp"
#include "messenger.hpp"
#include "mpi_call.hpp"
#include "run_context.hpp"

namespace gwbench {
namespace {

constexpr std::size_t page = 4096;

std::byte* page_align(void* pointer) {
  auto address = reinterpret_cast<std::uintptr_t>(pointer);
  return static_cast<std::byte*>(pointer) + ((address + page - 1) / page * page - address);
}

class RawMessenger final : public Messenger {
 public:
  RawMessenger(const RunContext& context, const SlotLayout& layout, Verify verify)
      : Messenger("raw", "", layout, verify),
        rank_(context.rank()),
        flags_bytes_((static_cast<std::size_t>(layout.window + 1) * sizeof(std::uint32_t) + page - 1) / page * page),
        wait_(context.timeout_seconds(), context.oversubscribed()),
        last_seen_(static_cast<std::size_t>(layout.window + 1), 0) {
    if (!context.in_pair()) return;  // the other ranks take no part
    mpi_call(MPI_Comm_split_type(context.pair_comm(), MPI_COMM_TYPE_SHARED, context.rank(), MPI_INFO_NULL, &host_comm_),
             "MPI_Comm_split_type");
    int members = 0;
    MPI_Comm_size(host_comm_, &members);
    if (members != 2) throw std::runtime_error("raw: ranks 0 and 1 do not share memory");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    std::size_t bytes = flags_bytes_ + layout.buffer_bytes();
    // One page more: each part starts at the first page boundary inside its allocation (mappings
    // keep the offset within a page, so both ranks compute the same boundary).
    void* base = nullptr;
    int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes + page), 1, info, host_comm_, &base, &window_);
    MPI_Info_free(&info);
    mpi_call(rc, "MPI_Win_allocate_shared");
    mine_ = page_align(base);
    MPI_Aint size = 0;
    int unit = 0;
    void* peer_base = nullptr;
    mpi_call(MPI_Win_shared_query(window_, context.peer(), &size, &unit, &peer_base), "MPI_Win_shared_query");
    peer_ = page_align(peer_base);
    std::memset(mine_, 0, bytes);
    // Opened once for the whole run: from here on it is loads and stores only.
    mpi_call(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
    mpi_call(MPI_Barrier(host_comm_), "MPI_Barrier");
  }

  ~RawMessenger() override {
    if (window_ == MPI_WIN_NULL) return;
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
    MPI_Comm_free(&host_comm_);
  }

  void send(std::size_t bytes, Stamp stamp) override {
    stamp_message(source(), bytes, stamp, verify_);
    deliver(bytes, 0, 0, stamp);
  }
  void receive(std::size_t bytes, Stamp stamp) override {
    wait_flag(0, stamp);
    check_message(area(mine_), bytes, stamp, verify_, name_);
  }

  void send_window(std::size_t bytes, int count, Stamp stamp) override {
    stamp_message(source(), bytes, stamp, verify_);
    for (int j = 0; j < count; ++j) deliver(bytes, layout_.offset(bytes, j), j, stamp);
  }
  void receive_window(std::size_t bytes, int count, Stamp stamp) override {
    for (int j = 0; j < count; ++j) wait_flag(j, stamp);
    check_window(area(mine_), bytes, count, stamp);
  }

  void send_ack(Stamp stamp) override { raise_flag(layout_.window, stamp); }
  void wait_ack(Stamp stamp) override { wait_flag(layout_.window, stamp); }

 private:
  std::byte* area(std::byte* part) const { return part + flags_bytes_; }
  std::byte* source() const { return area(mine_) + layout_.source_offset(); }

  void deliver(std::size_t bytes, std::size_t offset, int flag, Stamp stamp) {
    std::memcpy(area(peer_) + offset, source(), bytes);
    raise_flag(flag, stamp);
  }
  void raise_flag(int flag, Stamp stamp) {
    std::atomic_ref<std::uint32_t>(reinterpret_cast<std::uint32_t*>(peer_)[flag]).store(stamp, std::memory_order_release);
  }
  void wait_flag(int flag, Stamp stamp) {
    wait_for_flag(reinterpret_cast<std::uint32_t*>(mine_)[flag], last_seen_[static_cast<std::size_t>(flag)], stamp,
                  wait_, [] {}, name_, rank_, flag);
  }

  int rank_;
  std::size_t flags_bytes_;
  SpinWait wait_;
  std::vector<std::uint32_t> last_seen_;
  MPI_Comm host_comm_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  std::byte* mine_ = nullptr;
  std::byte* peer_ = nullptr;
};

}  // namespace

std::unique_ptr<Messenger> make_raw_messenger(RunContext& context, const SlotLayout& layout, Verify verify) {
  return std::make_unique<RawMessenger>(context, layout, verify);
}

}  // namespace gwbench
