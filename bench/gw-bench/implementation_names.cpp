// SPDX-License-Identifier: BSD-3-Clause
// The names of the message implementations and their one-line summaries: apart from the factories
// (messenger_registry.cpp), so the option parser links without any implementation.
#include "messenger.hpp"
#include "named_summaries.hpp"

namespace gwbench {
namespace {

// In the order --help lists them.
const NamedSummary implementations[] = {
    {"gw", "ghostwire write_notify + notify_wait (inter-node transport from GHOSTWIRE_TRANSPORT)"},
    {"gw-p2p", "the same with GHOSTWIRE_TRANSPORT=p2p (two-sided MPI between nodes)"},
    {"gw-rma", "the same with GHOSTWIRE_TRANSPORT=rma (MPI-3 one-sided between nodes)"},
    {"mpi-sendrecv", "MPI_Send / MPI_Recv (streaming: MPI_Isend / MPI_Irecv + MPI_Waitall)"},
    {"mpi-put-flag", "MPI_Put data + flush, MPI_Put flag + flush; target polls the flag"},
    {"raw", "memcpy into the peer's shared window + release-store of a flag: the floor"},
};

}  // namespace

const std::vector<std::string>& implementation_names() {
  static const std::vector<std::string> names = names_of(implementations);
  return names;
}

std::string_view implementation_summary(std::string_view name) { return summary_of(implementations, name); }

}  // namespace gwbench
