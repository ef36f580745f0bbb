// SPDX-License-Identifier: BSD-3-Clause
#include "topo/curve.hpp"

#include <cstddef>

namespace ghostwire::topo::detail {
namespace {

struct Walk {
  const std::vector<int>& extents;
  std::vector<int>& out;

  int position(const std::vector<int>& c) const {
    int p = 0;
    for (std::size_t d = 0; d < extents.size(); ++d) p = p * extents[d] + c[d];
    return p;
  }

  // Cells of the box [low, low + size); `reversed` walks the halves in the opposite order so that
  // the end of one half lies next to the start of the next (a serpentine, as a Hilbert curve does
  // for its children), which keeps consecutive stretches that span two subtrees compact too.
  void visit(std::vector<int> low, std::vector<int> size, std::vector<bool> reversed) {
    std::size_t longest = 0;
    long volume = 1;
    for (std::size_t d = 0; d < size.size(); ++d) {
      volume *= size[d];
      if (size[d] > size[longest]) longest = d;
    }
    if (volume == 1) {
      out.push_back(position(low));
      return;
    }
    const int half = size[longest] / 2;
    std::vector<int> low2 = low, size1 = size, size2 = size;
    size1[longest] = half;
    size2[longest] = size[longest] - half;
    low2[longest] += half;
    std::vector<bool> second = reversed;
    // The second half runs the other way in the dimensions not split, so its start touches the
    // first half's end.
    for (std::size_t d = 0; d < size.size(); ++d)
      if (d != longest) second[d] = !second[d];
    if (!reversed[longest]) {
      visit(low, size1, reversed);
      visit(low2, size2, second);
    } else {
      visit(low2, size2, reversed);
      visit(low, size1, second);
    }
  }
};

}  // namespace

std::vector<int> curve_order(const std::vector<int>& extents) {
  std::vector<int> out;
  long volume = 1;
  for (int e : extents) volume *= e;
  out.reserve(static_cast<std::size_t>(volume));
  if (volume == 0) return out;
  Walk walk{extents, out};
  walk.visit(std::vector<int>(extents.size(), 0), extents, std::vector<bool>(extents.size(), false));
  return out;
}

}  // namespace ghostwire::topo::detail
