// SPDX-License-Identifier: BSD-3-Clause
// make_unstructured_plan: from "ghost entry i is element j of rank r" to a plan, as PetscSF builds
// its communication from leaves and roots. Owners learn what to send through one all-to-all of
// counts and one of indices. Every argument check ends in a collective verdict, so one rank's
// mistake never leaves the others waiting. docs/plans.md, "Example: an unstructured mesh".
#include <mpi.h>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "halo/collective.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {
namespace {

using detail::WorldState;

constexpr const char* context = "make_unstructured_plan";

// The arguments, each named as the caller wrote it.
void check_arguments(World& world, const Segment& owned, std::size_t owned_offset_bytes, std::size_t owned_count,
                     const void* ghosts, const GhostMap& map, std::size_t element_size) {
  WorldState& w = detail::world_state(world);
  std::vector<std::string> problems;
  const std::size_t ghost_entries = std::min(map.owner.size(), map.index.size());
  if (element_size == 0) problems.push_back("element_size is 0");
  if (ghosts == nullptr && ghost_entries > 0)
    problems.push_back("ghosts is null but the ghost map has " + std::to_string(ghost_entries) + " entries");
  detail::throw_if_any(w, world.comm(), problems, Errc::invalid_argument, context);
  if (owned_offset_bytes > owned.size() || owned_count > (owned.size() - owned_offset_bytes) / element_size)
    problems.push_back("owned_count " + std::to_string(owned_count) + " elements of " + std::to_string(element_size) +
                       " bytes from owned_offset_bytes " + std::to_string(owned_offset_bytes) +
                       " exceed the owned segment's " + std::to_string(owned.size()) + " bytes on rank " +
                       std::to_string(world.rank()));
  detail::throw_if_any(w, world.comm(), problems, Errc::out_of_range, context);
}

// How many ghost entries this rank wants from each rank, after checking every entry against the
// owners' counts.
std::vector<int> ghosts_per_owner(World& world, std::size_t owned_count, const GhostMap& map) {
  WorldState& w = detail::world_state(world);
  const auto p = static_cast<std::size_t>(world.size());
  std::vector<std::string> problems;
  if (map.owner.size() != map.index.size())
    problems.push_back("the ghost map has " + std::to_string(map.owner.size()) + " owners but " +
                       std::to_string(map.index.size()) + " indices; give one of each per ghost entry");
  std::vector<unsigned long> owned_counts(p);
  unsigned long mine = owned_count;
  MPI_Request request;
  detail::check_mpi(MPI_Iallgather(&mine, 1, MPI_UNSIGNED_LONG, owned_counts.data(), 1, MPI_UNSIGNED_LONG,
                                   world.comm(), &request),
                    "MPI_Iallgather");
  detail::wait_request(w, request, std::string(context) + ": the owned counts of all ranks");
  std::vector<int> wanted(p, 0);
  for (std::size_t i = 0; i < std::min(map.owner.size(), map.index.size()); ++i) {
    const int r = map.owner[i];
    if (r < 0 || static_cast<std::size_t>(r) >= p)
      problems.push_back("ghost entry " + std::to_string(i) + " names owner rank " + std::to_string(r) +
                         ", which is not in [0, " + std::to_string(p) + ")");
    else if (map.index[i] >= owned_counts[static_cast<std::size_t>(r)])
      problems.push_back("ghost entry " + std::to_string(i) + " asks for element " + std::to_string(map.index[i]) +
                         " of rank " + std::to_string(r) + ", which owns " +
                         std::to_string(owned_counts[static_cast<std::size_t>(r)]) + " elements");
    else
      ++wanted[static_cast<std::size_t>(r)];
  }
  detail::throw_if_any(w, world.comm(), problems, Errc::out_of_range, context);
  return wanted;
}

// Who wants what from whom: the owners learn the indices they must send.
struct Requests {
  std::vector<int> to, from;                             // entries wanted from / by each rank
  std::vector<int> from_offsets;                         // of each rank's part of `requested`
  std::vector<unsigned long> requested;                  // the indices other ranks want of mine
  std::vector<std::vector<std::size_t>> ghost_entries_of;  // my ghost entries, by owner
};

Requests exchange_requests(World& world, const GhostMap& map, std::vector<int> to) {
  WorldState& w = detail::world_state(world);
  const auto p = static_cast<std::size_t>(world.size());
  Requests r{std::move(to), std::vector<int>(p, 0), std::vector<int>(p, 0), {}, std::vector<std::vector<std::size_t>>(p)};
  MPI_Request request;
  detail::check_mpi(MPI_Ialltoall(r.to.data(), 1, MPI_INT, r.from.data(), 1, MPI_INT, world.comm(), &request),
                    "MPI_Ialltoall");
  detail::wait_request(w, request, std::string(context) + ": the ghost counts of all ranks");
  std::vector<int> to_offsets(p, 0);
  for (std::size_t q = 1; q < p; ++q) {
    to_offsets[q] = to_offsets[q - 1] + r.to[q - 1];
    r.from_offsets[q] = r.from_offsets[q - 1] + r.from[q - 1];
  }
  const std::size_t entries = std::min(map.owner.size(), map.index.size());
  std::vector<unsigned long> wanted(entries);
  r.requested.resize(static_cast<std::size_t>(r.from_offsets[p - 1] + r.from[p - 1]));
  std::vector<int> fill = to_offsets;
  for (std::size_t i = 0; i < entries; ++i) {
    const auto owner = static_cast<std::size_t>(map.owner[i]);
    wanted[static_cast<std::size_t>(fill[owner]++)] = map.index[i];
    r.ghost_entries_of[owner].push_back(i);
  }
  detail::check_mpi(MPI_Ialltoallv(wanted.data(), r.to.data(), to_offsets.data(), MPI_UNSIGNED_LONG,
                                   r.requested.data(), r.from.data(), r.from_offsets.data(), MPI_UNSIGNED_LONG,
                                   world.comm(), &request),
                    "MPI_Ialltoallv");
  detail::wait_request(w, request, std::string(context) + ": the requested indices");
  return r;
}

}  // namespace

Plan make_unstructured_plan(World& world, Segment& owned, std::size_t owned_offset_bytes, std::size_t owned_count,
                            void* ghosts, const GhostMap& map, std::size_t element_size,
                            std::optional<Aggregation> aggregation) {
  check_arguments(world, owned, owned_offset_bytes, owned_count, ghosts, map, element_size);
  const Requests r = exchange_requests(world, map, ghosts_per_owner(world, owned_count, map));
  std::vector<int> neighbours;
  for (std::size_t q = 0; q < r.to.size(); ++q)
    if (r.to[q] > 0 || r.from[q] > 0) neighbours.push_back(static_cast<int>(q));
  Plan plan(world, neighbours, 1);
  const Region owned_region = plan.add_memory(owned, element_size, owned_offset_bytes, owned_count * element_size);
  const std::size_t entries = std::min(map.owner.size(), map.index.size());
  const Region ghost_region = plan.add_memory(ghosts, entries * element_size, element_size);
  for (int q : neighbours) {
    const auto index = static_cast<std::size_t>(q);
    if (r.from[index] > 0) {
      const auto first = r.requested.begin() + r.from_offsets[index];
      plan.add_send(0, q, owned_region, Layout::indices(std::vector<std::size_t>(first, first + r.from[index])));
    }
    if (r.to[index] > 0) plan.add_receive(0, q, ghost_region, Layout::indices(r.ghost_entries_of[index]));
  }
  if (aggregation) plan.aggregate(*aggregation);
  plan.commit();
  return plan;
}

}  // namespace ghostwire
