// HaloUpdate: one halo exchange of several grids, built once on a halo Plan and run every step.
//
//   HaloUpdate update({&u, &v, &w});                              // one message per neighbour
//   HaloUpdate update({&u, &v, &w}, HaloMessages::per_variable);  // one message per grid
//   update.run();                   // all grids
//   update.run(1);                  // only v (per_variable)
//   auto pending = update.start();  // ... compute on cells that need no ghost ...
//   pending.wait();
//
// All grids of one update must have the same pattern and halo (they may hold different types).
// Building it is collective; so is every run/start/wait, in the same order on every rank. The
// grids must outlive the update. Between start() and wait() this rank must not write the cells
// its neighbours read (the owned cells within the halo width of its block's faces) nor read its
// ghost cells. A run allocates nothing.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>

namespace ghostwire {

class Plan;
class GridBase;

namespace detail {
struct HaloUpdateState;
}

enum class HaloMessages {
  per_neighbour,  // all grids' cells for a neighbour in one message (miniGhost's BSPMA)
  per_variable,   // each grid its own messages, which can also be exchanged alone (SVAF)
};

// An exchange under way: wait() fills the ghost cells. Destroying it unwaited waits.
class HaloHandle {
 public:
  HaloHandle() = default;
  HaloHandle(HaloHandle&& other) noexcept;
  HaloHandle& operator=(HaloHandle&& other) noexcept;
  ~HaloHandle();

  void wait();
  bool pending() const noexcept { return state_ != nullptr; }

 private:
  friend class HaloUpdate;
  HaloHandle(detail::HaloUpdateState* state, long grid) noexcept : state_(state), grid_(grid) {}
  detail::HaloUpdateState* state_ = nullptr;
  long grid_ = -1;  // -1: all grids
};

class HaloUpdate {
 public:
  HaloUpdate(std::span<GridBase* const> grids, HaloMessages messages = HaloMessages::per_neighbour);
  HaloUpdate(std::initializer_list<GridBase*> grids, HaloMessages messages = HaloMessages::per_neighbour)
      : HaloUpdate(std::span<GridBase* const>(grids.begin(), grids.size()), messages) {}
  ~HaloUpdate();  // collective
  HaloUpdate(HaloUpdate&&) noexcept;
  HaloUpdate& operator=(HaloUpdate&&) noexcept;

  void run();
  void run(std::size_t grid);  // per_variable only
  [[nodiscard]] HaloHandle start();
  [[nodiscard]] HaloHandle start(std::size_t grid);

  std::size_t grids() const noexcept;
  HaloMessages messages() const noexcept;
  const Plan& plan() const noexcept;
  std::string describe() const;  // neighbours, messages, bytes, paths

 private:
  std::unique_ptr<detail::HaloUpdateState> state_;
};

}  // namespace ghostwire
