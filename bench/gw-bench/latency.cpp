// SPDX-License-Identifier: BSD-3-Clause
// gw-bench latency: ping-pong between ranks 0 and 1, one-way time = round trip / 2.
#include <chrono>

#include "message_options.hpp"
#include "message_sweep.hpp"
#include "subcommand.hpp"

namespace gwbench {
namespace {

double ping_pong(const RunContext& context, Messenger& m, std::size_t bytes, long round_trips) {
  if (context.rank() == 0) {
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < round_trips; ++i) {
      Stamp stamp = m.next_stamp();
      m.send(bytes, stamp);
      m.receive(bytes, stamp);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  for (long i = 0; i < round_trips; ++i) {
    Stamp stamp = m.next_stamp();
    m.receive(bytes, stamp);
    m.send(bytes, stamp);
  }
  return 0;
}

int run_latency(RunContext& context, const MessageOptions& o) {
  SweepSpec spec;
  spec.bench = "latency";
  spec.what = "one-way latency in usec (round trip / 2)";
  spec.messages_per_iteration = 2;
  spec.layout = SlotLayout::for_ping_pong(o.sizes.back());
  spec.kernel = [&context](Messenger& m, std::size_t bytes, long count) { return ping_pong(context, m, bytes, count); };
  return run_message_sweep(context, o, spec);
}

}  // namespace

Subcommand latency_subcommand() {
  Subcommand s;
  s.name = "latency";
  s.summary = "ping-pong between ranks 0 and 1: one-way latency (round trip / 2) per size";
  s.usage = "[--sizes LIST] [--impl LIST] [--min-time SEC | --iterations N] [--repeats N] ...";
  s.parse = [](const std::vector<std::string>& args) -> Job {
    MessageOptions o = parse_message_options(args, false);
    return [o](RunContext& context) { return run_latency(context, o); };
  };
  s.options_help = [] { return message_options_help(false); };
  return s;
}

}  // namespace gwbench
