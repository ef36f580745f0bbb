// SPDX-License-Identifier: BSD-3-Clause
#include "reverse_buffers.hpp"

#include <algorithm>

namespace gwbench::halo {

HaloCase transposed(const HaloCase& c) {
  HaloCase t;
  t.name = c.name;
  t.elements = c.elements;
  for (const Receive& m : c.receives) t.sends.push_back(m);  // the layout only: no source
  for (const Message& m : c.sends) {
    Receive r;
    r.neighbour = m.neighbour;
    r.tag = m.tag;
    r.layout = m.layout;
    t.receives.push_back(std::move(r));
  }
  return t;
}

std::size_t returning_elements(const HaloCase& c) {
  std::size_t count = 0;
  for (const Message& m : c.sends) count += m.layout.count();
  return count;
}

// The scratch is sized before MessageBuffers (built from the transposed case) lays the returning
// messages out in it.
ReverseBuffers::ReverseBuffers(const HaloCase& c, double* field, double* area)
    : field_(field),
      scratch_(area ? 0 : std::max<std::size_t>(1, returning_elements(c)), 0.0),
      buffers_(transposed(c), field, area ? area : scratch_.data()) {
  for (const Message& m : c.sends) adds_.emplace_back(m.layout);
}

}  // namespace gwbench::halo
