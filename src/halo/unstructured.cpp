// make_unstructured_plan: from "ghost entry i is element j of rank r" to a plan, as PetscSF builds
// its communication from leaves and roots. Owners learn what to send through one all-to-all of
// counts and one of indices.
#include <mpi.h>

#include "collective.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {

Plan make_unstructured_plan(World& world, Segment& owned, std::size_t owned_offset_bytes, std::size_t owned_count,
                            void* ghosts, const GhostMap& map, std::size_t element_size) {
  using namespace detail;
  WorldState& w = world_state(world);
  const std::string context = "make_unstructured_plan";
  const auto p = static_cast<std::size_t>(world.size());
  // The arguments first, on every rank together (one rank's mistake must not leave the others
  // waiting in the exchanges below), each named as the caller wrote it.
  std::vector<std::string> argument_problems;
  const std::size_t ghost_entries = std::min(map.owner.size(), map.index.size());
  if (element_size == 0) argument_problems.push_back("element_size is 0");
  if (ghosts == nullptr && ghost_entries > 0)
    argument_problems.push_back("ghosts is null but the ghost map has " + std::to_string(ghost_entries) + " entries");
  throw_if_any(w, world.comm(), argument_problems, Errc::invalid_argument, context);
  if (owned_offset_bytes > owned.size() || owned_count > (owned.size() - owned_offset_bytes) / element_size)
    argument_problems.push_back("owned_count " + std::to_string(owned_count) + " elements of " +
                                std::to_string(element_size) + " bytes from owned_offset_bytes " +
                                std::to_string(owned_offset_bytes) + " exceed the owned segment's " +
                                std::to_string(owned.size()) + " bytes on rank " + std::to_string(world.rank()));
  throw_if_any(w, world.comm(), argument_problems, Errc::out_of_range, context);

  std::vector<std::string> problems;
  if (map.owner.size() != map.index.size())
    problems.push_back("the ghost map has " + std::to_string(map.owner.size()) + " owners but " +
                       std::to_string(map.index.size()) + " indices; give one of each per ghost entry");

  std::vector<unsigned long> owned_counts(p);
  unsigned long mine = owned_count;
  MPI_Request request;
  check_mpi(MPI_Iallgather(&mine, 1, MPI_UNSIGNED_LONG, owned_counts.data(), 1, MPI_UNSIGNED_LONG, world.comm(), &request),
            "MPI_Iallgather");
  wait_request(w, request, context + ": the owned counts of all ranks");

  std::vector<int> to(p, 0);
  std::size_t entries = std::min(map.owner.size(), map.index.size());
  for (std::size_t i = 0; i < entries; ++i) {
    int r = map.owner[i];
    if (r < 0 || static_cast<std::size_t>(r) >= p) {
      problems.push_back("ghost entry " + std::to_string(i) + " names owner rank " + std::to_string(r) +
                         ", which is not in [0, " + std::to_string(p) + ")");
    } else if (map.index[i] >= owned_counts[static_cast<std::size_t>(r)]) {
      problems.push_back("ghost entry " + std::to_string(i) + " asks for element " + std::to_string(map.index[i]) +
                         " of rank " + std::to_string(r) + ", which owns " +
                         std::to_string(owned_counts[static_cast<std::size_t>(r)]) + " elements");
    } else {
      ++to[static_cast<std::size_t>(r)];
    }
  }
  throw_if_any(w, world.comm(), problems, Errc::out_of_range, context);

  std::vector<int> from(p, 0);
  check_mpi(MPI_Ialltoall(to.data(), 1, MPI_INT, from.data(), 1, MPI_INT, world.comm(), &request), "MPI_Ialltoall");
  wait_request(w, request, context + ": the ghost counts of all ranks");

  std::vector<int> send_offsets(p, 0), receive_offsets(p, 0);
  for (std::size_t r = 1; r < p; ++r) {
    send_offsets[r] = send_offsets[r - 1] + to[r - 1];
    receive_offsets[r] = receive_offsets[r - 1] + from[r - 1];
  }
  std::vector<unsigned long> wanted(entries), requested(static_cast<std::size_t>(receive_offsets[p - 1] + from[p - 1]));
  std::vector<std::vector<std::size_t>> ghost_entries_of(p);
  std::vector<int> fill = send_offsets;
  for (std::size_t i = 0; i < entries; ++i) {
    auto r = static_cast<std::size_t>(map.owner[i]);
    wanted[static_cast<std::size_t>(fill[r]++)] = map.index[i];
    ghost_entries_of[r].push_back(i);
  }
  check_mpi(MPI_Ialltoallv(wanted.data(), to.data(), send_offsets.data(), MPI_UNSIGNED_LONG, requested.data(),
                           from.data(), receive_offsets.data(), MPI_UNSIGNED_LONG, world.comm(), &request),
            "MPI_Ialltoallv");
  wait_request(w, request, context + ": the requested indices");

  std::vector<int> neighbours;
  for (std::size_t r = 0; r < p; ++r)
    if (to[r] > 0 || from[r] > 0) neighbours.push_back(static_cast<int>(r));
  Plan plan(world, neighbours, 1);
  Region owned_region = plan.add_memory(owned, element_size, owned_offset_bytes, owned_count * element_size);
  Region ghost_region = plan.add_memory(ghosts, entries * element_size, element_size);
  for (int r : neighbours) {
    auto rr = static_cast<std::size_t>(r);
    if (from[rr] > 0) {
      auto first = requested.begin() + receive_offsets[rr];
      plan.add_send(0, r, owned_region, Layout::indices(std::vector<std::size_t>(first, first + from[rr])));
    }
    if (to[rr] > 0) plan.add_receive(0, r, ghost_region, Layout::indices(ghost_entries_of[rr]));
  }
  plan.commit();
  return plan;
}

}  // namespace ghostwire
