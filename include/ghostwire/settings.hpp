// Run-time settings, read from the environment once per World.
//
//   GHOSTWIRE_RANKS_PER_NODE=k   emulate nodes of k consecutive ranks (0 or unset: real nodes)
//   GHOSTWIRE_TRANSPORT=rma|p2p  inter-node transport for notified writes
//   GHOSTWIRE_TIMEOUT=seconds    limit of every wait (default 60)
//   GHOSTWIRE_ON_TIMEOUT=abort|throw   what a timed-out wait does after printing its diagnostic
//   GHOSTWIRE_SPIN=n             polls before a waiting rank starts yielding its core
#pragma once

#include <string>

namespace ghostwire {

enum class Transport { rma, p2p };
enum class TimeoutAction { abort_job, throw_error };

const char* transport_name(Transport transport) noexcept;

struct Settings {
  int ranks_per_node = 0;
  // p2p is the default: measured lower latency at every size on the emulated and multi-host
  // paths (docs/BENCHMARKS.md, "choice of the inter-node transport").
  Transport transport = Transport::p2p;
  double timeout_seconds = 60.0;
  TimeoutAction on_timeout = TimeoutAction::abort_job;
  long spin_polls = -1;  // -1: chosen from cores and ranks per node

  // Reads the GHOSTWIRE_* variables; a malformed value throws Error(invalid_argument) naming it.
  static Settings from_environment();
};

}  // namespace ghostwire
