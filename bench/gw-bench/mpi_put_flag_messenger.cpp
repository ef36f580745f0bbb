// SPDX-License-Identifier: BSD-3-Clause
// mpi-put-flag: a notified write written by hand in MPI-3 one-sided communication, as a user
// without ghostwire would: MPI_Put of the data and MPI_Win_flush (so it is complete at the target),
// then MPI_Put of a flag and MPI_Win_flush, into a window created with MPI_Win_allocate over the
// world and opened once with MPI_Win_lock_all. The target polls its flag with atomic loads and
// calls MPI_Iprobe and MPI_Win_sync between polls: UCX over TCP emulates puts with messages that
// only the target's progress engine applies, so a target that just spins would wait forever.
//
// Each rank's window memory: [flags: window + 1 words, page padded | receive area | source].
#include <mpi.h>

#include <cstring>

#include "flag_wait.hpp"
#include "messenger.hpp"
#include "mpi_call.hpp"
#include "run_context.hpp"

namespace gwbench {
namespace {

class MpiPutFlagMessenger final : public Messenger {
 public:
  MpiPutFlagMessenger(const RunContext& context, const SlotLayout& layout, Verify verify)
      : Messenger("mpi-put-flag", "", layout, verify),
        comm_(duplicate_world()),
        peer_(context.peer()),
        rank_(context.rank()),
        flags_bytes_((static_cast<std::size_t>(layout.window + 1) * sizeof(std::uint32_t) + 4095) / 4096 * 4096),
        wait_(context.timeout_seconds(), context.oversubscribed()),
        last_seen_(static_cast<std::size_t>(layout.window + 1), 0) {
    std::size_t bytes = context.in_pair() ? flags_bytes_ + layout.buffer_bytes() : 0;
    mpi_call(MPI_Win_allocate(static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, comm_, &base_, &window_),
             "MPI_Win_allocate");
    MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN);
    if (bytes) std::memset(base_, 0, bytes);
    mpi_call(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
    // Nobody may put into a rank's memory before that rank has cleared it.
    mpi_call(MPI_Barrier(comm_), "MPI_Barrier");
  }

  ~MpiPutFlagMessenger() override {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
    MPI_Comm_free(&comm_);
  }

  void send(std::size_t bytes, Stamp stamp) override {
    stamp_message(source(), bytes, stamp, verify_);
    put_notified(bytes, 0, 0, stamp);
  }
  void receive(std::size_t bytes, Stamp stamp) override {
    wait_flag(0, stamp);
    check_message(area(), bytes, stamp, verify_, name_);
  }

  void send_window(std::size_t bytes, int count, Stamp stamp) override {
    stamp_message(source(), bytes, stamp, verify_);
    for (int j = 0; j < count; ++j) put_notified(bytes, layout_.offset(bytes, j), j, stamp);
  }
  void receive_window(std::size_t bytes, int count, Stamp stamp) override {
    for (int j = 0; j < count; ++j) wait_flag(j, stamp);
    check_window(area(), bytes, count, stamp);
  }

  void send_ack(Stamp stamp) override { put_flag(layout_.window, stamp); }
  void wait_ack(Stamp stamp) override { wait_flag(layout_.window, stamp); }

 private:
  std::byte* base() const { return static_cast<std::byte*>(base_); }
  std::byte* area() const { return base() + flags_bytes_; }
  std::byte* source() const { return area() + layout_.source_offset(); }
  std::uint32_t* flags() const { return reinterpret_cast<std::uint32_t*>(base_); }

  void put_notified(std::size_t bytes, std::size_t offset, int flag, Stamp stamp) {
    mpi_call(MPI_Put(source(), static_cast<int>(bytes), MPI_BYTE, peer_, static_cast<MPI_Aint>(flags_bytes_ + offset),
                     static_cast<int>(bytes), MPI_BYTE, window_),
             "MPI_Put");
    mpi_call(MPI_Win_flush(peer_, window_), "MPI_Win_flush");
    put_flag(flag, stamp);
  }

  void put_flag(int flag, Stamp stamp) {
    flag_value_ = stamp;  // the origin buffer must live until the flush
    mpi_call(MPI_Put(&flag_value_, 1, MPI_UINT32_T, peer_, static_cast<MPI_Aint>(flag * sizeof(std::uint32_t)), 1,
                     MPI_UINT32_T, window_),
             "MPI_Put");
    mpi_call(MPI_Win_flush(peer_, window_), "MPI_Win_flush");
  }

  void wait_flag(int flag, Stamp stamp) {
    wait_for_flag(
        flags()[flag], last_seen_[static_cast<std::size_t>(flag)], stamp, wait_,
        [&] {
          int pending = 0;
          MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &pending, MPI_STATUS_IGNORE);
          MPI_Win_sync(window_);
        },
        name_, rank_, flag);
    // The data put before the flag is now complete here; MPI_Win_sync makes it visible to loads
    // under the separate memory model too.
    MPI_Win_sync(window_);
  }

  MPI_Comm comm_;
  int peer_, rank_;
  std::size_t flags_bytes_;
  SpinWait wait_;
  void* base_ = nullptr;
  MPI_Win window_ = MPI_WIN_NULL;
  std::uint32_t flag_value_ = 0;
  std::vector<std::uint32_t> last_seen_;
};

}  // namespace

std::unique_ptr<Messenger> make_mpi_put_flag_messenger(RunContext& context, const SlotLayout& layout, Verify verify) {
  return std::make_unique<MpiPutFlagMessenger>(context, layout, verify);
}

}  // namespace gwbench
