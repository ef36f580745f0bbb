// SPDX-License-Identifier: BSD-3-Clause
// write_visit (visit.hpp): the reference's VTK files and index, by its names (see
// docs/cloverleaf.md, "Output").
#include "visit.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "kernels.hpp"
#include "output.hpp"

namespace cloverleaf {
namespace {

// The reference's i6 of 100000 + n with the leading 1 replaced by a dot: ".00003".
std::string number_part(int n) {
  std::string s = format("%6d", 100000 + n);
  s[0] = '.';
  return s;
}

std::string vtk_name(int chunk, int step) { return "clover" + number_part(chunk) + number_part(1) + number_part(step) + ".vtk"; }

// The reference compares with 0.00000001, a default-precision literal.
constexpr double tiny = static_cast<double>(0.00000001f);

void values(std::FILE* f, double v) { std::fprintf(f, "%s\n", fortran_e(v, 12, 4).c_str()); }

}  // namespace

void write_visit(Chunk& c, HaloUpdate& halo, Profile& profile, int step, bool first_call) {
  const int rank = c.d.rank, ranks = c.d.ranks;
  if (rank == 0 && first_call) {
    if (std::FILE* f = std::fopen("clover.visit", "w")) {
      std::fprintf(f, "!NBLOCKS %5d\n", ranks);
      std::fclose(f);
    }
  }
  {
    KernelTimer t(profile, Kernel::ideal_gas);
    ideal_gas(c, false);
  }
  halo(FieldMask{Field::pressure, Field::xvel0, Field::yvel0}, 1);
  {
    KernelTimer t(profile, Kernel::viscosity);
    viscosity(c);
  }
  if (rank == 0) {
    if (std::FILE* f = std::fopen("clover.visit", "a")) {
      for (int chunk = 0; chunk < ranks; ++chunk) std::fprintf(f, "%s\n", vtk_name(chunk, step).c_str());
      std::fclose(f);
    }
  }

  KernelTimer t(profile, Kernel::visit);
  std::FILE* f = std::fopen(vtk_name(rank, step).c_str(), "w");
  if (!f) return;
  const Index nxc = c.nx, nyc = c.ny, nxv = nxc + 1, nyv = nyc + 1;
  std::fprintf(f, "# vtk DataFile Version 3.0\nvtk output\nASCII\nDATASET RECTILINEAR_GRID\n");
  std::fprintf(f, "DIMENSIONS%12lld%12lld 1\n", static_cast<long long>(nxv), static_cast<long long>(nyv));
  std::fprintf(f, "X_COORDINATES %5lld double\n", static_cast<long long>(nxv));
  for (Index j = c.x_min; j <= c.x_max + 1; ++j) values(f, c.vertexx[j]);
  std::fprintf(f, "Y_COORDINATES %5lld double\n", static_cast<long long>(nyv));
  for (Index k = c.y_min; k <= c.y_max + 1; ++k) values(f, c.vertexy[k]);
  std::fprintf(f, "Z_COORDINATES 1 double\n0\n");
  std::fprintf(f, "CELL_DATA %20lld\nFIELD FieldData 4\n", static_cast<long long>(nxc * nyc));
  const struct {
    const char* name;
    Grid* grid;
  } cell_fields[] = {{"density", &c.density0}, {"energy", &c.energy0}, {"pressure", &c.pressure}};
  for (const auto& field : cell_fields) {
    std::fprintf(f, "%s 1 %20lld double\n", field.name, static_cast<long long>(nxc * nyc));
    const Rows g = rows(*field.grid);
    for (Index k = c.y_min; k <= c.y_max; ++k)
      for (Index j = c.x_min; j <= c.x_max; ++j) values(f, g[k][j]);
  }
  std::fprintf(f, "viscosity 1 %20lld double\n", static_cast<long long>(nxc * nyc));
  const Rows visc = rows(c.viscosity);
  for (Index k = c.y_min; k <= c.y_max; ++k)
    for (Index j = c.x_min; j <= c.x_max; ++j) values(f, visc[k][j] > tiny ? visc[k][j] : 0.0);
  std::fprintf(f, "POINT_DATA %20lld\nFIELD FieldData 2\n", static_cast<long long>(nxv * nyv));
  const struct {
    const char* name;
    Grid* grid;
  } node_fields[] = {{"x_vel", &c.xvel0}, {"y_vel", &c.yvel0}};
  for (const auto& field : node_fields) {
    std::fprintf(f, "%s 1 %20lld double\n", field.name, static_cast<long long>(nxv * nyv));
    const Rows g = rows(*field.grid);
    for (Index k = c.y_min; k <= c.y_max + 1; ++k)
      for (Index j = c.x_min; j <= c.x_max + 1; ++j) values(f, std::abs(g[k][j]) > tiny ? g[k][j] : 0.0);
  }
  std::fclose(f);
}

}  // namespace cloverleaf
