// SPDX-License-Identifier: BSD-3-Clause
// The gradient and flux loops of one colour (kernel.hpp), in the reference's order of operations
// (see docs/cfdproxy.md, "How it works"). A colour whose faces all lie inside the thread's points
// runs the reference's loop; one with faces shared with another thread checks, per face, which
// points to write. Both compute a face's contribution with the same expressions (and this file is
// built with -ffp-contract=off), so they give the same bits.
#include "kernel.hpp"

#include <cstddef>

namespace cfdproxy {

namespace {
constexpr int G = gradient_variables;
constexpr int ivx = 0, ivy = 1, ivz = 2;  // the velocity variables

template <bool OneSided>
void gradient_faces(const Share& s, const Colour& colour, const double* var, double* grad) {
  for (std::int32_t f = colour.face_begin; f < colour.face_end; ++f) {
    const auto [p0, p1] = s.faces[static_cast<std::size_t>(f)];
    const auto& n = s.normals[static_cast<std::size_t>(f)];
    const std::uint8_t writes = OneSided ? s.writes[static_cast<std::size_t>(f)] : writes_both;
    const double* v0 = var + static_cast<std::size_t>(p0) * G;
    const double* v1 = var + static_cast<std::size_t>(p1) * G;
    double* g0 = grad + static_cast<std::size_t>(p0) * G * 3;
    double* g1 = grad + static_cast<std::size_t>(p1) * G * 3;
    for (int eq = 0; eq < G; ++eq) {
      const double mean = 0.5 * (v0[eq] + v1[eq]);
      const double x = n[0] * mean, y = n[1] * mean, z = n[2] * mean;
      if (!OneSided || (writes & writes_first)) {
        g0[eq * 3 + 0] += x;
        g0[eq * 3 + 1] += y;
        g0[eq * 3 + 2] += z;
      }
      if (!OneSided || (writes & writes_second)) {
        g1[eq * 3 + 0] -= x;
        g1[eq * 3 + 1] -= y;
        g1[eq * 3 + 2] -= z;
      }
    }
  }
}

template <bool OneSided>
void flux_faces(const Share& s, const Colour& colour, const double* grad, double* flux) {
  constexpr double viscosity = 1.0;
  constexpr double lambda = -2.0 / 3.0 * viscosity;
  for (std::int32_t f = colour.face_begin; f < colour.face_end; ++f) {
    const auto [p0, p1] = s.faces[static_cast<std::size_t>(f)];
    const auto& n = s.normals[static_cast<std::size_t>(f)];
    const std::uint8_t writes = OneSided ? s.writes[static_cast<std::size_t>(f)] : writes_both;
    const double* g0 = grad + static_cast<std::size_t>(p0) * G * 3;
    const double* g1 = grad + static_cast<std::size_t>(p1) * G * 3;
    auto mean = [&](int eq, int axis) { return 0.5 * (g0[eq * 3 + axis] + g1[eq * 3 + axis]); };
    const double dvx_dx = mean(ivx, 0), dvx_dy = mean(ivx, 1), dvx_dz = mean(ivx, 2);
    const double dvy_dx = mean(ivy, 0), dvy_dy = mean(ivy, 1), dvy_dz = mean(ivy, 2);
    const double dvz_dx = mean(ivz, 0), dvz_dy = mean(ivz, 1), dvz_dz = mean(ivz, 2);

    const double s_xx = lambda * (dvy_dy + dvz_dz - 2.0 * dvx_dx);
    const double s_yy = lambda * (dvx_dx + dvz_dz - 2.0 * dvy_dy);
    const double s_zz = lambda * (dvx_dx + dvy_dy - 2.0 * dvz_dz);
    const double s_xy = viscosity * (dvx_dy + dvy_dx);
    const double s_xz = viscosity * (dvx_dz + dvz_dx);
    const double s_yz = viscosity * (dvy_dz + dvz_dy);

    const double fx = -(s_xx * n[0] + s_xy * n[1] + s_xz * n[2]);
    const double fy = -(s_xy * n[0] + s_yy * n[1] + s_yz * n[2]);
    const double fz = -(s_xz * n[0] + s_yz * n[1] + s_zz * n[2]);
    if (!OneSided || (writes & writes_first)) {
      double* q0 = flux + static_cast<std::size_t>(p0) * 3;
      q0[0] += fx;
      q0[1] += fy;
      q0[2] += fz;
    }
    if (!OneSided || (writes & writes_second)) {
      double* q1 = flux + static_cast<std::size_t>(p1) * 3;
      q1[0] -= fx;
      q1[1] -= fy;
      q1[2] -= fz;
    }
  }
}

}  // namespace

void gradient_colour(const LocalDomain& d, const Share& s, const Colour& colour, const double* var, double* grad) {
  for (std::int32_t i = colour.first_begin; i < colour.first_end; ++i) {
    double* g = grad + static_cast<std::size_t>(s.first_points[static_cast<std::size_t>(i)]) * G * 3;
    for (int k = 0; k < G * 3; ++k) g[k] = 0.0;
  }
  if (colour.one_sided) {
    gradient_faces<true>(s, colour, var, grad);
  } else {
    gradient_faces<false>(s, colour, var, grad);
  }
  for (std::int32_t i = colour.last_begin; i < colour.last_end; ++i) {
    const auto p = static_cast<std::size_t>(s.last_points[static_cast<std::size_t>(i)]);
    const double inverse = 1 / d.volume[p];
    double* g = grad + p * G * 3;
    for (int k = 0; k < G * 3; ++k) g[k] *= inverse;
  }
}

void flux_colour(const Share& s, const Colour& colour, const double* grad, double* flux) {
  for (std::int32_t i = colour.first_begin; i < colour.first_end; ++i) {
    double* q = flux + static_cast<std::size_t>(s.first_points[static_cast<std::size_t>(i)]) * 3;
    q[0] = q[1] = q[2] = 0.0;
  }
  if (colour.one_sided) {
    flux_faces<true>(s, colour, grad, flux);
  } else {
    flux_faces<false>(s, colour, grad, flux);
  }
}

}  // namespace cfdproxy
