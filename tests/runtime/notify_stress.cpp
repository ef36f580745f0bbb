// SPDX-License-Identifier: BSD-3-Clause
// Stress test of notified writes: random pairs, random sizes (0 to 64 KiB), random delays on both
// sides. Each pair (sender, receiver) runs a sliding window of slots with credits returned by
// notifications. The receiver checks every byte, and checks order: when message j from a sender is
// visible, every earlier unconsumed message from that sender must be visible too.
//
//   notify_stress [--messages N] [--window W] [--max-bytes B] [--max-delay-us D] [--seed S]
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/segment.hpp"

using namespace ghostwire;

namespace {

struct Options {
  long messages = 10000;  // in total, over all ranks
  long window = 8;
  long max_bytes = 64 * 1024;
  long max_delay_us = 20;
  unsigned seed = 12345;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string name = argv[i];
    long value = std::strtol(argv[i + 1], nullptr, 10);
    if (name == "--messages") o.messages = value;
    else if (name == "--window") o.window = value;
    else if (name == "--max-bytes") o.max_bytes = value;
    else if (name == "--max-delay-us") o.max_delay_us = value;
    else if (name == "--seed") o.seed = static_cast<unsigned>(value);
    else { std::fprintf(stderr, "notify_stress: unknown option %s\n", name.c_str()); std::exit(2); }
  }
  return o;
}

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
  return x;
}

// Size and content of message `seq` from `from` to `to`: both sides compute them.
std::size_t message_bytes(const Options& o, int from, int to, long seq) {
  std::uint64_t h = mix((static_cast<std::uint64_t>(from) << 40) ^ (static_cast<std::uint64_t>(to) << 20) ^
                        static_cast<std::uint64_t>(seq) ^ o.seed);
  // A quarter of the messages are tiny, so both the small and the large paths get traffic.
  return (h & 3) == 0 ? static_cast<std::size_t>(h >> 8) % 64 : static_cast<std::size_t>(h >> 8) % (o.max_bytes + 1);
}

std::byte content(int from, int to, long seq, std::size_t i) {
  return static_cast<std::byte>(mix((static_cast<std::uint64_t>(from) * 1000003u) ^ (static_cast<std::uint64_t>(to) << 24) ^
                                    (static_cast<std::uint64_t>(seq) << 32) ^ i) & 0xff);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Options o = parse(argc, argv);
  int failures = 0;
  {
    World world;
    const int p = world.size(), me = world.rank();
    const long w = o.window;
    const std::size_t slot_bytes = static_cast<std::size_t>(o.max_bytes);
    // Slots: (sender, window position); notifications [0, p*w) for data, [p*w, p*w+p) for credits.
    const auto data_ids = static_cast<NotificationId>(p * w);
    Segment segment(world, slot_bytes * static_cast<std::size_t>(p * w), static_cast<std::size_t>(p * w + p));

    // Everyone replays everyone's target choices, so each rank knows how many messages to expect.
    long per_rank = (o.messages + p - 1) / p;
    std::vector<std::vector<int>> targets(static_cast<std::size_t>(p));
    std::vector<long> expected_from(static_cast<std::size_t>(p), 0);
    for (int s = 0; s < p; ++s) {
      std::mt19937 choose(o.seed * 7919u + static_cast<unsigned>(s));
      for (long k = 0; k < per_rank; ++k) {
        int t = static_cast<int>(choose() % static_cast<unsigned>(p));
        targets[static_cast<std::size_t>(s)].push_back(t);
        if (t == me) ++expected_from[static_cast<std::size_t>(s)];
      }
    }

    std::mt19937 delays(o.seed + 31u * static_cast<unsigned>(me));
    auto maybe_delay = [&] {
      if (o.max_delay_us > 0 && delays() % 4 == 0)
        std::this_thread::sleep_for(std::chrono::microseconds(delays() % static_cast<unsigned>(o.max_delay_us)));
    };

    std::vector<long> sent_to(static_cast<std::size_t>(p), 0), consumed_by(static_cast<std::size_t>(p), 0);
    std::vector<long> received_from(static_cast<std::size_t>(p), 0);
    std::vector<std::byte> buffer(slot_bytes);
    std::size_t next = 0;
    long total_expected = 0, total_received = 0;
    for (long e : expected_from) total_expected += e;
    auto start = std::chrono::steady_clock::now();
    auto fail = [&](const std::string& what) {
      std::fprintf(stderr, "[rank %d] FAIL: %s\n", me, what.c_str());
      ++failures;
    };

    while ((next < targets[static_cast<std::size_t>(me)].size() || total_received < total_expected) && failures < 10) {
      bool idle = true;
      // Credits: each receiver tells us how many of our messages it has consumed.
      for (int t = 0; t < p; ++t)
        if (NotificationValue v = notify_test(segment, data_ids + static_cast<NotificationId>(t)))
          consumed_by[static_cast<std::size_t>(t)] = std::max(consumed_by[static_cast<std::size_t>(t)], static_cast<long>(v) - 1);
      // Send the next message if its receiver has a free slot for us.
      if (next < targets[static_cast<std::size_t>(me)].size()) {
        int t = targets[static_cast<std::size_t>(me)][next];
        long seq = sent_to[static_cast<std::size_t>(t)];
        if (seq - consumed_by[static_cast<std::size_t>(t)] < w) {
          maybe_delay();
          std::size_t bytes = message_bytes(o, me, t, seq);
          for (std::size_t i = 0; i < bytes; ++i) buffer[i] = content(me, t, seq, i);
          std::size_t slot = static_cast<std::size_t>(me * w + seq % w);
          write_notify(buffer.data(), t, segment, slot * slot_bytes, bytes, static_cast<NotificationId>(slot),
                       static_cast<NotificationValue>(seq + 1));
          // Scribble over the source at once: the write must already have taken its copy.
          std::memset(buffer.data(), 0xA5, bytes);
          ++sent_to[static_cast<std::size_t>(t)];
          ++next;
          idle = false;
        }
      }
      // Receive: find any visible message, then consume in order everything up to it.
      for (int s = 0; s < p; ++s) {
        long first = received_from[static_cast<std::size_t>(s)];
        long newest = -1;
        for (long k = w - 1; k >= 0 && newest < 0; --k) {
          auto id = static_cast<NotificationId>(s * w + (first + k) % w);
          if (NotificationValue v = notify_test(segment, id)) {
            newest = static_cast<long>(v) - 1;
            if (newest != first + k) fail("from rank " + std::to_string(s) + ": slot of message " + std::to_string(first + k) +
                                          " holds notification of message " + std::to_string(newest));
            newest = first + k;
          }
        }
        if (newest < 0) continue;
        maybe_delay();
        for (long seq = first; seq <= newest; ++seq) {
          auto id = static_cast<NotificationId>(s * w + seq % w);
          if (seq < newest) {
            NotificationValue v = notify_test(segment, id);
            if (v != static_cast<NotificationValue>(seq + 1))
              fail("from rank " + std::to_string(s) + ": message " + std::to_string(newest) + " is visible but message " +
                   std::to_string(seq) + " is not (notification " + std::to_string(v) + "): reordered or lost");
          }
          std::size_t bytes = message_bytes(o, s, me, seq);
          const std::byte* in = segment.data() + static_cast<std::size_t>(id) * slot_bytes;
          for (std::size_t i = 0; i < bytes; ++i)
            if (in[i] != content(s, me, seq, i)) {
              fail("from rank " + std::to_string(s) + ": message " + std::to_string(seq) + " byte " + std::to_string(i) +
                   " of " + std::to_string(bytes) + " is wrong");
              break;
            }
        }
        received_from[static_cast<std::size_t>(s)] = newest + 1;
        total_received += newest + 1 - first;
        if (received_from[static_cast<std::size_t>(s)] > expected_from[static_cast<std::size_t>(s)])
          fail("more messages from rank " + std::to_string(s) + " than it sent (duplicated)");
        notify(s, segment, data_ids + static_cast<NotificationId>(me), static_cast<NotificationValue>(newest + 2));
        idle = false;
      }
      if (idle) {
        world.progress();
        std::this_thread::yield();
        std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
        if (waited.count() > world.settings().timeout_seconds) {
          fail("timed out: sent " + std::to_string(next) + " of " + std::to_string(targets[static_cast<std::size_t>(me)].size()) +
               ", received " + std::to_string(total_received) + " of " + std::to_string(total_expected));
          MPI_Abort(MPI_COMM_WORLD, 3);
        }
      }
    }
    for (int s = 0; s < p; ++s)
      if (received_from[static_cast<std::size_t>(s)] != expected_from[static_cast<std::size_t>(s)])
        fail("received " + std::to_string(received_from[static_cast<std::size_t>(s)]) + " messages from rank " +
             std::to_string(s) + ", expected " + std::to_string(expected_from[static_cast<std::size_t>(s)]));
    world.barrier();
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    long total = 0;
    MPI_Allreduce(&total_received, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
      std::printf("notify_stress: %ld notified writes between %d ranks on %d node(s), transport %s: %s\n", total, p,
                  world.node_count(), transport_name(world.settings().transport), all ? "FAILED" : "all bytes and order correct");
    failures = all;
  }
  MPI_Finalize();
  return failures ? 1 : 0;
}
