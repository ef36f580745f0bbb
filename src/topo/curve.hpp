// SPDX-License-Identifier: BSD-3-Clause
// A space-filling order of the cells of a box of any extents, by recursive bisection of the longest
// side: every stretch of the order that is a subtree of the bisection is a compact box, so nodes
// or blades that get consecutive stretches get compact regions of the grid.
#pragma once

#include <vector>

namespace ghostwire::topo::detail {

// Row-major positions (last coordinate fastest) of the cells of a box of `extents`, in curve order.
std::vector<int> curve_order(const std::vector<int>& extents);

}  // namespace ghostwire::topo::detail
