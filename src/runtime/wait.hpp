// SPDX-License-Identifier: BSD-3-Clause
// Waiting: poll, spin briefly, then yield the core (ranks may outnumber cores), and give up with a
// diagnostic after the world's timeout. Invariant: every blocking call in ghostwire waits through
// this, so every wait serves the transport and the owed work and can time out.
// docs/runtime.md, "Waiting and timeouts".
#pragma once

#include <sched.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "mpi_check.hpp"
#include "world_state.hpp"

namespace ghostwire::detail {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Prints `what` with the rank and timeout, then aborts the job or throws TimeoutError as the
// settings say.
// Marks the world broken before throwing (WorldState::broken).
[[noreturn]] void wait_timed_out(WorldState& world, const std::string& what);

class Waiter {
 public:
  // `spin_polls`: polls before the first yield (the world's, or its peer_spin_polls for waits on
  // node peers only).
  Waiter(WorldState& world, std::uint64_t spin_polls) noexcept : world_(world), spin_polls_(spin_polls) {}

  // Call after each unsuccessful poll. `describe()` builds the diagnostic only on timeout.
  template <class Describe>
  void pause(Describe&& describe) {
    if (!world_.owed_work.empty()) world_.serve_owed_work();  // a peer may be waiting for it
    ++polls_;
    if (polls_ == 1) start_ = std::chrono::steady_clock::now();
    if (polls_ < spin_polls_) {
      cpu_relax();
      if ((polls_ & 1023) == 0) check_deadline(describe);
    } else {
      sched_yield();
      if ((polls_ & 15) == 0) check_deadline(describe);
    }
  }

 private:
  template <class Describe>
  void check_deadline(Describe& describe) {
    std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start_;
    if (waited.count() > world_.settings.timeout_seconds) wait_timed_out(world_, describe());
  }

  WorldState& world_;
  std::uint64_t spin_polls_;
  std::uint64_t polls_ = 0;
  std::chrono::steady_clock::time_point start_{};
};

// Waits until ready() is true, serving the inter-node transport between polls when it needs it.
template <class Ready, class Describe>
void wait_until(WorldState& world, Ready&& ready, Describe&& describe, std::uint64_t spin_polls) {
  if (ready()) return;
  Waiter waiter(world, spin_polls);
  for (;;) {
    if (world.needs_progress) world.progress();
    if (ready()) return;
    waiter.pause(describe);
  }
}

template <class Ready, class Describe>
void wait_until(WorldState& world, Ready&& ready, Describe&& describe) {
  wait_until(world, std::forward<Ready>(ready), std::forward<Describe>(describe), world.spin_polls);
}

// Waits for a non-blocking MPI call (a collective, a message) like every other wait: a rank that
// never makes its part ends this one with the diagnostic `describe()` instead of a hang in MPI.
template <class Describe, std::enable_if_t<std::is_invocable_v<Describe&>, int> = 0>
void wait_request(WorldState& world, MPI_Request& request, Describe&& describe) {
  wait_until(world, [&] { return request_complete(request); }, std::forward<Describe>(describe));
}

// The same with the diagnostic already written out.
inline void wait_request(WorldState& world, MPI_Request& request, const std::string& what) {
  wait_request(world, request, [&] { return what; });
}

// For entry points handed a communicator but no World (topo::detect(MPI_Comm, const Settings&),
// the C API's gw_topo_cart_comm): the state their waits need, so that a rank that never arrives
// ends them with the same diagnostic and after the same timeout as a World's waits. It holds
// `comm` (still the caller's: nothing is freed), `settings` and this rank, and no node layout or
// transport; making it is local. Its waits spin briefly, then yield: whether ranks outnumber
// cores is not known without a collective, and a one-off set-up wait gains nothing from spinning.
std::unique_ptr<WorldState> wait_state_for(MPI_Comm comm, const Settings& settings);

}  // namespace ghostwire::detail
