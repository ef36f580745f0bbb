// SPDX-License-Identifier: BSD-3-Clause
// ghostwire's distributed data structures (DASH-style): patterns, Array, Grid with halos,
// global access, copy/copy_async, halo updates and collective algorithms. See docs/dist.md.
#pragma once

#include "ghostwire/dist/algorithm.hpp"
#include "ghostwire/dist/array.hpp"
#include "ghostwire/dist/box.hpp"
#include "ghostwire/dist/copy.hpp"
#include "ghostwire/dist/future.hpp"
#include "ghostwire/dist/global_ref.hpp"
#include "ghostwire/dist/grid.hpp"
#include "ghostwire/dist/halo_update.hpp"
#include "ghostwire/dist/pattern.hpp"
#include "ghostwire/dist/team_spec.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/world.hpp"
