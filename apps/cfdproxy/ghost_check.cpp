// SPDX-License-Identifier: BSD-3-Clause
// check_ghosts (ghost_check.hpp): every ghost against its owner's values, over plain MPI (see
// docs/cfdproxy.md, "How it works").
#include "ghost_check.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace cfdproxy {
namespace {

constexpr int ids_tag = 4801, values_tag = 4802;

}  // namespace

GhostCheck check_ghosts(const LocalDomain& d, const Fields& fields, MPI_Comm comm) {
  const std::size_t partners = d.partners.size();
  // The ghost-point counts first: the owner learns how many ids to expect from each partner.
  std::vector<std::int64_t> asked(partners), told(partners);
  std::vector<MPI_Request> requests;
  requests.reserve(4 * partners);
  for (std::size_t i = 0; i < partners; ++i) {
    asked[i] = d.partners[i].halo_count;
    requests.emplace_back();
    MPI_Irecv(&told[i], 1, MPI_INT64_T, d.partners[i].rank, ids_tag, comm, &requests.back());
    requests.emplace_back();
    MPI_Isend(&asked[i], 1, MPI_INT64_T, d.partners[i].rank, ids_tag, comm, &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();

  std::vector<std::vector<std::int64_t>> wanted(partners), my_ghost_ids(partners);
  for (std::size_t i = 0; i < partners; ++i) {
    const Partner& p = d.partners[i];
    my_ghost_ids[i].assign(d.global_id.begin() + p.halo_begin, d.global_id.begin() + p.halo_begin + p.halo_count);
    wanted[i].resize(static_cast<std::size_t>(told[i]));
    requests.emplace_back();
    MPI_Irecv(wanted[i].data(), static_cast<int>(told[i]), MPI_INT64_T, p.rank, ids_tag, comm, &requests.back());
    requests.emplace_back();
    MPI_Isend(my_ghost_ids[i].data(), static_cast<int>(my_ghost_ids[i].size()), MPI_INT64_T, p.rank, ids_tag, comm,
              &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();

  // Owned points are numbered in global order: a binary search finds each asked id.
  const auto owned_begin = d.global_id.begin(), owned_end = d.global_id.begin() + d.owned;
  std::vector<std::vector<double>> answers(partners), truth(partners);
  std::int64_t unknown = 0;
  for (std::size_t i = 0; i < partners; ++i) {
    answers[i].assign(wanted[i].size() * gradient_values, 0.0);
    for (std::size_t k = 0; k < wanted[i].size(); ++k) {
      auto it = std::lower_bound(owned_begin, owned_end, wanted[i][k]);
      if (it == owned_end || *it != wanted[i][k]) {
        ++unknown;  // a ghost whose owner does not own it: a partition bug; counted as mismatches
        continue;
      }
      const auto local = static_cast<std::size_t>(it - owned_begin);
      std::memcpy(&answers[i][k * gradient_values], fields.grad + local * gradient_values,
                  gradient_values * sizeof(double));
    }
    truth[i].resize(my_ghost_ids[i].size() * gradient_values);
    requests.emplace_back();
    MPI_Irecv(truth[i].data(), static_cast<int>(truth[i].size()), MPI_DOUBLE, d.partners[i].rank, values_tag, comm,
              &requests.back());
    requests.emplace_back();
    MPI_Isend(answers[i].data(), static_cast<int>(answers[i].size()), MPI_DOUBLE, d.partners[i].rank, values_tag, comm,
              &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);

  std::int64_t counts[2] = {0, unknown};  // ghosts, mismatches
  for (std::size_t i = 0; i < partners; ++i) {
    const Partner& p = d.partners[i];
    for (std::int32_t k = 0; k < p.halo_count; ++k) {
      ++counts[0];
      const double* mine = fields.grad + static_cast<std::size_t>(p.halo_begin + k) * gradient_values;
      if (std::memcmp(mine, &truth[i][static_cast<std::size_t>(k) * gradient_values], gradient_values * sizeof(double)))
        ++counts[1];
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, comm);
  return GhostCheck{counts[0], counts[1]};
}

}  // namespace cfdproxy
