// SPDX-License-Identifier: BSD-3-Clause
// A private region of this rank moved by Plan::rebind: every address a path keeps inside the old
// range [begin, end) moves by `delta`; addresses outside it (a node peer's memory, staging, other
// regions, which rebind keeps apart from this one) stay. docs/plans.md, "Arrays that move".
#pragma once

#include <cstddef>
#include <cstdint>

namespace ghostwire::detail {

struct MemoryMove {
  const std::byte* begin = nullptr;
  const std::byte* end = nullptr;
  std::ptrdiff_t delta = 0;

  bool contains(const void* address) const {
    const auto* a = static_cast<const std::byte*>(address);
    return a >= begin && a < end;
  }
  // `address` moved if it lay in the old range, else unchanged.
  template <class T>
  void follow(T*& address) const {
    if (contains(address))
      address = reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(address) + static_cast<std::uintptr_t>(delta));
  }
  // The same for an address kept as a number (a cross-memory run); true if it moved.
  bool follow(std::uintptr_t& address) const {
    if (!contains(reinterpret_cast<const void*>(address))) return false;
    address += static_cast<std::uintptr_t>(delta);
    return true;
  }
};

}  // namespace ghostwire::detail
