// SPDX-License-Identifier: BSD-3-Clause
// --check-ghosts: after a run, every ghost point's gradients must equal its owner's bit for bit.
// The check asks each owner for the values of the global ids it holds as ghosts (plain MPI, by
// global id: independent of the plans' and buffers' ordering it verifies).
// See docs/cfdproxy.md, "How it works".
#pragma once

#include <mpi.h>

#include <cstdint>

#include "fields.hpp"
#include "local_domain.hpp"

namespace cfdproxy {

struct GhostCheck {
  std::int64_t ghosts = 0, mismatches = 0;  // over all ranks
};

GhostCheck check_ghosts(const LocalDomain& d, const Fields& fields, MPI_Comm comm);

}  // namespace cfdproxy
