// SPDX-License-Identifier: BSD-3-Clause
// GfortranRandom (gfortran_random.hpp): gfortran's xoshiro256** seeding and conversions, bit for
// bit (see docs/minighost.md, "Semantics", The random stream).
#include "gfortran_random.hpp"

#include <bit>
#include <cmath>

namespace minighost {
namespace {

// libgfortran XORs the user's seed with these so that seeds with little entropy in some bits
// still give a usable state.
constexpr std::array<std::uint64_t, 4> seed_keys = {0xbd0c5b6e50c2df49ULL, 0xd46061cd46e1df38ULL,
                                                     0xbb4f4d4ed6103544ULL, 0x114a583d0756ad39ULL};

}  // namespace

GfortranRandom::GfortranRandom(const std::array<std::int32_t, 8>& seed) {
  static_assert(std::endian::native == std::endian::little, "the seed byte order below assumes little endian");
  for (int word = 0; word < 4; ++word) {
    // Seed element 7 fills the first four bytes of word 0 (its low half on little endian), 6 the
    // next four, and so on backwards.
    const auto low = static_cast<std::uint32_t>(seed[7 - 2 * word]);
    const auto high = static_cast<std::uint32_t>(seed[6 - 2 * word]);
    state_[word] = ((static_cast<std::uint64_t>(high) << 32) | low) ^ seed_keys[word];
  }
}

std::uint64_t GfortranRandom::next_bits() {
  // xoshiro256** (Blackman and Vigna).
  const std::uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = std::rotl(state_[3], 45);
  return result;
}

double GfortranRandom::next_real8() {
  const std::uint64_t top53 = next_bits() & (~std::uint64_t{0} << 11);
  return std::ldexp(static_cast<double>(top53), -64);
}

float GfortranRandom::next_real4() {
  const auto high = static_cast<std::uint32_t>(next_bits() >> 32);
  const std::uint32_t top24 = high & (~std::uint32_t{0} << 8);
  return std::ldexp(static_cast<float>(top24), -32);
}

}  // namespace minighost
