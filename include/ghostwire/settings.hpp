// SPDX-License-Identifier: BSD-3-Clause
// Run-time settings (docs/runtime.md, "Settings and environment"): the one place where ghostwire
// reads its GHOSTWIRE_* environment variables. A World reads them once (World(MPI_Comm)) or is
// handed them (World(MPI_Comm, const Settings&)); everything that runs on a World (topology
// detection and placement included) then takes them from World::settings(), so a World built with
// explicit Settings behaves as the same variables would.
//
//   GHOSTWIRE_RANKS_PER_NODE=k   emulate nodes of k consecutive ranks (0 or unset: real nodes)
//   GHOSTWIRE_TOPOLOGY=FILE      the machine across nodes, from a topology file (docs/topology.md)
//   GHOSTWIRE_TRANSPORT=rma|p2p  inter-node transport for notified writes
//   GHOSTWIRE_TIMEOUT=seconds    limit of every wait (default 60)
//   GHOSTWIRE_ON_TIMEOUT=abort|throw   what a timed-out wait does after printing its diagnostic
//   GHOSTWIRE_SPIN=n             polls before a waiting rank starts yielding its core
//   GHOSTWIRE_INTRA_PATH=auto|in-place|staged|pushed   how plans move intra-node messages
//   GHOSTWIRE_TAG_LIMIT=n        the largest MPI tag plans may use (default: MPI_TAG_UB)
//   GHOSTWIRE_THREAD_LEVEL=single|funneled|serialized|multiple   what a World that initialises MPI asks for
//   GHOSTWIRE_THREADS=n          threads per rank (default: OMP_NUM_THREADS, else 1), for the wait policy
//   GHOSTWIRE_PARTITIONS=auto|separate|combined   how a partitioned message travels between nodes
//   GHOSTWIRE_AGGREGATE=auto|node|off            one message per pair of nodes between nodes
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ghostwire {

// How a World reaches other nodes: `rma` one-sided (MPI RMA windows: notified writes are puts),
// `p2p` two-sided (MPI messages: plans send their inter-node slots as messages, and a Segment's
// notified writes travel as messages too).
enum class Transport { rma, p2p };
enum class TimeoutAction { abort_job, throw_error };
// Intra-node plan messages: read the sender's data in place (one copy), pack it on the sender
// into shared staging first (two copies, but the receiver reads dense cache lines), or have the
// sender store it straight into the receiver's ghost cells once the receiver says they are free
// (pushed: one copy; needs the receive memory in a Segment). `automatic` reads in place when at
// least half of every cache line the send layout touches is message data, else pushes when the
// same holds for the receive layout, else stages. `staged` is the path before pushing existed;
// `pushed` pushes every slot whose receive memory is in a Segment (for tests and experiments).
// `named`: the path named by Settings::intra_path_name, one a program registered itself
// (docs/internals/paths.md); checked when a plan commits.
enum class IntraPath { automatic, in_place, staged, pushed, named };

// MPI's thread levels (MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE), in the same order.
enum class ThreadLevel { single, funneled, serialized, multiple };
// How a message cut into partitions (Plan::partition_send) travels between nodes: each partition as
// a message of its own as soon as it is ready (`separate`), or all in one message once the last is
// ready (`combined`); `automatic` combines partitions smaller than 128 KiB (when threads outnumber
// the cores on some machine of the job, only 8 partitions or more), where one message measured faster (docs/BENCHMARKS.md, "Partitioned messages").
// Between node peers partitions are always separate: each costs a counter store.
enum class PartitionMessages { automatic, separate, combined };
// Whether a plan's messages between two nodes travel combined, one message per pair of nodes (and
// channel) per exchange, gathered and scattered through node-shared memory (`node`), or each as a
// message of its own (`off`). `automatic` combines them when the nodes are separate machines, some
// pair of nodes carries 4 messages or more and none is larger than 8 KiB, where the messages saved
// were measured to outweigh the extra copy and hand-over (docs/plans.md, "One message per pair of
// nodes"). Plan::aggregate chooses it per plan.
enum class Aggregation { automatic, node, off };

const char* transport_name(Transport transport) noexcept;
// "auto", "node" or "off": the names GHOSTWIRE_AGGREGATE, describe() and the bindings use.
const char* aggregation_name(Aggregation aggregation) noexcept;
// The mode of such a name; std::nullopt for any other text.
std::optional<Aggregation> aggregation_from_name(std::string_view name) noexcept;
// "MPI_THREAD_FUNNELED" and so on.
const char* thread_level_name(ThreadLevel level) noexcept;

struct Settings {
  int ranks_per_node = 0;
  // p2p is the default: it measured faster than rma at every size between hosts
  // (docs/BENCHMARKS.md, "Choice of the inter-node transport").
  Transport transport = Transport::p2p;
  double timeout_seconds = 60.0;
  TimeoutAction on_timeout = TimeoutAction::abort_job;
  long spin_polls = -1;  // -1: chosen from cores and ranks per node
  IntraPath intra_path = IntraPath::automatic;
  std::string intra_path_name;  // with IntraPath::named
  // Plans tag each inter-node slot's two-sided messages with 3 tags; a plan whose tags would pass
  // this limit (or MPI_TAG_UB, whichever is lower) sends notified writes instead, and describe()
  // says so. 0: MPI_TAG_UB. Lowering it shows that fallback on a small plan.
  long message_tag_limit = 0;
  // Topology file describing the network levels across nodes (topo::TopologyFile); empty: nodes
  // are known by host name only.
  std::string topology_file;
  // The level a World asks MPI_Init_thread for when it initialises MPI itself; with MPI the program
  // initialised, the World runs at whatever MPI provides (World::thread_level()). What each level
  // allows: docs/runtime.md, "Threads".
  ThreadLevel thread_level = ThreadLevel::funneled;
  // Threads per rank that run beside ghostwire's waits: when ranks x threads on a machine exceed its
  // cores, every wait gives its core away early. 0 counts as 1; from_environment() takes
  // GHOSTWIRE_THREADS, else OpenMP's OMP_NUM_THREADS.
  int threads_per_rank = 0;
  PartitionMessages partition_messages = PartitionMessages::automatic;
  Aggregation aggregation = Aggregation::automatic;

  // Reads the GHOSTWIRE_* variables; a malformed value throws Error(invalid_argument) naming it.
  static Settings from_environment();
};

}  // namespace ghostwire
