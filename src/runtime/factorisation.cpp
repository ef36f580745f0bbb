// SPDX-License-Identifier: BSD-3-Clause
// The factorisations shared by dist and topo (factorisation.hpp; docs/dist.md, "Patterns and teams").
#include "factorisation.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

void for_each_factorisation(int ranks, int dimensions, const bool* free, const std::function<void(const int*)>& visit) {
  std::vector<int> factors(static_cast<std::size_t>(std::max(dimensions, 0)));
  int last_free = -1;
  for (int d = 0; d < dimensions; ++d)
    if (free[d]) last_free = d;
  // Dimension d takes each divisor of what is left; the last free one takes all of it.
  std::function<void(int, int)> place = [&](int d, int remaining) {
    if (d == dimensions) {
      if (remaining == 1) visit(factors.data());
      return;
    }
    const auto at = static_cast<std::size_t>(d);
    if (!free[d]) {
      factors[at] = 1;
      place(d + 1, remaining);
      return;
    }
    if (d == last_free) {
      factors[at] = remaining;
      place(d + 1, 1);
      return;
    }
    for (int f = 1; f <= remaining; ++f)
      if (remaining % f == 0) {
        factors[at] = f;
        place(d + 1, remaining / f);
      }
  };
  place(0, ranks);
}

void balanced_factors(int ranks, int dimensions, int* factors, const char* context) {
  if (ranks < 1)
    raise(Errc::invalid_argument, std::string(context) + ": ranks is " + std::to_string(ranks) + "; expected >= 1");
  if (dimensions < 1)
    raise(Errc::invalid_argument, std::string(context) + ": " + std::to_string(dimensions) +
                                      " dimensions; expected at least 1");
  const auto free = std::make_unique<bool[]>(static_cast<std::size_t>(dimensions));
  std::fill(free.get(), free.get() + dimensions, true);
  std::vector<int> best(static_cast<std::size_t>(dimensions));
  bool found = false;
  for_each_factorisation(ranks, dimensions, free.get(), [&](const int* f) {
    for (int d = 1; d < dimensions; ++d)
      if (f[d] > f[d - 1]) return;  // non-increasing, as MPI_Dims_create
    // Smallest largest factor, then largest smallest factor.
    if (found && (f[0] > best.front() || (f[0] == best.front() && f[dimensions - 1] <= best.back()))) return;
    std::copy(f, f + dimensions, best.begin());
    found = true;
  });
  std::copy(best.begin(), best.end(), factors);
}

}  // namespace ghostwire::detail
