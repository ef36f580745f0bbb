// SPDX-License-Identifier: BSD-3-Clause
// docs/plans.md's threads and partitions, and docs/runtime.md's thread level: each rank runs a team
// of threads on a ring (every rank sends to the right, receives from the left).
//  1. Channels: each thread drives its own channels of one plan.
//  2. Partitions: one message cut in three, each part readied by the thread that wrote it and
//     tested for arrival by the thread that reads it.
//  3. A team sharing one exchange (exchange_share).
//
//   scripts/launch -n 2 --threads 2 -- build/examples/guides/plan_threads [rounds=40]
//
// Every value carries its channel (or partition), round and position, so the checksum (the same on
// any number of ranks) changes if a single value is stale, misplaced, lost or received twice.
#include <barrier>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>
#include <vector>

#include "ghostwire/ghostwire.hpp"

namespace {

constexpr std::size_t threads = 2;     // per rank
constexpr std::size_t channels = 5;    // more than threads, and not a multiple of them
constexpr std::size_t elements = 64;   // per message

double value(std::size_t channel, int round, std::size_t i) {
  return 1e6 * round + 1e3 * static_cast<double>(channel) + static_cast<double>(i);
}
// One received value's share of the checksum: its bits times where it belongs.
std::uint64_t print_of(double received, std::size_t channel, int round, std::size_t i) {
  const std::uint64_t where = (static_cast<std::uint64_t>(round) * 64 + channel) * elements + i;
  return std::bit_cast<std::uint64_t>(received) * (2 * where + 1);
}

// Runs body(t) on `threads` threads; the first failure is rethrown after all have ended.
template <class Body>
void on_team(Body&& body) {
  std::vector<std::thread> team;
  std::vector<std::exception_ptr> errors(threads);
  for (std::size_t t = 0; t < threads; ++t)
    team.emplace_back([&, t] {
      try {
        body(t);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  for (std::thread& thread : team) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
  ghostwire::Settings settings = ghostwire::Settings::from_environment();
  settings.thread_level = ghostwire::ThreadLevel::multiple;  // or GHOSTWIRE_THREAD_LEVEL=multiple
  ghostwire::World world(MPI_COMM_WORLD, settings);          // MPI_Init_thread(MPI_THREAD_MULTIPLE) if MPI is not up
  if (world.thread_level() != ghostwire::ThreadLevel::multiple && world.node_count() > 1) {
    if (world.rank() == 0) std::printf("plan_threads: MPI provides %s; threads between nodes need MPI_THREAD_MULTIPLE\n",
                                       ghostwire::thread_level_name(world.thread_level()));
    return 1;
  }
  const int right = (world.rank() + 1) % world.size(), left = (world.rank() + world.size() - 1) % world.size();
  std::vector<int> neighbours{right};
  if (left != right) neighbours.push_back(left);

  // Channel c's message: elements of `data` (even channels a dense run, odd ones every second
  // element), received into its run of `ghosts`.
  ghostwire::Segment data(world, channels * 2 * elements * sizeof(double));
  ghostwire::Segment ghost_memory(world, channels * elements * sizeof(double));
  double* sent = data.as<double>().data();
  const double* ghosts = ghost_memory.as<double>().data();
  auto cell = [](std::size_t c, std::size_t i) { return c * 2 * elements + (c % 2 ? 2 * i : i); };
  auto fill = [&](std::size_t c, int round, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) sent[cell(c, i)] = value(c, round, i);
  };
  auto print = [&](std::size_t c, int round, std::size_t from, std::size_t to) {
    std::uint64_t sum = 0;
    for (std::size_t i = from; i < to; ++i) sum += print_of(ghosts[c * elements + i], c, round, i);
    return sum;
  };
  auto make_plan = [&](std::size_t channel_count) {
    ghostwire::Plan plan(world, neighbours, channel_count);
    const ghostwire::Region d = plan.add_memory(data, sizeof(double)), g = plan.add_memory(ghost_memory, sizeof(double));
    for (std::size_t c = 0; c < channel_count; ++c) {
      const std::size_t base = c * 2 * elements;
      plan.add_send(c, right, d, c % 2 ? ghostwire::Layout::box(base, {elements}, {2}) : ghostwire::Layout::contiguous(base, elements));
      plan.add_receive(c, left, g, ghostwire::Layout::contiguous(c * elements, elements));
    }
    return plan;
  };
  std::uint64_t checksum[threads] = {};

  // 1. Each thread its own channels.
  ghostwire::Plan plan = make_plan(channels);
  plan.commit();
  on_team([&](std::size_t t) {
    for (int round = 1; round <= rounds; ++round)
      for (std::size_t c = t; c < channels; c += threads) {  // each thread its own channels
        plan.wait_send(c, right);                             // the receiver has the last message
        fill(c, round, 0, elements);
        plan.send(c, right);
        plan.wait_recv(c, left);
        checksum[t] += print(c, round, 0, elements);
      }
    for (std::size_t c = t; c < channels; c += threads) plan.wait_send(c, right);
  });

  // 2. One message (channel 0) in three partitions, each readied and tested on its own.
  const std::vector<std::size_t> first{0, 24, 40, 64};  // partition k: elements [first[k], first[k + 1])
  ghostwire::Plan cut = make_plan(1);
  cut.partition_send(0, right, std::vector<std::size_t>{24, 16, 24});    // elements per partition, in message order
  cut.partition_receive(0, left, std::vector<std::size_t>{24, 16, 24});  // the receiver cuts its message alike
  cut.commit();
  on_team([&](std::size_t t) {
    for (int round = 1; round <= rounds; ++round) {
      for (std::size_t k = t; k < 3; k += threads) {  // this thread's partitions
        cut.wait_send(0, right, k);  // the receiver has this partition's last message: it may change
        fill(0, round, first[k], first[k + 1]);
        cut.pready(0, right, k);     // partition k is final: it goes now
      }
      for (std::size_t k = t; k < 3; k += threads) {
        while (!cut.parrived(0, left, k)) std::this_thread::yield();
        checksum[t] += print(0, round, first[k], first[k + 1]);
      }
    }
    for (std::size_t k = t; k < 3; k += threads) cut.wait_send(0, right, k);
  });

  // 3. The team shares each exchange of the first plan: every thread calls exchange_share.
  std::barrier<> sync(static_cast<std::ptrdiff_t>(threads));
  on_team([&](std::size_t t) {
    for (int round = rounds + 1; round <= 2 * rounds; ++round) {
      for (std::size_t c = t; c < channels; c += threads) fill(c, round, 0, elements);
      sync.arrive_and_wait();            // every thread's data final before any share sends it
      plan.exchange_share(t, threads);   // this thread's share of the slots
      sync.arrive_and_wait();            // every share in before any thread reads a ghost
      for (std::size_t c = t; c < channels; c += threads) checksum[t] += print(c, round, 0, elements);
      sync.arrive_and_wait();            // read before the next round's data is written
    }
  });

  std::uint64_t mine = 0;
  for (std::uint64_t part : checksum) mine += part;
  std::uint64_t lowest = mine, highest = mine;
  MPI_Allreduce(&mine, &lowest, 1, MPI_UINT64_T, MPI_MIN, world.comm());
  MPI_Allreduce(&mine, &highest, 1, MPI_UINT64_T, MPI_MAX, world.comm());
  if (world.rank() == 0) {
    std::printf("plan_threads: %d rank(s) x %zu threads, %zu channels, %d rounds each way; MPI provides %s\n",
                world.size(), threads, channels, rounds, ghostwire::thread_level_name(world.thread_level()));
    if (lowest != highest) std::printf("the ranks' checksums differ: %llu to %llu\n", static_cast<unsigned long long>(lowest),
                                       static_cast<unsigned long long>(highest));
    else std::printf("checksum %llu\n", static_cast<unsigned long long>(mine));
  }
  return lowest == highest ? 0 : 1;
}
