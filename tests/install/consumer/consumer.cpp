// SPDX-License-Identifier: BSD-3-Clause
// Uses the installed headers and library: a notified write to itself.
#include <cstdio>

#include <ghostwire/ghostwire.hpp>

int main() {
  ghostwire::World world;
  ghostwire::Segment segment(world, 64, 4);
  double value = 42.5;
  ghostwire::write_notify(&value, world.rank(), segment, 0, sizeof value, 1, 7);
  bool ok = ghostwire::notify_wait(segment, 1) == 7 && *reinterpret_cast<double*>(segment.data()) == 42.5;
  if (world.rank() == 0) std::printf("consumer: %s\n", ok ? "installed ghostwire works" : "FAILED");
  return ok ? 0 : 1;
}
