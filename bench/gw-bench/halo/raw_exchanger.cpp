// SPDX-License-Identifier: BSD-3-Clause
// raw: the floor of a halo exchange between processes that share memory, with no library in the
// way. Every rank's array lives in one MPI_Win_allocate_shared window over the ranks of the host;
// each rank copies its ghost cells straight out of its neighbours' arrays with hand-written loops
// (CopyLoop: memcpy per contiguous row, typed loops for strided and indexed elements). Two flags
// per rank, each on its own cache line, order it:
//
//   ready = e  (release)  "my owned data of exchange e is in place"
//   wait until every neighbour's ready >= e (acquire), copying from each as soon as it is
//   done = e   (release)  "I have finished reading my neighbours' data of exchange e"
//   wait until every neighbour's done >= e: then I may overwrite my owned cells
//
// Reverse (--reverse): the same flags with the roles swapped. ready = e says "my ghosts of step e
// are in place"; each owner adds its neighbours' ghost cells, read in place, into its owned cells
// (AddLoop), neighbour by neighbour in rank order and message (tag) order, as ghostwire combines;
// done = e says it has finished reading them, and once every neighbour's done >= e this rank may
// overwrite its ghosts. Where the ghosts sit in the neighbour's array is learnt once, by message.
//
// MPI allocates the memory and is not called while measuring. Possible only when all ranks share
// one host (intra and emulated paths).
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>

#include "../mpi_call.hpp"
#include "../run_context.hpp"
#include "../spin_wait.hpp"
#include "add_loop.hpp"
#include "copy_loop.hpp"
#include "exchanger.hpp"

namespace gwbench::halo {
namespace {

constexpr std::size_t page = 4096, line = 64;

std::byte* page_align(void* pointer) {
  auto address = reinterpret_cast<std::uintptr_t>(pointer);
  return static_cast<std::byte*>(pointer) + ((address + page - 1) / page * page - address);
}

// A rank's part of the window: [ready | done, each on its own cache line, page padded | array].
struct Part {
  std::byte* base = nullptr;
  std::uint64_t& ready() const { return *reinterpret_cast<std::uint64_t*>(base); }
  std::uint64_t& done() const { return *reinterpret_cast<std::uint64_t*>(base + line); }
  double* array() const { return reinterpret_cast<double*>(base + page); }
};

std::uint64_t load(std::uint64_t& flag) { return std::atomic_ref<std::uint64_t>(flag).load(std::memory_order_acquire); }
void store(std::uint64_t& flag, std::uint64_t value) {
  std::atomic_ref<std::uint64_t>(flag).store(value, std::memory_order_release);
}

class RawExchanger final : public Exchanger {
 public:
  explicit RawExchanger(const ExchangerSetup& setup)
      : rank_(setup.context.rank()), wait_(setup.context.timeout_seconds(), setup.context.oversubscribed()) {
    const HaloCase& c = setup.halo_case;
    mpi_call(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host_comm_),
             "MPI_Comm_split_type");
    int members = 0;
    MPI_Comm_size(host_comm_, &members);
    if (members != setup.context.size()) throw std::runtime_error("raw: not all ranks share memory");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    const std::size_t bytes = page + c.elements * sizeof(double);
    void* base = nullptr;
    // One page more: each part starts at the first page boundary inside its allocation.
    int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes + page), 1, info, host_comm_, &base, &window_);
    MPI_Info_free(&info);
    mpi_call(rc, "MPI_Win_allocate_shared");
    mine_.base = page_align(base);
    std::memset(mine_.base, 0, bytes);

    // Host ranks are world ranks: the split kept their order and every rank is on this host.
    std::map<int, std::size_t> slot_of;
    for (int n : c.neighbours()) {
      MPI_Aint size = 0;
      int unit = 0;
      void* peer = nullptr;
      mpi_call(MPI_Win_shared_query(window_, n, &size, &unit, &peer), "MPI_Win_shared_query");
      slot_of[n] = neighbours_.size();
      neighbours_.push_back({n, Part{page_align(peer)}});
    }
    for (const Receive& r : c.receives) receives_.push_back({slot_of.at(r.neighbour), CopyLoop(r.source, r.layout)});
    if (setup.direction == Direction::reverse) learn_ghosts(c, slot_of);
    pending_.reserve(receives_.size());
    mpi_call(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
    mpi_call(MPI_Barrier(host_comm_), "MPI_Barrier");
  }

  ~RawExchanger() override {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
    MPI_Comm_free(&host_comm_);
  }

  double* field() override { return mine_.array(); }

  void exchange() override {
    const std::uint64_t e = ++epoch_;
    double* mine = mine_.array();
    store(mine_.ready(), e);
    pending_.clear();
    for (std::size_t k = 0; k < receives_.size(); ++k) pending_.push_back(k);
    // Copy from whichever neighbour is ready first.
    wait_.until(
        [&] {
          std::size_t kept = 0;
          for (std::size_t k : pending_) {
            const Neighbour& n = neighbours_[receives_[k].neighbour];
            if (load(n.part.ready()) >= e)
              receives_[k].copy.run(n.part.array(), mine);
            else
              pending_[kept++] = k;
          }
          pending_.resize(kept);
          return kept == 0;
        },
        [&] { return describe("ready", neighbours_[receives_[pending_.front()].neighbour], e); });
    store(mine_.done(), e);
    for (const Neighbour& n : neighbours_)
      wait_.until([&] { return load(n.part.done()) >= e; }, [&] { return describe("done", n, e); });
  }

  // In a fixed order, so no "whichever neighbour is ready first" here.
  void reverse_sum() override {
    const std::uint64_t e = ++epoch_;
    double* mine = mine_.array();
    store(mine_.ready(), e);
    for (const ReverseAdd& a : reverse_adds_) {
      const Neighbour& n = neighbours_[a.neighbour];
      wait_.until([&] { return load(n.part.ready()) >= e; }, [&] { return describe("ready", n, e); });
      a.add.run(n.part.array(), mine);
    }
    store(mine_.done(), e);
    for (const Neighbour& n : neighbours_)
      wait_.until([&] { return load(n.part.done()) >= e; }, [&] { return describe("done", n, e); });
  }

 private:
  struct Neighbour {
    int rank;
    Part part;
  };
  struct ReceiveCopy {
    std::size_t neighbour;  // index into neighbours_
    CopyLoop copy;          // from the neighbour's array into mine
  };
  struct ReverseAdd {
    std::size_t neighbour;  // index into neighbours_
    AddLoop add;            // from the neighbour's ghost cells into my owned cells
  };

  // Each receiver tells the owner where the ghosts of a message sit in its array (its receive
  // layout's elements, message order); the owner's send of the same (neighbour, tag) gets them.
  void learn_ghosts(const HaloCase& c, const std::map<int, std::size_t>& slot_of) {
    std::vector<std::vector<unsigned long long>> sent, got;
    std::vector<MPI_Request> requests;
    for (const Receive& r : c.receives) {
      sent.emplace_back();
      r.layout.for_each_run([&](std::size_t first, std::size_t count) {
        for (std::size_t k = 0; k < count; ++k) sent.back().push_back(first + k);
      });
    }
    got.resize(c.sends.size());
    for (std::size_t i = 0; i < c.sends.size(); ++i) {
      got[i].resize(c.sends[i].layout.count());
      requests.push_back(MPI_REQUEST_NULL);
      mpi_call(MPI_Irecv(got[i].data(), static_cast<int>(got[i].size()), MPI_UNSIGNED_LONG_LONG, c.sends[i].neighbour,
                         c.sends[i].tag, host_comm_, &requests.back()),
               "MPI_Irecv");
    }
    for (std::size_t i = 0; i < c.receives.size(); ++i) {
      requests.push_back(MPI_REQUEST_NULL);
      mpi_call(MPI_Isend(sent[i].data(), static_cast<int>(sent[i].size()), MPI_UNSIGNED_LONG_LONG,
                         c.receives[i].neighbour, c.receives[i].tag, host_comm_, &requests.back()),
               "MPI_Isend");
    }
    mpi_call(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (std::size_t i = 0; i < c.sends.size(); ++i)
      reverse_adds_.push_back({slot_of.at(c.sends[i].neighbour),
                               AddLoop(std::vector<std::size_t>(got[i].begin(), got[i].end()), c.sends[i].layout)});
  }

  std::string describe(const char* flag, const Neighbour& n, std::uint64_t e) const {
    std::uint64_t value = load(flag[0] == 'r' ? n.part.ready() : n.part.done());
    return "raw: rank " + std::to_string(rank_) + " waited for rank " + std::to_string(n.rank) + "'s '" + flag +
           "' flag to reach exchange " + std::to_string(e) + ", but it holds " + std::to_string(value);
  }

  int rank_;
  SpinWait wait_;
  MPI_Comm host_comm_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  Part mine_;
  std::vector<Neighbour> neighbours_;
  std::vector<ReceiveCopy> receives_;
  std::vector<ReverseAdd> reverse_adds_;  // --reverse only; (neighbour, tag) order
  std::vector<std::size_t> pending_;
  std::uint64_t epoch_ = 0;
};

}  // namespace

std::unique_ptr<Exchanger> make_raw_exchanger(const ExchangerSetup& setup) {
  return std::make_unique<RawExchanger>(setup);
}

}  // namespace gwbench::halo
