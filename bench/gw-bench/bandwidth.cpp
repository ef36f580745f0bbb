// SPDX-License-Identifier: BSD-3-Clause
// gw-bench bandwidth: streaming from rank 0 to rank 1. The sender issues a window of W messages
// back to back, the receiver acknowledges the whole window; MB/s = bytes moved / time.
#include <chrono>

#include "message_options.hpp"
#include "message_sweep.hpp"
#include "subcommand.hpp"

namespace gwbench {
namespace {

double stream_windows(const RunContext& context, Messenger& m, std::size_t bytes, int window, long windows) {
  if (context.rank() == 0) {
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < windows; ++i) {
      Stamp stamp = m.next_stamp();
      m.send_window(bytes, window, stamp);
      m.wait_ack(stamp);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  for (long i = 0; i < windows; ++i) {
    Stamp stamp = m.next_stamp();
    m.receive_window(bytes, window, stamp);
    m.send_ack(stamp);
  }
  return 0;
}

int run_bandwidth(RunContext& context, const MessageOptions& o) {
  SweepSpec spec;
  spec.bench = "bandwidth";
  spec.what = "streaming bandwidth in MB/s (10^6 B/s), windows of " + std::to_string(o.window) +
              " messages, each window acknowledged";
  spec.bandwidth = true;
  spec.messages_per_iteration = o.window;
  spec.window = o.window;
  spec.layout = SlotLayout::for_windows(o.sizes.back(), o.window);
  const int window = o.window;
  spec.kernel = [&context, window](Messenger& m, std::size_t bytes, long count) {
    return stream_windows(context, m, bytes, window, count);
  };
  return run_message_sweep(context, o, spec);
}

}  // namespace

Subcommand bandwidth_subcommand() {
  Subcommand s;
  s.name = "bandwidth";
  s.summary = "streaming from rank 0 to rank 1 in acknowledged windows: MB/s per size";
  s.usage = "[--sizes LIST] [--impl LIST] [--window W] [--min-time SEC | --iterations N] [--repeats N] ...";
  s.parse = [](const std::vector<std::string>& args) -> Job {
    MessageOptions o = parse_message_options(args, true);
    return [o](RunContext& context) { return run_bandwidth(context, o); };
  };
  s.options_help = [] { return message_options_help(true); };
  return s;
}

}  // namespace gwbench
