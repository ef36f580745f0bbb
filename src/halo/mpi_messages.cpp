// SPDX-License-Identifier: BSD-3-Clause
// What message paths share (mpi_messages.hpp).
#include "halo/mpi_messages.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "halo/plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

TagLimit message_tag_limit(const PlanState& p) {
  int* tag_ub = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(p.comm, MPI_TAG_UB, &tag_ub, &found), "MPI_Comm_get_attr");
  TagLimit limit{found && tag_ub ? *tag_ub : 32767, ""};  // 32767: the least MPI_TAG_UB the standard allows
  limit.name = "MPI_TAG_UB = " + std::to_string(limit.value);
  const long configured = p.w->settings.message_tag_limit;
  if (configured > 0 && configured < limit.value) {
    limit.value = configured;
    limit.name = "the tag limit GHOSTWIRE_TAG_LIMIT = " + std::to_string(limit.value);
  }
  return limit;
}

InterNodeTransport inter_node_transport(const PlanState& p, std::size_t largest_slot_count) {
  if (p.w->settings.transport == Transport::rma) return {false, "the one-sided transport (GHOSTWIRE_TRANSPORT=rma)"};
  const TagLimit limit = message_tag_limit(p);
  const auto highest_tag = static_cast<long double>(largest_slot_count) * message_tags_per_slot - 1;
  if (highest_tag <= static_cast<long double>(limit.value))
    return {true, "the two-sided transport (GHOSTWIRE_TRANSPORT=p2p, the default)"};
  return {false, "the two-sided transport, as notified writes: the largest plan's " +
                     std::to_string(largest_slot_count) + " slots would need tags up to " +
                     std::to_string(static_cast<long long>(highest_tag)) + ", above " + limit.name};
}

namespace {

// Well under MPICH's request table (it aborts past 262,144 live requests), leaving room for the
// application's own requests.
constexpr std::size_t persistent_request_budget = 96 * 1024;
std::atomic<std::size_t> persistent_requests_in_use{0};

}  // namespace

bool reserve_persistent_requests(std::size_t count) {
  std::size_t used = persistent_requests_in_use.load();
  do {
    if (used + count > persistent_request_budget) return false;
  } while (!persistent_requests_in_use.compare_exchange_weak(used, used + count));
  return true;
}

void return_persistent_requests(std::size_t count) { persistent_requests_in_use -= count; }

void drop_unreceived_messages(MPI_Comm comm) {
  for (;;) {
    int found = 0, count = 0;
    MPI_Message message;
    MPI_Status status;
    check_mpi(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &found, &message, &status), "MPI_Improbe");
    if (!found) return;
    check_mpi(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    std::vector<std::byte> dropped(static_cast<std::size_t>(std::max(count, 1)));
    check_mpi(MPI_Mrecv(dropped.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
  }
}

}  // namespace ghostwire::detail
