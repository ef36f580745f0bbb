// SPDX-License-Identifier: BSD-3-Clause
// HaloUpdate: the reference's update_halo as the kernels call it. The exchange variant fills the
// ghosts shared with other chunks; then, with --sync global, every rank waits for all others; then
// the common code mirrors the ghosts at the mesh's edge (after the exchange, as the reference
// orders them: the corner ghosts a neighbour sent are overwritten where the edge's mirror wants them).
//
// See docs/cloverleaf.md, "The timestep".
#pragma once

#include <span>

#include "chunk.hpp"
#include "exchange.hpp"
#include "fields.hpp"
#include "profile.hpp"

namespace cloverleaf {

enum class Sync { p2p, global };
const char* sync_name(Sync s);

class HaloUpdate {
 public:
  HaloUpdate(Chunk& chunk, Exchange& exchange, Sync sync, Profile& profile)
      : chunk_(chunk), exchange_(exchange), sync_(sync), profile_(profile) {}

  void operator()(FieldMask fields, int depth);
  // The exchange variant's allgather (Exchange::allgather), for the timestep's global minimum.
  void allgather(std::span<const double> mine, std::span<double> all) { exchange_.allgather(mine, all); }
  long long calls() const { return calls_; }

 private:
  Chunk& chunk_;
  Exchange& exchange_;
  Sync sync_;
  Profile& profile_;
  long long calls_ = 0;
};

}  // namespace cloverleaf
