// SPDX-License-Identifier: BSD-3-Clause
// docs/runtime.md's program: a World and its nodes, a Segment, notified writes around a ring (every
// rank writes to its right neighbour, which acknowledges with a notification), one-sided put and
// get, reductions, and an error.
//
//   scripts/launch -n 2 -- build/examples/guides/runtime_tour [rounds=100]
//
// The values carry their round and position but not the sending rank, so the checksum is the same on
// any number of ranks, and a value that is stale, misplaced, lost or received twice changes it.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "ghostwire/ghostwire.hpp"

namespace {

constexpr std::size_t values_per_write = 32;
constexpr std::size_t bytes = values_per_write * sizeof(double);
enum : ghostwire::NotificationId { arrived = 0, consumed = 1, first_flag = 2 };  // notification ids

double value(long round, std::size_t i) { return 1e3 * static_cast<double>(round) + static_cast<double>(i); }
std::uint64_t print_of(double received, long round, std::size_t i) {
  const std::uint64_t where = static_cast<std::uint64_t>(round) * values_per_write + i;
  return std::bit_cast<std::uint64_t>(received) * (2 * where + 1);
}

}  // namespace

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? std::atol(argv[1]) : 100;
  ghostwire::World world;  // MPI_COMM_WORLD, duplicated; initialises MPI if the program has not
  const int right = (world.rank() + 1) % world.size(), left = (world.rank() + world.size() - 1) % world.size();
  if (world.rank() == 0)
    std::printf("rank %d of %d: node %d of %d, node rank %d of %d; rank %d is on node %d and %s memory with it\n",
                world.rank(), world.size(), world.node(), world.node_count(), world.node_rank(), world.node_size(),
                right, world.node_of(right), world.shares_memory_with(right) ? "shares" : "does not share");
  std::uint64_t checksum = 0;

  // A Segment: every rank's part is [what it sends | where its left neighbour writes].
  ghostwire::Segment segment(world, 2 * bytes, 8);  // collective: bytes per rank, 8 notifications
  double* outbox = segment.as<double>().data();
  const double* inbox = outbox + values_per_write;

  // Notified writes around the ring: write, then wait until the receiver says it has read.
  for (long round = 1; round <= rounds; ++round) {
    for (std::size_t i = 0; i < values_per_write; ++i) outbox[i] = value(round, i);
    ghostwire::write_notify(segment, 0, right, segment, bytes, bytes, arrived, static_cast<ghostwire::NotificationValue>(round));
    const ghostwire::NotificationValue v = ghostwire::notify_wait(segment, arrived);  // the left neighbour's write
    for (std::size_t i = 0; i < values_per_write; ++i) checksum += print_of(inbox[i], v, i);
    ghostwire::notify(left, segment, consumed, 1);  // read: it may write again
    ghostwire::notify_wait(segment, consumed);      // the right neighbour has read mine
  }

  // Notifications without data, taken in other ways.
  ghostwire::notify(right, segment, first_flag, 7);
  ghostwire::notify(right, segment, first_flag + 1, 9);  // after the first: they arrive in order
  const ghostwire::Notification lowest = ghostwire::notify_waitsome(segment, first_flag, 2);  // {first_flag, 7}, reset
  ghostwire::NotificationValue second;
  while ((second = ghostwire::notify_test(segment, first_flag + 1)) == 0) world.progress();  // value and reset, or 0
  const ghostwire::NotificationValue left_over = ghostwire::notify_reset(segment, first_flag + 1);  // 0: taken already
  checksum += 1000003ull * lowest.id + 1009ull * lowest.value + 101ull * second + left_over;

  // One-sided put and get, complete on return; a barrier tells the target.
  const std::vector<double> row{value(rounds + 1, 0), value(rounds + 1, 1), value(rounds + 1, 2)};
  world.barrier();  // every rank is done with its inbox
  segment.put(right, bytes, row.data(), row.size() * sizeof(double));  // into the right neighbour's inbox
  world.barrier();
  double fetched[3];
  segment.get(left, bytes, fetched, sizeof fetched);  // what the left neighbour's inbox holds
  for (std::size_t i = 0; i < 3; ++i) checksum += print_of(inbox[i], rounds + 1, i) + print_of(fetched[i], rounds + 1, i);
  world.barrier();

  // Reductions: a global array of 1000 whole numbers in blocks; sums exact in any order.
  const long n = 1000, first = n * world.rank() / world.size(), last = n * (world.rank() + 1) / world.size();
  double sums[2] = {0, 0};  // the values, their squares
  for (long i = first; i < last; ++i) sums[0] += static_cast<double>(i % 37), sums[1] += static_cast<double>((i % 37) * (i % 37));
  ghostwire::allreduce(world, std::span<double>(sums), ghostwire::ReduceOp::sum);
  std::int64_t largest = last - 1;
  auto pending = ghostwire::allreduce_start(world, std::span<std::int64_t>(&largest, 1), ghostwire::ReduceOp::max);
  world.barrier();   // something that makes the ranks meet anyway (a halo exchange, usually)
  pending.wait();    // largest now holds the result
  checksum += static_cast<std::uint64_t>(sums[0]) * 3 + static_cast<std::uint64_t>(sums[1]) * 5 + static_cast<std::uint64_t>(largest);

  // Errors: an exception with a code and a message naming the argument.
  std::string message;
  try {
    ghostwire::notify(right, segment, arrived, 0);
  } catch (const ghostwire::Error& error) {
    if (error.code() == ghostwire::Errc::invalid_argument) message = error.what();
  }
  if (message.empty()) checksum = 0;  // the error must have come

  std::uint64_t low = checksum, high = checksum;
  MPI_Allreduce(&checksum, &low, 1, MPI_UINT64_T, MPI_MIN, world.comm());
  MPI_Allreduce(&checksum, &high, 1, MPI_UINT64_T, MPI_MAX, world.comm());
  if (world.rank() == 0) {
    std::printf("a wrong call: %s\n", message.c_str());
    std::printf("runtime_tour: %d rank(s), %ld rounds of notified writes, sums %.0f %.0f, largest %lld\n", world.size(),
                rounds, sums[0], sums[1], static_cast<long long>(largest));
    if (low != high) std::printf("the ranks' checksums differ\n");
    else std::printf("checksum %llu\n", static_cast<unsigned long long>(checksum));
  }
  return low == high ? 0 : 1;
}
