// SPDX-License-Identifier: BSD-3-Clause
// Threads and MPI's thread levels: which thread is calling, and ghostwire's own door to MPI, which
// lets a thread through only where the World's level allows it (docs/runtime.md, "Threads").
// Invariant: below MPI_THREAD_MULTIPLE no two threads are ever inside MPI through ghostwire at once,
// and below MPI_THREAD_SERIALIZED only the main thread is.
#pragma once

#include <cstdint>
#include <string>

namespace ghostwire::detail {

struct WorldState;

// A nonzero number naming the calling thread while it lives (the address of a thread_local).
std::uintptr_t this_thread_tag() noexcept;

// The thread that initialised MPI (MPI_Is_thread_main).
bool on_main_thread(const WorldState& w);

// Held by a call that enters MPI on behalf of the application (a slot between nodes, an exchange of
// a plan that has such slots). MPI_THREAD_MULTIPLE: nothing to do. MPI_THREAD_SERIALIZED: one
// thread at a time. FUNNELED and SINGLE: the main thread only. enter() says whether this thread may
// go in now; if not, refuse() raises Errc::state with `what` ("Plan::send: channel 0 with rank 3
// of plan 1 travels between nodes"), the level and what to do. The text is built only then.
class MpiEntry {
 public:
  MpiEntry() = default;
  ~MpiEntry();
  MpiEntry(const MpiEntry&) = delete;
  MpiEntry& operator=(const MpiEntry&) = delete;

  bool enter(WorldState& w);
  [[noreturn]] void refuse(const std::string& what) const;

 private:
  WorldState* w_ = nullptr;
  bool held_ = false;
};

// A wait's turn to serve the world's transport: false when this thread may not enter MPI now (not
// the main thread below SERIALIZED; another thread is in MPI through ghostwire, or serving the
// transport already). The wait then only polls; the thread holding the door serves the transport.
class ProgressTurn {
 public:
  explicit ProgressTurn(WorldState& w);
  ~ProgressTurn();
  ProgressTurn(const ProgressTurn&) = delete;
  ProgressTurn& operator=(const ProgressTurn&) = delete;
  explicit operator bool() const noexcept { return allowed_; }

 private:
  WorldState& w_;
  bool allowed_ = false, held_ = false;
};

}  // namespace ghostwire::detail
