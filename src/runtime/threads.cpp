// SPDX-License-Identifier: BSD-3-Clause
// MPI's thread levels as ghostwire applies them (threads.hpp). The door is a holder word: the tag
// of the thread inside, re-entered by that thread (a slot call's wait serves the transport).
#include "runtime/threads.hpp"

#include <mpi.h>

#include <pthread.h>

#include <atomic>
#include <thread>

#include "ghostwire/error.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

bool try_hold(WorldState& w) {
  const std::uintptr_t me = this_thread_tag();
  if (w.mpi_holder.load(std::memory_order_relaxed) == me) {
    ++w.mpi_depth;
    return true;
  }
  std::uintptr_t free = 0;
  if (!w.mpi_holder.compare_exchange_strong(free, me, std::memory_order_acquire, std::memory_order_relaxed))
    return false;
  w.mpi_depth = 1;
  return true;
}

void let_go(WorldState& w) {
  if (--w.mpi_depth == 0) w.mpi_holder.store(0, std::memory_order_release);
}

const char* level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

const char* const what_to_do =
    "; initialise MPI with MPI_THREAD_MULTIPLE (a World that initialises MPI asks for it with "
    "Settings::thread_level = ThreadLevel::multiple or GHOSTWIRE_THREAD_LEVEL=multiple)";

}  // namespace

// The thread's descriptor address (never 0, unique among live threads): one load of the thread
// pointer, where the address of a thread_local costs a __tls_get_addr call in a shared library.
std::uintptr_t this_thread_tag() noexcept { return static_cast<std::uintptr_t>(pthread_self()); }

bool on_main_thread(const WorldState& w) {
  if (w.main_thread_known) return std::this_thread::get_id() == w.main_thread;
  int is_main = 0;
  check_mpi(MPI_Is_thread_main(&is_main), "MPI_Is_thread_main");
  return is_main != 0;
}

bool MpiEntry::enter(WorldState& w) {
  w_ = &w;
  if (w.thread_level >= MPI_THREAD_MULTIPLE) return true;
  if (w.thread_level == MPI_THREAD_SERIALIZED) return held_ = try_hold(w);
  return on_main_thread(w);
}

void MpiEntry::refuse(const std::string& what) const {
  if (w_->thread_level == MPI_THREAD_SERIALIZED)
    raise(Errc::state, what + ", and MPI provides MPI_THREAD_SERIALIZED: another thread is inside MPI through "
                              "ghostwire at the same time; call these from one thread at a time" + what_to_do);
  raise(Errc::state, what + ", and MPI provides " + level_name(w_->thread_level) +
                         ": only the main thread may call MPI; call it from the main thread" + what_to_do);
}

MpiEntry::~MpiEntry() {
  if (held_) let_go(*w_);
}

ProgressTurn::ProgressTurn(WorldState& w) : w_(w) {
  if (w.thread_level >= MPI_THREAD_MULTIPLE) {
    allowed_ = true;  // the transport's own mutex keeps its state one thread's (WorldState::progress)
  } else if (w.thread_level == MPI_THREAD_SERIALIZED) {
    held_ = allowed_ = try_hold(w);  // the MPI door itself
  } else {
    allowed_ = on_main_thread(w);  // one thread calls MPI at all: nobody to exclude
  }
}

ProgressTurn::~ProgressTurn() {
  if (held_) let_go(w_);
}

}  // namespace ghostwire::detail
