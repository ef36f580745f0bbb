// SPDX-License-Identifier: BSD-3-Clause
// The checksums (checksums.hpp): each rank's sums and maxima over its owned points (and its ghost
// gradients), combined over the ranks; and their "checksum NAME VALUE" lines (see docs/cfdproxy.md,
// "Running it").
#include "checksums.hpp"

#include <cmath>
#include <cstdio>

namespace cfdproxy {

std::vector<std::pair<std::string, double>> Checksums::named() const {
  return {{"sum_grad_owned", sum_grad_owned},
          {"sumabs_grad_owned", sumabs_grad_owned},
          {"maxabs_grad_owned", maxabs_grad_owned},
          {"sum_psdflux_owned", sum_psdflux_owned},
          {"sumabs_psdflux_owned", sumabs_psdflux_owned},
          {"sumsq_psdflux_owned", sumsq_psdflux_owned},
          {"maxabs_psdflux_owned", maxabs_psdflux_owned},
          {"sum_grad_halo", sum_grad_halo},
          {"sumabs_grad_halo", sumabs_grad_halo},
          {"total_owned_points", static_cast<double>(total_owned_points)}};
}

Checksums compute_checksums(const LocalDomain& d, const Fields& fields, MPI_Comm comm) {
  double sums[7] = {};  // grad, |grad|, flux, |flux|, flux^2, halo grad, |halo grad|
  double maxima[2] = {};
  for (std::int32_t p = 0; p < d.all; ++p) {
    const double* g = fields.grad + static_cast<std::size_t>(p) * gradient_values;
    const bool owned = p < d.owned;
    for (std::size_t k = 0; k < gradient_values; ++k) {
      sums[owned ? 0 : 5] += g[k];
      sums[owned ? 1 : 6] += std::abs(g[k]);
      if (owned) maxima[0] = std::max(maxima[0], std::abs(g[k]));
    }
    if (!owned) continue;
    const double* q = fields.flux.data() + static_cast<std::size_t>(p) * flux_components;
    for (int k = 0; k < flux_components; ++k) {
      sums[2] += q[k];
      sums[3] += std::abs(q[k]);
      sums[4] += q[k] * q[k];
      maxima[1] = std::max(maxima[1], std::abs(q[k]));
    }
  }
  std::int64_t owned = d.owned;
  MPI_Allreduce(MPI_IN_PLACE, sums, 7, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, maxima, 2, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &owned, 1, MPI_INT64_T, MPI_SUM, comm);
  Checksums c;
  c.sum_grad_owned = sums[0];
  c.sumabs_grad_owned = sums[1];
  c.maxabs_grad_owned = maxima[0];
  c.sum_psdflux_owned = sums[2];
  c.sumabs_psdflux_owned = sums[3];
  c.sumsq_psdflux_owned = sums[4];
  c.maxabs_psdflux_owned = maxima[1];
  c.sum_grad_halo = sums[5];
  c.sumabs_grad_halo = sums[6];
  c.total_owned_points = owned;
  return c;
}

std::string checksum_lines(const Checksums& c, const std::string& suffix) {
  std::string text;
  char line[160];
  for (const auto& [name, value] : c.named()) {
    if (name == "total_owned_points")
      std::snprintf(line, sizeof line, "checksum %s %lld%s\n", name.c_str(), static_cast<long long>(c.total_owned_points),
                    suffix.c_str());
    else
      std::snprintf(line, sizeof line, "checksum %s %.17g%s\n", name.c_str(), value, suffix.c_str());
    text += line;
  }
  return text;
}

}  // namespace cfdproxy
