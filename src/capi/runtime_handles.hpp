// SPDX-License-Identifier: BSD-3-Clause
// The C handles of the runtime, shared by the C API files.
#pragma once

#include "ghostwire/segment.hpp"
#include "ghostwire/world.hpp"

struct gw_world {
  ghostwire::World world;
  explicit gw_world(MPI_Comm comm) : world(comm) {}
  gw_world(MPI_Comm comm, const ghostwire::Settings& settings) : world(comm, settings) {}
};
struct gw_segment {
  ghostwire::Segment segment;
  gw_segment(ghostwire::World& world, size_t bytes, size_t notifications) : segment(world, bytes, notifications) {}
};
