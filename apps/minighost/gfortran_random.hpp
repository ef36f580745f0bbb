// SPDX-License-Identifier: BSD-3-Clause
// GfortranRandom: the stream of numbers gfortran's RANDOM_NUMBER returns after
// RANDOM_SEED(PUT=seed), so our initial grid and random spikes are the reference's, bit for bit.
//
// The reference seeds with eight 8s (its MG_RANDOM_SEED) before each use. Its results therefore
// depend on the Fortran runtime; we reproduce gfortran 9 and later (the Debian 12 compiler is
// gfortran 12): the generator is xoshiro256**; PUT takes the eight 32-bit seed values in reverse
// order as the bytes of the four 64-bit state words and XORs them with fixed keys; a REAL(8) is the
// top 53 bits of the next output times 2^-64, a REAL(4) the top 24 bits of its upper half times 2^-32.
// Checked against gfortran 12 (docs/minighost.md lists the first values).
#pragma once

#include <array>
#include <cstdint>

namespace minighost {

class GfortranRandom {
 public:
  // The state after RANDOM_SEED(PUT=seed) with a default-kind (32-bit) integer array of size 8.
  explicit GfortranRandom(const std::array<std::int32_t, 8>& seed);
  // The reference's MG_RANDOM_SEED: every seed value is 8.
  static GfortranRandom miniGhost_seed() { return GfortranRandom({8, 8, 8, 8, 8, 8, 8, 8}); }

  double next_real8();  // RANDOM_NUMBER on a REAL(8), in [0, 1)
  float next_real4();   // RANDOM_NUMBER on a REAL(4), in [0, 1)

 private:
  std::uint64_t next_bits();
  std::array<std::uint64_t, 4> state_;
};

}  // namespace minighost
