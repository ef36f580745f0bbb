// SPDX-License-Identifier: BSD-3-Clause
// The one place a slot's path is dispatched: every step of a slot's life that differs by path goes
// through one of these calls to the concrete path type (a switch over the variant's index, no
// virtual call). A new path is a new type in halo/paths/ and an alternative in slot.hpp; nothing
// here changes. docs/plans.md, "How a plan works inside".
#pragma once

#include <string>
#include <utility>

#include "halo/slot.hpp"

namespace ghostwire::detail {

template <class Variant, class Call>
decltype(auto) on_path(Variant& path, Call&& call) {
  static_assert(slot_path_count == 6, "one case per alternative");
  switch (path.index()) {
    case 0: return call(*std::get_if<0>(&path));
    case 1: return call(*std::get_if<1>(&path));
    case 2: return call(*std::get_if<2>(&path));
    case 3: return call(*std::get_if<3>(&path));
    case 4: return call(*std::get_if<4>(&path));
    default: return call(*std::get_if<5>(&path));
  }
}

// Builds the alternative of `kind` with its type's build() (commit's build phase).
template <class Variant, std::size_t... Index>
Variant build_path(SlotPath kind, const SlotBuild& build, std::index_sequence<Index...>) {
  Variant path;
  ((static_cast<std::size_t>(kind) == Index
        ? void(path.template emplace<Index>(std::variant_alternative_t<Index, Variant>::build(build)))
        : void()),
   ...);
  return path;
}
template <class Variant>
Variant build_path(SlotPath kind, const SlotBuild& build) {
  return build_path<Variant>(kind, build, std::make_index_sequence<std::variant_size_v<Variant>>());
}

// Send side.
inline void post(PlanState& p, SendSlot& slot, Post how) {
  on_path(slot.path, [&](auto& path) { path.post(p, slot, how); });
}
// The receiver is done with the last message: the sent data may change, the slot may send again.
inline bool acknowledged(PlanState& p, SendSlot& slot) {
  return on_path(slot.path, [&](auto& path) { return path.acknowledged(p, slot); });
}
// What start() waits for before posting the next message.
inline bool ready_for_next(PlanState& p, SendSlot& slot) {
  return on_path(slot.path, [&](auto& path) { return path.ready_for_next(p, slot); });
}
// What finish() waits for after the receives.
inline bool exchange_done(PlanState& p, SendSlot& slot) {
  return on_path(slot.path, [&](auto& path) { return path.exchange_done(p, slot); });
}
// After start(): finish() waits for nothing of this slot's message, a later send() does.
inline bool defers_after_exchange(const SendSlot& slot) {
  return on_path(slot.path, [](const auto& path) { return !std::decay_t<decltype(path)>::receiver_reads_my_data; });
}
inline std::string describe_wait(const PlanState& p, const SendSlot& slot) {
  return on_path(slot.path, [&](const auto& path) { return path.describe_wait(p, slot); });
}
inline std::string not_acknowledged_hint(const SendSlot& slot) {
  return on_path(slot.path, [&](const auto& path) { return path.not_acknowledged_hint(slot); });
}
inline bool between_nodes(const SendSlot& slot) {
  return on_path(slot.path, [](const auto& path) { return std::decay_t<decltype(path)>::between_nodes; });
}
inline bool served_by_world_progress(const SendSlot& slot) {
  return on_path(slot.path, [](const auto& path) { return std::decay_t<decltype(path)>::served_by_world_progress; });
}
inline void release(PlanState& p, SendSlot& slot) {
  on_path(slot.path, [&](auto& path) { path.release(p, slot); });
}

// Receive side.
inline void hand_over(PlanState& p, ReceiveSlot& slot) {
  on_path(slot.path, [&](auto& path) { path.hand_over(p, slot); });
}
inline bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  return on_path(slot.path, [&](auto& path) { return path.try_receive(p, slot, receipt); });
}
inline const std::byte* view(const ReceiveSlot& slot) {
  return on_path(slot.path, [](const auto& path) { return path.view(); });
}
inline void release_held(PlanState& p, ReceiveSlot& slot) {
  on_path(slot.path, [&](auto& path) { path.release_held(p, slot); });
}
inline void acknowledge(const PlanState& p, const ReceiveSlot& slot) {
  on_path(slot.path, [&](const auto& path) { path.acknowledge(p, slot); });
}
inline std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) {
  return on_path(slot.path, [&](const auto& path) { return path.describe_wait(p, slot); });
}
inline bool between_nodes(const ReceiveSlot& slot) {
  return on_path(slot.path, [](const auto& path) { return std::decay_t<decltype(path)>::between_nodes; });
}
inline bool served_by_world_progress(const ReceiveSlot& slot) {
  return on_path(slot.path, [](const auto& path) { return std::decay_t<decltype(path)>::served_by_world_progress; });
}
inline void release(PlanState& p, ReceiveSlot& slot) {
  on_path(slot.path, [&](auto& path) { path.release(p, slot); });
}

}  // namespace ghostwire::detail
