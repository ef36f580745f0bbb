// SPDX-License-Identifier: BSD-3-Clause
// The fields CloverLeaf exchanges, in the reference's order (its FIELD_* numbers minus 1), the
// mesh position each lives at, and a set of them (the reference's `fields` array of an update_halo
// call) as a bit mask.
// See docs/cloverleaf.md, "Fields on grids".
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace cloverleaf {

enum class Field : int {
  density0,
  density1,
  energy0,
  energy1,
  pressure,
  viscosity,
  soundspeed,
  xvel0,
  xvel1,
  yvel0,
  yvel1,
  vol_flux_x,
  vol_flux_y,
  mass_flux_x,
  mass_flux_y,
};
inline constexpr int field_count = 15;

// Where on the staggered mesh a field lives. Cell-centred fields have nx x ny values per chunk;
// vertex fields (nx+1) x (ny+1): the chunk computes its high-side shared node column and row itself;
// x faces (nx+1) x ny, y faces nx x (ny+1).
enum class FieldKind : int { cell, vertex, x_face, y_face };

constexpr FieldKind kind_of(Field f) {
  switch (f) {
    case Field::xvel0:
    case Field::xvel1:
    case Field::yvel0:
    case Field::yvel1: return FieldKind::vertex;
    case Field::vol_flux_x:
    case Field::mass_flux_x: return FieldKind::x_face;
    case Field::vol_flux_y:
    case Field::mass_flux_y: return FieldKind::y_face;
    default: return FieldKind::cell;
  }
}
// 1 where the kind has one more value than cells in x (y): the reference's x_inc (y_inc).
constexpr int x_extra(FieldKind k) { return k == FieldKind::vertex || k == FieldKind::x_face ? 1 : 0; }
constexpr int y_extra(FieldKind k) { return k == FieldKind::vertex || k == FieldKind::y_face ? 1 : 0; }

std::string_view field_name(Field f);

class FieldMask {
 public:
  constexpr FieldMask() = default;
  constexpr FieldMask(std::initializer_list<Field> fields) {
    for (Field f : fields) add(f);
  }
  constexpr FieldMask& add(Field f) {
    bits_ |= bit(f);
    return *this;
  }
  constexpr bool has(Field f) const { return (bits_ & bit(f)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int count() const {
    int n = 0;
    for (std::uint32_t b = bits_; b; b &= b - 1) ++n;
    return n;
  }
  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool operator==(const FieldMask&) const = default;
  // The fields of the mask in the reference's order (the order its exchange packs them).
  template <class F>
  void for_each(F&& f) const {
    for (int i = 0; i < field_count; ++i)
      if (bits_ & (1u << i)) f(static_cast<Field>(i));
  }

 private:
  static constexpr std::uint32_t bit(Field f) { return 1u << static_cast<int>(f); }
  std::uint32_t bits_ = 0;
};

}  // namespace cloverleaf
