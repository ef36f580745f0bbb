// The names of the message implementations and their one-line summaries: apart from the factories
// (messenger_registry.cpp), so the option parser links without any implementation.
#include "messenger.hpp"

namespace gwbench {

const std::vector<std::string>& implementation_names() {
  static const std::vector<std::string> names = {"gw", "gw-p2p", "gw-rma", "mpi-sendrecv", "mpi-put-flag", "raw"};
  return names;
}

std::string_view implementation_summary(std::string_view name) {
  if (name == "gw") return "ghostwire write_notify + notify_wait (inter-node transport from GHOSTWIRE_TRANSPORT)";
  if (name == "gw-p2p") return "the same with GHOSTWIRE_TRANSPORT=p2p (two-sided MPI between nodes)";
  if (name == "gw-rma") return "the same with GHOSTWIRE_TRANSPORT=rma (MPI-3 one-sided between nodes)";
  if (name == "mpi-sendrecv") return "MPI_Send / MPI_Recv (streaming: MPI_Isend / MPI_Irecv + MPI_Waitall)";
  if (name == "mpi-put-flag") return "MPI_Put data + flush, MPI_Put flag + flush; target polls the flag";
  if (name == "raw") return "memcpy into the peer's shared window + release-store of a flag: the floor";
  return "";
}

}  // namespace gwbench
