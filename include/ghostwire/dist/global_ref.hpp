// SPDX-License-Identifier: BSD-3-Clause
// GlobalRef<T>: one element of a distributed container, wherever it lives. get()/put() are a plain
// load/store when the owner shares memory with this rank, and a blocking one-sided get/put
// otherwise (the owner must make MPI progress, see segment_async.hpp). Visibility to other ranks
// follows the usual PGAS rule: synchronise (a barrier) between a put and another rank's get.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "ghostwire/segment.hpp"

namespace ghostwire {

// Where an element lives: its owner's part of a segment, and a direct pointer for node peers.
struct GlobalAddress {
  Segment* segment = nullptr;
  int rank = -1;
  std::size_t offset = 0;      // bytes into the owner's part
  std::byte* direct = nullptr;  // null when the owner is on another node
};

template <class T>
class GlobalRef {
  static_assert(std::is_trivially_copyable_v<T>, "GlobalRef: elements must be trivially copyable");

 public:
  explicit GlobalRef(const GlobalAddress& address) noexcept : address_(address) {}

  T get() const {
    T value;
    if (address_.direct)
      std::memcpy(&value, address_.direct, sizeof(T));
    else
      address_.segment->get(address_.rank, address_.offset, &value, sizeof(T));
    return value;
  }
  void put(const T& value) const {
    if (address_.direct)
      std::memcpy(address_.direct, &value, sizeof(T));
    else
      address_.segment->put(address_.rank, address_.offset, &value, sizeof(T));
  }
  operator T() const { return get(); }
  const GlobalRef& operator=(const T& value) const {
    put(value);
    return *this;
  }
  const GlobalRef& operator=(const GlobalRef& other) const {
    put(other.get());
    return *this;
  }

  int owner() const noexcept { return address_.rank; }
  bool is_local() const noexcept { return address_.direct != nullptr; }  // same node: direct access
  T* local_pointer() const noexcept { return reinterpret_cast<T*>(address_.direct); }
  const GlobalAddress& address() const noexcept { return address_; }

 private:
  GlobalAddress address_;
};

}  // namespace ghostwire
