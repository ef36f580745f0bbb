// SPDX-License-Identifier: BSD-3-Clause
// The two face loops of CFD-Proxy, one colour of one thread's share at a time (the exchange runs
// between colours).
//
// Gradient (Green-Gauss): for each face, the mean of a variable over its two points times the
// face normal is added to the first point and subtracted from the second; a point's sums are
// zeroed in its first colour and divided by its volume in its last. Pseudo-viscous flux: from the
// face mean of the gradients of the velocity variables 0, 1, 2 (IVX, IVY, IVZ of the reference's
// flux.h), a Stokes stress with effective viscosity 1 and lambda = -2/3, projected on the normal.
// A face shared with another thread's share updates only the point this thread writes; its value is
// computed the same way, so a point's sums do not depend on the thread count.
//
// See docs/cfdproxy.md, "How it works".
#pragma once

#include "local_domain.hpp"

namespace cfdproxy {

// var: [all][7]; grad: [all][7][3]; flux: [all][3] (row-major, by local point id).
void gradient_colour(const LocalDomain& d, const Share& share, const Colour& colour, const double* var, double* grad);
void flux_colour(const Share& share, const Colour& colour, const double* grad, double* flux);

}  // namespace cfdproxy
