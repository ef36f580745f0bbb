// SPDX-License-Identifier: BSD-3-Clause
// HaloUpdate (halo.hpp): the exchange, then the --sync global barrier, then the reflective
// boundaries, each timed apart (see docs/cloverleaf.md, "The timestep").
#include "halo.hpp"

#include "kernels.hpp"

namespace cloverleaf {

void HaloUpdate::operator()(FieldMask fields, int depth) {
  {
    KernelTimer t(profile_, Kernel::halo_exchange);
    exchange_.update_halo(fields, depth);
  }
  if (sync_ == Sync::global) {
    KernelTimer t(profile_, Kernel::halo_sync);
    exchange_.barrier();
  }
  {
    KernelTimer t(profile_, Kernel::halo_reflect);
    reflect_boundaries(chunk_, fields, depth);
  }
  ++calls_;
}

}  // namespace cloverleaf
