// SPDX-License-Identifier: BSD-3-Clause
// How a variant moves the gradients of a partner's send points into the partner's ghost points.
// The gradient loop calls begin() before its first colour and after_colour(c) after each colour
// (a partner's message leaves as soon as its send points are final); complete() returns when this
// rank's ghost gradients are its owners' values (the "exchange" phase of the timing).
//
// See docs/cfdproxy.md, "The variants".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <ghostwire/ghostwire.hpp>

#include "../common/named_registry.hpp"
#include "fields.hpp"
#include "local_domain.hpp"

namespace cfdproxy {

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual void begin() = 0;
  virtual void after_colour(std::size_t colour) = 0;
  virtual void complete() = 0;
};

using ExchangeFactory = std::unique_ptr<Exchange> (*)(ghostwire::World& world, const LocalDomain& d, Fields& fields);

// A variant as the registry holds it (apps/common/named_registry.hpp). Each variant's file
// registers it: "gw" (exchange_gw.cpp: the reference's schedule on a ghostwire plan, one slot per
// partner), "mpi" (exchange_mpi.cpp: the reference, Irecv posted at begin, pack and Isend per
// partner, Waitall and unpack), "commfree" (exchange_commfree.cpp: nothing moves).
struct RegisteredExchange {
  std::string name;
  int position;  // its place in 'all', in --help and in the names an error lists
  ExchangeFactory factory;
};
using ExchangeRegistry = ghostwire_programs::NamedRegistry<RegisteredExchange>;
using ExchangeRegistration = ghostwire_programs::Registration<RegisteredExchange>;

// The variant registered as `variant` (--variant has checked the name).
std::unique_ptr<Exchange> make_exchange(const std::string& variant, ghostwire::World& world, const LocalDomain& d,
                                        Fields& fields);

// Partners (indices into d.partners) whose send points are all final after each colour.
std::vector<std::vector<std::size_t>> partners_ready_after_colours(const LocalDomain& d);

}  // namespace cfdproxy
