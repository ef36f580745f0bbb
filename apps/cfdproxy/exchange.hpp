// SPDX-License-Identifier: BSD-3-Clause
// How a variant moves the gradients of a partner's send points into the partner's ghost points.
// Thread 0 calls begin() before the threads' gradient sweeps; each thread calls
// after_colour(thread, c) after each colour c of its share (a partner's message, or its part of
// it, leaves as soon as its send points are final); thread 0 calls complete() after every thread's
// sweep, and it returns when this rank's ghost gradients are their owners' values (the "exchange"
// phase of the timing).
//
// See docs/cfdproxy.md, "The variants".
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <ghostwire/ghostwire.hpp>

#include "../common/named_registry.hpp"
#include "fields.hpp"
#include "local_domain.hpp"
#include "thread_team.hpp"

namespace cfdproxy {

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual void begin() = 0;
  virtual void after_colour(int thread, std::size_t colour) = 0;
  virtual void complete() = 0;
};

// What a variant is made from: the World, this rank's domain (divided among the team's threads),
// its fields, and the team (for waits that must yield when the machine is oversubscribed).
struct ExchangeContext {
  ghostwire::World& world;
  const LocalDomain& domain;
  Fields& fields;
  const ThreadTeam& team;
};

using ExchangeFactory = std::unique_ptr<Exchange> (*)(const ExchangeContext& context);

// A variant as the registry holds it (apps/common/named_registry.hpp). Each variant's file
// registers it: "gw" (exchange_gw.cpp: the reference's schedule on a ghostwire plan, one slot per
// partner), "mpi" (exchange_mpi.cpp: the reference, Irecv posted at begin, pack and Isend per
// partner, Waitall and unpack), "commfree" (exchange_commfree.cpp: nothing moves),
// "mpi-partitioned" (exchange_mpi_partitioned.cpp, MPI-4 builds only: MPI_Psend_init per partner,
// MPI_Pready per colour group).
struct RegisteredExchange {
  std::string name;
  int position;  // its place in 'all', in --help and in the names an error lists
  ExchangeFactory factory;
  bool sends_from_threads = true;  // calls MPI or a plan from several threads when --threads > 1
};
using ExchangeRegistry = ghostwire_programs::NamedRegistry<RegisteredExchange>;
using ExchangeRegistration = ghostwire_programs::Registration<RegisteredExchange>;

// The variant registered as `variant` (--variant has checked the name).
std::unique_ptr<Exchange> make_exchange(const std::string& variant, const ExchangeContext& context);

// Why a known variant is not in this build ("" if it is, or if the name is unknown).
std::string unavailable_variant(const std::string& variant);

// When each partner's message is complete during the gradient: every thread that owns some of a
// partner's send points counts down the partner's counter after the colour that finalises its last
// one, and the thread that brings it to zero sends the message (it then sees every thread's writes
// to those points: the count-down is acquire-release).
class SendSchedule {
 public:
  explicit SendSchedule(const LocalDomain& d);
  // Thread 0, before the threads start: every counter back to its number of threads.
  void reset();
  // send(partner index) for each partner whose message `thread` completes with `colour`.
  template <class Send>
  void after_colour(int thread, std::size_t colour, Send&& send) {
    for (std::size_t i : ready_[static_cast<std::size_t>(thread)][colour])
      if (remaining_[i].count.fetch_sub(1, std::memory_order_acq_rel) == 1) send(i);
  }
  // Partners none of whose send points any thread owns (none, for a symmetric halo): thread 0
  // sends their empty messages in begin().
  const std::vector<std::size_t>& without_senders() const { return without_senders_; }

 private:
  struct alignas(64) Counter {
    std::atomic<int> count{0};
  };
  std::vector<std::vector<std::vector<std::size_t>>> ready_;  // [thread][colour] -> partners
  std::vector<int> senders_;                                 // per partner
  std::unique_ptr<Counter[]> remaining_;
  std::vector<std::size_t> without_senders_;
};

}  // namespace cfdproxy
